// End to end: scenes exported to MP4 and GIF, checked with ffprobe and decoded back.
import XCTest
import Strata
import StrataMedia

final class ExportTests: XCTestCase {
    /// A small animated scene: a rotating square and a sliding bar over a gradient-free background.
    func makeScene(width: CGFloat = 320, height: CGFloat = 180, duration: Double = 2) -> Scene {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = CGColor(red: 0.1, green: 0.12, blue: 0.2, alpha: 1)
        let square = CALayer()
        square.frame = CGRect(x: 40, y: 40, width: 80, height: 80)
        square.backgroundColor = CGColor(red: 0.95, green: 0.4, blue: 0.3, alpha: 1)
        square.cornerRadius = 12
        root.addSublayer(square)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.toValue = CGFloat.pi
        spin.duration = duration
        square.add(spin, forKey: "spin")
        let bar = CALayer()
        bar.frame = CGRect(x: 0, y: 140, width: 60, height: 20)
        bar.backgroundColor = CGColor(red: 0.3, green: 0.8, blue: 0.5, alpha: 1)
        root.addSublayer(bar)
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.toValue = width - 30
        slide.duration = duration
        bar.add(slide, forKey: "slide")
        return Scene(rootLayer: root, size: CGSize(width: width, height: height), frameRate: 30, duration: duration)
    }

    func testMP4StreamAndDecodedFrame() throws {
        let dir = try temporaryFolder()
        let url = dir.appendingPathComponent("clip.mp4")
        try makeScene().export(to: url)
        let info = try ffprobe(url, ["-count_frames", "-show_streams", "-show_format"])
        let stream = try XCTUnwrap((info["streams"] as? [[String: Any]])?.first)
        XCTAssertEqual(stream["codec_name"] as? String, "h264")
        XCTAssertEqual(stream["pix_fmt"] as? String, "yuv420p")
        XCTAssertEqual(stream["color_primaries"] as? String, "bt709")
        XCTAssertEqual(stream["color_transfer"] as? String, "bt709")
        XCTAssertEqual(stream["color_space"] as? String, "bt709")
        XCTAssertEqual(stream["nb_read_frames"] as? String, "60")
        XCTAssertEqual(stream["r_frame_rate"] as? String, "30/1")
        let duration = Double((info["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        XCTAssertEqual(duration, 2.0, accuracy: 1e-3)
        // faststart: the moov atom precedes mdat.
        let data = try Data(contentsOf: url)
        let moov = data.range(of: Data("moov".utf8))!.lowerBound, mdat = data.range(of: Data("mdat".utf8))!.lowerBound
        XCTAssertLessThan(moov, mdat)

        // Frame 45 decoded back matches renderFrame (PSNR ≥ 37.5 dB: 37.98 with the tile workers'
        // YUV, whose chroma is each 2×2 block's mean; 38.02 when libswscale converted the frames).
        let raw = try runProcess("ffmpeg", ["-v", "error", "-i", url.path, "-vf", "select=eq(n\\,45)", "-frames:v", "1",
                                     "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        XCTAssertEqual(raw.status, 0, raw.stderr)
        let decoded = Bitmap(width: 320, height: 180, pixels: [UInt8](raw.stdout))
        let expected = try makeScene().renderFrame(index: 45)
        let cmp = try XCTUnwrap(ImageComparison(actual: decoded, expected: expected, tolerance: 255))
        XCTAssertGreaterThanOrEqual(cmp.psnr, 37.5, "PSNR \(cmp.psnr)")
    }

    func testGIFFramesDelaysAndPixels() throws {
        let dir = try temporaryFolder()
        let url = dir.appendingPathComponent("clip.gif")
        let scene = makeScene(duration: 1)
        try scene.export(to: url)
        let info = try ffprobe(url, ["-show_frames", "-show_streams"])
        let frames = try XCTUnwrap(info["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.count, 30)
        // Delays in centiseconds accumulate without drift: their sum is the duration exactly.
        let total = frames.compactMap { Double(($0["pkt_duration_time"] as? String) ?? ($0["duration_time"] as? String) ?? "") }.reduce(0, +)
        XCTAssertEqual(total, 1.0, accuracy: 1e-9)
        let raw = try runProcess("ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        let first = Bitmap(width: 320, height: 180, pixels: [UInt8](raw.stdout))
        let cmp = try XCTUnwrap(ImageComparison(actual: first, expected: try makeScene(duration: 1).renderFrame(index: 0), tolerance: 255))
        XCTAssertGreaterThanOrEqual(cmp.psnr, 30, "GIF first frame PSNR \(cmp.psnr)")
        // The file loops forever (NETSCAPE2.0 application extension with loop count 0).
        let bytes = try Data(contentsOf: url)
        XCTAssertNotNil(bytes.range(of: Data("NETSCAPE2.0".utf8)))
    }

    func testFrameRangeExportsExactlyThoseFrames() throws {
        let dir = try temporaryFolder()
        let url = dir.appendingPathComponent("part.mp4")
        var options = ExportOptions()
        options.frameRange = 30..<45
        try makeScene().export(to: url, options: options)
        let info = try ffprobe(url, ["-count_frames", "-show_streams"])
        XCTAssertEqual((info["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String, "15")
    }

    func testPNGSequence() throws {
        let dir = try temporaryFolder()
        let out = dir.appendingPathComponent("frames")
        var options = ExportOptions()
        options.frameRange = 10..<13
        try makeScene().export(to: out, options: options)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertEqual(names, ["frame_00010.png", "frame_00011.png", "frame_00012.png"])
        let png = try Bitmap(contentsOfPNG: out.appendingPathComponent("frame_00011.png"))
        XCTAssertEqual(png.pixels, try makeScene().renderFrame(index: 11).pixels)
    }

    func testRenderingARangeAloneEqualsFullRender() throws {
        let full = makeScene()
        var frames: [Bitmap] = []
        for i in 0..<60 { frames.append(try full.renderFrame(index: i, options: RenderOptions(workers: 1))) }
        let part = makeScene()
        for i in 40..<45 {
            XCTAssertEqual(try part.renderFrame(index: i, options: RenderOptions(workers: 2, tileSize: 48)).pixels, frames[i].pixels)
        }
    }

    /// Finished outputs get the mode a new file would have under the process's umask (read from
    /// /proc, never by changing it), not the temporary file's private mode. The modes expected
    /// are those of a file and a folder this test makes with open(2) and mkdir(2), whatever the
    /// umask the tests run under (022, 002, …).
    func testOutputsGetTheUsualPermissions() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-perm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func mode(_ url: URL) throws -> Int? {
            (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue
        }
        let newFile = dir.appendingPathComponent("new-file"), newFolder = dir.appendingPathComponent("new-folder")
        let fd = open(newFile.path, O_CREAT | O_EXCL | O_WRONLY, 0o666)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        XCTAssertEqual(mkdir(newFolder.path, 0o777), 0)
        let fileMode = try XCTUnwrap(try mode(newFile)), folderMode = try XCTUnwrap(try mode(newFolder))
        // /proc gives the mask the kernel applied.
        let mask = try XCTUnwrap(FilePermissions.umaskFromProc, "/proc/self/status has a Umask line on Linux 4.7 and later")
        XCTAssertEqual(FilePermissions.umask, mask)
        XCTAssertEqual(fileMode, 0o666 & ~Int(mask))
        XCTAssertEqual(folderMode, 0o777 & ~Int(mask))
        let scene = makeScene(width: 32, height: 18, duration: 0.2)
        for name in ["a.mp4", "a.gif", "frames"] {
            let url = dir.appendingPathComponent(name)
            try scene.export(to: url)
            XCTAssertEqual(try mode(url), name == "frames" ? folderMode : fileMode, name)
        }
    }
}
