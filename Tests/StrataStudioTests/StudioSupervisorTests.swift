// `strata preview PACKAGE` (StudioSupervisor) without building a real package (minutes): a
// stand-in `swift` whose `build` either fails like swiftc (a `file:line:col: error:` line) or
// "links" the product as a small script that runs `strata preview TEMPLATE` — the template
// named in the package's main.swift. So the supervision is real (a child studio in its own
// process group, forwarding, relayed events, rebuilds, restarts), and the frames can be
// compared byte for byte with `strata still`. scripts/studio-swift-check.sh does it with a real
// `strata new` package and `swift build`.
import Foundation
import XCTest
@testable import StrataCLI
@testable import StrataStudio
#if canImport(Glibc)
import Glibc
#endif

final class StudioSupervisorTests: XCTestCase {
    private var folders: [URL] = []
    private var supervisors: [StudioSupervisor] = []

    override func tearDown() {
        for s in supervisors { s.stop() }
        for f in folders { try? FileManager.default.removeItem(at: f) }
        supervisors = []
        folders = []
        super.tearDown()
    }

    private var strata: String? {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("strata")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            dir = dir.deletingLastPathComponent()
        }
        return FileManager.default.isExecutableFile(atPath: ".build/debug/strata") ? ".build/debug/strata" : nil
    }

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("studio-supervisor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        folders.append(url)
        return url
    }

    /// The stand-in `swift` (see the file's comment).
    private func fakeSwift(in folder: URL, strata: String) throws -> String {
        let script = """
            #!/bin/sh
            pkg=""; prev=""
            for a in "$@"; do [ "$prev" = "--package-path" ] && pkg="$a"; prev="$a"; done
            bin="$pkg/.build/debug"
            case " $* " in *" --show-bin-path "*) echo "$bin"; exit 0;; esac
            src="$pkg/Sources/Fake/main.swift"
            echo "[1/2] Compiling Fake main.swift"
            if grep -q oops "$src"; then
              echo "$src:3:7: error: cannot find 'oops' in scope"
              echo "    oops()"
              exit 1
            fi
            template=$(sed -n 's|^// template: ||p' "$src")
            mkdir -p "$bin"
            printf '#!/bin/sh\\nshift\\nexec "%s" preview "%s" "$@"\\n' '\(strata)' "$template" > "$bin/Fake.new"
            chmod +x "$bin/Fake.new" && mv "$bin/Fake.new" "$bin/Fake"
            echo "[2/2] Linking Fake"

            """
        let url = folder.appendingPathComponent("fake-swift")
        try script.write(to: url, atomically: true, encoding: .utf8)
        chmod(url.path, 0o755)
        return url.path
    }

    private func still(_ template: URL, set: [String] = []) throws -> Data {
        let out = try temporaryFolder().appendingPathComponent("still.png")
        var command = try StrataCommand.parseAsRoot(["still", template.path, "--time", "1", "--scale", "0.25", "-o", out.path] + set.flatMap { ["--set", $0] })
        try command.run()
        return try Data(contentsOf: out)
    }

    private func isRunning(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

    private func next(_ events: HTTPTestClient.EventStream, named name: String, timeout: Double) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let block = try events.next(timeout: deadline.timeIntervalSinceNow)
            guard block.contains("event: \(name)\n"), let data = block.components(separatedBy: "data: ").last else { continue }
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        }
        throw HTTPTestClient.Failure(description: "no \(name) event within \(timeout) s")
    }

    func testRebuildKeepsTheLastGoodSceneOnACompileErrorThenSwapsInTheNewOne() throws {
        LinkedNodeKinds.register()
        guard let strata else { throw XCTSkip("the strata executable is not built beside the tests") }
        let root = try temporaryFolder()
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        // Two templates: the lower third, and one whose name differs (another frame).
        let folderA = root.appendingPathComponent("a"), folderB = root.appendingPathComponent("b")
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Templates/lower-third"), to: folderA)
        try FileManager.default.copyItem(at: folderA, to: folderB)
        let a = folderA.appendingPathComponent("lower-third.yaml"), b = folderB.appendingPathComponent("lower-third.yaml")
        let yaml = b
        try String(contentsOf: yaml, encoding: .utf8).replacingOccurrences(of: "default: Ada Lovelace", with: "default: Grace Hopper")
            .write(to: yaml, atomically: true, encoding: .utf8)

        let package = root.appendingPathComponent("pkg")
        let main = package.appendingPathComponent("Sources/Fake/main.swift")
        try FileManager.default.createDirectory(at: main.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "// swift-tools-version: 6.0\n".write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "// template: \(a.path)\nimport StrataCLI\n".write(to: main, atomically: true, encoding: .utf8)

        var spec = SwiftPackagePreview(folder: package, product: "Fake")
        spec.swift = try fakeSwift(in: root, strata: strata)
        var configuration = StudioConfiguration()
        configuration.port = 0
        configuration.watchInterval = 0.1
        configuration.outputFolder = root.appendingPathComponent("out")
        configuration.log = { _ in }
        let supervisor = try StudioSupervisor(package: spec, configuration: configuration)
        try supervisor.start()
        supervisors.append(supervisor)

        // The child's page and frames, through the supervisor's address.
        let token = try HTTPTestClient.token(supervisor)
        XCTAssertEqual(token, supervisor.token, "the child serves the supervisor's token")
        let firstChild = try XCTUnwrap(supervisor.childProcessID)
        XCTAssertEqual(getpgid(firstChild), firstChild, "the child leads a process group of its own")
        XCTAssertEqual(try HTTPTestClient.get(supervisor, "/api/frame?t=1&scale=0.25").body, try still(a))
        // The same safety checks as a studio's.
        XCTAssertEqual(try HTTPTestClient.get(supervisor, "/api/scene", host: "evil.example:\(supervisor.port)").status, 403)
        XCTAssertEqual(try HTTPTestClient.post(supervisor, "/api/parameters", json: ##"{"accent": "#00FF00"}"##, token: nil).status, 403)
        let set = try HTTPTestClient.post(supervisor, "/api/parameters", json: ##"{"accent": "#00FF00"}"##, token: token)
        XCTAssertEqual(set.status, 200, set.text)
        let greenA = try still(a, set: ["accent=#00FF00"])
        XCTAssertEqual(try HTTPTestClient.get(supervisor, "/api/frame?t=1&scale=0.25").body, greenA)

        let events = try HTTPTestClient.EventStream(supervisor)
        _ = try next(events, named: "hello", timeout: 5)

        // A compile error: on the event stream with its file and line; the old scene still served.
        try "// template: \(a.path)\nimport StrataCLI\nlet x = oops()\n".write(to: main, atomically: true, encoding: .utf8)
        let started = try next(events, named: "build", timeout: 10)
        XCTAssertEqual(started["state"] as? String, "started")
        let error = try next(events, named: "error", timeout: 20)
        let message = try XCTUnwrap(error["message"] as? String)
        XCTAssertTrue(message.contains("Sources/Fake/main.swift:3:7: error: cannot find 'oops' in scope"), message)
        let first = try XCTUnwrap((error["errors"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["file"] as? String, main.path)
        XCTAssertEqual(first["line"] as? Int, 3)
        XCTAssertEqual(first["column"] as? Int, 7)
        XCTAssertEqual(try HTTPTestClient.get(supervisor, "/api/frame?t=1&scale=0.25").body, greenA, "the last good frame is still served")
        XCTAssertEqual(supervisor.childProcessID, firstChild)

        // Fixed, naming the other template: a new child, the page's values given to it again.
        let edited = Date()
        try "// template: \(b.path)\nimport StrataCLI\n".write(to: main, atomically: true, encoding: .utf8)
        let reload = try next(events, named: "reload", timeout: 30)
        let seconds = Date().timeIntervalSince(edited)
        print("studio supervisor: edit → reload event in \(String(format: "%.2f", seconds)) s (stand-in build)")
        let frame = try HTTPTestClient.get(supervisor, "/api/frame?t=1&scale=0.25")
        XCTAssertEqual(frame.body, try still(b, set: ["accent=#00FF00"]))
        let scene = try XCTUnwrap(try HTTPTestClient.get(supervisor, "/api/scene").json)
        XCTAssertEqual(scene["generation"] as? Int, reload["generation"] as? Int)
        XCTAssertGreaterThan(try XCTUnwrap(reload["generation"] as? Int), try XCTUnwrap(set.json?["generation"] as? Int),
                             "the new child's generations continue the old one's")
        let secondChild = try XCTUnwrap(supervisor.childProcessID)
        XCTAssertNotEqual(secondChild, firstChild)
        // Stopped after the new one took over (SIGTERM to its group; it cancels its renders first).
        let deadline = Date().addingTimeInterval(5)
        while isRunning(firstChild), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertFalse(isRunning(firstChild), "the old child is stopped")
        XCTAssertEqual(kill(-firstChild, 0), -1, "and its whole process group")

        // The scene's process dies (a crash in the user's code): an error event, frames refused
        // 503 naming it, and the next save starts it again.
        kill(secondChild, SIGKILL)
        let crash = try next(events, named: "error", timeout: 10)
        XCTAssertTrue((crash["message"] as? String ?? "").hasPrefix("Fake stopped (status 137)"), "\(crash)")
        let refused = try HTTPTestClient.get(supervisor, "/api/frame?t=1&scale=0.25")
        XCTAssertEqual(refused.status, 503)
        XCTAssertTrue(refused.text.contains("Fake stopped"), refused.text)
        try "// template: \(a.path)\nimport StrataCLI\n".write(to: main, atomically: true, encoding: .utf8)
        _ = try next(events, named: "reload", timeout: 30)
        XCTAssertEqual(try HTTPTestClient.get(supervisor, "/api/frame?t=1&scale=0.25").body, greenA)
        let thirdChild = try XCTUnwrap(supervisor.childProcessID)

        supervisor.stop()
        XCTAssertFalse(isRunning(thirdChild), "stop ends the child")
        XCTAssertFalse(isRunning(secondChild))
        XCTAssertEqual(kill(-thirdChild, 0), -1, "and its whole process group")
    }

    func testBuildErrorsAreParsedWithTheirLocation() {
        let output = [
            "[3/9] Compiling Video main.swift",
            "/home/ada/video/Sources/Video/Video.swift:12:18: error: cannot convert value of type 'Int' to expected argument type 'Double'",
            "    .opacity(1)",
            "/home/ada/video/Sources/Video/Video.swift:12:18: error: cannot convert value of type 'Int' to expected argument type 'Double'",
            "/home/ada/video/Sources/Video/Video.swift:20:5: warning: variable 'x' was never used",
            "C:/odd/path.swift:1:2: error: colon in the path",
        ]
        XCTAssertEqual(BuildDiagnostic.errors(in: output), [
            BuildDiagnostic(file: "/home/ada/video/Sources/Video/Video.swift", line: 12, column: 18,
                            message: "cannot convert value of type 'Int' to expected argument type 'Double'"),
            BuildDiagnostic(file: "C:/odd/path.swift", line: 1, column: 2, message: "colon in the path"),
        ])
        let message = StudioSupervisor.failureMessage(product: "Video", output: output, folder: URL(fileURLWithPath: "/home/ada/video"))
        XCTAssertEqual(message.components(separatedBy: "\n").dropFirst().first,
                       "Sources/Video/Video.swift:12:18: error: cannot convert value of type 'Int' to expected argument type 'Double'")
    }

    func testScriptArgumentsLeaveOutWhatTheSupervisorAnswers() {
        XCTAssertEqual(PreviewCommand<TemplateSource>.scriptArguments(
            ["my-video", "--port", "0", "--scale", "0.5", "--host=127.0.0.1", "--product", "Video", "--output-folder", "o", "--crf", "20"],
            target: "my-video"), ["--scale", "0.5", "--crf", "20"])
    }

    func testProductAppliesOnlyToAPackage() throws {
        XCTAssertThrowsError(try StrataCommand.parseAsRoot(["preview", "lower-third", "--product", "X"]))
    }
}
