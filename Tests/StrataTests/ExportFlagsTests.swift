// Every export flag of `strata render` / `strata batch`, through the executable: each output is
// decoded back with ffprobe/ffmpeg (codec, pixel format, the alpha plane at chosen pixels, GIF
// loop count and colours, the GIF size goal, WebP settings); every combination an output cannot
// take is refused before anything is written, with its message; a template's `export:` block
// gives defaults that the command line overrides. Scenes are 64×48 with five frames or so.
import Foundation
import Strata
import XCTest

final class ExportFlagsTests: XCTestCase {
    /// Over transparency: a red 32×24 block at the top left (its opacity rising from 0.2 to 1), a
    /// half-transparent green block at the bottom right, nothing elsewhere.
    static let overlay = """
        size: [64, 48]
        fps: 10
        duration: 0.5
        layers:
          - type: layer
            size: [32, 24]
            backgroundColor: "#FF0000"
            layout: {pin: topLeading}
            animations:
              - {property: opacity, from: 0.2, to: 1, duration: 0.4}
          - {type: layer, size: [32, 24], backgroundColor: "#00FF0080", layout: {pin: bottomTrailing}}
        """

    /// A diagonal gradient fading in: many colours, so palettes and dithering matter.
    static let gradient = """
        size: [64, 48]
        fps: 10
        duration: 0.5
        layers:
          - type: gradient
            size: [64, 48]
            colors: ["#FF0000", "#00FF88", "#2200FF"]
            startPoint: [0, 0]
            endPoint: [1, 1]
            animations:
              - {property: opacity, from: 0.3, to: 1, duration: 0.5}
        """

    private var folder: URL!

    override func setUpWithError() throws {
        folder = try temporaryFolder()
        try Self.overlay.write(to: file("overlay.yaml"), atomically: true, encoding: .utf8)
        try Self.gradient.write(to: file("gradient.yaml"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    private func strata(_ arguments: [String]) throws -> ProcessResult {
        try runProcess(strataExecutable, arguments, directory: folder)
    }

    /// Renders `template` to `output` with `flags`, asserting success.
    @discardableResult
    private func render(_ output: String, _ flags: [String] = [], line: UInt = #line) throws -> URL {
        try render("overlay.yaml", output, flags, line: line)
    }

    @discardableResult
    private func render(_ template: String, _ output: String, _ flags: [String] = [], line: UInt = #line) throws -> URL {
        let r = try strata(["render", template, "-o", output, "-q"] + flags)
        XCTAssertEqual(r.status, 0, "\(flags): \(r.stderr)", line: line)
        return file(output)
    }

    /// The first video stream's ffprobe fields.
    private func stream(_ url: URL) throws -> [String: Any] {
        let info = try ffprobe(url, ["-show_streams", "-select_streams", "v:0"])
        return try XCTUnwrap((info["streams"] as? [[String: Any]])?.first)
    }

    /// Every frame decoded to RGBA8 (`decoder`: an FFmpeg decoder to force, e.g. libvpx-vp9,
    /// whose VP9 keeps the alpha that FFmpeg's own decoder drops).
    private func rgbaFrames(_ url: URL, width: Int = 64, height: Int = 48, decoder: String? = nil) throws -> [[UInt8]] {
        let r = try runProcess("ffmpeg", ["-v", "error"] + (decoder.map { ["-c:v", $0] } ?? []) + ["-i", url.path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let size = width * height * 4
        let bytes = [UInt8](r.stdout)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    private func pixel(_ frame: [UInt8], _ x: Int, _ y: Int, width: Int = 64) -> [Int] {
        let i = (y * width + x) * 4
        return frame[i..<i + 4].map(Int.init)
    }

    /// Files in the test folder other than the templates.
    private var outputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasSuffix(".yaml") && !$0.hasSuffix(".csv") }.sorted()
    }

    // MARK: Refusals

    func testEveryCombinationAnOutputCannotTakeIsRefusedBeforeAnythingIsWritten() throws {
        let cases: [([String], String)] = [
            (["-o", "a.mp4", "--alpha"], "a.mp4: --alpha: MP4 files cannot carry alpha; outputs that can: PNG frames (a folder), .gif, .webp, .mov (ProRes 4444) and .webm (VP9)"),
            (["-o", "a.mp4", "--transparent"], "--alpha: MP4 files cannot carry alpha"),
            (["-o", "a.mov", "--alpha", "--codec", "h264"], "a.mov: --alpha with --codec h264: h264 in .mov cannot carry alpha; outputs that can:"),
            (["-o", "a.webm", "--alpha", "--codec", "av1"], "--alpha with --codec av1: av1 in .webm cannot carry alpha"),
            (["-o", "a.mp4", "--codec", "prores"], "a.mp4: --codec prores cannot go in a .mp4 output: prores goes in .mov files; .mp4 takes h264, hevc, vp9, av1"),
            (["-o", "a.webm", "--codec", "h264"], "--codec h264 cannot go in a .webm output: h264 goes in .mp4 or .mov files; .webm takes vp9, av1"),
            (["-o", "a.gif", "--codec", "h264"], "a.gif: --codec applies to .mp4, .mov and .webm outputs, not a .gif output"),
            (["-o", "a.webp", "--codec", "vp9"], "--codec applies to .mp4, .mov and .webm outputs, not a .webp output (a .webp output is always WebP)"),
            (["-o", "a.gif", "--colors", "300"], "--colors '300': expected a whole number from 2 to 256"),
            (["-o", "a.mp4", "--colors", "16"], "a.mp4: --colors applies to .gif outputs, not a .mp4 output"),
            (["-o", "a.mp4", "--lossless"], "a.mp4: --lossless applies to .webp outputs, not a .mp4 output"),
            (["-o", "a.mp4", "--quality", "80"], "--quality applies to .webp outputs, not a .mp4 output (for video use --crf or --bitrate)"),
            (["-o", "a.mp4", "--dither", "ordered"], "--dither applies to .gif outputs, not a .mp4 output"),
            (["-o", "a.mp4", "--loop", "3"], "--loop applies to .gif and .webp outputs, not a .mp4 output"),
            (["-o", "a.mp4", "--max-bytes", "2MB"], "--max-bytes applies to .gif outputs, not a .mp4 output"),
            (["-o", "a.webm", "--gif-fps", "5"], "--gif-fps applies to .gif outputs, not a .webm output"),
            (["-o", "a.gif", "--max-bytes", "lots"], "--max-bytes 'lots': expected a size of at least 1KB, e.g. 500KB, 2MB, 1.5MiB or 800000"),
            (["-o", "a.gif", "--dither", "diffusion=2"], "--dither 'diffusion=2': expected a strength from 0 to 1 after '=' (diffusion=0.75)"),
            (["-o", "a.gif", "--loop", "0"], "--loop '0': expected forever, or the number of times to play from 1 to 65535"),
            (["-o", "a.mp4", "--codec", "h264", "--crf", "60"], "--crf 60 is outside 0–51 for h264"),
            (["-o", "a.mov", "--codec", "prores", "--crf", "20"], "--crf does not apply to ProRes"),
            (["-o", "a.mp4", "--crf", "20", "--bitrate", "1M"], "--crf and --bitrate both set the video's quality: give one"),
            (["-o", "a.mp4", "--bitrate", "fast"], "--bitrate 'fast': expected bits per second from 1k to 2G"),
            (["-o", "a.mov", "--codec", "prores", "--pixel-format", "yuv420p"], "--pixel-format yuv420p: the prores encoder does not take it (it takes "),
            (["-o", "a.mov", "--alpha", "--pixel-format", "yuv422p10"], "--pixel-format yuv422p10 has no alpha plane; --alpha needs yuva444p10 (ProRes 4444)"),
            (["-o", "a.mp4", "--pixel-format", "yuva420p"], "--pixel-format yuva420p: MP4 files cannot carry alpha"),
            (["-o", "a.webp", "--pixel-format", "yuv420p"], "--pixel-format applies to .mp4, .mov and .webm outputs, not a .webp output (WebP is RGB: --alpha keeps transparency)"),
            (["-o", "a.gif", "--audio"], "--audio: a .gif output has no audio track; .mp4, .mov and .webm do"),
            (["-o", "a.mov", "--alpha", "--background", "white"], "--background paints behind the frames and makes them opaque; it cannot go with --alpha"),
            (["-o", "a.mp4", "--background", "nocolour"], "--background 'nocolour': expected a colour"),
            (["-o", "frames", "--preset", "fast"], "frames: --preset applies to .mp4, .mov and .webm outputs, not PNG frames (a folder)"),
            (["-o", "a.mov", "--codec", "prores", "--preset", "fast"], "--preset fast does not apply to ProRes"),
        ]
        // Each checked in-process (the same ExportSettings the flags become) …
        for (arguments, message) in cases {
            let output = URL(fileURLWithPath: folder.appendingPathComponent(arguments[1]).path)
            var settings = ExportSettings()
            var problem: String?
            var i = 2
            while i < arguments.count {
                let flag = arguments[i]
                let field = ExportSettings.Field.allCases.first { $0.flag == flag }
                    ?? (flag == "--transparent" ? .alpha : flag == "--no-audio" ? .audio : nil)
                let takesValue = ![.alpha, .lossless, .audio].contains(field)
                let value = takesValue ? arguments[i + 1] : (flag == "--no-audio" ? "false" : "true")
                i += takesValue ? 2 : 1
                do { try settings.set(XCTUnwrap(field, flag), text: value) } catch let e as ExportSettingsError { problem = e.message; break }
            }
            problem = problem ?? settings.problems(for: output).first?.message
            let expected = message.hasPrefix(arguments[1] + ": ") ? String(message.dropFirst(arguments[1].count + 2)) : message
            XCTAssertTrue(problem?.contains(expected) ?? false, "\(arguments): expected “\(expected)”, got: \(problem ?? "nothing")")
        }
        // … and a few through the executable: the message with the output's name, status 1, nothing written.
        for (arguments, message) in cases.filter({ ["--transparent", "--lossless", "--colors", "--dither"].contains($0.0[2]) }) {
            let r = try strata(["render", "overlay.yaml"] + arguments)
            XCTAssertNotEqual(r.status, 0, "\(arguments)")
            XCTAssertTrue(r.stderr.contains(message), "\(arguments): expected “\(message)”, got: \(r.stderr)")
            XCTAssertEqual(outputs, [], "\(arguments) wrote something")
        }
    }

    // MARK: Video

    func testCodecPixelFormatQualityPresetAndAudioFlagsReachTheFile() throws {
        let hevc = try stream(render("a.mp4", ["--codec", "hevc", "--pixel-format", "yuv444p", "--crf", "30", "--preset", "ultrafast"]))
        XCTAssertEqual(hevc["codec_name"] as? String, "hevc")
        XCTAssertEqual(hevc["pix_fmt"] as? String, "yuv444p")
        let vp9 = try stream(render("b.mp4", ["--codec", "vp9", "--bitrate", "300k"]))
        XCTAssertEqual(vp9["codec_name"] as? String, "vp9")
        let ten = try stream(render("c.mov", ["--pixel-format", "yuv444p10", "--codec", "prores"]))
        XCTAssertEqual(ten["codec_name"] as? String, "prores")
        // FFmpeg's ProRes decoder reads 4444 as 12-bit; the profile says what was written.
        XCTAssertEqual(ten["profile"] as? String, "4444")
        XCTAssertEqual(ten["pix_fmt"] as? String, "yuv444p12le")
        // ProRes without a pixel format: 422 HQ's 10-bit 4:2:2.
        XCTAssertEqual(try stream(render("c2.mov", ["--codec", "prores"]))["pix_fmt"] as? String, "yuv422p10le")
        // AV1 in WebM (SVT-AV1 takes 64×64 and up).
        let av1 = try stream(render("g.webm", ["--codec", "av1", "--size", "64x64", "--crf", "50"]))
        XCTAssertEqual(av1["codec_name"] as? String, "av1")
        XCTAssertEqual(av1["height"] as? Int, 64)
        // --audio: a track of silence; --no-audio: none.
        let withAudio = try ffprobe(render("d.mp4", ["--audio"]), ["-show_streams"])
        XCTAssertEqual((withAudio["streams"] as? [[String: Any]])?.compactMap { $0["codec_type"] as? String }, ["video", "audio"])
        let without = try ffprobe(render("e.mp4", ["--no-audio"]), ["-show_streams"])
        XCTAssertEqual((without["streams"] as? [[String: Any]])?.compactMap { $0["codec_type"] as? String }, ["video"])
        // CRF changes the bytes: a lower CRF makes a larger file of the same frames.
        let fine = try render("gradient.yaml", "f1.mp4", ["--crf", "0"]), coarse = try render("gradient.yaml", "f2.mp4", ["--crf", "51"])
        let size = { (u: URL) in (try FileManager.default.attributesOfItem(atPath: u.path)[.size] as? Int) ?? 0 }
        XCTAssertGreaterThan(try size(fine), try size(coarse) * 3 / 2)
    }

    func testBackgroundIsCompositedUnderTheScene() throws {
        let frames = try rgbaFrames(render("a.mp4", ["--background", "white", "--pixel-format", "yuv444p", "--crf", "0"]))
        XCTAssertEqual(frames.count, 5)
        // Nothing at the top right: white. The green block (50 %) over white: (128, 255, 128).
        for (p, expected) in [(pixel(frames[4], 48, 8), [255, 255, 255]), (pixel(frames[4], 48, 36), [127, 255, 127]),
                              (pixel(frames[4], 8, 8), [255, 0, 0])] {
            for c in 0..<3 { XCTAssertEqual(Double(p[c]), Double(expected[c]), accuracy: 4, "\(p) vs \(expected)") }
        }
        // Without it, black.
        let black = try rgbaFrames(render("b.mp4", ["--pixel-format", "yuv444p", "--crf", "0"]))
        XCTAssertEqual(Double(pixel(black[4], 48, 8)[0]), 0, accuracy: 4)
        // The same bytes at any worker count (the composite is made per frame on the encoder's thread).
        let one = try Data(contentsOf: render("c.gif", ["--background", "#336699", "--workers", "1"]))
        XCTAssertEqual(try Data(contentsOf: render("d.gif", ["--background", "#336699", "--workers", "3"])), one)
        XCTAssertEqual(pixel(try rgbaFrames(file("c.gif"))[4], 48, 8), [0x33, 0x66, 0x99, 255])
    }

    func testTheLowerThirdTemplateRendersWithAlpha() throws {
        // The bundled template "over transparency", at a twentieth of its size and 0.2 s.
        let mov = try render(templateFolder("lower-third"), "lower.mov", ["--alpha", "--scale", "0.05", "--duration", "2", "--fps", "2", "--frames", "3..3"])
        let frame = try XCTUnwrap(rgbaFrames(mov, width: 96, height: 54).first)
        XCTAssertEqual(pixel(frame, 90, 4, width: 96)[3], 0, "transparent where there is no plate")
        XCTAssertEqual(Double(pixel(frame, 8, 45, width: 96)[3]), 204, accuracy: 2, "the plate at the bottom left, #0D1117CC: 80 % opaque")
    }

    /// The repository's template folder `name`.
    private func templateFolder(_ name: String) -> String {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Templates").path) { dir.deleteLastPathComponent() }
        return dir.appendingPathComponent("Templates/\(name)").path
    }

    // MARK: Alpha

    func testAlphaKeepsTheTemplatesTransparencyInEveryFormatThatCarriesIt() throws {
        // Expected at the last frame: transparent top right, opaque red top left, green at 50 %.
        func check(_ frame: [UInt8], _ what: String, tolerance: Double) {
            XCTAssertEqual(Double(pixel(frame, 48, 8)[3]), 0, accuracy: tolerance, "\(what): nothing there")
            XCTAssertEqual(Double(pixel(frame, 8, 8)[3]), 255, accuracy: tolerance, "\(what): the red block")
            XCTAssertEqual(Double(pixel(frame, 8, 8)[0]), 255, accuracy: tolerance * 2, "\(what): red")
            XCTAssertEqual(Double(pixel(frame, 48, 36)[3]), 128, accuracy: tolerance, "\(what): half-transparent green")
        }
        let mov = try render("a.mov", ["--alpha"])
        let prores = try stream(mov)
        XCTAssertEqual(prores["codec_name"] as? String, "prores")
        XCTAssertTrue((prores["pix_fmt"] as? String ?? "").hasPrefix("yuva444p"), "\(prores["pix_fmt"] ?? "")")
        XCTAssertEqual(prores["profile"] as? String, "4444")
        XCTAssertTrue(try MediaProbe(url: mov).videoStream?.pixelFormat?.hasPrefix("yuva444p") ?? false, "strata probe shows the alpha")
        check(try rgbaFrames(mov)[4], "ProRes 4444", tolerance: 3)

        let webm = try render("a.webm", ["--transparent"])
        XCTAssertEqual(try stream(webm)["codec_name"] as? String, "vp9")
        check(try rgbaFrames(webm, decoder: "libvpx-vp9")[4], "VP9", tolerance: 6)
        XCTAssertEqual(try MediaProbe(url: webm).videoStream?.pixelFormat, "yuva420p")

        // GIF: pixels under half opacity are transparent; the 50 % green (128) is kept.
        let gif = try rgbaFrames(render("a.gif", ["--alpha"]))
        XCTAssertEqual(pixel(gif[4], 48, 8)[3], 0)
        XCTAssertEqual(pixel(gif[4], 8, 8), [255, 0, 0, 255])

        let frames = try render("frames", ["--alpha"])
        let png = try Bitmap(contentsOfPNG: frames.appendingPathComponent("frame_00004.png"))
        check(png.pixels, "PNG", tolerance: 1)

        // Without --alpha the same template is on black.
        let opaque = try rgbaFrames(render("b.mov", []))
        XCTAssertEqual(pixel(opaque[4], 48, 8)[3], 255)
        XCTAssertEqual(Double(pixel(opaque[4], 48, 8)[1]), 0, accuracy: 3)
    }

    // MARK: GIF

    /// The times a GIF plays as its NETSCAPE2.0 block says (nil: no block, so once).
    private func gifPlays(_ url: URL) throws -> Int? {
        let bytes = [UInt8](try Data(contentsOf: url))
        let tag = Array("NETSCAPE2.0".utf8)
        guard let at = (0..<(bytes.count - tag.count)).first(where: { Array(bytes[$0..<$0 + tag.count]) == tag }) else { return nil }
        let repeats = Int(bytes[at + 13]) | Int(bytes[at + 14]) << 8
        return repeats == 0 ? 0 : repeats + 1
    }

    func testGIFColoursDitherLoopFrameRateAndSizeGoal() throws {
        let fourColours = try render("gradient.yaml", "four.gif", ["--colors", "4", "--loop", "3"])
        // At most 4 colours in each frame's palette (frames of a gradient each get their own).
        for frame in try rgbaFrames(fourColours) {
            var colours = Set<[UInt8]>()
            for i in stride(from: 0, to: frame.count, by: 4) { colours.insert(Array(frame[i..<i + 3])) }
            XCTAssertLessThanOrEqual(colours.count, 4)
            XCTAssertGreaterThan(colours.count, 1)
        }
        XCTAssertEqual(try gifPlays(fourColours), 3)
        XCTAssertEqual(try gifPlays(render("forever.gif", ["--loop", "forever"])), 0)
        XCTAssertNil(try gifPlays(render("once.gif", ["--loop", "1"])))

        // Dithering: diffusion at strength 0 is no dithering; full strength differs from the
        // default (auto: at present none), which `auto` names.
        let none = try Data(contentsOf: render("gradient.yaml", "none.gif", ["--dither", "none"]))
        XCTAssertEqual(try Data(contentsOf: render("gradient.yaml", "zero.gif", ["--dither", "diffusion=0"])), none)
        let half = try Data(contentsOf: render("gradient.yaml", "half.gif", []))
        XCTAssertEqual(try Data(contentsOf: render("gradient.yaml", "auto.gif", ["--dither", "auto"])), half)
        XCTAssertEqual(half, none, "auto is none at present")
        XCTAssertNotEqual(try Data(contentsOf: render("gradient.yaml", "full.gif", ["--dither", "diffusion=1"])), half)
        XCTAssertNotEqual(try Data(contentsOf: render("gradient.yaml", "ordered.gif", ["--dither", "ordered"])), none)

        // --gif-fps 4 of 10 fps, 0.5 s: frames at 0, 0.25 s.
        let fourFPS = try ffprobe(render("gradient.yaml", "fourfps.gif", ["--gif-fps", "4"]),
                                  ["-count_frames", "-show_entries", "packet=duration_time", "-show_streams"])
        XCTAssertEqual(((fourFPS["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String), "2")
        XCTAssertEqual((fourFPS["packets"] as? [[String: Any]])?.compactMap { $0["duration_time"] as? String }, ["0.250000", "0.250000"])

        // The size goal: the plain GIF is larger than 5 KB; with the goal it fits.
        XCTAssertGreaterThan(half.count, 5_000)
        let fitted = try render("gradient.yaml", "fitted.gif", ["--max-bytes", "5KB"])
        let bytes = try Data(contentsOf: fitted).count
        XCTAssertLessThanOrEqual(bytes, 5_000)
        XCTAssertEqual(try rgbaFrames(fitted).count, 5, "the goal was reached without dropping frames")
        // A goal no setting reaches: an error naming the smallest size, and no file.
        let r = try strata(["render", "gradient.yaml", "-o", "tiny.gif", "--max-bytes", "1KB"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("within 1000 bytes: the smallest GIF was "), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("tiny.gif").path))
        XCTAssertEqual(outputs.filter { $0.contains("partial") || $0.hasPrefix(".") }, [])
    }

    // MARK: WebP and probe

    func testWebPFlagsAndProbeOfAnimatedWebP() throws {
        let lossless = try render("gradient.yaml", "lossless.webp", ["--lossless", "--loop", "2"])
        let probe = try XCTUnwrap(MediaProbe(url: lossless).videoStream)
        XCTAssertEqual(probe.width, 64)
        XCTAssertEqual(probe.height, 48)
        XCTAssertEqual(probe.frameCount, 5)
        XCTAssertEqual(probe.loopCount, 2)
        XCTAssertEqual(probe.pixelFormat, "rgb24", "VP8L frames")
        let r = try strata(["probe", lossless.path])
        XCTAssertTrue(r.text.contains("#0 video webp, 64×48, rgb24, 10 fps, 0.500 s, plays 2×, 5 frames"), r.text)

        // Lossy: libwebp merges frames that differ too little for the quality, so the frames
        // are counted as webpinfo counts them.
        let lossy = try render("gradient.yaml", "lossy.webp", ["--quality", "20"])
        let lossyProbe = try XCTUnwrap(MediaProbe(url: lossy).videoStream)
        XCTAssertEqual(lossyProbe.pixelFormat, "yuv420p")
        XCTAssertEqual(lossyProbe.duration ?? 0, 0.5, accuracy: 0.001)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/webpinfo") {
            let info = try runProcess("/usr/bin/webpinfo", [lossy.path]).text
            XCTAssertEqual(lossyProbe.frameCount, info.components(separatedBy: "Chunk ANMF").count - 1)
        }
        let fine = try render("gradient.yaml", "fine.webp", ["--quality", "95"])
        XCTAssertGreaterThan(try Data(contentsOf: fine).count, try Data(contentsOf: lossy).count)
        let alpha = try XCTUnwrap(MediaProbe(url: render("overlay.yaml", "alpha.webp", ["--alpha"])).videoStream)
        XCTAssertEqual(alpha.pixelFormat, "yuva420p")
        XCTAssertEqual(alpha.frameCount, 5)
    }

    // MARK: Template defaults and batch

    func testATemplatesExportBlockGivesDefaultsTheCommandLineOverrides() throws {
        let template = Self.overlay + """

            export:
              codec: hevc
              crf: 40
              colors: 6
              loop: 2
            """
        try template.write(to: file("defaults.yaml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try stream(render("defaults.yaml", "a.mp4"))["codec_name"] as? String, "hevc")
        XCTAssertEqual(try stream(render("defaults.yaml", "b.mp4", ["--codec", "h264"]))["codec_name"] as? String, "h264")
        // A default that does not fit the output is left out: HEVC is not for a .webm, colours not for video.
        XCTAssertEqual(try stream(render("defaults.yaml", "c.webm"))["codec_name"] as? String, "vp9")
        let limited = try render("defaults.yaml", "d.gif")
        XCTAssertEqual(try gifPlays(limited), 2)
        XCTAssertEqual(try gifPlays(render("defaults.yaml", "e.gif", ["--loop", "forever"])), 0)

        // A bad block: the file, line and key.
        try (Self.overlay + "\nexport:\n  colors: 300\n").write(to: file("bad.yaml"), atomically: true, encoding: .utf8)
        let r = try strata(["render", "bad.yaml", "-o", "x.gif"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("bad.yaml:13 export.colors: colors '300': expected a whole number from 2 to 256"), r.stderr)
        try (Self.overlay + "\nexport:\n  colours: 8\n").write(to: file("typo.yaml"), atomically: true, encoding: .utf8)
        XCTAssertTrue(try strata(["render", "typo.yaml", "-o", "x.gif"]).stderr.contains("typo.yaml:13 export.colours: unknown export setting (expected one of codec, alpha"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("x.gif").path))
    }

    func testBatchTakesTheSameFlagsAndRefusesBeforeAnyRow() throws {
        try "n\n1\n2\n".write(to: file("rows.csv"), atomically: true, encoding: .utf8)
        let r = try strata(["batch", "overlay.yaml", "--data", "rows.csv", "--out", "out", "--name", "{{row}}.gif", "--colors", "3", "--alpha", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for row in 1...2 {
            let frames = try rgbaFrames(folder.appendingPathComponent("out/\(row).gif"))
            XCTAssertEqual(pixel(frames[4], 48, 8)[3], 0, "transparent")
            var colours = Set<[UInt8]>()
            for f in frames { for i in stride(from: 0, to: f.count, by: 4) where f[i + 3] > 0 { colours.insert(Array(f[i..<i + 3])) } }
            XCTAssertLessThanOrEqual(colours.count, 3)
        }
        let refused = try strata(["batch", "overlay.yaml", "--data", "rows.csv", "--out", "out2", "--name", "{{row}}.mp4", "--alpha"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("row.mp4: --alpha: MP4 files cannot carry alpha"), refused.stderr)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: file("out2").path)) ?? [], [])
    }
}
