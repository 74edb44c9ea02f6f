// Running ffprobe, ffmpeg and the strata executable from tests.
import Foundation
import XCTest

struct ProcessResult {
    let status: Int32
    let stdout: Data
    let stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs `executable` to completion. With a `timeout`, output goes through files rather than
/// pipes (a browser's children may hold a pipe open), a process still running after that many
/// seconds is sent SIGKILL, and the call throws `XCTSkip` naming it — without waiting for an exit
/// that, on some kernels, never comes — so an external tool that hangs cannot hold the suite.
@discardableResult
func runProcess(_ executable: String, _ arguments: [String], timeout: TimeInterval? = nil,
                environment: [String: String]? = nil, directory: URL? = nil) throws -> ProcessResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
    p.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
    if let environment { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    if let directory { p.currentDirectoryURL = directory }
    if let timeout {
        let dir = FileManager.default.temporaryDirectory
        let outURL = dir.appendingPathComponent("strata-run-\(UUID().uuidString).out")
        let errURL = dir.appendingPathComponent("strata-run-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outURL); try? FileManager.default.removeItem(at: errURL) }
        p.standardOutput = try FileHandle(forWritingTo: outURL)
        p.standardError = try FileHandle(forWritingTo: errURL)
        try p.run()
        var deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(50_000) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            deadline = Date().addingTimeInterval(10)
            while p.isRunning && Date() < deadline { usleep(50_000) }
            throw XCTSkip("\(executable) did not finish within \(Int(timeout)) s\(p.isRunning ? " and did not die on SIGKILL" : "")")
        }
        return ProcessResult(status: p.terminationStatus, stdout: (try? Data(contentsOf: outURL)) ?? Data(),
                             stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
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
