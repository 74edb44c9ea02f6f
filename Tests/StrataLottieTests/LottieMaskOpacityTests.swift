// Lighten and darken masks with a partial opacity: drawn as add and intersect, which are exact
// wherever the coverage so far (M) or the mask's (m) is 0 or 1 — max(M, m) = M + m − Mm and
// min(M, m) = Mm when either is — so reported only after another mask with a partial opacity.
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
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.anchorPoint = .zero
        layer.position = .zero
        root.addSublayer(layer)
        return try Scene(rootLayer: root, size: CGSize(width: 100, height: 100), frameRate: 10, duration: 2).renderFrame(at: 0)
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

    /// After a mask at 50 %, a lighten or darken mask at 50 % is reported: max(½, ½) = ½ where
    /// add gives ¾.
    func testReportedAfterPartialMasks() throws {
        XCTAssertEqual(try layer([("a", 50, (10, 10, 50, 50)), ("l", 50, (30, 30, 70, 70))]).unsupported.map(\.description),
                       ["layers[0].masksProperties[1].mode: lighten mask with an opacity below 100% after another such mask (drawn as add)"])
        XCTAssertEqual(try layer([("s", 50, (10, 10, 50, 50)), ("d", 50, (30, 30, 70, 70))]).unsupported.map(\.description),
                       ["layers[0].masksProperties[1].mode: darken mask with an opacity below 100% after another such mask (drawn as intersect)"])
        XCTAssertEqual(try layer([("l", 50, (10, 10, 50, 50)), ("d", 100, (30, 30, 70, 70))]).unsupported, [], "a full darken mask is exact")
    }
}
