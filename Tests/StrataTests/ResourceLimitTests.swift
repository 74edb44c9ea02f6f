// A template is a boundary for untrusted authors: what one asks for past the documented limits is
// refused with an error naming the file, the path and the limit to raise — not a hang, not
// gigabytes. Each case is one defect that was found: a timeline loop of a billion passes, 100 000
// one-pixel layers, a forEach of long texts, text of many combining marks or longer than the
// renderer lays out, oversized data files, a FIFO given as a file, and renders that must stop
// after --timeout. CLI cases run the built `strata` (exit status, stderr, nothing left behind);
// every child process has a timeout, and a child that does not finish fails the test.
import Foundation
import Strata
import XCTest

final class ResourceLimitTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// Writes `text` as `name` in the test folder.
    @discardableResult
    private func write(_ name: String, _ text: String) throws -> URL {
        let url = file(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Runs `strata` in the test folder; a run still going after `timeout` seconds is killed
    /// and fails the test (it would have hung).
    private func strata(_ arguments: [String], timeout: TimeInterval = 60) throws -> ProcessResult {
        do {
            return try runProcess(strataExecutable, arguments, timeout: timeout, directory: folder)
        } catch let skip as XCTSkip {
            XCTFail("strata \(arguments.joined(separator: " ")) hung: \(skip.message ?? "")")
            throw skip
        }
    }

    private func message(_ body: () throws -> Void) -> String {
        do { try body(); return "" } catch { return "\(error)" }
    }

    /// The files of the test folder (recursively) whose names say they are unfinished outputs.
    private func leftovers() -> [String] {
        let all = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        return all.filter { $0.contains(".partial-") || $0.contains(".tmp-") }
    }

    // MARK: Timeline loops

    private static let loop = """
        size: [64, 36]
        fps: 10
        duration: 1
        parameters:
          - {name: n, type: integer, default: 10}
        layers:
          - {type: layer, id: box, size: [10, 10], backgroundColor: red}
        timeline:
          - type: loop
            count: "{{n}}"
            steps:
              - {type: animate, target: box, property: opacity, to: 0.5, duration: 0.1}
        """

    func testALoopSchedulesWhatTheSceneShowsWithinTheStepLimit() throws {
        let t = try Template(contentsOf: write("loop.yaml", Self.loop))
        // A billion passes of 0.1 s in a 1 s scene: only the passes that start before the end are
        // scheduled (those after it show nothing), and the frames are those of ten passes.
        let billion = try t.makeScene(TemplateArguments(text: ["n": "1000000000"]))
        let ten = try t.makeScene(TemplateArguments(text: ["n": "10"]))
        // (Ten passes, or eleven where the tenth ends a rounding error before the scene does.)
        XCTAssertTrue((10...11).contains(billion.layer(named: "box")?.animationKeys()?.count ?? 0))
        for time in [0.05, 0.45, 0.95] { XCTAssertEqual(try billion.renderFrame(at: time), try ten.renderFrame(at: time), "t = \(time)") }
        // The passes that start before the end must fit in the limit, which can be lowered (and
        // raised) by name.
        var limits = SceneLimits()
        try limits.set("timeline-steps", to: "5")
        XCTAssertEqual(message { _ = try t.makeScene(TemplateArguments(text: ["n": "1000"]), limits: limits) },
                       "loop.yaml:9 timeline[0]: the loop runs until the scene ends, 9 more times, 1 step a pass (11 timeline steps in all): "
                       + "over the limit of 5 (raise it with --limit timeline-steps=N)")
        XCTAssertEqual(message { _ = try t.makeScene(TemplateArguments(text: ["n": "8"]), limits: limits) },
                       "loop.yaml:9 timeline[0]: the loop runs 8 times, 1 step a pass (9 timeline steps in all): "
                       + "over the limit of 5 (raise it with --limit timeline-steps=N)")
        // A loop that runs until the scene ends is bounded the same way.
        let forever = try Template(contentsOf: write("forever.yaml", Self.loop
            .replacingOccurrences(of: "count: \"{{n}}\"", with: "count: forever")
            .replacingOccurrences(of: "duration: 0.1}", with: "duration: 0.000001}")))
        XCTAssertTrue(message { _ = try forever.makeScene() }.contains("timeline[0]: the loop runs until the scene ends"))
    }

    func testTheCommandLineRefusesABillionPassLoopOfMicrosecondStepsAtOnce() throws {
        // Passes of a microsecond: a million of them would start before the end of the scene.
        try write("loop.yaml", Self.loop.replacingOccurrences(of: "duration: 0.1}", with: "duration: 0.000001}"))
        let r = try strata(["validate", "loop.yaml", "--set", "n=1000000000"], timeout: 30)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("loop.yaml:9 timeline[0]: the loop runs until the scene ends, 999999 more times"), r.stderr)
        XCTAssertTrue(r.stderr.contains("--limit timeline-steps=N"), r.stderr)
    }

    // MARK: Many layers

    private static let pixels = """
        size: [320, 180]
        fps: 10
        duration: 0.2
        parameters:
          - {name: n, type: integer, default: 100}
        layers:
          - forEach: "{{range(n)}}"
            type: layer
            frame: ["{{index % 320}}", "{{floor(index / 320) % 180}}", 1, 1]
            backgroundColor: "#ff0000"
        """

    func testTwentyThousandOnePixelLayersBuildAndRenderAndTheLayerLimitStopsMore() throws {
        let t = try Template(contentsOf: write("pixels.yaml", Self.pixels))
        let scene = try t.makeScene(TemplateArguments(text: ["n": "20000"]))
        XCTAssertEqual(scene.rootLayer.sublayers?.count, 20_000)
        XCTAssertEqual(scene.rootLayer.sublayers?.last?.frame, CGRect(x: 19_999 % 320, y: 19_999 / 320, width: 1, height: 1))
        let frame = try scene.renderFrame(index: 1)
        var red = 0
        for i in stride(from: 0, to: frame.pixels.count, by: 4) where frame.pixels[i] == 255 && frame.pixels[i + 1] == 0 { red += 1 }
        XCTAssertEqual(red, 20_000, "one red pixel a layer")

        var limits = SceneLimits()
        limits.layers = 5_000
        XCTAssertEqual(message { _ = try t.makeScene(TemplateArguments(text: ["n": "20000"]), limits: limits) },
                       "pixels.yaml:7 layers[5000]: the composition has more than 5000 layers: over the limit of 5000 (raise it with --limit layers=N)")
    }

    // MARK: Bytes of expansion

    func testTheTextAFilledInTemplateMakesIsBoundedInBytes() throws {
        let t = try Template(contentsOf: write("pad.yaml", """
            size: [64, 36]
            fps: 10
            duration: 0.2
            parameters:
              - {name: n, type: integer, default: 100000}
            layers:
              - forEach: "{{range(n)}}"
                type: layer
                id: "{{pad(index, 100000, 'y')}}"
                size: [1, 1]
            """))
        var limits = SceneLimits()
        try limits.set("expansion-mb", to: "8")
        XCTAssertEqual(message { _ = try t.makeScene(limits: limits) },
                       "pad.yaml:9 layers[0].id: the text of the filled-in template (every string, with forEach's copies): "
                       + "over the limit of 8 MiB (raise it with --limit expansion-mb=N)")
        // Literal text repeated by forEach counts as well, and so does one long expression.
        let literal = try Template(contentsOf: write("literal.yaml", """
            size: [64, 36]
            fps: 10
            duration: 0.2
            layers:
              - forEach: "{{range(100000)}}"
                type: layer
                backgroundColor: "\(String(repeating: "z", count: 1000))"
            """))
        XCTAssertTrue(message { _ = try literal.makeScene(limits: limits) }.hasSuffix("--limit expansion-mb=N)"))
        let joined = try Template(contentsOf: write("join.yaml", """
            size: [64, 36]
            fps: 10
            duration: 0.2
            layers:
              - {type: layer, id: "{{join(range(100000), pad('', 100000, 'y'))}}"}
            """))
        XCTAssertEqual(message { _ = try joined.makeScene() },
                       "join.yaml:5 layers[0].id: join(list, separator): the text would be 10000388890 bytes long; one expression makes at most 16 MiB")
        // Within the limits the same template fills in.
        XCTAssertNoThrow(try t.makeScene(TemplateArguments(text: ["n": "20"]), limits: limits))
    }

    // MARK: Text

    private static let label = """
        size: [160, 90]
        fps: 10
        duration: 0.2
        parameters:
          - {name: t, type: string, default: a, maxLength: 60}
        layers:
          - {type: text, string: "{{t}}", fontSize: 12}
        """

    func testACharacterOfManyCombiningMarksIsRefusedAndValidateChecksTextLength() throws {
        try write("label.yaml", Self.label)
        let accents = "a" + String(repeating: "\u{301}", count: 100_000)
        try JSONSerialization.data(withJSONObject: ["t": accents]).write(to: file("accents.json"))
        var r = try strata(["validate", "label.yaml", "--data", "accents.json"], timeout: 30)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("label.yaml parameters.t: a character of 100001 Unicode scalars (a letter with 100000 accents or joined marks): "
                                        + "over the limit of 32 (raise it with --limit character-scalars=N)"), r.stderr)
        XCTAssertLessThan(r.stderr.utf8.count, 2_000, "the value is not echoed")

        // A text parameter without maxLength: validate checks the text layer against text-length.
        try write("free.yaml", Self.label.replacingOccurrences(of: ", maxLength: 60", with: ""))
        try JSONSerialization.data(withJSONObject: ["t": String(repeating: "x", count: 300_000)]).write(to: file("long.json"))
        r = try strata(["validate", "free.yaml", "--data", "long.json"], timeout: 30)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("free.yaml:7 layers[0].string: a text of more than 200000 characters (Unicode scalars: an accent counts as one): "
                                        + "over the limit of 200000 (raise it with --limit text-length=N)"), r.stderr)
        XCTAssertLessThan(r.stderr.utf8.count, 2_000)
    }

    func testTheRendererChecksTextWhateverTheBounds() throws {
        func scene(_ text: String, bounds: CGRect) -> Scene {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
            let layer = CATextLayer()
            layer.name = "label"
            layer.string = text
            layer.frame = bounds
            root.addSublayer(layer)
            return Scene(rootLayer: root, size: CGSize(width: 32, height: 32), frameRate: 10, duration: 1)
        }
        // Zero-size bounds (a text too long to lay out measured as nothing): still checked.
        var s = scene(String(repeating: "x", count: 11), bounds: .zero)
        s.limits.textLength = 10
        XCTAssertEqual(message { _ = try s.renderFrame(at: 0) },
                       "at 0.0 s, CATextLayer 'label': a text of more than 10 characters (Unicode scalars: an accent counts as one): "
                       + "over the limit of 10 (raise it with --limit text-length=N, or Scene.limits)")
        s = scene("a" + String(repeating: "\u{301}", count: 40), bounds: CGRect(x: 0, y: 0, width: 32, height: 32))
        XCTAssertEqual(message { _ = try s.renderFrame(at: 0) },
                       "at 0.0 s, CATextLayer 'label': a text with a character of 41 Unicode scalars (a letter with 40 accents or joined marks): "
                       + "over the limit of 32 (raise it with --limit character-scalars=N, or Scene.limits)")
        s.limits.characterScalars = 41
        XCTAssertNoThrow(try s.renderFrame(at: 0))
    }

    // MARK: Data files

    func testDataFilesAndTheirValuesAreBounded() throws {
        try write("label.yaml", Self.label.replacingOccurrences(of: ", maxLength: 60", with: ""))
        // --data: one value of 2 MiB (the limit is 1 MiB a value).
        try JSONSerialization.data(withJSONObject: ["t": String(repeating: "x", count: 2 << 20)]).write(to: file("big.json"))
        var r = try strata(["validate", "label.yaml", "--data", "big.json"], timeout: 30)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("big.json: the value of t is 2097152 bytes: over the limit of 1024 KiB (raise it with --limit data-value-kb=N)"), r.stderr)
        XCTAssertLessThan(r.stderr.utf8.count, 2_000)
        // The file itself: over --limit data-mb.
        r = try strata(["validate", "label.yaml", "--data", "big.json", "--limit", "data-mb=1"], timeout: 30)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("big.json: the file is 2097160 bytes; at most 1048576 are read (raise it with --limit data-mb=N)"), r.stderr)

        // Batch rows: a CSV field over the limit fails the file, naming it and the line.
        try write("rows.csv", "t\nshort\n" + String(repeating: "y", count: 3000) + "\n")
        r = try strata(["batch", "label.yaml", "--data", "rows.csv", "--out", "out", "--limit", "data-value-kb=2"], timeout: 30)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("rows.csv:3: field 1 of the row is more than 2048 bytes: over the limit of 2 KiB (raise it with --limit data-value-kb=N)"), r.stderr)
        // A JSON Lines row with a long value fails that row; the others render.
        try write("rows.jsonl", "{\"t\": \"ok\"}\n{\"t\": \"\(String(repeating: "y", count: 3000))\"}\n")
        r = try strata(["batch", "label.yaml", "--data", "rows.jsonl", "--out", "out", "--limit", "data-value-kb=2", "-q"], timeout: 60)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("row 2 (rows.jsonl:2): rows.jsonl:2: the value of t is 3000 bytes: over the limit of 2 KiB"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file("out/1.mp4").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("out/2.mp4").path))
        XCTAssertEqual(leftovers(), [])
    }

    // MARK: Pipes and devices

    func testAFIFOIsRefusedBeforeAnythingOpensIt() throws {
        let fifo = file("clip.mp4")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        let refusal = "it is a named pipe (FIFO), not a regular file"
        var r = try strata(["probe", "clip.mp4"], timeout: 20)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("clip.mp4") && r.stderr.contains(refusal), r.stderr)
        r = try strata(["concat", "clip.mp4", "-o", "joined.mp4"], timeout: 20)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("clip.mp4 (part 1 of 1): \(refusal)"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("joined.mp4").path))
        // A template's video asset, and --data.
        try write("video.yaml", """
            size: [64, 36]
            fps: 10
            duration: 0.2
            layers:
              - {type: video, video: clip.mp4, size: [64, 36]}
            """)
        r = try strata(["render", "video.yaml", "-o", "out.mp4", "-q"], timeout: 20)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("layers[0].video") && r.stderr.contains(refusal), r.stderr)
        try write("label.yaml", Self.label)
        r = try strata(["validate", "label.yaml", "--data", "clip.mp4"], timeout: 20)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains(refusal), r.stderr)
        // The media API refuses it too.
        XCTAssertTrue(message { _ = try MediaProbe(url: fifo) }.contains(refusal))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("out.mp4").path))
        XCTAssertEqual(leftovers(), [])
    }

    // MARK: Time

    private static let slow = """
        size: [64, 36]
        fps: 30
        duration: 3600
        parameters:
          - {name: label, type: string, default: a}
        layers:
          - {type: layer, size: [20, 20], backgroundColor: red,
             animations: [{property: opacity, from: 0, to: 1, duration: 3600}]}
        """

    func testTimeoutStopsARenderCleanly() throws {
        try write("slow.yaml", Self.slow)
        let r = try strata(["render", "slow.yaml", "-o", "slow.mp4", "--timeout", "1", "-q"], timeout: 30)
        XCTAssertEqual(r.status, CommandTimeout.exitStatus, r.stderr)
        XCTAssertEqual(CommandTimeout.exitStatus, 124)
        XCTAssertTrue(r.stderr.contains("stopped by --timeout 1 (the time limit of 1 s) after"), r.stderr)
        XCTAssertTrue(r.stderr.contains("nothing was written"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("slow.mp4").path))
        XCTAssertEqual(leftovers(), [])
        // A bad value is refused as before.
        let bad = try strata(["render", "slow.yaml", "--timeout", "0"], timeout: 30)
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("--timeout 0.0 must be a number of seconds"), bad.stderr)
    }

    func testRowTimeoutFailsTheRowAndBatchTimeoutStopsTheBatch() throws {
        try write("slow.yaml", Self.slow)
        try write("rows.csv", "label\na\nb\n")
        var r = try strata(["batch", "slow.yaml", "--data", "rows.csv", "--out", "out", "--row-timeout", "0.5", "-q"], timeout: 60)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("row 1 (rows.csv:2): stopped by --row-timeout 0.5 (the time limit of 0.5 s)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("row 2 (rows.csv:3): stopped by --row-timeout 0.5"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: file("out").path), [])
        r = try strata(["batch", "slow.yaml", "--data", "rows.csv", "--out", "out2", "--timeout", "1", "-q"], timeout: 60)
        XCTAssertEqual(r.status, 124, r.stderr)
        XCTAssertTrue(r.text.contains("stopped by --timeout 1"), r.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: file("out2").path), [])
        XCTAssertEqual(leftovers(), [])
    }

    func testACancellationFollowsItsParentAndItsDeadline() throws {
        let parent = ExportCancellation()
        let child = ExportCancellation(parent: parent, timeout: 3600, timeoutReason: "late")
        XCTAssertNil(child.reason)
        parent.cancel(reason: "interrupted by SIGINT")
        XCTAssertEqual(child.reason, "interrupted by SIGINT")
        XCTAssertFalse(child.timedOut)
        let due = ExportCancellation(parent: ExportCancellation(), timeout: 0, timeoutReason: "late")
        XCTAssertEqual(due.reason, "late")
        XCTAssertTrue(due.timedOut)
        XCTAssertTrue(due.isCancelled)
    }

    // MARK: Limits by name

    func testTheNewLimitsHaveNamesAndUnits() throws {
        var limits = SceneLimits()
        try limits.set("expansion-mb", to: "2")
        XCTAssertEqual(limits.expansionBytes, 2 << 20)
        try limits.set("data-value-kb", to: "3")
        XCTAssertEqual(limits.dataValueBytes, 3 << 10)
        try limits.set("data-mb", to: "5")
        XCTAssertEqual(limits.dataFileBytes, 5 << 20)
        try limits.set("timeline-steps", to: "7")
        XCTAssertEqual(limits.timelineSteps, 7)
        try limits.set("character-scalars", to: "9")
        XCTAssertEqual(limits.characterScalars, 9)
        XCTAssertEqual(message { try limits.set("data-value-kb", to: "0") }, "limit data-value-kb=0: expected a whole number ≥ 1")
    }
}
