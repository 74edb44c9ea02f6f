// No command deletes or replaces anything it did not create in the run, except a regular file at
// the exact output path. `-o` naming an existing folder (with files, `.`, `..`, a folder named
// like a video), a batch row named like a folder under --out: each is refused with a message, the
// user's files checked byte for byte afterwards, and nothing left behind. PNG frames go into an
// empty folder, or replace an earlier render's frames with --overwrite. Temporary files of runs
// that died are removed by the next run into the folder (only this host's, only dead processes').
// SIGHUP stops a render as SIGINT does; a closed pipe on standard output (SIGPIPE) too.
import Foundation
import Strata
import XCTest

final class OutputSafetyTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// The built-in demo, small and short: 64×36, 6 frames.
    private let small = ["--size", "64x36", "--duration", "0.2", "--quiet"]

    private func strata(_ arguments: [String], in directory: URL? = nil) throws -> ProcessResult {
        try runProcess(strataExecutable, arguments, timeout: 120, directory: directory ?? folder)
    }

    /// Every file under `dir` (relative path → bytes; folders as "path/").
    private func tree(_ dir: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = walker?.nextObject() as? URL {
            let relative = String(url.path.dropFirst(dir.path.count + 1))
            if (try url.resourceValues(forKeys: [.isDirectoryKey])).isDirectory == true {
                result[relative + "/"] = Data()
            } else {
                result[relative] = try Data(contentsOf: url)
            }
        }
        return result
    }

    /// A folder of a user's files: two files and a subfolder with one.
    @discardableResult
    private func userFolder(_ url: URL) throws -> [String: Data] {
        try FileManager.default.createDirectory(at: url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("my notes\n".utf8).write(to: url.appendingPathComponent("notes.txt"))
        try Data((0..<200).map { UInt8($0) }).write(to: url.appendingPathComponent("photo.png"))
        try Data("deep\n".utf8).write(to: url.appendingPathComponent("sub/keep.md"))
        return try tree(url)
    }

    private func partials(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.contains(".partial-") }
    }

    func testAnExistingFolderWithFilesIsNeverEmptied() throws {
        let v = folder.appendingPathComponent("v")
        let before = try userFolder(v)
        let r = try strata(["render"] + small + ["-o", v.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stderr, "Error: cannot export to \(v.path): the folder holds files that are not PNG frames of Strata's "
                       + "('notes.txt', 'photo.png', 'sub'); PNG frames go into a new or empty folder, or one holding only "
                       + "frame_NNNNN.png files of an earlier render (with --overwrite). Nothing was written or removed\n")
        XCTAssertEqual(try tree(v), before, "the user's files, byte for byte")
        XCTAssertEqual(partials(folder), [])
        // --overwrite does not change that.
        let again = try strata(["render"] + small + ["-o", v.path, "--overwrite"])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("holds files that are not PNG frames"), again.stderr)
        XCTAssertEqual(try tree(v), before)
    }

    func testDotAndDotDotAreRefused() throws {
        let work = folder.appendingPathComponent("work")
        let inner = try userFolder(work)
        let whole = try tree(folder)
        for target in [".", ".."] {
            let r = try strata(["render"] + small + ["-o", target], in: work)
            XCTAssertEqual(r.status, 1, "\(target): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("the folder holds files that are not PNG frames of Strata's"), r.stderr)
        }
        XCTAssertEqual(try tree(work), inner)
        XCTAssertEqual(try tree(folder), whole, "the parent too")
    }

    func testAFolderNamedLikeAVideoOrGIFIsNotReplaced() throws {
        for name in ["x.gif", "x.mp4", "x.webm"] {
            let dir = folder.appendingPathComponent(name)
            let before = try userFolder(dir)
            let r = try strata(["render"] + small + ["-o", dir.path])
            XCTAssertEqual(r.status, 1, r.stderr)
            let ext = URL(fileURLWithPath: name).pathExtension
            XCTAssertEqual(r.stderr, "Error: cannot export to \(dir.path): it is a folder, and a .\(ext) output is a file "
                           + "(name a file that is not a folder; nothing in the folder was touched)\n")
            XCTAssertEqual(try tree(dir), before, name)
            // An empty one too: a video is a file.
            let empty = folder.appendingPathComponent("empty-" + name)
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
            XCTAssertEqual(try strata(["render"] + small + ["-o", empty.path]).status, 1)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: empty.path), [])
        }
        XCTAssertEqual(partials(folder), [])
    }

    func testABatchRowNamedLikeAFolderFailsAndLeavesIt() throws {
        let template = folder.appendingPathComponent("t.yaml")
        try """
            size: [32, 18]
            fps: 10
            duration: 0.3
            parameters:
              - {name: name, type: string, default: a}
            layers:
              - {type: layer, size: [32, 18], backgroundColor: "#FF0000"}
            """.write(to: template, atomically: true, encoding: .utf8)
        let rows = folder.appendingPathComponent("rows.csv")
        try "name\nclips\nfine.gif\n".write(to: rows, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let clips = try userFolder(out.appendingPathComponent("clips"))
        let r = try strata(["batch", template.path, "--data", rows.path, "--out", out.path, "--name", "{{name}}", "--quiet"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("row 1 (\(rows.path):2): cannot export to \(out.path)/clips: the folder holds files that are not PNG frames"),
                      r.stderr)
        XCTAssertEqual(try tree(out.appendingPathComponent("clips")), clips)
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("fine.gif")).prefix(6), Data("GIF89a".utf8), "the other row is rendered")
        XCTAssertEqual(partials(out), [])
    }

    func testFramesGoIntoAnEmptyFolderAndReplaceAnEarlierRenderOnlyWithOverwrite() throws {
        let frames = folder.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: false)
        chmod(frames.path, 0o750)
        var r = try strata(["render"] + small + ["-o", frames.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let names = (0..<6).map { String(format: "frame_%05d.png", $0) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted(), names)
        let mode = (try FileManager.default.attributesOfItem(atPath: frames.path)[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o750, "an existing folder keeps its own mode")
        let first = try tree(frames)

        // Again without --overwrite: refused, nothing changed.
        r = try strata(["render", "--size", "64x36", "--duration", "0.2", "--quiet", "--fps", "10", "-o", frames.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "Error: cannot export to \(frames.path): the folder holds 6 PNG frames of an earlier render "
                       + "(frame_00000.png … frame_00005.png); overwrite them with --overwrite (ExportOptions.overwrite), or name an empty or new folder\n")
        XCTAssertEqual(try tree(frames), first)

        // With --overwrite, a shorter render at another size replaces exactly frames 0 and 1; the
        // rest of the earlier render stays, and a warning says so.
        r = try strata(["render", "--size", "32x18", "--duration", "0.2", "--fps", "10", "--quiet", "--overwrite", "-o", frames.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "warning: \(frames.path) still holds 4 frames of an earlier render outside the frames written "
                       + "(frame_00002.png … frame_00005.png); they were left as they were\n")
        let now = try tree(frames)
        XCTAssertEqual(now.keys.sorted(), names)
        for name in names.prefix(2) { XCTAssertEqual(try Bitmap(contentsOfPNG: frames.appendingPathComponent(name)).width, 32, name) }
        for name in names.dropFirst(2) { XCTAssertEqual(now[name], first[name], name) }
        XCTAssertEqual(partials(folder), [])

        // A folder named like a frame is not a frame: the folder holding it is refused.
        let odd = folder.appendingPathComponent("odd")
        try FileManager.default.createDirectory(at: odd.appendingPathComponent("frame_00000.png"), withIntermediateDirectories: true)
        r = try strata(["render"] + small + ["--overwrite", "-o", odd.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("('frame_00000.png')"), r.stderr)
    }

    func testPartialFilesOfDeadProcessesAreRemovedByTheNextRunIntoTheFolder() throws {
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = ".a.mp4.partial-\(TemporaryOutput.host)-\(gone.processIdentifier)-7"
        let legacy = ".b.gif.partial-\(gone.processIdentifier)-8"                     // no host: an earlier version's
        let deadFolder = ".frames.partial-\(TemporaryOutput.host)-\(gone.processIdentifier)-9"
        let live = ".c.mp4.partial-\(TemporaryOutput.host)-\(getpid())-1"
        let otherHost = ".d.mp4.partial-some-other-host-\(gone.processIdentifier)-2"
        let lookalike = ".e.mp4.partial-notes"
        for name in [dead, legacy, live, otherHost, lookalike] { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(deadFolder), withIntermediateDirectories: false)
        XCTAssertEqual(TemporaryOutput.writer(ofName: otherHost)?.host, "some-other-host")
        XCTAssertEqual(TemporaryOutput.writer(ofName: legacy)?.host, nil)
        XCTAssertNil(TemporaryOutput.writer(ofName: lookalike))

        let r = try strata(["render"] + small + ["-o", folder.appendingPathComponent("new.gif").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(partials(folder).sorted(), [live, otherHost, lookalike].sorted())
    }

    func testSIGPIPEOnJSONOutputStopsCleanly() throws {
        // `head -1` reads the first progress line and exits; the render must stop, remove its
        // temporary file and exit 141, not die leaving the file.
        let out = folder.appendingPathComponent("x.mp4")
        let strata = strataExecutable
        let script = "'\(strata)' render --size 320x180 --duration 20 --workers 1 --json -o '\(out.path)' | head -1 >/dev/null; "
            + "echo \"status ${PIPESTATUS[0]}\""
        let r = try runProcess("/bin/bash", ["-c", script], timeout: 120, directory: folder)
        XCTAssertEqual(r.text, "status 141\n", r.stderr)
        XCTAssertTrue(r.stderr.contains("stopped: standard output was closed (its reader exited)"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "no output, no temporary file")
    }

    /// PNG bytes in memory equal the file writePNG writes (no temporary file behind pngData).
    func testPNGDataIsTheFilesBytes() throws {
        var bitmap = Bitmap(width: 5, height: 3)
        for i in stride(from: 0, to: bitmap.pixels.count, by: 4) { bitmap.pixels[i] = UInt8(i % 256); bitmap.pixels[i + 3] = 255 }
        let url = folder.appendingPathComponent("b.png")
        try bitmap.writePNG(to: url)
        XCTAssertEqual(try bitmap.pngData(), try Data(contentsOf: url))
        XCTAssertEqual(try Bitmap(contentsOfPNG: url), bitmap)
    }
}
