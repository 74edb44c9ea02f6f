// Exports stopped from outside: SIGTERM and SIGINT during `strata render` and `strata batch`
// (the work stops, the temporary file goes, the status is 128 + the signal, and a batch resumed
// afterwards finishes the rest), a filesystem that fills up, and one that becomes read-only
// (a small tmpfs mounted for the test; skipped where mounting is not allowed), and an output folder
// that disappears during the export.
// Nothing may be left behind under any name.
import Foundation
import Strata
import XCTest

final class InterruptionTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func contents(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    /// Starts strata with `arguments`; stdout and stderr go to files.
    private func start(_ arguments: [String]) throws -> (Process, URL) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: strataExecutable)
        p.arguments = arguments
        p.currentDirectoryURL = folder
        let err = folder.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardError = try FileHandle(forWritingTo: err)
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        return (p, err)
    }

    /// Waits until `condition` holds (at most `seconds`).
    private func wait(_ seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() { if Date() > deadline { return false }; usleep(10_000) }
        return true
    }

    func testSIGTERMSIGINTAndSIGHUPStopARenderAndLeaveNothing() throws {
        for (signal, status, name) in [(SIGTERM, Int32(143), "SIGTERM"), (SIGINT, Int32(130), "SIGINT"), (SIGHUP, Int32(129), "SIGHUP")] {
            let out = folder.appendingPathComponent("long.mp4")
            // 60 s of 720p: minutes of work; it is stopped once its temporary file exists.
            let (p, err) = try start(["render", "--size", "1280x720", "--duration", "60", "--workers", "1", "-o", out.path])
            XCTAssertTrue(wait(60) { contents(folder).contains { $0.hasPrefix(".long.mp4.partial-") } }, "the export started")
            usleep(300_000)
            let sent = Date()
            kill(p.processIdentifier, signal)
            XCTAssertTrue(wait(20) { !p.isRunning }, "\(name): the export stops")
            let stopTime = Date().timeIntervalSince(sent)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationReason, .exit, "\(name): strata exits by itself, not killed by the signal")
            XCTAssertEqual(p.terminationStatus, status)
            let message = try String(contentsOf: err, encoding: .utf8)
            XCTAssertTrue(message.contains("strata: export to \(out.path) interrupted by \(name) after "), message)
            XCTAssertTrue(message.hasSuffix(" of 1800 frames; nothing was written\n"), message)
            XCTAssertEqual(contents(folder).filter { !$0.hasPrefix("stderr-") }, [], "\(name): no output and no temporary file")
            print("\(name): stopped \(String(format: "%.2f", stopTime)) s after the signal")
        }
    }

    func testAnInterruptedBatchResumesWhereItStopped() throws {
        let rows = folder.appendingPathComponent("rows.csv")
        // Enough rows that the batch is still running when the signal comes, on a loaded machine
        // too (six rows of this size take under a second: the signal came after the last).
        let count = 40
        let table = "name,title\n" + (1...count).map { "Person \($0),Title \($0)\n" }.joined()
        try table.write(to: rows, atomically: true, encoding: .utf8)
        let template = repositoryRoot.appendingPathComponent("Templates/lower-third/lower-third.yaml").path
        let out = folder.appendingPathComponent("videos")
        let args = ["batch", template, "--data", rows.path, "--out", out.path, "--scale", "0.25", "--fps", "30",
                    "--workers", "1", "--report", folder.appendingPathComponent("report.json").path]
        let (p, err) = try start(args)
        XCTAssertTrue(wait(120) { contents(out).contains { $0.hasSuffix(".mp4") && !$0.hasPrefix(".") } }, "a row finished")
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json"))) as? [String: Any])
        let rendered = try XCTUnwrap(report["rendered"] as? Int)
        let interrupted = try XCTUnwrap(report["interrupted"] as? Int)
        XCTAssertEqual(report["stopped"] as? String, "interrupted by SIGINT")
        XCTAssertGreaterThanOrEqual(rendered, 1)
        XCTAssertLessThan(rendered, count, "the batch was stopped")
        XCTAssertEqual(rendered + interrupted, count, "every row is either done or listed as interrupted")
        let message = try String(contentsOf: err, encoding: .utf8)
        XCTAssertTrue(message.isEmpty, message)
        XCTAssertEqual(contents(out).filter { $0.hasPrefix(".") }, [], "no temporary file")
        XCTAssertEqual(contents(out).count, rendered)

        let r = try runProcess(strataExecutable, args + ["--resume", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let again = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json"))) as? [String: Any])
        XCTAssertEqual(again["skipped"] as? Int, rendered)
        XCTAssertEqual(again["rendered"] as? Int, count - rendered)
        XCTAssertEqual(contents(out), (1...count).map { "\($0).mp4" }.sorted())
    }

    func testAFullDiskFailsCleanlyInEveryFormat() throws {
        let mount = folder.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        guard try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mount.path]).status == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (not root, or no mount permission)")
        }
        defer { _ = try? runProcess("/bin/umount", ["-l", mount.path]) }
        // Each format fills the 64 kB filesystem before it ends (lossless H.264, VP9 at its best).
        for name in ["full.mp4", "full.webm", "full.gif", "frames"] {
            let out = mount.appendingPathComponent(name)
            // (--crf is for video: a GIF or PNG frames with it are refused before anything runs.)
            let quality = name.hasSuffix(".mp4") || name.hasSuffix(".webm") ? ["--crf", "0"] : []
            let r = try runProcess(strataExecutable, ["render", "--size", "320x180", "--duration", "1", "-o", out.path, "--quiet"] + quality)
            XCTAssertEqual(r.status, 1, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("Error: "), r.stderr)
            XCTAssertTrue(r.stderr.contains(out.path), "\(name): the message names the output: \(r.stderr)")
            XCTAssertFalse(r.stderr.contains(".partial-"), "\(name): the message does not name the temporary file: \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("No space left on device") || r.stderr.contains("disk full")
                          || r.stderr.contains("error while writing"), "\(name): \(r.stderr)")
            XCTAssertEqual(contents(mount), [], "\(name): nothing left")
        }

    }

    func testAnOutputFolderRemovedDuringTheExportFailsCleanly() throws {
        // (A read-only remount is refused while the export holds a file open for writing, so the
        // folder is taken away instead: the encoder writes on into its unlinked file and the
        // final rename fails.)
        let vanishing = folder.appendingPathComponent("vanishing")
        try FileManager.default.createDirectory(at: vanishing, withIntermediateDirectories: true)
        let out = vanishing.appendingPathComponent("gone.mp4")
        let (p, err) = try start(["render", "--size", "320x180", "--duration", "4", "--workers", "1", "-o", out.path])
        XCTAssertTrue(wait(60) { contents(vanishing).contains { $0.hasPrefix(".gone.mp4.partial-") } })
        try FileManager.default.removeItem(at: vanishing)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 1)
        let message = try String(contentsOf: err, encoding: .utf8)
        XCTAssertTrue(message.hasPrefix("Error: ") && message.hasSuffix("\(out.path): No such file or directory\n"), message)
        XCTAssertFalse(message.contains(".partial-"), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: vanishing.path))
    }
}

/// The repository's root (for Templates/).
var repositoryRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
