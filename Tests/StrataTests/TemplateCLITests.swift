// The template commands end to end through the `strata` executable: render/still/sheet of a
// template by path and by name, validate (every problem, file:line path: message, exit 1, nothing
// written), templates and schema (the printed schema checked by Python's jsonschema where it is
// installed), and batch: 50 rows with malformed ones, resume after a killed batch, three shard
// processes against the unsharded batch. Outputs are checked with ffprobe and decoded back.
import Foundation
import Strata
import XCTest

final class TemplateCLITests: XCTestCase {
    /// A small template: 160×90 at 10 fps, a coloured card with a label fading in.
    static let card = """
        name: Card
        description: A test card with a label.
        size: [160, 90]
        fps: 10
        duration: "{{duration}}"
        parameters:
          - {name: label, type: string, default: Hi, maxLength: 12, description: The text}
          - {name: color, type: color, default: "#3366FF", description: The card}
          - {name: duration, type: number, default: 1, min: 0.5, max: 5}
          - {name: logo, type: image, default: "", description: A picture in the corner}
        layers:
          - {type: layer, size: [160, 90], backgroundColor: "{{color}}"}
          - type: image
            if: "{{logo != ''}}"
            image: "{{logo}}"
            size: [24, 24]
            layout: {pin: topLeading, inset: 4}
          - type: layer
            size: [60, 20]
            backgroundColor: white
            layout: {pin: center}
            animations:
              - {property: opacity, from: 0, to: 1, duration: 0.5}
              - {property: bounds.size.width, from: 10, to: "{{8 * len(label) + 20}}", duration: 0.5}
        """

    private var folder: URL!

    override func setUpWithError() throws {
        folder = try temporaryFolder()
        let card = folder.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        try Self.card.write(to: card.appendingPathComponent("card.yaml"), atomically: true, encoding: .utf8)
        // A 24×24 PNG logo beside the template.
        var logo = Bitmap(width: 24, height: 24)
        for i in stride(from: 0, to: logo.pixels.count, by: 4) { logo.pixels[i] = 255; logo.pixels[i + 3] = 255 }
        try logo.writePNG(to: card.appendingPathComponent("logo.png"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private var cardTemplate: URL { folder.appendingPathComponent("card/card.yaml") }

    private func strata(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
        try runProcess(strataExecutable, arguments, environment: environment, directory: folder)
    }

    private func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    private func leftovers(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.contains(".partial-") }
    }

    private func frameCount(_ url: URL) throws -> Int {
        let info = try ffprobe(url, ["-count_frames", "-show_streams"])
        let stream = try XCTUnwrap((info["streams"] as? [[String: Any]])?.first)
        return Int(stream["nb_read_frames"] as? String ?? "") ?? -1
    }

    private func framemd5(_ url: URL) throws -> [String] {
        let r = try runProcess("ffmpeg", ["-v", "error", "-i", url.path, "-f", "framemd5", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    // MARK: render, still, sheet

    func testStillEqualsTheAPIRenderAndRenderGivesTheFramesAsked() throws {
        // The still is the same pixels as the library's render of the filled-in template.
        let still = file("still.png")
        var r = try strata(["still", cardTemplate.path, "--set", "label=Hello", "--set", "logo=logo.png", "--time", "0.3", "-o", still.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.text, "wrote \(still.path): 160×90 at t = 0.3 s\n")
        let template = try Template(contentsOf: cardTemplate)
        let scene = try template.makeScene(TemplateArguments(text: ["label": "Hello", "logo": "logo.png"]))
        let expected = try scene.renderFrame(at: 0.3)
        XCTAssertEqual(try Bitmap(contentsOfPNG: still), expected)
        // The logo is drawn (red at its centre) and the label plate is mid-fade.
        XCTAssertEqual(Array(expected.pixels[((16 * 160) + 16) * 4..<((16 * 160) + 16) * 4 + 4]), [255, 0, 0, 255])

        // --scale, --fps and --duration change the output; ffprobe and the decoded frames agree.
        let video = file("card.mp4")
        r = try strata(["render", "card/card.yaml", "--set", "label=Hello", "--scale", "2", "--fps", "20", "--duration", "1.5",
                        "-o", video.path, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.text, "", "--quiet prints nothing")
        let info = try ffprobe(video, ["-count_frames", "-show_streams"])
        let stream = try XCTUnwrap((info["streams"] as? [[String: Any]])?.first)
        XCTAssertEqual(stream["width"] as? Int, 320)
        XCTAssertEqual(stream["height"] as? Int, 180)
        XCTAssertEqual(stream["r_frame_rate"] as? String, "20/1")
        XCTAssertEqual(stream["nb_read_frames"] as? String, "30")
        // Frame 10 (t = 0.5 s) decoded back is close to the library's render at scale 2.
        let decoded = file("f10.png")
        let d = try runProcess("ffmpeg", ["-v", "error", "-i", video.path, "-vf", "select=eq(n\\,10)", "-frames:v", "1", decoded.path])
        XCTAssertEqual(d.status, 0, d.stderr)
        let big = try template.makeScene(TemplateArguments(text: ["label": "Hello"]))
        big.contentsScale = 2
        let reference = try big.renderFrame(at: 0.5)
        let got = try Bitmap(contentsOfPNG: decoded)
        XCTAssertEqual(got.width, 320)
        var total = 0
        for i in stride(from: 0, to: reference.pixels.count, by: 4) {
            for c in 0..<3 { total += abs(Int(reference.pixels[i + c]) - Int(got.pixels[i + c])) }
        }
        let mean = Double(total) / Double(320 * 180 * 3)
        XCTAssertLessThan(mean, 3.0, "mean difference of the decoded H.264 frame (0–255)")
    }

    func testTemplatesAreFoundByNameInTheSearchFolders() throws {
        let env = ["STRATA_TEMPLATES": folder.path]
        // A broken template beside the good one is listed as invalid, not fatal.
        let broken = folder.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try "size: [10, 10\n".write(to: broken.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        var r = try strata(["templates"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.text.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("broken  (invalid: broken.yaml:") }, r.text)
        XCTAssertTrue(lines.contains("card    160×90 10 fps 1 s  A test card with a label."), r.text)

        r = try strata(["templates", "card", "--json"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let described = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let parameters = try XCTUnwrap(described["parameters"] as? [[String: Any]])
        XCTAssertEqual(parameters.map { $0["name"] as? String }, ["label", "color", "duration", "logo"])
        XCTAssertEqual(parameters[2]["min"] as? Double, 0.5)
        XCTAssertEqual(parameters[0]["default"] as? String, "Hi")

        r = try strata(["templates", "card"], environment: env)
        XCTAssertTrue(r.text.contains("  duration (number, default 1, ≥ 0.5, ≤ 5)\n"), r.text)

        // By name: the output defaults to out/NAME.mp4 in the working folder.
        r = try strata(["render", "card", "--set", "duration=0.5", "--quiet"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try frameCount(file("out/card.mp4")), 5)

        r = try strata(["render", "cart", "-o", "x.mp4"], environment: env)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "Error: cart: no template of this name in \(folder.path); did you mean \"card\"? (templates: broken, card)\n")
    }

    func testContactSheet() throws {
        let sheet = file("sheet.png")
        let r = try strata(["sheet", cardTemplate.path, "--count", "4", "--columns", "2", "--reduction", "2", "-o", sheet.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let image = try Bitmap(contentsOfPNG: sheet)
        let template = try Template(contentsOf: cardTemplate)
        let expected = try template.makeScene().contactSheet(count: 4, columns: 2, reduction: 2, labels: true)
        XCTAssertEqual(image, expected)
        XCTAssertEqual(r.text, "wrote \(sheet.path): \(expected.width)×\(expected.height), 4 frames\n")
    }

    // MARK: validate and schema

    func testValidateReportsEveryProblemAndWritesNothing() throws {
        let bad = """
            size: [160, 90]
            duration: 2
            parameters:
              - {name: speed, type: number, default: 1}
            layers:
              - type: layer
                size: [10, 10]
                animations:
                  - {property: opacity, to: 1, duration: fast}
              - type: circle
                size: [10, 10]
            """
        let url = folder.appendingPathComponent("bad.yaml")
        try bad.write(to: url, atomically: true, encoding: .utf8)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let r = try strata(["validate", url.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.text, "")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, r.stderr)
        XCTAssertTrue(lines[0].hasPrefix("Error: bad.yaml:9 layers[0].animations[0].duration: expected a number ≥ 0 (seconds) or frames"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("bad.yaml:10 layers[1].type: expected one of"), lines[1])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), before, "nothing written")

        // Parameter values are checked too, all at once.
        let p = try strata(["validate", cardTemplate.path, "--set", "duration=9", "--set", "colour=red", "--set", "logo=../x.png"])
        XCTAssertEqual(p.status, 1)
        XCTAssertEqual(p.stderr, """
            Error: card.yaml parameters: unknown parameter "colour" (parameters: label, color, duration, logo)
            card.yaml parameters.duration: expected a number ≥ 0.5 and ≤ 5, got "9"
            card.yaml parameters.logo: "../x.png" leaves the template's folder (".."); assets are files in the template's folder (allow another folder with --allow-assets)

            """)

        let ok = try strata(["validate", cardTemplate.path, "--set", "label=Yo"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.text, "ok: \(cardTemplate.path): 160×90, 10 fps, 1 s (10 frames), 4 parameters\n")
    }

    func testSchemaIsTheLibrarysAndPythonJSONSchemaAgreesWithTheValidator() throws {
        let r = try strata(["schema"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.text, TemplateSchema.json + "\n")
        let schemaURL = file("schema.json")
        try r.stdout.write(to: schemaURL)

        let p = try strata(["schema", "--parameters", cardTemplate.path])
        let parameters = try XCTUnwrap(try JSONSerialization.jsonObject(with: p.stdout) as? [String: Any])
        XCTAssertEqual(parameters["required"] as? [String], [])
        let properties = try XCTUnwrap(parameters["properties"] as? [String: [String: Any]])
        XCTAssertEqual(properties["duration"]?["type"] as? String, "number")
        XCTAssertEqual(properties["duration"]?["minimum"] as? Double, 0.5)
        XCTAssertEqual(properties["label"]?["maxLength"] as? Int, 12)

        // The filled-in documents: the card as it is, and three broken copies. Strata's validator
        // and Python's jsonschema (an independent implementation) must agree on each.
        let e = try strata(["validate", "--expanded", cardTemplate.path, "--set", "label=Hey"])
        XCTAssertEqual(e.status, 0, e.stderr)
        var good = try XCTUnwrap(try JSONSerialization.jsonObject(with: e.stdout) as? [String: Any])
        XCTAssertEqual(good["duration"] as? Double, 1)
        let layers = try XCTUnwrap(good["layers"] as? [[String: Any]])
        XCTAssertEqual(layers.count, 2, "the logo layer's if is false")
        let animations = try XCTUnwrap(layers[1]["animations"] as? [[String: Any]])
        XCTAssertEqual(animations[1]["to"] as? Double, 44, "8 × len(\"Hey\") + 20")
        var documents: [[String: Any]] = [good]
        good["duration"] = -1; documents.append(good)
        good["duration"] = 1; good["sise"] = [1, 2]; documents.append(good)
        good.removeValue(forKey: "sise"); good["layers"] = [["type": "layer", "opacity": "half"]]; documents.append(good)

        var ours: [Bool] = []
        for (i, d) in documents.enumerated() {
            let url = file("doc\(i).json")
            try JSONSerialization.data(withJSONObject: d).write(to: url)
            let v = try strata(["validate", url.path])
            ours.append(v.status == 0)
        }
        XCTAssertEqual(ours, [true, false, false, false])

        guard (try? runProcess("python3", ["-c", "import jsonschema"]))?.status == 0 else {
            throw XCTSkip("python3 jsonschema is not installed (pip install jsonschema) — the cross-check did not run")
        }
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            v = jsonschema.Draft202012Validator(schema)
            print(" ".join("valid" if v.is_valid(json.load(open(p))) else "invalid" for p in sys.argv[2:]))
            """
        let py = try runProcess("python3", ["-c", script, schemaURL.path] + documents.indices.map { file("doc\($0).json").path })
        XCTAssertEqual(py.status, 0, py.stderr)
        XCTAssertEqual(py.text, "valid invalid invalid invalid\n")
    }

    // MARK: batch

    /// Writes a CSV of `count` good rows, with the rows in `bad` replaced by broken ones.
    private func writeRows(_ count: Int, bad: [Int: String] = [:], name: String = "rows.csv", duration: String = "0.5") throws -> URL {
        var text = "id,label,color,duration\n"
        for i in 1...count {
            text += bad[i] ?? "c\(i),L\(i),#\(String(format: "%02X", i * 5))4080,\(duration)"
            text += "\n"
        }
        let url = file(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func testFiftyRowsWithMalformedOnesRenderTheRestAndSayWhichFailed() throws {
        let bad = [
            7: "c7,L7,#112233,fast",                       // not a number
            13: "c13,L13,not-a-colour,0.5",               // not a colour
            21: "c21,much too long a label,#112233,0.5",  // over maxLength
            34: "c5,L34,#112233,0.5",                     // the same output name as row 5
            42: "c42,L42,#112233",                        // a field missing
        ]
        let rows = try writeRows(50, bad: bad)
        let out = file("videos")
        let r = try strata(["batch", cardTemplate.path, "--data", rows.path, "--out", out.path, "--name", "{{id}}.mp4",
                            "--jobs", "2", "--report", file("report.json").path])
        XCTAssertEqual(r.status, 1, "some rows failed")
        XCTAssertTrue(r.text.hasPrefix("45 rendered, 0 skipped, 5 failed of 50 rows in "), r.text)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file("report.json"))) as? [String: Any])
        XCTAssertEqual(report["rendered"] as? Int, 45)
        XCTAssertEqual(report["failed"] as? Int, 5)
        let items = try XCTUnwrap(report["items"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["row"] as? Int }, Array(1...50))
        let failed = Dictionary(uniqueKeysWithValues: items.filter { $0["status"] as? String == "failed" }.map { ($0["row"] as! Int, $0["error"] as! String) })
        XCTAssertEqual(Set(failed.keys), [7, 13, 21, 34, 42])
        XCTAssertEqual(failed[7], "card.yaml parameters.duration: expected a number ≥ 0.5 and ≤ 5, got \"fast\"")
        XCTAssertTrue(failed[13]?.hasPrefix("card.yaml parameters.color: expected a colour") ?? false, failed[13] ?? "")
        XCTAssertEqual(failed[21], "card.yaml parameters.label: expected at most 12 characters, got \"much too long a label\"")
        XCTAssertEqual(failed[42], "rows.csv:43: expected 4 fields (id, label, color, duration), found 3")
        // Rows 5 and 34 want the same name: the first row keeps it, whatever the job timing.
        XCTAssertNil(failed[5])
        XCTAssertEqual(failed[34], "the output name \"c5.mp4\" is also row 5's")
        XCTAssertEqual(failed.count, 5)
        // stderr names each failure with its row and line.
        XCTAssertTrue(r.stderr.contains("row 7 (\(rows.path):8): card.yaml parameters.duration"), r.stderr)
        // The good rows' files, complete, and nothing else.
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertEqual(files.count, 45)
        XCTAssertEqual(leftovers(out), [])
        XCTAssertEqual(try frameCount(out.appendingPathComponent("c1.mp4")), 5)
    }

    func testResumeAfterAKilledBatchRendersOnlyWhatIsMissing() throws {
        let rows = try writeRows(8, duration: "3")
        let args = ["batch", cardTemplate.path, "--data", rows.path, "--name", "{{id}}.mp4", "--scale", "3", "--workers", "1"]
        // The whole batch, uninterrupted, for comparison.
        let whole = file("whole")
        var r = try strata(args + ["--out", whole.path, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)

        // The same batch killed (SIGKILL: no clean-up) once two files are complete.
        let out = file("killed")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: strataExecutable)
        p.arguments = args + ["--out", out.path, "--quiet"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(120)
        func complete() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).filter { $0.hasSuffix(".mp4") && !$0.hasPrefix(".") }
        }
        while complete().count < 2 && p.isRunning && Date() < deadline { usleep(20_000) }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let done = complete()
        guard done.count < 8 else { throw XCTSkip("the batch finished before it could be killed") }
        XCTAssertGreaterThanOrEqual(done.count, 2)

        r = try strata(args + ["--out", out.path, "--resume", "--report", file("resume.json").path, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file("resume.json"))) as? [String: Any])
        XCTAssertEqual(report["skipped"] as? Int, done.count)
        XCTAssertEqual(report["rendered"] as? Int, 8 - done.count)
        let items = try XCTUnwrap(report["items"] as? [[String: Any]])
        let skipped = Set(items.filter { $0["status"] as? String == "skipped" }.compactMap { $0["output"] as? String })
        XCTAssertEqual(skipped, Set(done))
        XCTAssertEqual(leftovers(out), [], "the killed process's partial file is removed")
        // Every file equals the uninterrupted batch's, byte for byte.
        for i in 1...8 {
            let a = try Data(contentsOf: whole.appendingPathComponent("c\(i).mp4"))
            let b = try Data(contentsOf: out.appendingPathComponent("c\(i).mp4"))
            XCTAssertEqual(a, b, "c\(i).mp4")
        }
    }

    func testThreeShardsEqualTheUnshardedBatch() throws {
        let rows = try writeRows(10)
        let args = ["batch", cardTemplate.path, "--data", rows.path, "--name", "{{index}}-{{id}}.gif", "--quiet"]
        let whole = file("whole"), sharded = file("sharded")
        var r = try strata(args + ["--out", whole.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        // Three processes at once into one folder, as three machines would.
        let processes = try (0..<3).map { i -> Process in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: strataExecutable)
            p.arguments = args + ["--out", sharded.path, "--shard", "\(i)/3", "--report", file("shard\(i).json").path]
            try p.run()
            return p
        }
        for p in processes { p.waitUntilExit(); XCTAssertEqual(p.terminationStatus, 0) }
        var counts: [Int] = []
        for i in 0..<3 {
            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file("shard\(i).json"))) as? [String: Any])
            XCTAssertEqual(report["shard"] as? String, "\(i)/3")
            let items = try XCTUnwrap(report["items"] as? [[String: Any]])
            XCTAssertEqual(items.map { $0["row"] as? Int }, Array(stride(from: i + 1, through: 10, by: 3)))
            counts.append(items.count)
        }
        XCTAssertEqual(counts, [4, 3, 3])
        let names = try FileManager.default.contentsOfDirectory(atPath: whole.path).sorted()
        XCTAssertEqual(names.count, 10)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sharded.path).sorted(), names)
        for name in names {
            XCTAssertEqual(try Data(contentsOf: whole.appendingPathComponent(name)), try Data(contentsOf: sharded.appendingPathComponent(name)), name)
        }
        r = try strata(args + ["--out", sharded.path, "--shard", "3/3"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.contains("--shard '3/3' must be I/N with 0 ≤ I < N"), r.stderr)
    }

    func testBadCommandLinesSayWhatIsWrongAndWriteNothing() throws {
        let rows = try writeRows(2)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let cases: [([String], Int32, String)] = [
            (["render", cardTemplate.path, "--set", "label"], 64, "--set 'label' must be KEY=VALUE"),
            (["render", cardTemplate.path, "--data", "missing.json", "-o", "x.mp4"], 1, "missing.json: cannot read the file (no such file)"),
            (["render", cardTemplate.path, "--scale", "0", "-o", "x.mp4"], 64, "--scale 0.0 must be in (0, 8]"),
            (["render", cardTemplate.path, "--size", "10by10", "-o", "x.mp4"], 64, "--size '10by10' must be WIDTHxHEIGHT"),
            (["render", cardTemplate.path, "-o", "x.avi"], 1, "unknown extension '.avi'"),
            (["render", "--set", "a=b", "-o", "x.mp4"], 64, "--set needs a template"),
            (["still", cardTemplate.path, "--time", "7", "-o", "x.png"], 64, "--time 7.0 must be between 0 and the duration 1"),
            (["batch", cardTemplate.path, "--data", rows.path, "--out", "v", "--jobs", "0"], 64, "--jobs 0 must be between 1 and 64"),
            (["batch", cardTemplate.path, "--data", rows.path, "--out", "v", "--encoder-threads", "0"], 64, "--encoder-threads 0 must be between 1 and 64"),
            (["batch", cardTemplate.path, "--data", rows.path, "--out", "v", "--lookahead", "300"], 64, "--lookahead 300 must be between 0 and 250 frames"),
            (["batch", cardTemplate.path, "--data", "nope.csv", "--out", "v"], 1, "nope.csv: cannot read the file: no such file"),
            (["batch", cardTemplate.path, "--data", rows.path, "--out", "v", "--name", "../{{id}}.mp4"], 1, "must be a plain file name"),
            (["validate", "nowhere/card.yaml"], 1, "nowhere/card.yaml: no such file"),
        ]
        for (args, status, message) in cases {
            let r = try strata(args)
            XCTAssertEqual(r.status, status, args.joined(separator: " ") + ": " + r.stderr)
            XCTAssertTrue(r.stderr.contains(message), "\(args.joined(separator: " ")): expected «\(message)» in «\(r.stderr)»")
        }
        var after = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        // A batch whose every row fails still makes its output folder, empty.
        if after.contains("v") {
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: file("v").path), [])
            after.removeAll { $0 == "v" }
        }
        XCTAssertEqual(after, before, "nothing written")
    }
}
