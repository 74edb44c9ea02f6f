// The DSL examples in examples/, each rendered at telling times to a reference strip (frames side
// by side at half size) reviewed by eye when recorded; their command lines (`sheet`, `still`,
// `render`) run through `StrataScript.run(arguments:)`; the GIF a script renders is decoded by
// ffmpeg and compared with the scene's frames.
import XCTest
import Strata
import StrataCLI
import StrataTestSupport
@testable import example_title_card
@testable import example_lower_third
@testable import example_bar_chart
@testable import example_logo_reveal
@testable import example_loading_spinner
@testable import example_card_flip
@testable import example_counting_chart

final class DSLExampleTests: XCTestCase {
    private func strip(_ scene: Scene, _ times: [Double], reduction: Int = 4) throws -> Bitmap {
        ContactSheet.make(try times.map { try scene.renderFrame(at: $0) }, columns: times.count, reduction: reduction, spacing: 2)
    }

    func testTitleCard() throws {
        assertReferenceImage(try strip(TitleCard().scene, [0.2, 0.5, 1.0, 2.5]), named: "title-card")
    }

    func testLowerThird() throws {
        assertReferenceImage(try strip(LowerThird().scene, [0.3, 1.5, 3.3, 3.9]), named: "lower-third")
    }

    func testBarChart() throws {
        assertReferenceImage(try strip(BarChart().scene, [0.5, 0.9, 2.9]), named: "bar-chart")
    }

    func testLogoReveal() throws {
        assertReferenceImage(try strip(LogoReveal().scene, [0.5, 1.0, 1.6, 2.9]), named: "logo-reveal")
    }

    func testLoadingSpinnerLoopsSeamlessly() throws {
        let scene = LoadingSpinner().scene
        assertReferenceImage(try strip(scene, [0, 0.25, 0.5], reduction: 1), named: "loading-spinner")
        // One turn a second: the frame after the last is the first again.
        XCTAssertTrue(try scene.renderFrame(at: 1.0).pixels == scene.renderFrame(at: 0).pixels)
    }

    func testCardFlip() throws {
        assertReferenceImage(try strip(CardFlip().scene, [0.3, 1.0, 1.3, 2.9]), named: "card-flip")
    }

    /// The new-user trial's chart (issue 43), as a DSL script and as a template of the same
    /// design: both against one reference strip, and their counters' text at chosen frames equal
    /// to the values of the easeOut curve, computed here by hand.
    func testCountingChartAsScriptAndAsTemplate() throws {
        let script = CountingChart().scene
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/counting-chart")
        let template = try Template(contentsOf: folder.appendingPathComponent("counting-chart.yaml")).makeScene()
        let times = [0.6, 1.3, 2.4, 5.0, 5.6]
        assertReferenceImage(try strip(script, times), named: "counting-chart")
        assertReferenceImage(try strip(template, times), named: "counting-chart", tolerance: 2, maxPixelsOver: 0)
        // Core Animation's easeOut, (0, 0, 0.58, 1), solved by bisection.
        func easeOut(_ x: Double) -> Double {
            func bez(_ s: Double, _ a: Double, _ b: Double) -> Double { 3 * a * s * (1 - s) * (1 - s) + 3 * b * s * s * (1 - s) + s * s * s }
            var lo = 0.0, hi = 1.0
            for _ in 0..<100 { let mid = (lo + hi) / 2; if bez(mid, 0, 0.58) < x { lo = mid } else { hi = mid } }
            return bez((lo + hi) / 2, 0, 1)
        }
        let values = [42.0, 68, 55, 91, 76]
        for scene in [script, template] {
            // The counters, left to right: the text layers whose string is animated.
            var counters: [CALayer] = []
            func walk(_ l: CALayer) {
                if l is CATextLayer, (l.animationKeys() ?? []).contains(where: { (l.animation(forKey: $0) as? CAPropertyAnimation)?.keyPath == "string" }) {
                    counters.append(l)
                }
                (l.sublayers ?? []).forEach(walk)
            }
            walk(scene.rootLayer)
            XCTAssertEqual(counters.count, 5)
            for (i, counter) in counters.enumerated() {
                for frame in [0, 15, 20, 30, 40, 50, 60, 75, 100, 179] {
                    let t = Double(frame) / 30, start = 0.5 + 0.3 * Double(i)
                    let v = values[i] * easeOut(min(max((t - start) / 1.5, 0), 1))
                    let shown = (try scene.presentation(of: counter, at: t) as? CATextLayer)?.string as? String
                    XCTAssertEqual(shown, "\(Int(v.rounded(.toNearestOrAwayFromZero)))", "counter \(i), frame \(frame)")
                }
            }
        }
    }

    func testScriptCommandLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sheet = dir.appendingPathComponent("sheet.png").path
        try TitleCard.run(arguments: ["sheet", "-o", sheet, "--count", "6", "--columns", "3", "--reduction", "8"])
        let image = try Bitmap(contentsOfPNG: URL(fileURLWithPath: sheet))
        XCTAssertEqual(image.width, 3 * 160 + 4 * 4)
        // Each cell labelled under it (a 14-pixel font at this cell width, 2 pixels above and below).
        XCTAssertEqual(image.height, 2 * (90 + 18) + 3 * 4)
        let still = dir.appendingPathComponent("still.png").path
        try LogoReveal.run(arguments: ["still", "--time", "2", "-o", still, "--size", "640x360"])
        XCTAssertEqual(try Bitmap(contentsOfPNG: URL(fileURLWithPath: still)).width, 640)
        let gif = dir.appendingPathComponent("spinner.gif").path
        try LoadingSpinner.run(arguments: ["render", "-o", gif, "--quiet"])
        try checkGIF(gif, against: LoadingSpinner().scene)
        XCTAssertEqual(LoadingSpinner.defaultOutput, "loading-spinner.gif")
        XCTAssertEqual(TitleCard.defaultOutput, "title-card.mp4")
        XCTAssertThrowsError(try TitleCard.run(arguments: ["render", "--frames", "10..5"]))
    }

    /// A script's render takes `strata render`'s flags (the same option groups).
    func testScriptRenderTakesTheRenderFlags() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("spinner.gif").path
        try LoadingSpinner.run(arguments: ["render", "-o", gif, "--quiet", "--workers", "2", "--keyframe-interval", "12",
                                           "--frames", "0..11", "--timeout", "600", "--limit", "layers=1000", "--colors", "64",
                                           "--dither", "ordered", "--overwrite", "--duration", "1", "--fps", "24", "--scale", "1"])
        let frames = try ffmpegFrames(gif)
        XCTAssertEqual(frames.count, 12)
        XCTAssertThrowsError(try LoadingSpinner.run(arguments: ["render", "-o", gif, "--workers", "0"]))
        XCTAssertThrowsError(try LoadingSpinner.run(arguments: ["render", "-o", gif, "--preset", "fastest"]))
        XCTAssertThrowsError(try LoadingSpinner.run(arguments: ["render", "-o", gif, "--crf", "20"]), "--crf is for video")
        XCTAssertThrowsError(try LoadingSpinner.run(arguments: ["still", "-o", gif]), "a still is a .png")
    }

    /// The GIF holds every frame of `scene` at its size, and its pixels are the frames' within
    /// the quantiser's error.
    private func checkGIF(_ path: String, against scene: Scene) throws {
        let frames = try ffmpegFrames(path)
        XCTAssertEqual(frames.count, scene.frameCount)
        for index in [0, scene.frameCount / 2] where index < frames.count {
            let expected = try scene.renderFrame(index: index)
            XCTAssertEqual(frames[index].count, expected.width * expected.height * 4)
            // A corner of the white background, exactly.
            XCTAssertEqual(Array(frames[index][0..<4]), [255, 255, 255, 255], "frame \(index)")
            let error = zip(frames[index], expected.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            XCTAssertLessThan(Double(error) / Double(expected.pixels.count), 3, "mean difference, frame \(index)")
        }
    }

    /// The frames of a GIF as RGBA bytes, decoded by ffmpeg (the oracle; skipped without it).
    private func ffmpegFrames(_ path: String) throws -> [[UInt8]] {
        guard let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("ffmpeg is not installed")
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: ffmpeg.replacingOccurrences(of: "ffmpeg", with: "ffprobe"))
        probe.arguments = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", path]
        let size = try output(of: probe).split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard size.count == 2 else { XCTFail("ffprobe: no size"); return [] }
        let decode = Process()
        decode.executableURL = URL(fileURLWithPath: ffmpeg)
        decode.arguments = ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-fps_mode", "passthrough", "-"]
        let bytes = [UInt8](try outputData(of: decode))
        let frameBytes = size[0] * size[1] * 4
        XCTAssertEqual(bytes.count % frameBytes, 0)
        return stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { Array(bytes[$0..<($0 + frameBytes)]) }
    }

    private func output(of process: Process) throws -> String { String(decoding: try outputData(of: process), as: UTF8.self) }

    private func outputData(of process: Process) throws -> Data {
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(process.arguments ?? [])")
        return data
    }
}
