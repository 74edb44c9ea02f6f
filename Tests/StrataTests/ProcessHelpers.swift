// Running ffprobe, ffmpeg and the strata executable from tests.
import Foundation
import XCTest

struct ProcessResult {
    let status: Int32
    let stdout: Data
    let stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs `executable` to completion. With a `timeout`, a process still running after that many
/// seconds is sent SIGKILL and the call throws `XCTSkip` naming it, so an external tool that
/// hangs (a headless browser) cannot hold the suite.
@discardableResult
func runProcess(_ executable: String, _ arguments: [String], timeout: TimeInterval? = nil,
                environment: [String: String]? = nil, directory: URL? = nil) throws -> ProcessResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
    p.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
    if let environment { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    if let directory { p.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    var timedOut = false
    if let timeout {
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(50_000) }
        if p.isRunning { timedOut = true; kill(p.processIdentifier, SIGKILL) }
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    if timedOut { throw XCTSkip("\(executable) did not finish within \(Int(timeout ?? 0)) s") }
    return ProcessResult(status: p.terminationStatus, stdout: o, stderr: String(decoding: e, as: UTF8.self))
}

/// The `strata` executable built beside the test bundle.
var strataExecutable: String {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("strata")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        dir = dir.deletingLastPathComponent()
    }
    return ".build/debug/strata"
}

/// A fresh temporary folder.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// ffprobe's JSON for a file.
func ffprobe(_ url: URL, _ extra: [String] = []) throws -> [String: Any] {
    let r = try runProcess("ffprobe", ["-v", "error", "-of", "json"] + extra + [url.path])
    guard r.status == 0, let json = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] else {
        throw NSError(domain: "ffprobe", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: r.stderr])
    }
    return json
}
