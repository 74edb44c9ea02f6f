// A StrataScript with --size/--fps/--duration is built again at the new format with every part
// of it — its `scene.at` blocks included (they used to be dropped silently when the composition
// was recompiled alone) — a Core Animation scene is refused with a message, a script's render
// takes the export flags, and `sheet` labels its cells (or not, with --no-labels).
import XCTest
import Strata
import StrataCLI

/// A green square pinned to the top left whose colour a `scene.at` block turns red at 0.5 s.
struct ColourSwitch: StrataScript {
    var scene: Scene {
        let scene = Scene(size: CGSize(width: 64, height: 48), frameRate: 10, duration: 1, background: .black) {
            Layer().frame(width: 16, height: 16).background(.hex("#00FF00")).pin(.topLeading).id("square")
        }
        scene.at(0.5) {
            CATransaction.setDisableActions(true)
            scene.layer(named: "square")?.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        }
        return scene
    }
}

/// Two texts in a family that is not installed.
struct MissingFont: StrataScript {
    var scene: Scene {
        Scene(size: CGSize(width: 64, height: 48), frameRate: 10, duration: 0.2) {
            Text("One").font("Nonexistent Grotesk", size: 12)
            Text("Two").font("Nonexistent Grotesk Bold", size: 12)
        }
    }
}

/// The same in Core Animation code: no composition to lay out again.
struct CoreAnimationSquare: StrataScript {
    var scene: Scene {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        return Scene(rootLayer: root, size: CGSize(width: 64, height: 48), frameRate: 10, duration: 1)
    }
}

final class ScriptFormatTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-script-format-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * b.width + x) * 4
        return Array(b.pixels[i..<i + 4])
    }

    func testSizeAndFrameRateKeepTheScenesAtBlocks() throws {
        let frames = dir.appendingPathComponent("frames")
        try ColourSwitch.run(arguments: ["render", "-o", frames.path, "--size", "128x96", "--fps", "4", "--quiet"])
        let names = try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted()
        XCTAssertEqual(names.count, 4, "1 s at 4 fps")
        let first = try Bitmap(contentsOfPNG: frames.appendingPathComponent("frame_00000.png"))
        let last = try Bitmap(contentsOfPNG: frames.appendingPathComponent("frame_00003.png"))
        XCTAssertEqual(first.width, 128, "the new size")
        XCTAssertEqual(pixel(first, 4, 4), [0, 255, 0, 255], "green before 0.5 s")
        XCTAssertEqual(pixel(last, 4, 4), [255, 0, 0, 255], "red after the scene.at block at 0.5 s")
        XCTAssertEqual(pixel(last, 100, 80), [0, 0, 0, 255], "the background")
        // Without the flags the program's scene is as written.
        let plain = dir.appendingPathComponent("plain")
        try ColourSwitch.run(arguments: ["render", "-o", plain.path, "--quiet"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: plain.path).count, 10)
    }

    func testCoreAnimationScenesRefuseSizeWithAMessage() throws {
        XCTAssertThrowsError(try CoreAnimationSquare.run(arguments: ["render", "-o", dir.appendingPathComponent("x.mp4").path, "--size", "32x32"])) {
            XCTAssertTrue("\($0)".contains("--size, --fps and --duration need a scene built with the DSL"), "\($0)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testAScriptsRenderTakesTheExportFlags() throws {
        let webm = dir.appendingPathComponent("a.webm")
        try ColourSwitch.run(arguments: ["render", "-o", webm.path, "--alpha", "--quiet"])
        XCTAssertEqual(try MediaProbe(url: webm).videoStream?.pixelFormat, "yuva420p")
        XCTAssertThrowsError(try ColourSwitch.run(arguments: ["render", "-o", dir.appendingPathComponent("a.mp4").path, "--alpha"])) {
            XCTAssertTrue("\($0)".contains("a.mp4: --alpha: MP4 files cannot carry alpha"), "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("a.mp4").path))
    }

    /// Standard output while `body` runs.
    private func capturingStandardOutput(_ body: () throws -> Void) throws -> String {
        let capture = dir.appendingPathComponent("stdout.txt")
        _ = FileManager.default.createFile(atPath: capture.path, contents: nil)
        let handle = try FileHandle(forWritingTo: capture)
        fflush(nil)
        let saved = dup(STDOUT_FILENO)
        dup2(handle.fileDescriptor, STDOUT_FILENO)
        defer {
            fflush(nil)
            dup2(saved, STDOUT_FILENO)
            close(saved)
            try? handle.close()
        }
        try body()
        fflush(nil)
        return try String(contentsOf: capture, encoding: .utf8)
    }

    func testAMissingFontIsOneWarningInTheJSONProgress() throws {
        let frames = dir.appendingPathComponent("frames")
        let output = try capturingStandardOutput {
            try MissingFont.run(arguments: ["render", "-o", frames.path, "--json"])
        }
        let warnings = output.split(separator: "\n").filter { $0.contains("\"event\":\"warning\"") }
        XCTAssertEqual(warnings.count, 1, output)
        let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(warnings[0].utf8)) as? [String: String])
        XCTAssertEqual(event["output"], frames.path)
        XCTAssertTrue(event["message"]?.hasPrefix("the font family \"Nonexistent Grotesk\" is not installed; text in it is drawn in DejaVu Sans") ?? false,
                      "\(event)")
        XCTAssertTrue(output.contains("\"event\":\"done\""), "the render went on: \(output)")
    }

    func testSheetLabelsEachCellWithItsTimeAndFrame() throws {
        let labelled = dir.appendingPathComponent("labelled.png"), bare = dir.appendingPathComponent("bare.png")
        try ColourSwitch.run(arguments: ["sheet", "-o", labelled.path, "--count", "4", "--columns", "2", "--reduction", "1"])
        try ColourSwitch.run(arguments: ["sheet", "-o", bare.path, "--count", "4", "--columns", "2", "--reduction", "1", "--no-labels"])
        let a = try Bitmap(contentsOfPNG: labelled), b = try Bitmap(contentsOfPNG: bare)
        XCTAssertEqual(b.height, 2 * 48 + 3 * 4)
        XCTAssertEqual(a.height, 2 * (48 + 11) + 3 * 4, "a 7-pixel label with 2 pixels above and below under each cell")
        XCTAssertEqual(a.width, b.width)
        XCTAssertEqual(b, try ColourSwitch().scene.contactSheet(count: 4, columns: 2, reduction: 1))
        XCTAssertEqual(a, try ColourSwitch().scene.contactSheet(count: 4, columns: 2, reduction: 1, labels: true))
        // The frames are where they were; the second cell's label ("0.25s #2" at 4 px, 4 + 48 + 2)
        // starts with the glyph "0": its top row is .XXX. → white at x = 68 + 1…3.
        XCTAssertEqual(pixel(a, 4 + 64 + 4 + 4, 4 + 4), pixel(b, 4 + 64 + 4 + 4, 4 + 4))
        let labelTop = 4 + 48 + 2
        let cellX = 4 + 64 + 4
        XCTAssertEqual(pixel(a, cellX, labelTop), pixel(a, 0, 0), "the first glyph column of 0 is blank at its top")
        XCTAssertEqual(pixel(a, cellX + 1, labelTop), [255, 255, 255, 255])
        XCTAssertEqual(pixel(a, cellX + 3, labelTop), [255, 255, 255, 255])
    }
}
