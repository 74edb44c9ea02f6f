// Commands that used to succeed with a wrong answer now fail with a message: `concat` of a
// truncated chunk (every part must hold the frames its header declares), `probe` of a PNG that
// declares a 100 000² picture and of an MP4 with no streams, a second batch into a folder a batch
// is writing into, a --data or JSON Lines object that repeats a key, a batch output name with a
// line break or control character.
import Foundation
import Strata
import XCTest

final class HonestAnswerTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func strata(_ arguments: [String]) throws -> ProcessResult {
        try runProcess(strataExecutable, arguments, timeout: 120, directory: folder)
    }

    private func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    func testConcatRefusesATruncatedPart() throws {
        for ext in ["mp4", "webm"] {
            let common = ["render", "--size", "160x90", "--duration", "2", "--keyframe-interval", "20", "--quiet"]
            let a = file("a.\(ext)"), b = file("b.\(ext)")
            XCTAssertEqual(try strata(common + ["--frames", "0..19", "-o", a.path]).status, 0)
            XCTAssertEqual(try strata(common + ["--frames", "20..39", "-o", b.path]).status, 0)
            // Cut the second part to 60 % of its bytes, as a copy that stopped half way would.
            let whole = try Data(contentsOf: b)
            try whole.prefix(whole.count * 6 / 10).write(to: b)
            let joined = file("joined.\(ext)")
            let r = try strata(["concat", a.path, b.path, "-o", joined.path])
            XCTAssertEqual(r.status, 1, "\(ext): \(r.text)")
            XCTAssertTrue(r.stderr.hasPrefix("Error: cannot join \(b.path) (part 2 of 2): "), r.stderr)
            XCTAssertTrue(r.stderr.contains("(the file was truncated or damaged; render the part again)"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: joined.path), "\(ext): nothing written")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".partial-") }, [])
            // The whole part still joins (the check does not refuse good parts).
            try whole.write(to: b)
            let ok = try strata(["concat", a.path, b.path, "-o", joined.path])
            XCTAssertEqual(ok.status, 0, ok.stderr)
            XCTAssertTrue(ok.text.hasPrefix("wrote \(joined.path): 40 frames from 2 parts"), ok.text)
            try FileManager.default.removeItem(at: joined)
        }
    }

    func testProbeRefusesADecompressionBombAndAFileWithNoStreams() throws {
        // A PNG whose header declares 100 000 × 100 000 pixels (a valid signature and IHDR, no data).
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8))
        for v in [UInt32(100_000), UInt32(100_000)] { withUnsafeBytes(of: v.bigEndian) { png.append(contentsOf: $0) } }
        png.append(contentsOf: [8, 6, 0, 0, 0, 0, 0, 0, 0])
        try png.write(to: file("bomb.png"))
        var r = try strata(["probe", file("bomb.png").path])
        XCTAssertEqual(r.status, 1, r.text)
        XCTAssertEqual(r.stderr, "Error: cannot open \(file("bomb.png").path) for reading: the PNG image is 100000×100000 pixels; at most 16384 per side is allowed\n")

        // A 50-byte MP4: an ftyp box and an empty moov, no streams.
        var mp4 = Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8))
        mp4.append(contentsOf: [0, 0, 0, 8] + Array("moov".utf8))
        mp4.append(contentsOf: [0, 0, 0, 18] + Array("free".utf8) + [UInt8](repeating: 0, count: 10))
        XCTAssertEqual(mp4.count, 50)
        try mp4.write(to: file("empty.mp4"))
        r = try strata(["probe", file("empty.mp4").path])
        XCTAssertEqual(r.status, 1, r.text)
        XCTAssertTrue(r.stderr.hasPrefix("Error: cannot open \(file("empty.mp4").path) for reading: "), r.stderr)
        XCTAssertTrue(r.stderr.contains("holds no video, audio or image streams") || r.stderr.contains("no stream information"), r.stderr)
    }

    /// A template and rows for the batch tests: 32×18, 3 frames a row.
    private func batchFixture(rows: String, ext: String = "csv") throws -> (URL, URL) {
        let template = file("t.yaml")
        try """
            size: [32, 18]
            fps: 10
            duration: 0.3
            parameters:
              - {name: name, type: string, default: a}
            layers:
              - {type: layer, size: [32, 18], backgroundColor: "#00FF00"}
            """.write(to: template, atomically: true, encoding: .utf8)
        let data = file("rows.\(ext)")
        try rows.write(to: data, atomically: true, encoding: .utf8)
        return (template, data)
    }

    func testASecondBatchIntoTheSameFolderIsRefusedNamingTheFirst() throws {
        let (template, rows) = try batchFixture(rows: "name\n" + (1...3).map { "r\($0)" }.joined(separator: "\n") + "\n")
        let out = file("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // Hold the lock as a running batch would.
        let held = try BatchLock(folder: out, shard: nil, description: "strata batch first.yaml --data a.csv")
        var r = try strata(["batch", template.path, "--data", rows.path, "--out", out.path, "--name", "{{name}}.gif", "--quiet"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("Error: another batch is writing into \(out.path) (strata batch first.yaml --data a.csv, pid \(getpid()) on "),
                      r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix(": wait for it to finish, or give this one another --out (the shards of one batch, --shard I/N, may share a folder)\n"),
                      r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), [".strata-batch.lock"], "nothing rendered")
        // A shard of a batch takes a lock of its own.
        r = try strata(["batch", template.path, "--data", rows.path, "--out", out.path, "--name", "{{name}}.gif", "--shard", "0/2", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        held.release()
        // Free again: the batch runs, and leaves no lock file behind.
        r = try strata(["batch", template.path, "--data", rows.path, "--out", out.path, "--name", "{{name}}.gif", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(), ["r1.gif", "r2.gif", "r3.gif"])
    }

    func testRepeatedKeysInDataAreRefused() throws {
        // JSON Lines: the row with a repeated key fails, naming it; the others render.
        let (template, rows) = try batchFixture(rows: "{\"name\": \"a\"}\n{\"name\": \"b\", \"name\": \"c\"}\n{\"name\": \"d\", \"x\": {\"k\": 1, \"\\u006b\": 2}}\n",
                                                ext: "jsonl")
        let out = file("out")
        let r = try strata(["batch", template.path, "--data", rows.path, "--out", out.path, "--name", "{{row}}.gif", "--quiet"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("row 2 (\(rows.path):2): rows.jsonl:2: the key \"name\" appears twice in $ (each key once)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("row 3 (\(rows.path):3): rows.jsonl:3: the key \"k\" appears twice in $.x (each key once)"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(), ["1.gif"])

        // --data of a render likewise.
        let values = file("values.json")
        try "{\"name\": \"x\", \"name\": \"y\"}".write(to: values, atomically: true, encoding: .utf8)
        let still = try strata(["still", template.path, "--data", values.path, "-o", file("s.png").path])
        XCTAssertEqual(still.status, 1)
        XCTAssertTrue(still.stderr.contains("the key \"name\" appears twice"), still.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("s.png").path))
    }

    func testOutputNamesWithLineBreaksOrControlCharactersAreRefused() throws {
        let (template, rows) = try batchFixture(rows: "{\"name\": \"a\\nb\"}\n{\"name\": \"c\\u0007\"}\n{\"name\": \"ok\"}\n", ext: "jsonl")
        let out = file("out")
        let r = try strata(["batch", template.path, "--data", rows.path, "--out", out.path, "--name", "{{name}}.gif", "--quiet"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("row 1 (\(rows.path):1): the output name \"a\\nb.gif\" has a line break or control character"), r.stderr)
        XCTAssertTrue(r.stderr.contains("row 2 (\(rows.path):2): the output name \"c\\u{07}.gif\" has a line break or control character"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(), ["ok.gif"])
    }

    func testMessagesSayWhatThePathOrValueReallyIs() throws {
        let (template, rows) = try batchFixture(rows: "name\nx\n")
        let fifo = file("fifo"), dir = file("dir")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
        let out = file("a.mp4").path
        var r = try strata(["render", template.path, "--data", fifo.path, "-o", out])
        XCTAssertEqual(r.stderr, "Error: \(fifo.path): cannot read the file (it is a named pipe (FIFO), not a regular file; Strata reads only regular files (a pipe or device may never end, or wait forever for a writer))\n")
        r = try strata(["render", template.path, "--data", dir.path, "-o", out])
        XCTAssertEqual(r.stderr, "Error: \(dir.path): cannot read the file (it is a folder, not a file)\n")
        r = try strata(["render", fifo.path, "-o", out])
        XCTAssertEqual(r.stderr, "Error: \(fifo.path): cannot read the file: it is a named pipe (FIFO), not a regular file; Strata reads only regular files (a pipe or device may never end, or wait forever for a writer)\n")
        r = try strata(["batch", template.path, "--data", fifo.path, "--out", file("o").path])
        XCTAssertEqual(r.stderr, "Error: \(fifo.path): cannot read the file: it is a named pipe (FIFO), not a regular file; Strata reads only regular files (a pipe or device may never end, or wait forever for a writer)\n")
        r = try strata(["batch", template.path, "--data", rows.path, "--out", file("o").path, "--report", "/dev/null", "--quiet"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "Error: /dev/null: cannot write the report (cannot write /dev/null: it is a character device, and the output "
                       + "is written under a temporary name and renamed into place when done, which would replace it)\n")
        // A negative number is a value, checked as one (ArgumentParser took it for an option).
        r = try strata(["render", template.path, "--fps", "-5", "-o", out])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.hasPrefix("Error: --fps -5.0 must be in (0, 240]\n"), r.stderr)
        r = try strata(["still", template.path, "--time", "-1", "-o", file("a.png").path])
        XCTAssertTrue(r.stderr.hasPrefix("Error: --time -1.0 must be between 0 and the duration 0.3\n"), r.stderr)
        r = try strata(["render", template.path, "--workers", "-2", "-o", out])
        XCTAssertTrue(r.stderr.hasPrefix("Error: --workers -2 must be between 1 and 256\n"), r.stderr)
        // A template too large to render names its file.
        try "size: [40000, 300]\nfps: 10\nduration: 0.3\nlayers: []\n".write(to: file("big.yaml"), atomically: true, encoding: .utf8)
        r = try strata(["still", file("big.yaml").path, "-o", file("a.png").path])
        XCTAssertEqual(r.stderr, "Error: big.yaml: size 40000×300 px exceeds the maximum of 16384 px per side (raise it with --limit pixel-size=N, or Scene.limits)\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["big.yaml", "dir", "fifo", "o", "rows.csv", "t.yaml"])
    }
}
