// Expressions on text documents (After Effects' Source Text, `t.d.x`): the text they make at
// each frame, worked out by hand, drawn exactly as the same text written in the file; failures
// and replacements reported.
import Foundation
import XCTest
import Strata
@testable import StrataLottie
import StrataTestSupport

final class LottieTextExpressionTests: XCTestCase {
    /// A 200 × 100 animation at 10 fps (frames 0…19) with a control layer "Ctrl" (a slider 0 → 100
    /// over frames 0…10), a text layer "other" ("Hi"), and the text layer "count" ("0", red,
    /// DejaVu Sans 40) whose document has the expression `source` (nil: none), its text `text`.
    static func json(_ source: String?, text: String = "0") throws -> Data {
        var expression = ""
        if let source {
            let quoted = String(data: try JSONSerialization.data(withJSONObject: [source]), encoding: .utf8)!.dropFirst().dropLast()
            expression = #","x":\#(quoted)"#
        }
        func document(_ t: String) -> String {
            #"{"k":[{"s":{"s":40,"f":"DejaVuSans","t":"\#(t)","j":0,"tr":0,"lh":48,"ls":0,"fc":[1,0,0]},"t":0}]"#
        }
        let textLayer = { (ind: Int, name: String, t: String, x: String) in
            #"{"ty":5,"ind":\#(ind),"nm":"\#(name)","ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":0,"k":[20,60]}},"#
                + #""t":{"d":\#(document(t))\#(x)},"p":{},"m":{"g":1,"a":{"a":0,"k":[0,0]}},"a":[]}}"#
        }
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":200,"h":100,"#
            + #""fonts":{"list":[{"fName":"DejaVuSans","fFamily":"DejaVu Sans","fStyle":"Book","ascent":75}]},"layers":["#
            + textLayer(1, "count", text, expression) + ","
            + #"{"ty":3,"ind":2,"nm":"Ctrl","ip":0,"op":20,"st":0,"sr":1,"ks":{},"#
            + #""ef":[{"ty":5,"nm":"S","mn":"ADBE Slider Control","ef":[{"ty":0,"nm":"Slider","v":{"a":1,"k":[{"t":0,"s":[0],"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}},{"t":10,"s":[100]}]}}]}]},"#
            + textLayer(3, "other", "Hi", "") + "]}"
        return Data(json.utf8)
    }

    /// The texts of "count"'s documents, with their frames.
    func documents(_ a: LottieAnimation) throws -> [String] {
        guard case .text(let t) = a.layers[0].content else { XCTFail("not a text layer"); return [] }
        return t.documents.map { "\(Int($0.time)):\($0.document.text)" }
    }

    func testTextMadeAtEachFrame() throws {
        // A counter: a document a frame.
        let counter = try LottieAnimation(data: try Self.json("var $bm_rt; $bm_rt = Math.round(time * 10).toString();"))
        XCTAssertEqual(counter.unsupported.map(\.description), [])
        XCTAssertEqual(try documents(counter), (0..<20).map { "\($0):\($0)" })
        // The slider (0 → 100 over frames 0…10, then 100) rounded to tens: a document where it changes.
        let slider = try LottieAnimation(data: try Self.json("Math.floor(thisComp.layer('Ctrl').effect('S')('Slider') / 10) * 10 + '%'"))
        XCTAssertEqual(try documents(slider), (0...10).map { "\($0):\($0 * 10)%" })
        // `value` and `text.sourceText` are the document's text; another layer's text.
        let joined = try LottieAnimation(data: try Self.json("thisComp.layer('other').text.sourceText + ', ' + value + text.sourceText.length", text: "ab"))
        XCTAssertEqual(try documents(joined), ["0:Hi, ab2"])
        // Numbers and arrays become text as JavaScript writes them.
        let numbers = try LottieAnimation(data: try Self.json("time < 0.5 ? 0.25 : [1, 2]"))
        XCTAssertEqual(try documents(numbers), ["0:0.25", "5:1,2"])
    }

    func testFailuresAndReplacementsAreReported() throws {
        let failing = try LottieAnimation(data: try Self.json("time < 1 ? 'early' : thisComp.layer('nope').name", text: "kept"))
        XCTAssertEqual(try documents(failing), ["0:early", "10:kept"])
        XCTAssertEqual(failing.unsupported.map(\.description),
                       ["layers[0].t.d.x: expression on a text: no layer named 'nope' (the document's text is used where it fails)"])
        let unreadable = try LottieAnimation(data: try Self.json("'a' +"))
        XCTAssertEqual(try documents(unreadable), ["0:0"])
        XCTAssertEqual(unreadable.unsupported.map(\.description), ["layers[0].t.d.x: expression on a text: unexpected end (the document's text is used instead)"])
        // The text limit counts what expressions make: past it, the file's own document.
        var limits = LottieLimits()
        limits.textCharacters = 30
        let long = try LottieAnimation(data: try Self.json("Math.round(time * 10)"), limits: limits)
        XCTAssertEqual(Array(try documents(long).suffix(2)), ["17:17", "18:0"])   // "0" and "Hi" 3, frames 0…17 26: 29; 31 at 18
        XCTAssertEqual(long.unsupported.map(\.feature), ["expression on a text: more than 30 characters of text in all (the document's text is used from frame 18)"])
        let replaced = try LottieAnimation(data: try Self.json("'made'"), replacements: LottieReplacements(texts: ["count": "Given"]))
        XCTAssertEqual(try documents(replaced), ["0:Given"])
        XCTAssertEqual(replaced.unsupported.map(\.description), ["layers[0].t.d.x: expression on a text: not run, as the text is replaced"])
    }

    /// The counter's frame 15 is drawn exactly as a file that says "15"; at 1 and 3 workers.
    func testDrawnAsTheSameTextWritten() throws {
        func frame(_ data: Data, _ f: Double, workers: Int = 1) throws -> Bitmap {
            let layer = try LottieLayer(data: data)
            var options = RenderOptions()
            options.workers = workers
            return try LottieFixtures.scene(showing: layer, width: 200, height: 100).renderFrame(at: layer.time(ofFrame: f), options: options)
        }
        let counter = try Self.json("Math.round(time * 10)")
        let made = try frame(counter, 15)
        XCTAssertEqual(made.pixels, try frame(try Self.json(nil, text: "15"), 15).pixels)
        XCTAssertNotEqual(made.pixels, try frame(counter, 14).pixels)
        XCTAssertEqual(made.pixels, try frame(counter, 15, workers: 3).pixels)
    }
}
