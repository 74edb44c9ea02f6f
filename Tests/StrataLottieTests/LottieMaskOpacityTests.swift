// Lighten and darken masks with a partial opacity: drawn as add and intersect, which are exact
// wherever the coverage so far (M) or the mask's (m) is 0 or 1 — max(M, m) = M + m − Mm and
// min(M, m) = Mm when either is; after another mask with a partial opacity, drawn region by
// region (up to four masks on a layer; past that as add and intersect, and reported).
import Foundation
import XCTest
import Strata
import StrataLottie
import StrataTestSupport

final class LottieMaskOpacityTests: XCTestCase {
    /// A 100 × 100 red solid with the masks `masks` (JSON objects: mode, opacity, square).
    private func layer(_ masks: [(mode: String, opacity: Double, square: (Double, Double, Double, Double))]) throws -> LottieLayer {
        let list = masks.map { m in
            let (x0, y0, x1, y1) = m.square
            return #"{"mode": "\#(m.mode)", "o": {"a": 0, "k": \#(m.opacity)}, "pt": {"a": 0, "k": {"c": true, "v": [[\#(x0), \#(y0)], [\#(x1), \#(y0)], [\#(x1), \#(y1)], [\#(x0), \#(y1)]]}}}"#
        }.joined(separator: ", ")
        return try LottieLayer(data: Data("""
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [{"ty": 1, "sc": "#ff0000", "sw": 100, "sh": 100,
             "ip": 0, "op": 20, "ks": {}, "masksProperties": [\(list)]}]}
            """.utf8))
    }

    private func render(_ layer: LottieLayer) throws -> Bitmap {
        return try LottieFixtures.scene(showing: layer, width: 100, height: 100).renderFrame(at: 0)
    }

    /// Add A (10…50) at 100 %, then lighten B (30…70, rows 30…70) at 50 %: max(1, ½) = 1 where
    /// both are, ½ in B alone, 0 elsewhere. Darken instead: min(1, ½) = ½ where both are, 0 in A
    /// alone (min(1, 0)) and in B alone (min(0, ½)). Exact, so nothing is reported.
    func testExactAfterFullMasks() throws {
        let half = [128, 0, 0, 128], red = [255, 0, 0, 255], clear = [0, 0, 0, 0]
        let lighten = try layer([("a", 100, (10, 10, 50, 50)), ("l", 50, (30, 30, 70, 70))])
        XCTAssertEqual(lighten.unsupported, [])
        let l = try render(lighten)
        XCTAssertEqual(l.at(40, 40), red, "max(1, ½)")
        XCTAssertEqual(l.at(60, 60), half, "max(0, ½)")
        XCTAssertEqual(l.at(20, 20), red, "max(1, 0)")
        XCTAssertEqual(l.at(80, 80), clear)
        let darken = try layer([("a", 100, (10, 10, 50, 50)), ("d", 50, (30, 30, 70, 70))])
        XCTAssertEqual(darken.unsupported, [])
        let d = try render(darken)
        XCTAssertEqual(d.at(40, 40), half, "min(1, ½)")
        XCTAssertEqual(d.at(20, 20), clear, "min(1, 0)")
        XCTAssertEqual(d.at(60, 60), clear, "min(0, ½)")
    }

    /// After a mask at 50 %, a lighten or darken mask at 50 % is drawn region by region. Add A
    /// at 50 % then lighten B at 50 %: ½ in A alone, in B alone, and where both are (max(½, ½),
    /// where add would give ¾). Subtract A at 50 % (M = ½ in A, 1 outside) then darken B at
    /// 50 %: ½ where both are (min(½, ½), where intersect would give ¼), ½ in B alone
    /// (min(1, ½)), 0 in A alone and outside.
    func testExactAfterPartialMasks() throws {
        let half = [128, 0, 0, 128], clear = [0, 0, 0, 0]
        let lighten = try layer([("a", 50, (10, 10, 50, 50)), ("l", 50, (30, 30, 70, 70))])
        XCTAssertEqual(lighten.unsupported, [])
        let l = try render(lighten)
        XCTAssertEqual([l.at(40, 40), l.at(20, 20), l.at(60, 60), l.at(80, 80)], [half, half, half, clear])
        let darken = try layer([("s", 50, (10, 10, 50, 50)), ("d", 50, (30, 30, 70, 70))])
        XCTAssertEqual(darken.unsupported, [])
        let d = try render(darken)
        XCTAssertEqual([d.at(40, 40), d.at(60, 60), d.at(20, 20), d.at(80, 80)], [half, half, clear, clear])
    }

    /// The fixture (Fixtures/mask-opacity.json) draws the same two layers side by side; an
    /// animated opacity is sampled: lighten B from 100 % at frame 0 after A at 50 % is 1 in B.
    func testFixtureAndAnimatedOpacity() throws {
        let half = [128, 0, 0, 128], halfBlue = [0, 0, 128, 128], clear = [0, 0, 0, 0]
        let b = try LottieFixtures.frame("mask-opacity", 0)
        XCTAssertEqual([b.at(40, 40), b.at(20, 20), b.at(60, 60), b.at(80, 80)], [half, half, half, clear])
        XCTAssertEqual([b.at(140, 40), b.at(160, 60), b.at(120, 20), b.at(180, 80)], [halfBlue, halfBlue, clear, clear])
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("mask-opacity")).unsupported, [])
        let animated = try LottieLayer(data: Data("""
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [{"ty": 1, "sc": "#ff0000", "sw": 100, "sh": 100,
             "ip": 0, "op": 20, "ks": {}, "masksProperties": [
              {"mode": "a", "o": {"a": 0, "k": 50}, "pt": {"a": 0, "k": {"c": true, "v": [[10, 10], [50, 10], [50, 50], [10, 50]]}}},
              {"mode": "l", "o": {"a": 1, "k": [{"t": 0, "s": [100], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [0]}]},
               "pt": {"a": 0, "k": {"c": true, "v": [[30, 30], [70, 30], [70, 70], [30, 70]]}}}]}]}
            """.utf8))
        let a = try render(animated)
        XCTAssertEqual([a.at(40, 40), a.at(60, 60), a.at(20, 20)], [[255, 0, 0, 255], [255, 0, 0, 255], half])
    }

    /// More than four masks with such a lighten are drawn as add, and reported; a full darken
    /// mask needs nothing of the kind.
    func testReportedPastFourMasks() throws {
        let corners = [("a", 100.0, (0.0, 0.0, 5.0, 5.0)), ("a", 100, (95, 0, 100, 5)), ("a", 100, (0, 95, 5, 100))]
        XCTAssertEqual(try layer([("a", 50, (10, 10, 50, 50)), ("l", 50, (30, 30, 70, 70))] + corners).unsupported.map(\.description),
                       ["layers[0].masksProperties[1].mode: lighten mask with an opacity below 100% after another such mask (drawn as add)"])
        XCTAssertEqual(try layer([("l", 50, (10, 10, 50, 50)), ("d", 100, (30, 30, 70, 70))]).unsupported, [], "a full darken mask is exact")
    }
}
