// `layer.sourceRectAtTime(t, includeExtents)`: shapes' boxes worked out by hand (a group's
// transform applied, a stroke's half width with extents), solids, nulls and precompositions by
// their sizes, and a text's box held against the ink the renderer draws for it — the text of a
// replacement and of the document's own expression included, so a box sized by it follows.
import Foundation
import XCTest
import Strata
@testable import StrataLottie
import StrataTestSupport

final class LottieSourceRectTests: XCTestCase {
    /// A 240 × 120 animation at 10 fps: a shape layer "S" (a 40 × 30 rectangle at (10, 20) in a
    /// group moved by (100, 0) and scaled 200 %, stroked 6 wide), a 64 × 48 solid "Solid", a text
    /// layer "T" at (20, 70) (DejaVu Sans 40, `text`; `textExpression` on its document), a
    /// precomposition "P" of 30 × 20, and the null "Probe" whose position has `source`.
    static func json(_ source: String, text: String = "Hg", textExpression: String? = nil, bar: Bool = false) throws -> Data {
        func quoted(_ s: String) throws -> String {
            String(String(data: try JSONSerialization.data(withJSONObject: [s]), encoding: .utf8)!.dropFirst().dropLast())
        }
        let x = try textExpression.map { #","x":\#(try quoted($0))"# } ?? ""
        let document = #"{"k":[{"s":{"s":40,"f":"DejaVuSans","t":"\#(text)","j":0,"tr":0,"lh":48,"ls":0,"fc":[0,0,0]},"t":0}]\#(x)}"#
        var layers = [
            #"{"ty":3,"ind":1,"nm":"Probe","ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":0,"k":[0,0],"x":\#(try quoted(source))}}}"#,
            #"{"ty":4,"ind":2,"nm":"S","ip":0,"op":20,"st":0,"sr":1,"hd":true,"ks":{},"shapes":[{"ty":"gr","it":["#
                + #"{"ty":"rc","p":{"a":0,"k":[10,20]},"s":{"a":0,"k":[40,30]},"r":{"a":0,"k":0}},"#
                + #"{"ty":"st","c":{"a":0,"k":[0,0,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":6},"lc":1,"lj":1},"#
                + #"{"ty":"tr","p":{"a":0,"k":[100,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[200,200]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}"#,
            ##"{"ty":1,"ind":3,"nm":"Solid","ip":0,"op":20,"st":0,"sr":1,"hd":true,"ks":{},"sc":"#ffffff","sw":64,"sh":48}"##,
            #"{"ty":0,"ind":4,"nm":"P","refId":"comp","ip":0,"op":20,"st":0,"sr":1,"hd":true,"ks":{},"w":30,"h":20}"#,
            // "Box": a rectangle centred on (0, 0), sized by an expression 10 larger than T's ink.
            #"{"ty":4,"ind":7,"nm":"Box","ip":0,"op":20,"st":0,"sr":1,"hd":true,"ks":{},"shapes":[{"ty":"gr","it":["#
                + #"{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[1,1],"x":\#(try quoted("var r = thisComp.layer('T').sourceRectAtTime(); [r.width + 10, r.height + 10]"))},"r":{"a":0,"k":0}},"#
                + #"{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}"#,
        ]
        if bar {
            // A box behind the text, 10 wider and 10 taller than its ink, centred on it.
            let size = "var r = thisComp.layer('T').sourceRectAtTime(time, false); [r.width + 10, r.height + 10]"
            let centre = "var r = thisComp.layer('T').sourceRectAtTime(time, false); [r.left + r.width / 2, r.top + r.height / 2]"
            layers.append(#"{"ty":4,"ind":6,"nm":"Bar","ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":0,"k":[20,70]}},"shapes":[{"ty":"gr","it":["#
                + #"{"ty":"rc","p":{"a":0,"k":[0,0],"x":\#(try quoted(centre))},"s":{"a":0,"k":[10,10],"x":\#(try quoted(size))},"r":{"a":0,"k":0}},"#
                + #"{"ty":"fl","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100}},"#
                + #"{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}"#)
        }
        layers.append(#"{"ty":5,"ind":5,"nm":"T","ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":0,"k":[20,70]}},"#
            + #""t":{"d":\#(document),"p":{},"m":{"g":1,"a":{"a":0,"k":[0,0]}},"a":[]}}"#)
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":240,"h":120,"#
            + #""fonts":{"list":[{"fName":"DejaVuSans","fFamily":"DejaVu Sans","fStyle":"Book","ascent":75}]},"#
            + #""assets":[{"id":"comp","layers":[]}],"layers":["# + layers.joined(separator: ",") + "]}"
        return Data(json.utf8)
    }

    /// What the probe's position expression gives (or the note that says why it is not run).
    func probe(_ source: String, text: String = "Hg", textExpression: String? = nil,
               replacements: LottieReplacements = LottieReplacements()) throws -> [Double] {
        let a = try LottieAnimation(data: try Self.json(source, text: text, textExpression: textExpression), replacements: replacements)
        if let note = a.unsupported.first { XCTFail(note.description); return [] }
        let path = "layers[0].ks.p"
        return try a.expressions.evaluate(path, try XCTUnwrap(a.expressions.scripts[path]).property, at: 0)
    }

    func rect(_ layer: String, extents: Bool = false, text: String = "Hg", textExpression: String? = nil,
              replacements: LottieReplacements = LottieReplacements()) throws -> [Double] {
        let r = "thisComp.layer('\(layer)').sourceRectAtTime(0, \(extents))"
        return try probe("var r = \(r); [r.left, r.top]", text: text, textExpression: textExpression, replacements: replacements)
            + probe("var r = \(r); [r.width, r.height]", text: text, textExpression: textExpression, replacements: replacements)
    }

    func testShapesSolidsNullsAndPrecompositions() throws {
        // The rectangle spans x −10…30, y 5…35; scaled 200 % and moved 100 right: x 80…160, y 10…70.
        XCTAssertEqual(try rect("S"), [80, 10, 80, 60])
        // With extents: half the stroke's 6, in the group's space, scaled too (6 each side).
        XCTAssertEqual(try rect("S", extents: true), [74, 4, 92, 72])
        XCTAssertEqual(try rect("Solid"), [0, 0, 64, 48])
        XCTAssertEqual(try rect("P"), [0, 0, 30, 20])
        XCTAssertEqual(try rect("Probe"), [0, 0, 100, 100])
        // A shape sized by its own expression is measured as drawn (a line that follows a box
        // that follows a text): 10 larger than the text's ink, centred on 0.
        let text = try rect("T", text: "Hg"), box = try rect("Box", text: "Hg")
        XCTAssertEqual(box[2], text[2] + 10, accuracy: 1e-9)
        XCTAssertEqual(box[3], text[3] + 10, accuracy: 1e-9)
        XCTAssertEqual(box[0], -box[2] / 2, accuracy: 1e-9)
        // No arguments: now, without extents; bare, the expression's own layer (the probe, a null).
        XCTAssertEqual(try probe("var r = thisComp.layer('S').sourceRectAtTime(); [r.width, r.height]"), [80, 60])
        XCTAssertEqual(try probe("var s = sourceRectAtTime(time, false); [s.left + s.width / 2, s.top + s.height / 2]"), [50, 50])
        let a = try LottieAnimation(data: try Self.json("thisComp.layer('S').sourceRectAtTime().depth"))
        XCTAssertEqual(a.unsupported.map(\.feature), ["expression: no 'sourceRect.depth' (it has top, left, width and height) (the keyframes are used instead)"])
    }

    /// A text's box is its ink, not its line: a descender makes it taller, lower-case letters
    /// start lower than capitals; and it is where the renderer draws the ink (within a pixel).
    func testTextIsItsInk() throws {
        let hg = try rect("T", text: "Hg"), h = try rect("T", text: "H"), ac = try rect("T", text: "ac")
        XCTAssertGreaterThan(hg[3], h[3] + 5)                        // g's descender
        XCTAssertEqual(hg[1], h[1], accuracy: 0.01)                  // the same cap height
        XCTAssertGreaterThan(ac[1], h[1] + 5)                        // x-height below cap height
        XCTAssertLessThan(h[1], -20)                                 // above the baseline at y = 0
        XCTAssertEqual(h[1] + h[3], 0, accuracy: 0.5)                // ending on it
        XCTAssertGreaterThan(h[0], 0)                                // H's side bearing
        // The drawn ink of "Hg" at (20, 70): its bounding box in pixels.
        let layer = try LottieLayer(data: try Self.json("value", text: "Hg"))
        let frame = try LottieFixtures.scene(showing: layer, width: 240, height: 120).renderFrame(at: layer.time(ofFrame: 0))
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in 0..<frame.height {
            for x in 0..<frame.width where frame.pixels[(y * frame.width + x) * 4 + 3] > 0 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        XCTAssertEqual(Double(minX), 20 + hg[0], accuracy: 1.01)
        XCTAssertEqual(Double(minY), 70 + hg[1], accuracy: 1.01)
        XCTAssertEqual(Double(maxX + 1), 20 + hg[0] + hg[2], accuracy: 1.01)
        XCTAssertEqual(Double(maxY + 1), 70 + hg[1] + hg[3], accuracy: 1.01)
    }

    /// The text measured is the one drawn: a replacement's, the document expression's.
    func testReplacedAndMadeTextsAreMeasured() throws {
        let short = try rect("T", text: "ii")
        let replaced = try rect("T", text: "ii", replacements: LottieReplacements(texts: ["T": "WWWW"]))
        XCTAssertEqual(replaced, try rect("T", text: "WWWW"))
        XCTAssertGreaterThan(replaced[2], short[2] * 4)
        let made = try rect("T", text: "ii", textExpression: "'WW' + 'WW'")
        XCTAssertEqual(made, replaced)
        // Another layer's `text.sourceText` reads the made text too.
        XCTAssertEqual(try probe("[thisComp.layer('T').text.sourceText.length, 0]", text: "ii", textExpression: "'abc'"), [3, 0])
    }

    /// A box sized by the text's rectangle (the bar behind a lower third's name) is drawn around
    /// the ink, 5 pixels out on each side, for the file's text and for a replacement.
    func testABoxSizedByTheTextFollowsIt() throws {
        for replacement in [nil, "Wide"] {
            let texts = replacement.map { ["T": $0] } ?? [:]
            let layer = try LottieLayer(data: try Self.json("value", text: "Hg", bar: true), replacements: LottieReplacements(texts: texts))
            XCTAssertEqual(layer.unsupported.map(\.description), [])
            let frame = try LottieFixtures.scene(showing: layer, width: 240, height: 120).renderFrame(at: layer.time(ofFrame: 3))
            let r = try rect("T", text: "Hg", replacements: LottieReplacements(texts: texts))
            // Blue pixels: the bar.
            var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    let i = (y * frame.width + x) * 4
                    guard frame.pixels[i + 2] > 128, frame.pixels[i] < 64 else { continue }
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
            XCTAssertEqual(Double(minX), 20 + r[0] - 5, accuracy: 1.01, "\(replacement ?? "Hg")")
            XCTAssertEqual(Double(maxX + 1), 20 + r[0] + r[2] + 5, accuracy: 1.01)
            XCTAssertEqual(Double(minY), 70 + r[1] - 5, accuracy: 1.01)
            XCTAssertEqual(Double(maxY + 1), 70 + r[1] + r[3] + 5, accuracy: 1.01)
        }
    }
}
