// Gradient ramps: the stops sorted as Core Graphics needs them, the kernel's Float copies, and the
// cache that lets a gradient drawn every frame make its ramp once and drops it two frames after
// its last use.
import XCTest
@testable import StrataCore
@testable import StrataRender

final class GradientRampTests: XCTestCase {
    private let red = RGBA(r: 1, g: 0, b: 0, a: 1), blue = RGBA(r: 0, g: 0, b: 1, a: 0.5), white = RGBA(r: 1, g: 1, b: 1, a: 1)

    func testStopsAreSortedStablyWithTheirColoursAndCopiedForTheKernel() {
        let ramp = GradientRamp(locations: [0.8, 0.2, 0.8], colors: [red, blue, white])
        XCTAssertEqual(ramp.stops, [0.2, 0.8, 0.8])
        XCTAssertEqual(ramp.colors, [SIMD4(0, 0, 1, 0.5), SIMD4(1, 0, 0, 1), SIMD4(1, 1, 1, 1)])
        XCTAssertEqual(ramp.kernelStops, [0.2, 0.8, 0.8])
        XCTAssertEqual(ramp.kernelColors, [0, 0, 1, 0.5, 1, 0, 0, 1, 1, 1, 1, 1])
    }

    func testTheSameStopsShareOneRampUntilTwoFramesPassWithoutThem() {
        let ramps = GradientRamps()
        let first = ramps.ramp(locations: [0, 1], colors: [red, blue])
        XCTAssertTrue(ramps.ramp(locations: [0, 1], colors: [red, blue]) === first)
        XCTAssertFalse(ramps.ramp(locations: [0, 1], colors: [blue, red]) === first, "other colours: another ramp")
        XCTAssertFalse(ramps.ramp(locations: [0, 0.5], colors: [red, blue]) === first, "other stops: another ramp")
        // Used in a frame: kept through the next one even when that frame does not use it.
        ramps.endFrame()
        ramps.endFrame()
        XCTAssertTrue(ramps.ramp(locations: [0, 1], colors: [red, blue]) === first)
        // Then two frames without it: dropped, and made again.
        ramps.endFrame()
        ramps.endFrame()
        ramps.endFrame()
        let again = ramps.ramp(locations: [0, 1], colors: [red, blue])
        XCTAssertFalse(again === first)
        XCTAssertEqual(again.kernelColors, first.kernelColors)
    }

    func testAPaintFromTheCacheIsThePaintWithoutIt() {
        let g = GradientSnapshot(type: .axial, colors: [red, blue], locations: [0, 1],
                                 startPoint: CGPoint(x: 0, y: 0), endPoint: CGPoint(x: 1, y: 1))
        let bounds = CGRect(x: 10, y: 20, width: 100, height: 50)
        let ramps = GradientRamps()
        guard let cached = GradientPaint(g, bounds: bounds, opacity: 0.85, ramps: ramps),
              let plain = GradientPaint(g, bounds: bounds, opacity: 0.85) else { return XCTFail("no paint") }
        for t in [-0.5, 0, 0.25, 0.5, 1, 2] { XCTAssertEqual(cached.color(at: t), plain.color(at: t)) }
        XCTAssertEqual(cached.kernelStops, plain.kernelStops)
        XCTAssertEqual(cached.kernelColors, plain.kernelColors)
    }
}
