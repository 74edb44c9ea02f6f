// Bad input: one clear message naming the value and what is allowed, and no file left under the
// final name.
import XCTest
import Strata

final class BadInputTests: XCTestCase {
    private func scene(size: CGSize = CGSize(width: 64, height: 64), fps: Double = 30, duration: Double = 1) -> Scene {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size.width.isFinite && size.height.isFinite ? size : .zero)
        root.backgroundColor = .white
        return Scene(rootLayer: root, size: size, frameRate: fps, duration: duration)
    }

    private func assertError(_ body: () throws -> Void, contains text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { e in
            XCTAssertTrue("\(e)".contains(text), "'\(e)' does not mention '\(text)'", file: file, line: line)
        }
    }

    func testInvalidSizesRatesDurations() throws {
        let dir = try temporaryFolder()
        let out = dir.appendingPathComponent("x.mp4")
        assertError({ try scene(size: CGSize(width: 0, height: 10)).export(to: out) }, contains: "size 0.0×10.0 must be positive")
        assertError({ try scene(size: CGSize(width: -5, height: 10)).export(to: out) }, contains: "must be positive")
        assertError({ try scene(size: CGSize(width: CGFloat.nan, height: 10)).export(to: out) }, contains: "finite")
        assertError({ try scene(size: CGSize(width: 20000, height: 10)).export(to: out) }, contains: "exceeds the maximum of 16384 px")
        assertError({ try scene(fps: 0).export(to: out) }, contains: "frame rate 0.0 must be")
        assertError({ try scene(fps: .infinity).export(to: out) }, contains: "frame rate inf must be")
        assertError({ try scene(duration: -1).export(to: out) }, contains: "duration -1.0 s must be")
        assertError({ try scene(duration: .nan).export(to: out) }, contains: "duration nan s must be")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    }

    func testUnknownExtensionAndMissingFolder() throws {
        let dir = try temporaryFolder()
        assertError({ try scene().export(to: dir.appendingPathComponent("x.avi")) }, contains: "unknown extension '.avi'")
        let missing = dir.appendingPathComponent("nope/x.mp4")
        assertError({ try scene().export(to: missing) }, contains: "the folder \(dir.path)/nope does not exist")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testDestinationsThatAreNotFilesOrFoldersAreRefused() throws {
        let dir = try temporaryFolder()
        // A pipe (a device such as /dev/null takes the same path; mknod needs root).
        let pipe = dir.appendingPathComponent("pipe")
        XCTAssertEqual(mkfifo(pipe.path, 0o600), 0)
        assertError({ try scene().export(to: pipe) }, contains: "it is a named pipe (FIFO)")
        let pipeMP4 = dir.appendingPathComponent("pipe.mp4")
        XCTAssertEqual(mkfifo(pipeMP4.path, 0o600), 0)
        assertError({ try scene().export(to: pipeMP4) }, contains: "cannot export to \(pipeMP4.path): it is a named pipe (FIFO)")
        var info = stat()
        XCTAssertEqual(stat(pipe.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the pipe was replaced")
        // A file named without an extension is not turned into a folder of PNG frames.
        let file = dir.appendingPathComponent("notes")
        try Data("keep me".utf8).write(to: file)
        assertError({ try scene().export(to: file) }, contains: "it is a file, and a name without an extension means a folder")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "keep me")
        // A still to a pipe, likewise.
        assertError({ try Bitmap(width: 2, height: 2).writePNG(to: pipe) }, contains: "cannot write image \(pipe.path): it is a named pipe (FIFO)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["notes", "pipe", "pipe.mp4"])
        // An existing folder holding anything but frames is refused and left as it was
        // (OutputSafetyTests has the rest); an empty one takes PNG frames; an existing file its format.
        let folder = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try Data().write(to: folder.appendingPathComponent("old.png"))
        var o = ExportOptions()
        o.frameRange = 0..<2
        o.overwrite = true
        assertError({ try scene().export(to: folder, options: o) }, contains: "the folder holds files that are not PNG frames of Strata's ('old.png')")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["old.png"])
        try FileManager.default.removeItem(at: folder.appendingPathComponent("old.png"))
        try scene().export(to: folder, options: o)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["frame_00000.png", "frame_00001.png"])
        let gif = dir.appendingPathComponent("x.gif")
        try Data("old".utf8).write(to: gif)
        try scene().export(to: gif, options: o)
        XCTAssertEqual(try Data(contentsOf: gif).prefix(3), Data("GIF".utf8))
    }

    func testUnwritableFolderLeavesNothing() throws {
        guard getuid() != 0 else {
            // Root can write anywhere; use a path under /proc instead, which nobody can write.
            assertError({ try scene().export(to: URL(fileURLWithPath: "/proc/strata-test.mp4")) }, contains: "/proc")
            return
        }
        let dir = try temporaryFolder()
        chmod(dir.path, 0o500)
        defer { chmod(dir.path, 0o700) }
        assertError({ try scene().export(to: dir.appendingPathComponent("x.mp4")) }, contains: "not writable")
    }

    func testFailedExportLeavesNoFinalFile() throws {
        // An odd pixel size cannot be encoded as yuv420p; the export fails and leaves nothing.
        let dir = try temporaryFolder()
        let out = dir.appendingPathComponent("odd.mp4")
        XCTAssertThrowsError(try scene(size: CGSize(width: 65, height: 64)).export(to: out))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testFrameRangeOutsideScene() throws {
        let dir = try temporaryFolder()
        var o = ExportOptions()
        o.frameRange = 20..<40
        assertError({ try scene().export(to: dir.appendingPathComponent("x.mp4"), options: o) }, contains: "within 0..<30")
    }

    func testCLIErrorsAreClearAndNonZero() throws {
        let dir = try temporaryFolder()
        let cases: [([String], String)] = [
            (["render", "--size", "0x100", "-o", dir.appendingPathComponent("a.mp4").path], "--size '0x100' must be WIDTHxHEIGHT with positive numbers"),
            (["render", "--fps=-3", "-o", dir.appendingPathComponent("a.mp4").path], "frame rate -3.0 must be"),
            (["render", "-o", dir.appendingPathComponent("a.xyz").path], "unknown extension '.xyz'"),
            (["render", "-o", dir.appendingPathComponent("missing/a.mp4").path], "does not exist"),
            (["render", "--frames", "5..500", "-o", dir.appendingPathComponent("a.mp4").path], "--frames 5..500"),
            (["still", "--time", "99", "-o", dir.appendingPathComponent("a.png").path], "--time 99.0"),
        ]
        for (args, message) in cases {
            let r = try runProcess(strataExecutable, args)
            XCTAssertNotEqual(r.status, 0, "\(args)")
            XCTAssertTrue(r.stderr.contains(message), "stderr for \(args): \(r.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }
}

final class InvalidAnimationTests: XCTestCase {
    func testUnknownKeyPathIsReportedByTheSceneNotACrash() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        root.name = "root"
        let a = CABasicAnimation(keyPath: "positon.x")
        a.toValue = 10
        root.add(a, forKey: "typo")  // cannot throw, as in Core Animation
        let scene = Scene(rootLayer: root, size: CGSize(width: 16, height: 16), frameRate: 10, duration: 1)
        XCTAssertThrowsError(try scene.renderFrame(at: 0)) { e in
            XCTAssertEqual("\(e)", "animation added to CALayer 'root': unknown animatable key path 'positon.x' on CALayer")
        }
    }
}
