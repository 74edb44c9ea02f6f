// The Gradient Ramp effect (`ADBE Ramp`): pixels of Fixtures/effect-ramp.json at chosen points
// and frames against the ramp's formula (LayerEffect.gradientRamp: the colour at each pixel's
// centre, linear or radial, in the layer's coordinates, mixed with the original by "blend with
// original", the layer's alpha kept, as After Effects' Gradient Ramp colours a shape or text
// layer's own pixels), a reference PNG, the same bytes at any worker count and tile size, and
// notes. Of the players, Skia's Skottie draws it so (the gradient as the layer's paint) without
// the blend; lottie-web, ThorVG 1.1.3 and rlottie leave the layer's own colours (the script's
// SSIM against ThorVG and rlottie falls to 0.52), so the formula decides.
import Foundation
import XCTest
@testable import Strata
@testable import StrataLottie
import StrataTestSupport

final class LottieGradientRampTests: XCTestCase {
    /// "linear": blue at (5, 25) to yellow at (45, 25) over a circle of radius 20 at (25, 25):
    /// at pixel x, t = (x + 0.5 − 5) / 40 and the colour (t, t, 1 − t); white outside the circle.
    /// "radial": red at (75, 25) to green 20 away: t = min(1, distance / 20), (1 − t, t, 0);
    /// the square's corners, beyond the radius, green. "blended": grey 0.4 under a black-to-white
    /// ramp from (25, 55) to (25, 95) → (25, 75) over frames 0…10 (the ramp 40, 30, 20 long at
    /// frames 0, 5, 10), blend with original 50 %: (t + 0.4) / 2. "turned": black at (−20, 0) to
    /// white at (20, 0) in the coordinates of a layer at (75, 75) turned 90°: down the screen,
    /// t = (y + 0.5 − 75 + 20) / 40 at pixel row y.
    func testGradientRampPixels() throws {
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("effect-ramp")).unsupported, [])
        let white = (255.0, 255.0, 255.0)
        for (frame, length) in [(0.0, 40.0), (5, 30), (10, 20)] {
            let b = try LottieFixtures.frame("effect-ramp", frame)
            for x in stride(from: 8, through: 41, by: 3) {
                let t = (Double(x) + 0.5 - 5) / 40
                assertPixel(b, x, 25, (255 * t, 255 * t, 255 * (1 - t)), "linear ramp")
            }
            let t = (25.5 - 5) / 40
            assertPixel(b, 25, 7, (255 * t, 255 * t, 255 * (1 - t)), "linear ramp near the circle's top")
            for (x, y) in [(7, 7), (42, 42), (2, 25)] { assertPixel(b, x, y, white, "outside the circle") }

            for (dx, dy) in [(0, 0), (5, 0), (-7, 3), (0, 12), (10, -10), (15, 15), (-19, -19)] {
                let d = ((Double(dx) + 0.5) * (Double(dx) + 0.5) + (Double(dy) + 0.5) * (Double(dy) + 0.5)).squareRoot()
                let t = min(1, d / 20)
                assertPixel(b, 75 + dx, 25 + dy, (255 * (1 - t), 255 * t, 0), "radial ramp")
            }

            for y in stride(from: 56, through: 94, by: 4) {
                let t = min(1, (Double(y) + 0.5 - 55) / length)
                let g = 255 * (t + 0.4) / 2
                assertPixel(b, 25, y, (g, g, g), "blended ramp at frame \(frame)")
            }

            for y in stride(from: 56, through: 94, by: 4) {
                let t = (Double(y) + 0.5 - 75 + 20) / 40
                assertPixel(b, 75, y, (255 * t, 255 * t, 255 * t), "ramp of a turned layer")
                assertPixel(b, 60, y, (255 * t, 255 * t, 255 * t), "ramp of a turned layer")
            }
        }
        // A reference at frame 5, edges included (within 2 levels).
        assertReferenceImage(try LottieFixtures.frame("effect-ramp", 5), named: "effect-ramp-5")
    }

    /// The same bytes at 1 and 2 workers, other tile sizes, and with the SIMD kernels off.
    func testGradientRampSameBytesAnyWorkers() throws {
        let (scene, layer) = try LottieFixtures.scene("effect-ramp")
        for frame in [3.0, 7.5] {
            let t = layer.time(ofFrame: frame)
            var one = RenderOptions()
            one.workers = 1
            let want = try scene.renderFrame(at: t, options: one)
            for (workers, tile, simd) in [(2, 64, true), (2, 16, false), (3, 24, true)] {
                var o = RenderOptions(workers: workers, tileSize: tile)
                o.simd = simd
                let got = try scene.renderFrame(at: t, options: o)
                XCTAssertTrue(got.pixels == want.pixels, "frame \(frame): \(workers) workers, tiles of \(tile), simd \(simd)")
            }
        }
    }

    /// Ramp scatter is reported (drawn without); a ramp missing a drawn parameter is reported and
    /// not drawn.
    func testGradientRampNotes() throws {
        func notes(_ values: [String]) throws -> [String] {
            let items = values.enumerated().map { #"{"ty":0,"nm":"p\#($0.offset)","v":{"a":0,"k":\#($0.element)}}"# }
            let fx = #"{"ty":5,"nm":"R","mn":"ADBE Ramp","en":1,"ef":[\#(items.joined(separator: ","))]}"#
            let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":100,"h":100,"layers":[{"ty":4,"ind":1,"ip":0,"op":10,"st":0,"ks":{},"shapes":[],"ef":[\#(fx)]}]}"#
            return try LottieLayer(data: Data(json.utf8)).unsupported.map(\.description)
        }
        let base = ["[0,0]", "[0,0,0,1]", "[10,0]", "[1,1,1,1]", "1", "0", "0"]
        XCTAssertEqual(try notes(base), [])
        var scattered = base
        scattered[5] = "20"
        XCTAssertEqual(try notes(scattered), ["layers[0].ef[0]: Gradient Ramp effect 'R' ramp scatter (drawn without)"])
        XCTAssertEqual(try notes(Array(base.prefix(4))), ["layers[0].ef[0]: Gradient Ramp effect 'R' without a readable parameter 5 (not rendered)"])
    }
}
