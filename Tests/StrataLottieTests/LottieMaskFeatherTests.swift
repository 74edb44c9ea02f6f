// Mask feather (Fixtures/mask-feather.json): squares drawn as masks on 100 × 100 solids, their
// edges softened by `f` pixels. The mask's alpha is the square's blurred by a Gaussian of
// σ = 0.3 f, so across a straight edge, far from the corners, a pixel whose centre is d inside
// the edge (negative: outside) has alpha Φ(d / σ), Φ the normal distribution: ½ on the edge,
// 5 % and 95 % about f / 2 either side; near a corner the two edges' values multiply. The ramp
// from 10 % to 90 % is 2 × 1.2816 σ wide (7.69 px for f = 10, 15.38 for f = 20).
import Foundation
import XCTest
import Strata
import StrataLottie
import StrataTestSupport

final class LottieMaskFeatherTests: XCTestCase {
    /// Φ, the standard normal distribution function.
    static func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.squareRoot()) }

    /// The alpha (0…255) a pixel whose centre is `d` inside a straight edge has, blurred by `sigma`.
    static func edge(_ d: Double, sigma: Double, scale: Double = 255) -> Double {
        sigma == 0 ? (d > 0 ? scale : 0) : scale * phi(d / sigma)
    }

    /// Alpha along row `y` from `x0` to `x1` against `expected(x)` (the pixel's centre is x + ½), within `tolerance` levels.
    func checkRow(_ b: Bitmap, y: Int, _ xs: ClosedRange<Int>, tolerance: Double = 3, _ expected: (Double) -> Double,
                  file: StaticString = #filePath, line: UInt = #line) {
        for x in xs {
            let got = Double(b.at(x, y)[3]), want = expected(Double(x) + 0.5)
            XCTAssertEqual(got, want, accuracy: tolerance, "alpha at (\(x), \(y))", file: file, line: line)
        }
    }

    /// Where alpha along row `y` (left to right, from `x0`) first reaches `level` (0…255), between pixel centres.
    func crossing(_ b: Bitmap, y: Int, from x0: Int, to x1: Int, _ level: Double) -> Double? {
        var last = Double(b.at(x0, y)[3])
        for x in (x0 + 1)...x1 {
            let a = Double(b.at(x, y)[3])
            if last < level, a >= level { return Double(x) - 0.5 + (level - last) / (a - last) }
            last = a
        }
        return nil
    }

    /// The width from 10 % to 90 % of `top` across the left edge of a square, on row `y`.
    func rampWidth(_ b: Bitmap, y: Int, from x0: Int, to x1: Int, top: Double = 255) -> Double {
        guard let lo = crossing(b, y: y, from: x0, to: x1, 0.1 * top), let hi = crossing(b, y: y, from: x0, to: x1, 0.9 * top) else {
            XCTFail("no ramp on row \(y) between \(x0) and \(x1)")
            return .nan
        }
        return hi - lo
    }

    /// Red: the square 30…70 feathered 10 (σ 3): opaque deep inside, clear far outside, ½ on
    /// the edge, Φ(d / 3) across it; at the corner the two edges' ramps multiply. Nothing reported.
    func testAddMaskEdgeIsTheGaussian() throws {
        let b = try LottieFixtures.frame("mask-feather", 0)
        XCTAssertEqual(b.at(50, 50), [255, 0, 0, 255], "deep inside")
        XCTAssertEqual(b.at(15, 50), [0, 0, 0, 0], "4.8 σ outside")
        XCTAssertEqual(b.at(50, 85), [0, 0, 0, 0])
        checkRow(b, y: 50, 20...40) { Self.edge($0 - 30, sigma: 3) }
        checkRow(b, y: 50, 60...80) { Self.edge(70 - $0, sigma: 3) }
        // The edge: pixels 29 and 30 straddle it, 111 and 144 (Φ(∓⅙)); the corner pixel (29, 29) ⅓ of ½ squared.
        XCTAssertEqual(Double(b.at(29, 50)[3]), 110.7, accuracy: 3)
        XCTAssertEqual(Double(b.at(30, 50)[3]), 144.3, accuracy: 3)
        XCTAssertEqual(Double(b.at(29, 29)[3]), 255 * pow(Self.phi(-0.5 / 3), 2), accuracy: 3)
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("mask-feather")).unsupported, [], "nothing left out")
    }

    /// The 10…90 % ramp is 2.563 σ = 0.769 f wide: 7.69 px for f = 10 (red), 15.38 for f = 20
    /// (blue, the square 120…180 × 20…80); the black square's feather animated 0 → 20 over frames
    /// 0…10 is sharp at frame 0, 10 at frame 5, 20 at frame 10.
    func testRampWidthGrowsWithFeather() throws {
        let f0 = try LottieFixtures.frame("mask-feather", 0)
        XCTAssertEqual(rampWidth(f0, y: 50, from: 10, to: 50), 7.69, accuracy: 0.4, "f 10")
        XCTAssertEqual(rampWidth(f0, y: 50, from: 100, to: 150), 15.38, accuracy: 0.6, "f 20")
        checkRow(f0, y: 50, 105...135) { Self.edge($0 - 120, sigma: 6) }
        XCTAssertLessThanOrEqual(rampWidth(f0, y: 150, from: 115, to: 145), 1, "no feather at frame 0")
        XCTAssertEqual(f0.at(129, 150)[3], 0)
        XCTAssertEqual(f0.at(130, 150)[3], 255)
        let f5 = try LottieFixtures.frame("mask-feather", 5)
        XCTAssertEqual(rampWidth(f5, y: 150, from: 110, to: 150), 7.69, accuracy: 0.4, "f 10 at frame 5")
        checkRow(f5, y: 150, 120...140) { Self.edge($0 - 130, sigma: 3) }
        let f10 = try LottieFixtures.frame("mask-feather", 10)
        XCTAssertEqual(rampWidth(f10, y: 150, from: 100, to: 150), 15.38, accuracy: 0.6, "f 20 at frame 10")
        checkRow(f10, y: 150, 110...150) { Self.edge($0 - 130, sigma: 6) }
    }

    /// Green: the square 30…70 × 130…170 inverted and feathered 10: the plane where the blurred
    /// square is not, 1 − Φ(d / 3). Red at x 200: the square 210…290 × 10…90 minus 240…260
    /// feathered 10: 1 − Φ across the hole's edges. Blue at (200, 100): the square 230…270 ×
    /// 130…170 grown by 10, at 50 %, feathered 10: ½ Φ about the grown edge x = 220.
    func testInvertedSubtractedExpandedAndHalfOpaque() throws {
        let b = try LottieFixtures.frame("mask-feather", 0)
        XCTAssertEqual(b.at(50, 150), [0, 0, 0, 0], "the hole's middle")
        XCTAssertEqual(b.at(5, 105), [0, 255, 0, 255], "far from the hole")
        checkRow(b, y: 150, 20...40) { 255 - Self.edge($0 - 30, sigma: 3) }
        checkRow(b, y: 50, 230...250) { 255 - Self.edge($0 - 240, sigma: 3) }
        checkRow(b, y: 50, 250...270) { 255 - Self.edge(260 - $0, sigma: 3) }
        XCTAssertEqual(b.at(215, 50), [255, 0, 0, 255], "outside the subtracted square")
        XCTAssertEqual(b.at(250, 150), [0, 0, 128, 128], "inside, at half opacity (premultiplied)")
        checkRow(b, y: 150, 210...230, tolerance: 2) { Self.edge($0 - 220, sigma: 3, scale: 127.5) }
    }

    /// A 100 × 100 red solid with one feathered mask over the square 30…70: `members` adds the
    /// mask's other members (JSON ending with a comma).
    private func masked(_ members: String, mode: String = "a") throws -> (Bitmap, [String]) {
        let json = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [{"ty": 1, "sc": "#ff0000", "sw": 100, "sh": 100,
             "ip": 0, "op": 20, "ks": {}, "masksProperties": [{"mode": "\(mode)", \(members)
              "pt": {"a": 0, "k": {"c": true, "v": [[30, 30], [70, 30], [70, 70], [30, 70]]}}}]}]}
            """
        let layer = try LottieLayer(data: Data(json.utf8))
        return (try LottieFixtures.scene(showing: layer, width: 100, height: 100).renderFrame(at: 0), layer.unsupported.map(\.description))
    }

    /// x and y feather differ, 4 and 16: σ 1.2 across the square's left edge (its 10…90 % ramp
    /// 3.08 px wide), 4.8 across its top (12.3 px), nothing reported; animated from (4, 16) to
    /// (16, 4) over frames 0…10, the two swap (sampled each frame); an intersect mask first is
    /// the mask itself; a zero feather is the sharp mask, byte for byte; a negative or huge one
    /// is no crash (0, and everything faded to nothing).
    func testUnequalZeroAndExtremeFeather() throws {
        let (xy, notes) = try masked(#""f": {"a": 0, "k": [4, 16]},"#)
        XCTAssertEqual(notes, [])
        checkRow(xy, y: 50, 24...36) { Self.edge($0 - 30, sigma: 1.2) }
        XCTAssertEqual(rampWidth(xy, y: 50, from: 20, to: 45), 3.08, accuracy: 0.4)
        for y in 16...44 {
            XCTAssertEqual(Double(xy.at(50, y)[3]), Self.edge(Double(y) + 0.5 - 30, sigma: 4.8), accuracy: 3, "alpha at (50, \(y))")
        }
        let (swapped, _) = try masked(#""f": {"a": 1, "k": [{"t": 0, "s": [16, 4], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [4, 16]}]},"#)
        for y in 16...44 {
            XCTAssertEqual(Double(swapped.at(50, y)[3]), Self.edge(Double(y) + 0.5 - 30, sigma: 1.2), accuracy: 3, "alpha at (50, \(y)), swapped")
        }
        checkRow(swapped, y: 50, 16...44) { Self.edge($0 - 30, sigma: 4.8) }
        let (ten, none) = try masked(#""f": {"a": 0, "k": [10, 10]},"#)
        XCTAssertEqual(none, [])
        let (intersect, _) = try masked(#""f": {"a": 0, "k": [10, 10]},"#, mode: "i")
        XCTAssertEqual(intersect, ten)
        let (zero, _) = try masked(#""f": {"a": 0, "k": [0, 0]},"#)
        let (sharp, _) = try masked("")
        XCTAssertEqual(zero, sharp)
        let (negative, _) = try masked(#""f": {"a": 0, "k": [-10, -10]},"#)
        XCTAssertEqual(negative, sharp)
        let (huge, _) = try masked(#""f": {"a": 0, "k": [1e300, 1e300]},"#)
        XCTAssertLessThan(huge.at(50, 50)[3], 3, "spread over far more than the frame")
    }

    /// The path morphs under the blur: the square 30…70 moving to 40…80 over frames 0…10 has its
    /// left edge at 35 at frame 5, ½ there; grown by 5 as well (the offset outline sampled each
    /// frame), at 30. Masks drawn region by region (a lighten at 50 % after a mask at 50 %) are
    /// drawn sharp, and their feather reported.
    func testMorphingExpandedAndRegionMasks() throws {
        func render(_ members: String, masks extra: String = "") throws -> (Bitmap, [String]) {
            let json = """
                {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [{"ty": 1, "sc": "#ff0000", "sw": 100,
                 "sh": 100, "ip": 0, "op": 20, "ks": {}, "masksProperties": [{"mode": "a", "f": {"a": 0, "k": [10, 10]}, \(members)
                  "pt": {"a": 1, "k": [{"t": 0, "s": [{"c": true, "v": [[30, 30], [70, 30], [70, 70], [30, 70]]}],
                                        "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}},
                                       {"t": 10, "s": [{"c": true, "v": [[40, 30], [80, 30], [80, 70], [40, 70]]}]}]}}\(extra)]}]}
                """
            let layer = try LottieLayer(data: Data(json.utf8))
            let scene = LottieFixtures.scene(showing: layer, width: 100, height: 100)
            return (try scene.renderFrame(at: layer.time(ofFrame: 5)), layer.unsupported.map(\.description))
        }
        let (moved, notes) = try render("")
        XCTAssertEqual(notes, [])
        checkRow(moved, y: 50, 25...45) { Self.edge($0 - 35, sigma: 3) }
        let (grown, _) = try render(#""x": {"a": 0, "k": 5},"#)
        checkRow(grown, y: 50, 20...40) { Self.edge($0 - 30, sigma: 3) }
        let lighten = #", {"mode": "l", "o": {"a": 0, "k": 50}, "pt": {"a": 0, "k": {"c": true, "v": [[0, 0], [10, 0], [10, 10]]}}}"#
        let (_, regionNotes) = try render(#""o": {"a": 0, "k": 50},"#, masks: lighten)
        XCTAssertEqual(regionNotes, ["layers[0].masksProperties[0].f: mask feather on a layer whose lighten or darken masks are drawn region by region (drawn sharp)"])
    }

    /// The blur reaches across tiles: the same bytes at 1 and 2 workers and at small tiles of either shape.
    func testSameBytesAtAnyWorkersAndTiles() throws {
        let (scene, layer) = try LottieFixtures.scene("mask-feather")
        let t = layer.time(ofFrame: 5)
        var one = RenderOptions()
        one.workers = 1
        let reference = try scene.renderFrame(at: t, options: one)
        for (workers, tile, aspect) in [(2, 128, 2), (2, 16, 1), (1, 24, 2)] {
            var o = RenderOptions()
            o.workers = workers
            o.tileSize = tile
            o.tileAspect = aspect
            XCTAssertEqual(try scene.renderFrame(at: t, options: o), reference, "\(workers) workers, tiles of \(tile) (aspect \(aspect))")
        }
    }
}
