// Reading Lottie JSON: errors name the JSON path and what was expected; limits hold; what is
// not rendered is listed; the CLI's probe and segments.
import Foundation
import XCTest
import Strata
@testable import StrataCLI
import StrataLottie

final class LottieParseTests: XCTestCase {
    /// A minimal valid document with `layers` spliced in.
    func document(_ layers: String, extra: String = "", assets: String = "[]") -> Data {
        Data(#"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":200,"h":100,"assets":\#(assets),"layers":\#(layers)\#(extra)}"#.utf8)
    }
    let rectLayer = #"{"ty":4,"ind":1,"ip":0,"op":60,"st":0,"ks":{"p":{"a":1,"k":[{"t":0,"s":[0,0]},{"t":10,"s":"oops"}]}},"shapes":[]}"#

    func error(_ data: Data, limits: LottieLimits = LottieLimits()) -> String {
        do {
            _ = try LottieLayer(data: data, limits: limits)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testWrongTypeNamesThePath() {
        XCTAssertEqual(error(document("[\(rectLayer)]")), "layers[0].ks.p.k[1].s: expected an array of numbers")
        XCTAssertEqual(error(Data(#"{"fr":30,"ip":0,"op":60,"h":100,"layers":[]}"#.utf8)), "w: missing")
        XCTAssertEqual(error(document(#"[{"ty":4,"ip":0,"op":60,"shapes":[{"ty":"rc","p":{"k":[1,2]},"s":{"k":[3]}}]}]"#)),
                       "layers[0].shapes[0].s.k: expected 2 numbers, got 1")
        XCTAssertEqual(error(document(#"[{"ty":"4","ip":0,"op":60}]"#)), "layers[0].ty: expected a number")
        XCTAssertEqual(error(document(#"{"a":1}"#)), "layers: expected an array")
    }

    func testTruncatedAndNotJSON() {
        let full = String(decoding: document("[]"), as: UTF8.self)
        XCTAssertTrue(error(Data(full.prefix(40).utf8)).hasPrefix("not valid JSON"))
        XCTAssertEqual(error(Data("[1, 2]".utf8)), "expected a Lottie object at the top level")
        XCTAssertTrue(error(Data()).hasPrefix("not valid JSON"))
    }

    func testLimits() {
        XCTAssertEqual(error(Data(#"{"fr":30,"ip":0,"op":60,"w":1e9,"h":100,"layers":[]}"#.utf8)), "w: 1000000000.0 is outside 1…16384 (the size limit)")
        XCTAssertEqual(error(Data(#"{"fr":30,"ip":0,"op":1e12,"w":10,"h":10,"layers":[]}"#.utf8)), "op: 1000000000000.0 frames, over the limit of 1080000")
        let repeater = #"[{"ty":4,"ip":0,"op":60,"shapes":[{"ty":"rp","c":{"k":1e7}}]}]"#
        XCTAssertEqual(error(document(repeater)), "layers[0].shapes[0].c: 10000000.0 copies, over the limit of 1000")
        var small = LottieLimits()
        small.fileBytes = 50
        XCTAssertTrue(error(document("[]"), limits: small).contains("over the limit of 50"))
    }

    func testPrecompCycleAndParentCycle() {
        let cyclic = #"[{"id":"a","layers":[{"ty":0,"refId":"b","ip":0,"op":60}]},{"id":"b","layers":[{"ty":0,"refId":"a","ip":0,"op":60}]}]"#
        XCTAssertEqual(error(document(#"[{"ty":0,"refId":"a","ip":0,"op":60}]"#, assets: cyclic)),
                       "assets[1].layers[0].refId: precomposition 'a' contains itself (a → b → a)")
        XCTAssertEqual(error(document(#"[{"ty":0,"refId":"zz","ip":0,"op":60}]"#)), "layers[0].refId: no precomposition asset with id 'zz'")
        let parents = #"[{"ty":3,"ind":1,"parent":2,"ip":0,"op":60},{"ty":4,"ind":2,"parent":1,"ip":0,"op":60,"shapes":[]}]"#
        XCTAssertEqual(error(document(parents)), "layers[1].parent: parenting forms a cycle")
        let decreasing = #"[{"ty":4,"ip":0,"op":60,"ks":{"o":{"a":1,"k":[{"t":10,"s":[0]},{"t":5,"s":[100]}]}},"shapes":[]}]"#
        XCTAssertEqual(error(document(decreasing)), "layers[0].ks.o.k[1]: keyframe time 5.0 comes before the previous keyframe's 10.0")
    }

    func testGzipBombStopsAtTheLimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lottie-tests-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 2 MB of spaces after a valid document: gzip'd to a few kB.
        var text = String(decoding: document("[]"), as: UTF8.self)
        text += String(repeating: " ", count: 2 << 20)
        let plain = folder.appendingPathComponent("big.json")
        try Data(text.utf8).write(to: plain)
        let gz = folder.appendingPathComponent("big.tgs")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "gzip -c '\(plain.path)' > '\(gz.path)'"]
        try p.run(); p.waitUntilExit()
        var limits = LottieLimits()
        limits.fileBytes = 1 << 20
        XCTAssertThrowsError(try LottieAnimation(contentsOf: gz, limits: limits)) { e in
            XCTAssertEqual("\(e)", "big.tgs: inflates to more than 1048576 bytes, over the limit")
        }
        // Within the limit the same sticker reads.
        XCTAssertEqual(try LottieAnimation(contentsOf: gz).width, 200)
        // Damaged gzip data.
        let damaged = folder.appendingPathComponent("bad.tgs")
        try Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff]).write(to: damaged)
        XCTAssertThrowsError(try LottieAnimation(contentsOf: damaged)) { e in XCTAssertTrue("\(e)".hasPrefix("bad.tgs: the compressed data is"), "\(e)") }
    }

    /// A dotLottie archive (written by Python's zipfile): the manifest's animation with its image
    /// from images/; a zip bomb stops at the limit; a damaged archive says so.
    func testDotLottie() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lottie-zip-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The image fixture with its PNG moved out of the JSON into the archive.
        let script = """
        import json, zipfile, base64, sys
        doc = json.load(open(sys.argv[1]))
        png = base64.b64decode(doc["assets"][0]["p"].split(",", 1)[1])
        doc["assets"][0].update({"u": "/images/", "p": "img_0.png", "e": 0})
        with zipfile.ZipFile(sys.argv[2] + "/anim.lottie", "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("manifest.json", json.dumps({"version": "1", "animations": [{"id": "main"}]}))
            z.writestr("animations/main.json", json.dumps(doc))
            z.writestr("images/img_0.png", png)
        with zipfile.ZipFile(sys.argv[2] + "/bomb.lottie", "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("animations/a.json", b" " * (3 << 20))
        open(sys.argv[2] + "/bad.lottie", "wb").write(b"PK\\x03\\x04" + b"\\x00" * 40)
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, LottieFixtures.url("image").path, folder.path]
        try p.run(); p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let layer = try LottieLayer(contentsOf: folder.appendingPathComponent("anim.lottie"))
        XCTAssertEqual(layer.unsupported, [])
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.anchorPoint = .zero; layer.position = .zero
        root.addSublayer(layer)
        let frame = try Scene(rootLayer: root, size: CGSize(width: 100, height: 100), frameRate: 10, duration: 2).renderFrame(at: 0)
        XCTAssertEqual(frame.at(12, 15), [255, 0, 0, 255])
        XCTAssertEqual(frame.at(47, 15), [0, 0, 255, 255])
        var small = LottieLimits()
        small.fileBytes = 1 << 20
        XCTAssertThrowsError(try LottieAnimation(contentsOf: folder.appendingPathComponent("bomb.lottie"), limits: small)) { e in
            XCTAssertEqual("\(e)", "bomb.lottie: animations/a.json: inflates to more than 1048576 bytes, over the limit")
        }
        XCTAssertThrowsError(try LottieAnimation(contentsOf: folder.appendingPathComponent("bad.lottie"))) { e in
            XCTAssertEqual("\(e)", "bad.lottie: not a readable zip archive (no central directory)")
        }
    }

    func testUnsupportedFeaturesAreListed() throws {
        let layer = try LottieLayer(contentsOf: LottieFixtures.url("unsupported"))
        XCTAssertEqual(layer.unsupported.map(\.description), [
            "layers[0].t.a[0].a.sk: text animator property 'sk' (skew)",
            "fonts: font 'Inter' is not installed (drawn in DejaVu Sans)",
            "layers[1].ef[0]: layer effect (type 5) (not rendered)",
            "layers[1].shapes[0].it[2]: twist (not rendered)",
            "layers[3].ks.r.x: expression: no composition named 'Other' (a precomposition layer of that name) (the keyframes are used instead)",
            "layers[2].tt: track matte without a matte layer",
        ])
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("precomp")).unsupported, [])
    }

    /// A mask's feather is drawn (LottieMaskFeatherTests): nothing is reported, whether its x and
    /// y agree or not, and a malformed one is an error naming it.
    func testMaskFeatherIsRead() throws {
        func notes(_ feather: String) throws -> [String] {
            let layer = #"{"ty":4,"ind":1,"ip":0,"op":60,"st":0,"ks":{},"shapes":[],"masksProperties":[{"mode":"a","pt":{"a":0,"k":{"c":true,"v":[[0,0],[10,0],[10,10]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}},"o":{"a":0,"k":100},"f":\#(feather)}]}"#
            let fonts = #","fonts":{"list":[{"fName":"DejaVuSans","fFamily":"DejaVu Sans","fStyle":"Book"}]}"#
            return try LottieLayer(data: document("[\(layer)]", extra: fonts)).unsupported.map(\.description)
        }
        XCTAssertEqual(try notes(#"{"a":0,"k":[4,4]}"#), [])
        XCTAssertEqual(try notes(#"{"a":0,"k":[4,6]}"#), [])
        XCTAssertEqual(try notes(#"{"a":0,"k":[0,0]}"#), [])
        XCTAssertThrowsError(try notes(#""soft""#)) { error in
            XCTAssertTrue("\(error)".contains("masksProperties[0].f"), "\(error)")
        }
    }

    /// Text on a path is drawn (Fixtures/text-path.json, LottieGlyphTextTests.testTextOnAPath); what
    /// it cannot follow is reported: a mask index the layer has no mask for (drawn on its lines),
    /// a last margin (lottie-web does not use it either) and an animated switch (its first value).
    func testTextOnAPathNotes() throws {
        func notes(_ p: String, masks: String = "[]") throws -> [String] {
            let layer = #"{"ty":5,"ind":1,"ip":0,"op":20,"st":0,"ks":{},"masksProperties":\#(masks),"t":{"d":{"k":[{"t":0,"s":{"t":"Hi","f":"DejaVuSans","s":20,"j":0,"fc":[1,0,0]}}]},"p":\#(p),"a":[]}}"#
            let fonts = #","fonts":{"list":[{"fName":"DejaVuSans","fFamily":"DejaVu Sans","fStyle":"Book"}]}"#
            return try LottieLayer(data: document("[\(layer)]", extra: fonts)).unsupported.map(\.description)
        }
        let line = #"[{"mode":"n","pt":{"a":0,"k":{"c":false,"v":[[0,0],[100,0]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]]}},"o":{"a":0,"k":100}}]"#
        XCTAssertEqual(try notes(#"{"m":0,"f":{"a":0,"k":5}}"#, masks: line), [])
        XCTAssertEqual(try notes(#"{"m":2,"f":{"a":0,"k":5}}"#, masks: line), ["layers[0].t.p.m: text on a path: no mask 2 (drawn on its lines)"])
        XCTAssertEqual(try notes(#"{"m":0,"l":{"a":0,"k":12}}"#, masks: line),
                       ["layers[0].t.p.l: last margin of text on a path (not used, as lottie-web does not use it)"])
        XCTAssertEqual(try notes(#"{"m":0,"p":{"a":1,"k":[{"t":0,"s":[1],"h":1},{"t":5,"s":[0]}]}}"#, masks: line),
                       ["layers[0].t.p.p: animated perpendicularity of text on a path (its first value is used)"])
    }

    func testProbe() throws {
        let text = try LottieInput.probe(LottieFixtures.url("unsupported").path)
        XCTAssertTrue(text.contains("  size: 100x100\n  frame rate: 10 fps\n  frames: 0..<20 (20 frames, 2.000 s)\n  layers: 4\n"), text)
        XCTAssertTrue(text.contains("  markers: intro (0+10), outro (10+10)\n  fonts: Inter\n  images: none\n  expression controls: none\n  not rendered (6):\n"), text)
        XCTAssertTrue(text.contains("    layers[1].ef[0]: layer effect (type 5) (not rendered)"), text)
        XCTAssertTrue(text.contains("  layers: 4\n  text layers: title\n  slots: none\n"), text)
        let badge = try LottieInput.probe(LottieNodeTests.example.appendingPathComponent("badge.json").path)
        XCTAssertTrue(badge.contains("  text layers: Title\n  slots: badgeColor\n"), badge)
    }

    /// `--replace-color` and `--replace-text` on the command line fill the example badge.
    func testCommandLineReplacements() throws {
        let path = LottieNodeTests.example.appendingPathComponent("badge.json").path
        let options = try LottieOptions.parse(["--replace-color", "badgeColor=#00FF00", "--replace-text", "Title=Hi=there"])
        let r = try options.replacements(limits: LottieLimits())
        XCTAssertEqual(r.texts, ["Title": "Hi=there"])
        let scene = try LottieInput.makeScene(path, options: options, format: try SceneFormatOptions.parse([]), limits: SceneLimits(), warn: false)
        XCTAssertEqual(try scene.renderFrame(at: 1).at(50, 20), [0, 255, 0, 255])
        XCTAssertThrowsError(try LottieOptions.parse(["--replace-color", "nothing"]).replacements(limits: LottieLimits())) { e in
            XCTAssertEqual("\(e)", "--replace-color \"nothing\": expected NAME=VALUE")
        }
        XCTAssertThrowsError(try LottieInput.makeScene(path, options: try LottieOptions.parse(["--replace-text", "Nope=x"]),
                                                       format: try SceneFormatOptions.parse([]), limits: SceneLimits(), warn: false)) { e in
            XCTAssertTrue("\(e)".hasSuffix("badge.json: texts.Nope: no text layer or text slot named 'Nope' (names: Title)"), "\(e)")
        }
    }

    func testSegmentAndDetection() throws {
        let path = LottieFixtures.url("unsupported").path
        XCTAssertTrue(LottieInput.handles(path))
        XCTAssertFalse(LottieInput.handles("Templates/lower-third/lower-third.yaml"))
        var options = try LottieOptions.parse(["--segment", "outro"])
        let format = try SceneFormatOptions.parse([])
        let scene = try LottieInput.makeScene(path, options: options, format: format, limits: SceneLimits(), warn: false)
        XCTAssertEqual(scene.duration, 1)
        XCTAssertEqual(scene.frameCount, 10)
        options = try LottieOptions.parse(["--segment", "nope"])
        XCTAssertThrowsError(try LottieInput.makeScene(path, options: options, format: format, limits: SceneLimits(), warn: false)) { e in
            XCTAssertTrue("\(e)".contains("no marker 'nope' (markers: intro, outro)"), "\(e)")
        }
    }
}

extension LottieParseTests {
    /// Numbers at the edges where codes, counts and sizes are read: refused with the path, or
    /// clamped, never a trap.
    func testHugeNumbersAreRefusedOrClamped() {
        XCTAssertEqual(error(document(#"[{"ty":1e300,"ip":0,"op":60}]"#)), "no error")   // an unknown layer type, reported
        XCTAssertEqual(error(document(#"[{"ty":4,"ip":0,"op":60,"sr":1e-300,"shapes":[]}]"#)),
                       "layers[0].sr: a time stretch of 1e-300 (expected 0.001…1000, or negative)")
        XCTAssertEqual(error(document(##"[{"ty":1,"ip":0,"op":60,"sc":"#ff0000","sw":1e300,"sh":10}]"##)),
                       "layers[0].sw: 1e+300 is not a size in 0…1000000")
        // An empty solid colour (rlottie draws it transparent, as Strata does).
        XCTAssertEqual(error(document(#"[{"ty":1,"ip":0,"op":60,"sc":"","sw":10,"sh":10}]"#)), "no error")
        XCTAssertEqual(error(document(##"[{"ty":1,"ip":0,"op":60,"sc":"#12","sw":10,"sh":10}]"##)),
                       "layers[0].sc: expected a colour like \"#ff8000\"")
        XCTAssertEqual(error(document(#"[{"ty":4,"ip":0,"op":60,"ks":{"o":{"k":[]}},"shapes":[]}]"#)),
                       "layers[0].ks.o.k: expected at least one number")
        let star = #"[{"ty":4,"ip":0,"op":60,"shapes":[{"ty":"sr","sy":1,"p":{"k":[0,0]},"pt":{"k":1e300},"or":{"k":10},"ir":{"k":5}},{"ty":"fl","c":{"k":[1,0,0]},"lc":1e300}]}]"#
        XCTAssertEqual(error(document(star)), "no error")
        let loop = #"[{"ty":4,"ip":0,"op":60,"ks":{"p":{"a":1,"k":[{"t":0,"s":[0,0]},{"t":1e-200,"s":[1,1]}],"x":"loopOut('cycle')"}},"shapes":[]}]"#
        XCTAssertEqual(error(document(loop)), "no error")
        let span = #"[{"ty":4,"ip":0,"op":60,"ks":{"p":{"a":1,"k":[{"t":0,"s":[0,0],"o":{"x":[0,0],"y":[0,0]},"i":{"x":[1,0.5],"y":[1,0.5]}},{"t":1e300,"s":[1,1]}]}},"shapes":[]}]"#
        XCTAssertTrue(error(document(span)).contains("pre-sampled values in all, over the limit"), error(document(span)))
    }
}
