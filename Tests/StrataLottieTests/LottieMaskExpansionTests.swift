// Mask expansion (Fixtures/mask-expansion.json): squares drawn clockwise as masks on 100 × 100
// solids, grown or shrunk by `x`. Grown by 10, a square's edge moves 10 out and its corners
// become quarter circles of radius 10 about the old corners (After Effects' rounded expansion);
// shrunk, its edges move in and its corners stay sharp; shrunk past half its width, nothing is
// left.
import Foundation
import XCTest
import Strata
import StrataLottie
import StrataTestSupport

final class LottieMaskExpansionTests: XCTestCase {
    let clear = [0, 0, 0, 0], red = [255, 0, 0, 255], green = [0, 255, 0, 255], blue = [0, 0, 255, 255]

    /// Red: the square 30…70 grown by 10. The pixel 21…22 (8 to 9 outside the old edge x = 30)
    /// is covered, the pixel 17…18 (12 to 13 outside) is not; at the corner the pixel 24…25 (its
    /// farthest point 8.5 from the old corner) is covered and the pixel 21…22 (its nearest point
    /// 11.3 from it, inside a miter join's square corner) is not.
    func testGrownByTen() throws {
        let b = try LottieFixtures.frame("mask-expansion", 0)
        XCTAssertEqual(b.at(21, 50), red, "8 px outside the original edge")
        XCTAssertEqual(b.at(17, 50), clear, "12 px outside")
        XCTAssertEqual(b.at(78, 50), red)
        XCTAssertEqual(b.at(50, 81), clear)
        XCTAssertEqual(b.at(24, 24), red, "inside the rounded corner")
        XCTAssertEqual(b.at(21, 21), clear, "outside the rounded corner (a miter join would cover it)")
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("mask-expansion")).unsupported, [], "nothing left out")
    }

    /// Blue: the square 120…180 × 20…80 shrunk by 10 to 130…170 × 30…70, its corner sharp;
    /// black: 130…170 shrunk by 30, past its half width 20, leaves nothing.
    func testShrunk() throws {
        let b = try LottieFixtures.frame("mask-expansion", 0)
        XCTAssertEqual(b.at(131, 50), blue)
        XCTAssertEqual(b.at(128, 50), clear, "2 px inside the original edge: shrunk away")
        XCTAssertEqual(b.at(130, 30), blue, "the corner stays sharp")
        XCTAssertEqual(b.at(169, 69), blue)
        XCTAssertEqual(b.at(170, 50), clear)
        for x in stride(from: 100, to: 200, by: 5) { for y in stride(from: 100, to: 200, by: 5) {
            XCTAssertEqual(b.at(x, y)[3], 0, "nothing left of the black square at (\(x), \(y))")
        } }
    }

    /// Green: the expansion animated from 0 to 20 over frames 0…10, linearly: 0 at frame 0 (the
    /// square's edge at x = 30), 10 at frame 5 (edge 20), 20 at frame 10 (edge 10).
    func testAnimatedExpansion() throws {
        let f0 = try LottieFixtures.frame("mask-expansion", 0)
        XCTAssertEqual(f0.at(30, 150), green)
        XCTAssertEqual(f0.at(29, 150), clear)
        let f5 = try LottieFixtures.frame("mask-expansion", 5)
        XCTAssertEqual(f5.at(21, 150), green)
        XCTAssertEqual(f5.at(19, 150), clear)
        let f10 = try LottieFixtures.frame("mask-expansion", 10)
        XCTAssertEqual(f10.at(11, 150), green)
        XCTAssertEqual(f10.at(9, 150), clear)
    }

    /// A 100 × 100 red solid with one mask over `points` (the square 30…70, clockwise): `members`
    /// adds the mask's other members (JSON ending with a comma).
    private func masked(_ members: String, points: String = "[[30, 30], [70, 30], [70, 70], [30, 70]]", closed: Bool = true) throws -> Bitmap {
        let json = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [{"ty": 1, "sc": "#ff0000", "sw": 100, "sh": 100,
             "ip": 0, "op": 20, "ks": {}, "masksProperties": [{"mode": "a", \(members)
              "pt": {"a": 0, "k": {"c": \(closed), "v": \(points)}}}]}]}
            """
        let layer = try LottieLayer(data: Data(json.utf8))
        return try LottieFixtures.scene(showing: layer, width: 100, height: 100).renderFrame(at: 0)
    }

    /// Inverted, the expanded area is the hole; the opacity applies to what is left; a path drawn
    /// the other way round grows the same, and so does an open one; an amount that changes sign (−10 → 10 over frames
    /// 0…10, sampled) shrinks at frame 0; a huge amount covers everything without a hang.
    func testInvertedOpacityDirectionAndSign() throws {
        let grown = try masked(#""inv": true, "x": {"a": 0, "k": 10},"#)
        XCTAssertEqual(grown.at(21, 50), clear)
        XCTAssertEqual(grown.at(17, 50), red)
        XCTAssertEqual(grown.at(50, 50), clear)
        let shrunk = try masked(#""inv": true, "x": {"a": 0, "k": -5}, "o": {"a": 0, "k": 50},"#)
        XCTAssertEqual(shrunk.at(32, 50), [128, 0, 0, 128], "shrunk away: inside the hole's old edge, at half opacity (premultiplied)")
        XCTAssertEqual(shrunk.at(50, 50), clear)
        let reversed = try masked(#""x": {"a": 0, "k": 10},"#, points: "[[30, 70], [70, 70], [70, 30], [30, 30]]")
        XCTAssertEqual(reversed.at(21, 50), red)
        XCTAssertEqual(reversed.at(17, 50), clear)
        let sign = try masked(#""x": {"a": 1, "k": [{"t": 0, "s": [-10], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [10]}]},"#)
        XCTAssertEqual(sign.at(35, 50), clear, "shrunk by 10 at frame 0")
        XCTAssertEqual(sign.at(41, 50), red)
        // An open path covers its closed area (closed by a line, x = 30 here): grown there too.
        let open = try masked(#""x": {"a": 0, "k": 10},"#, closed: false)
        XCTAssertEqual(open.at(21, 50), red)
        XCTAssertEqual(open.at(17, 50), clear)
        let huge = try masked(#""x": {"a": 0, "k": 1e300},"#)
        XCTAssertEqual(huge.at(0, 0), red)
        XCTAssertEqual(huge.at(99, 99), red)
    }
}
