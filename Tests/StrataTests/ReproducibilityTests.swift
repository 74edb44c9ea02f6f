// The same input gives the same bytes: every output format rendered twice, with one, two and
// three workers (three overlap frames: one drawn while the next is posed) and two tile sizes, compared byte for byte; no time stamps in the containers; and
// `--hash-frames` digests that agree across worker counts, with the library's frames, and between
// a chunk and the whole.
import Foundation
import Strata
import XCTest

final class ReproducibilityTests: XCTestCase {
    func testEveryFormatIsByteIdenticalAcrossRunsAndWorkerCounts() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["a.mp4", "a.mov", "a.webm", "a.gif", "a.webp", "frames"] {
            var outputs: [URL] = []
            for (run, workers) in [(1, 1), (2, 2), (3, 2), (4, 3)] {
                let out = dir.appendingPathComponent("\(run)-\(name)")
                let r = try runProcess(strataExecutable, ["render", "--size", "160x90", "--duration", "0.5", "--workers", "\(workers)",
                                                          "-o", out.path, "--quiet"])
                XCTAssertEqual(r.status, 0, r.stderr)
                outputs.append(out)
            }
            if name == "frames" {
                let files = try FileManager.default.contentsOfDirectory(atPath: outputs[0].path).sorted()
                XCTAssertEqual(files.count, 15)
                for o in outputs.dropFirst() {
                    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: o.path).sorted(), files)
                    for f in files {
                        XCTAssertEqual(try Data(contentsOf: o.appendingPathComponent(f)), try Data(contentsOf: outputs[0].appendingPathComponent(f)), "\(name)/\(f)")
                    }
                }
            } else {
                let first = try Data(contentsOf: outputs[0])
                for o in outputs.dropFirst() { XCTAssertEqual(try Data(contentsOf: o), first, "\(o.lastPathComponent) vs \(outputs[0].lastPathComponent)") }
            }
            if ["a.mp4", "a.mov", "a.webm"].contains(name) {
                // No creation time or other clock-dependent tag in the container.
                let info = try ffprobe(outputs[0], ["-show_format", "-show_streams"])
                let tags = ((info["format"] as? [String: Any])?["tags"] as? [String: Any]) ?? [:]
                XCTAssertNil(tags["creation_time"], "\(name): \(tags)")
                for stream in (info["streams"] as? [[String: Any]]) ?? [] {
                    XCTAssertNil((stream["tags"] as? [String: Any])?["creation_time"], name)
                }
            }
        }
    }

    func testFrameDigestsAgreeAcrossWorkersTileSizesAndChunks() throws {
        let args = ["render", "--size", "200x120", "--duration", "0.6", "--hash-frames"]
        let one = try runProcess(strataExecutable, args + ["--workers", "1"])
        let two = try runProcess(strataExecutable, args + ["--workers", "2"])
        XCTAssertEqual(one.status, 0, one.stderr)
        let lines = one.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 18)
        XCTAssertEqual(two.text, one.text)
        XCTAssertTrue(lines.allSatisfy { $0.range(of: #"^\d+ [0-9a-f]{16}$"#, options: .regularExpression) != nil }, one.text)
        XCTAssertEqual(Set(lines.map { $0.split(separator: " ")[1] }).count, 18, "the demo moves: every frame differs")
        // A chunk's digests are the same frames' digests of the whole.
        let chunk = try runProcess(strataExecutable, args + ["--frames", "5..9"])
        XCTAssertEqual(chunk.text.split(separator: "\n").map(String.init), Array(lines[5...9]))
        // Printed while exporting, too, and the same as the library's frames at another tile size.
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = try runProcess(strataExecutable, args + ["-o", dir.appendingPathComponent("x.mp4").path, "--quiet"])
        XCTAssertEqual(export.text, one.text)
        // ... and for a chunk exported to video (frames travel to the encoder as YUV there).
        let chunkExport = try runProcess(strataExecutable, args + ["--frames", "5..9", "-o", dir.appendingPathComponent("c.mp4").path, "--quiet"])
        XCTAssertEqual(chunkExport.text.split(separator: "\n").map(String.init), Array(lines[5...9]))
        let scene = BuiltInDemo.makeScene(size: CGSize(width: 200, height: 120), frameRate: 30, duration: 0.6)
        var options = RenderOptions()
        options.tileSize = 48
        options.workers = 2
        options.verifiesTileCoverage = true
        for i in [0, 7, 17] {
            XCTAssertEqual("\(i) \(try scene.renderFrame(at: scene.time(ofFrame: i), options: options).digest)", lines[i])
        }
    }

    func testTheDigestSeesEveryByteAndTheSize() {
        var a = Bitmap(width: 3, height: 5)
        let b = Bitmap(width: 5, height: 3)
        XCTAssertNotEqual(a.digest, b.digest, "same bytes, another shape")
        let before = a.digest
        XCTAssertEqual(before.count, 16)
        for i in a.pixels.indices {
            a.pixels[i] ^= 1
            XCTAssertNotEqual(a.digest, before, "byte \(i)")
            a.pixels[i] ^= 1
        }
        XCTAssertEqual(a.digest, before)
    }
}
