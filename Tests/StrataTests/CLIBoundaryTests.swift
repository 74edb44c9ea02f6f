// The command line is one target: StrataCLI holds every command and option and is the only
// target that imports ArgumentParser (the library target Strata does not), and the `strata`
// executable is a thin main over it. Checked on the text of Sources/.
import Foundation
import XCTest

final class CLIBoundaryTests: XCTestCase {
    private let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    private func swiftFiles(under folder: URL) -> [URL] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "swift" }
    }

    func testOnlyStrataCLIImportsArgumentParser() throws {
        var checked = 0
        for file in swiftFiles(under: sources) where !file.path.contains("/Sources/StrataCLI/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            XCTAssertFalse(text.contains("import ArgumentParser"), file.path)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 100)
        XCTAssertFalse(swiftFiles(under: sources.appendingPathComponent("StrataCLI")).isEmpty)
    }

    func testTheExecutableIsAThinMain() throws {
        let files = swiftFiles(under: sources.appendingPathComponent("strata"))
        XCTAssertEqual(files.map(\.lastPathComponent), ["main.swift"])
        let lines = try String(contentsOf: files[0], encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("//") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        XCTAssertEqual(lines, ["import StrataCLI", "StrataCommand.main()"])
    }
}
