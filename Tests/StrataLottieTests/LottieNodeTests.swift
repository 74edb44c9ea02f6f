// The `lottie` node (templates and the DSL) and LottieLayer's animatable `progress`: placement,
// scaling, start, speed, loops and markers at chosen times; colours, images and texts filled by
// name and slot id; the example template batch-rendered from two CSV rows, each row's colour
// read back from its PNG frames; a CABasicAnimation on "progress" giving exact frames.
import Foundation
import XCTest
import Strata
import StrataLottie
import StrataTestSupport

final class LottieNodeTests: XCTestCase {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/lottie-badge")
    let red = [255, 0, 0, 255], clear = [0, 0, 0, 0]

    override func setUp() { LottieNodes.register() }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-lottie-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The keyframes fixture (a 10-pt red square moving from x = 10 at frame 0 to x = 90 at frame
    /// 10, 10 fps, 20 frames) as a DSL element starting at 1 s, twice as fast, looping.
    func testDSLNodeStartsAtItsTimeRunsAtItsSpeedAndLoops() throws {
        let scene = Scene(size: CGSize(width: 100, height: 100), frameRate: 10, duration: 5, assetFolder: LottieFixtures.folder) {
            Lottie("keyframes.json").frame(x: 0, y: 0, width: 100, height: 100).start(at: 1).speed(2).loop()
        }
        // Before 1 s: nothing.
        let before = try scene.renderFrame(at: 0.5)
        XCTAssertEqual(before.at(10, 50), clear)
        XCTAssertEqual(before.at(50, 90), clear)
        // 1.25 s: (0.25 s × 2) = frame 5, the square over 45…55. One loop (2 s of Lottie time,
        // 1 s of scene time) later: frame 5 again.
        for t in [1.25, 2.25, 3.25] {
            let f = try scene.renderFrame(at: t)
            XCTAssertEqual(f.at(45, 50), red, "t \(t)")
            XCTAssertEqual(f.at(54, 50), red, "t \(t)")
            XCTAssertEqual(f.at(44, 50), clear, "t \(t)")
            XCTAssertEqual(f.at(55, 50), clear, "t \(t)")
        }
    }

    /// The DSL's modifiers on the example badge: its "pop" marker (frames 0…8, the disc
    /// growing from nothing over frames 0…6) played twice, its colour slot and text filled.
    func testDSLModifiersPlayAMarkerTwiceAndFillTheBadge() throws {
        let scene = Scene(size: CGSize(width: 100, height: 100), frameRate: 10, duration: 3, assetFolder: Self.example) {
            Lottie("badge.json").frame(x: 0, y: 0, width: 100, height: 100).segment("pop").loop(2)
                .color(Color.hex("#00FF00"), for: "badgeColor").text("Yo", for: "Title")
        }
        let green = [0, 255, 0, 255]
        XCTAssertEqual(try scene.renderFrame(at: 0.7).at(50, 20), green, "frame 7")
        XCTAssertEqual(try scene.renderFrame(at: 0.85).at(50, 20), clear, "the second play's frame 0.5")
        XCTAssertEqual(try scene.renderFrame(at: 1.5).at(50, 20), green, "the second play's frame 7")
        XCTAssertEqual(try scene.renderFrame(at: 2.5).at(50, 20), green, "the last frame stays")
    }

    /// Inside the second of two 1-second sections, a Lottie's `start` counts from that
    /// section's start: `start: 0.5` plays frame 0 at 1.5 s and frame 5 at 2 s.
    func testStartCountsFromTheSection() throws {
        let json = """
            {"size": [100, 100], "fps": 10, "duration": 3, "layers": [{"type": "sections", "children": [
              {"type": "section", "duration": 1},
              {"type": "section", "duration": 2, "children": [
                {"type": "lottie", "lottie": "keyframes.json", "frame": [0, 0, 100, 100], "start": 0.5}]}]}]}
            """
        let scene = try Scene(composition: try JSONDecoder().decode(Composition.self, from: Data(json.utf8)),
                              options: CompositionOptions(assetFolder: LottieFixtures.folder))
        XCTAssertEqual(try scene.renderFrame(at: 1.4).at(10, 50), clear, "not started")
        XCTAssertEqual(try scene.renderFrame(at: 1.5).at(10, 50), red, "frame 0: the square at x 10")
        let f = try scene.renderFrame(at: 2)
        XCTAssertEqual(f.at(45, 50), red, "frame 5")
        XCTAssertEqual(f.at(44, 50), clear, "frame 5")
    }

    /// A node half the Lottie's size shows it scaled by ½ (resizeAspect); a marker plays its
    /// frames only; without `loop` the last frame stays.
    func testTemplateNodeScalesPlaysAMarkerAndHoldsTheLastFrame() throws {
        let json = """
            {"size": [100, 100], "fps": 10, "duration": 4, "layers": [
              {"type": "lottie", "lottie": "keyframes.json", "frame": [0, 0, 50, 50], "segment": "second"}]}
            """
        // A copy of the fixture with a marker: frames 2…7.
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: LottieFixtures.url("keyframes"))) as? [String: Any])
        doc["markers"] = [["cm": "second", "tm": 2, "dr": 5]]
        try JSONSerialization.data(withJSONObject: doc).write(to: folder.appendingPathComponent("keyframes.json"))
        let composition = try JSONDecoder().decode(Composition.self, from: Data(json.utf8))
        let scene = try Scene(composition: composition, options: CompositionOptions(assetFolder: folder))
        // 0.3 s: frame 2 + 3 = 5: the square's centre at x 50 × ½ = 25, 5 wide (22.5…27.5).
        let f = try scene.renderFrame(at: 0.3)
        XCTAssertEqual(f.at(24, 25), red)
        XCTAssertEqual(f.at(21, 25), clear)
        XCTAssertEqual(f.at(29, 25), clear)
        // 0.5 s is the marker's end: frame 7 stays (x 10 + 8 × 7 = 66 → 33 at ½) from then on.
        for t in [0.6, 3.0] {
            let g = try scene.renderFrame(at: t)
            XCTAssertEqual(g.at(33, 25), red, "t \(t)")
            XCTAssertEqual(g.at(25, 25), clear, "t \(t)")
        }
    }

    /// Bad input: a missing file, an unknown marker and a replacement naming nothing are issues
    /// naming the node's key path.
    func testBadNodesAreIssuesWithTheirPaths() throws {
        let json = """
            {"size": [100, 100], "fps": 10, "duration": 1, "layers": [
              {"type": "lottie", "lottie": "nope.json"},
              {"type": "lottie", "lottie": "keyframes.json", "segment": "intro"},
              {"type": "lottie", "lottie": "keyframes.json", "colors": {"Nothing": "red"}},
              {"type": "lottie", "lottie": "keyframes.json", "speed": 0, "loop": "often"}]}
            """
        let composition = try JSONDecoder().decode(Composition.self, from: Data(json.utf8))
        XCTAssertThrowsError(try Scene(composition: composition, options: CompositionOptions(assetFolder: LottieFixtures.folder))) { e in
            let text = "\(e)"
            XCTAssertTrue(text.contains("layers[0].lottie: nope.json:"), text)
            XCTAssertTrue(text.contains("layers[1].segment: keyframes.json: markers: no marker 'intro' (the animation has no markers)"), text)
            XCTAssertTrue(text.contains("layers[2].lottie: keyframes.json: colors.Nothing: no fill, stroke, group, layer, solid or colour slot named 'Nothing'"), text)
            XCTAssertTrue(text.contains("layers[3].speed: expected a number in 0.001…100"), text)
            XCTAssertTrue(text.contains("layers[3].loop: expected true (for ever), false, or a number of plays"), text)
        }
    }

    /// The example template filled from two CSV rows by the batch renderer: each row's PNG
    /// frames show its colour on the disc (slot id `badgeColor`), nothing before the delay.
    func testBatchFillsTheExampleLottieFromCSVRows() throws {
        let template = try Template(contentsOf: Self.example.appendingPathComponent("badge.yaml"))
        let rows = try BatchRenderer.rows(contentsOf: Self.example.appendingPathComponent("rows.csv"))
        XCTAssertEqual(rows.count, 2)
        let out = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        var options = BatchOptions(outputFolder: out)
        options.name = "{{id}}"   // a folder of PNG frames a row
        let report = BatchRenderer.run(template, rows: rows, options: options, dataName: "rows.csv")
        XCTAssertEqual(report.rendered, 2, "\(report.items.map { $0.error ?? "" })")
        // The disc (Lottie 100 × 100 fitted to 180 × 180 at x 70): its top part at Lottie
        // (50, 20) is scene (160, 36); frame 15 (1.5 s, Lottie frame 10) is after the pop.
        for (id, want) in [("red", [255, 0, 0, 255]), ("blue", [0, 0, 255, 255])] {
            let frame = try Bitmap(contentsOfPNG: out.appendingPathComponent("\(id)/frame_00015.png"))
            XCTAssertEqual(frame.at(160, 36), want, id)
            // Before the delay (0.2 s): the template's background.
            let early = try Bitmap(contentsOfPNG: out.appendingPathComponent("\(id)/frame_00002.png"))
            XCTAssertEqual(early.at(160, 36), [0x1D, 0x35, 0x57, 255], id)
        }
        // The name is drawn in white over the disc's centre in each row (text by layer name).
        let a = try Bitmap(contentsOfPNG: out.appendingPathComponent("red/frame_00015.png"))
        let whiteInk = (130..<190).flatMap { x in (95..<125).map { y in a.at(x, y) } }.filter { $0[0] > 200 && $0[1] > 200 && $0[2] > 200 }
        XCTAssertGreaterThan(whiteInk.count, 30, "the name's white ink on the disc")
    }

    /// Replacements through the Swift API: a colour by the fill's group name, a text by layer
    /// name, and the slot's default colour when nothing replaces it.
    func testReplacementsByNameAndSlotDefaults() throws {
        let url = Self.example.appendingPathComponent("badge.json")
        func pixel(_ r: LottieReplacements) throws -> [Int] {
            let layer = try LottieLayer(contentsOf: url, replacements: r)
            let scene = LottieFixtures.scene(showing: layer, width: 100, height: 100)
            return try scene.renderFrame(at: 1).at(50, 20)
        }
        // The slot's value (0.91, 0.44, 0.32).
        XCTAssertEqual(try pixel(LottieReplacements()), [232, 112, 82, 255])
        XCTAssertEqual(try pixel(LottieReplacements(colors: ["Disc": CGColor(red: 0, green: 1, blue: 0, alpha: 1)])), [0, 255, 0, 255])
        XCTAssertEqual(try pixel(LottieReplacements(colors: ["Badge": CGColor(red: 0, green: 0, blue: 1, alpha: 1)])), [0, 0, 255, 255])
        XCTAssertThrowsError(try LottieLayer(contentsOf: url, replacements: LottieReplacements(texts: ["Titel": "x"]))) { e in
            XCTAssertEqual("\(e)", "texts.Titel: no text layer or text slot named 'Titel' (names: Title)")
        }
    }

    /// Images replaced by asset id, by image layer name, and through an image slot: a 2 × 1
    /// PNG (green | white) in place of the fixture's red | blue, drawn ×20 from (10, 10).
    func testImagesReplacedByIdLayerNameAndSlot() throws {
        var png = Bitmap(width: 2, height: 1)
        png.pixels = [0, 255, 0, 255, 255, 255, 255, 255]
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("gw.png")
        try png.writePNG(to: file)
        let data = try Data(contentsOf: file)
        func pixels(_ json: Data, _ r: LottieReplacements) throws -> ([Int], [Int]) {
            let layer = try LottieLayer(data: json, replacements: r)
            let f = try LottieFixtures.scene(showing: layer, width: 100, height: 100).renderFrame(at: 0)
            return (f.at(12, 15), f.at(47, 15))
        }
        let original = try Data(contentsOf: LottieFixtures.url("image"))
        XCTAssertEqual(try pixels(original, LottieReplacements()).0, red)
        let green = [0, 255, 0, 255], white = [255, 255, 255, 255]
        XCTAssertEqual(try pixels(original, LottieReplacements(images: ["img": data])).0, green)
        XCTAssertEqual(try pixels(original, LottieReplacements(images: ["picture": data])).1, white)
        // The asset as an image slot (`sid`), the slot's default the fixture's own picture.
        var doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        var assets = try XCTUnwrap(doc["assets"] as? [[String: Any]])
        doc["slots"] = ["photo": ["p": assets[0]]]
        assets[0]["sid"] = "photo"
        doc["assets"] = assets
        let slotted = try JSONSerialization.data(withJSONObject: doc)
        XCTAssertEqual(try pixels(slotted, LottieReplacements()).0, red)
        XCTAssertEqual(try pixels(slotted, LottieReplacements(images: ["photo": data])).0, green)
        // A node's `images` read files beside the template.
        try original.write(to: folder.appendingPathComponent("image.json"))
        let json = """
            {"size": [100, 100], "fps": 10, "duration": 1, "layers": [
              {"type": "lottie", "lottie": "image.json", "frame": [0, 0, 100, 100], "images": {"img": "gw.png"}}]}
            """
        let scene = try Scene(composition: try JSONDecoder().decode(Composition.self, from: Data(json.utf8)),
                              options: CompositionOptions(assetFolder: folder))
        XCTAssertEqual(try scene.renderFrame(at: 0).at(47, 15), white)
    }

    // MARK: progress

    /// A CABasicAnimation on "progress" (0 → 0.5 over 2 s from 1 s, linear, then ease-in)
    /// gives the frame shown: progress p shows frame 20 p of the keyframes fixture.
    func testAnimatedProgressDrivesTheFrame() throws {
        let (scene, layer) = try LottieFixtures.scene("keyframes")
        let a = CABasicAnimation(keyPath: "progress")
        a.fromValue = 0
        a.toValue = 0.5
        a.beginTime = 1
        a.duration = 2
        a.fillMode = .both
        a.isRemovedOnCompletion = false
        layer.add(a, forKey: "scrub")
        for (t, frame) in [(0.2, 0.0), (1.0, 0.0), (2.0, 5.0), (2.5, 7.5), (3.0, 10.0), (4.0, 10.0)] {
            let presented = try XCTUnwrap(try scene.presentation(of: layer, at: t) as? LottieLayer)
            let p = try XCTUnwrap(presented.progress)
            XCTAssertEqual(presented.frame(atProgress: p), frame, accuracy: 1e-9, "t \(t)")
        }
        // The pixels of frame 5 (square over 45…55) at 2 s, whatever the layer's own clock says.
        let f = try scene.renderFrame(at: 2)
        XCTAssertEqual(f.at(45, 50), red)
        XCTAssertEqual(f.at(54, 50), red)
        XCTAssertEqual(f.at(44, 50), clear)
        XCTAssertEqual(f.at(55, 50), clear)
        // Frame 10 from 3 s on: the square at x 90 (85…95).
        let g = try scene.renderFrame(at: 3.5)
        XCTAssertEqual(g.at(85, 50), red)
        XCTAssertEqual(g.at(84, 50), clear)

        // Eased: ease-in at 2 s (half-way in time) shows frame 10 × easeIn(0.5).
        let (scene2, layer2) = try LottieFixtures.scene("keyframes")
        let b = CABasicAnimation(keyPath: "progress")
        b.fromValue = 0
        b.toValue = 0.5
        b.beginTime = 1
        b.duration = 2
        b.timingFunction = CAMediaTimingFunction(name: .easeIn)
        layer2.add(b, forKey: "scrub")
        let expected = 10 * CAMediaTimingFunction(name: .easeIn).evaluate(0.5)
        let presented = try XCTUnwrap(try scene2.presentation(of: layer2, at: 2) as? LottieLayer)
        XCTAssertEqual(presented.frame(atProgress: presented.progress ?? -1), expected, accuracy: 1e-9)
        // The square's left edge at 5 + 8 × frame.
        let left = 5 + 8 * expected
        let h = try scene2.renderFrame(at: 2)
        XCTAssertEqual(h.at(Int(left.rounded(.up)) + 1, 50), red, "left edge \(left)")
        XCTAssertEqual(h.at(Int(left.rounded(.down)) - 1, 50), clear, "left edge \(left)")
    }

    /// `start`, `speed` and `loop` time the Lottie's frames only: the node's own opacity
    /// animation (0 → 1 over the first second) keeps the scene's time.
    func testPlaybackTimingLeavesTheNodesAnimationsInSceneTime() throws {
        let json = """
            {"size": [100, 100], "fps": 10, "duration": 3, "layers": [
              {"type": "lottie", "id": "l", "lottie": "keyframes.json", "frame": [0, 0, 100, 100], "start": 1, "speed": 2, "loop": true,
               "animations": [{"property": "opacity", "from": 0, "to": 1, "duration": 1}]}]}
            """
        let scene = try Scene(composition: try JSONDecoder().decode(Composition.self, from: Data(json.utf8)),
                              options: CompositionOptions(assetFolder: LottieFixtures.folder))
        let layer = try XCTUnwrap(scene.rootLayer.sublayers?.first as? LottieLayer)
        for (t, opacity) in [(0.25, 0.25), (0.5, 0.5), (2.0, 1.0)] {
            XCTAssertEqual(Double(try XCTUnwrap(try scene.presentation(of: layer, at: t)).opacity), opacity, accuracy: 1e-6, "t \(t)")
        }
        // 2.25 s: the Lottie at (2.25 − 1) × 2 = 2.5 s, looped to 0.5 s: frame 5.
        let f = try scene.renderFrame(at: 2.25)
        XCTAssertEqual(f.at(45, 50), red)
        XCTAssertEqual(f.at(44, 50), clear)
    }

    /// A template animates the node's `progress` like any property: 0 → 0.5 over 2 s, linear.
    func testTemplateAnimatesProgress() throws {
        let json = """
            {"size": [100, 100], "fps": 10, "duration": 3, "layers": [
              {"type": "lottie", "id": "l", "lottie": "keyframes.json", "frame": [0, 0, 100, 100],
               "animations": [{"property": "progress", "from": 0, "to": 0.5, "duration": 2}]}]}
            """
        let composition = try JSONDecoder().decode(Composition.self, from: Data(json.utf8))
        let scene = try Scene(composition: composition, options: CompositionOptions(assetFolder: LottieFixtures.folder))
        // 1 s: progress 0.25 = frame 5 (the square over 45…55); 2 s on: frame 10 (85…95).
        let f = try scene.renderFrame(at: 1)
        XCTAssertEqual(f.at(45, 50), red)
        XCTAssertEqual(f.at(44, 50), clear)
        let g = try scene.renderFrame(at: 2.5)
        XCTAssertEqual(g.at(85, 50), red)
        XCTAssertEqual(g.at(84, 50), clear)
    }

    /// Same bytes at any worker count for a node with replacements (colour by slot, text by name).
    func testDeterministicAcrossWorkers() throws {
        let template = try Template(contentsOf: Self.example.appendingPathComponent("badge.yaml"))
        let scene = try template.makeScene(TemplateArguments(text: ["color": "#336699", "name": "Lin"]))
        var one = RenderOptions(), four = RenderOptions()
        one.workers = 1
        four.workers = 4
        for t in [1.7, 0.9, 2.2] {
            XCTAssertEqual(try scene.renderFrame(at: t, options: one).pixels, try scene.renderFrame(at: t, options: four).pixels, "t \(t)")
        }
    }
}
