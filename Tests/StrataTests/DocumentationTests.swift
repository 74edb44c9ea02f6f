// The documentation cannot drift from the code: every Swift code block of the README is
// type-checked against the modules this build made (each block a program of its own, as a
// reader would paste it), and every relative link of the README, CONTRIBUTING.md,
// Templates/README.md and docs/*.md leads to a file that exists.
import Foundation
import XCTest

final class DocumentationTests: XCTestCase {
    /// The package's folder (this file is Tests/StrataTests/DocumentationTests.swift).
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fenced blocks of `markdown` in `language`, with the line each starts on.
    static func codeBlocks(_ markdown: String, language: String) -> [(line: Int, code: String)] {
        var blocks: [(Int, String)] = []
        var current: [String]?
        var start = 0
        for (i, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```" + language {
                current = []
                start = i + 2
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append((start, current!.joined(separator: "\n")))
                current = nil
            } else if current != nil {
                current!.append(String(line))
            }
        }
        return blocks
    }

    func testCodeBlocksAreFound() {
        let md = "text\n```swift\nlet a = 1\n```\n```sh\nls\n```\n```swift\nlet b = 2\nprint(b)\n```\n"
        let blocks = Self.codeBlocks(md, language: "swift")
        XCTAssertEqual(blocks.map(\.code), ["let a = 1", "let b = 2\nprint(b)"])
        XCTAssertEqual(blocks.map(\.line), [3, 9])
    }

    func testTheReadmesSwiftBlocksTypeCheck() throws {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.codeBlocks(readme, language: "swift")
        XCTAssertGreaterThanOrEqual(blocks.count, 3, "the README shows a StrataScript, Core Animation code and a timeline")
        let (swiftc, flags) = try compilerAndFlags()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (n, block) in blocks.enumerated() {
            // A block with @main is a library-style file; others are top-level code (main.swift).
            let isLibraryStyle = block.code.contains("@main")
            let dir = folder.appendingPathComponent("block\(n)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let file = dir.appendingPathComponent(isLibraryStyle ? "Block.swift" : "main.swift")
            try block.code.write(to: file, atomically: true, encoding: .utf8)
            let r = try runProcess(swiftc, ["-typecheck", "-swift-version", "6"] + (isLibraryStyle ? ["-parse-as-library"] : [])
                                   + flags + [file.path], timeout: 300)
            XCTAssertEqual(r.status, 0, "README.md, the Swift block at line \(block.line) does not compile:\n\(r.stderr)")
        }
    }

    /// swiftc beside the toolchain that built the tests, and the flags that let it see the
    /// modules of this build (Swift modules, and the C modules they import).
    private func compilerAndFlags() throws -> (String, [String]) {
        let fm = FileManager.default
        let candidates = ["/opt/swift/usr/bin/swiftc"] + (ProcessInfo.processInfo.environment["PATH"] ?? "")
            .split(separator: ":").map { "\($0)/swiftc" }
        guard let swiftc = candidates.first(where: { fm.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("skipped: no swiftc on PATH or at /opt/swift")
        }
        // The build folder: the one holding this test bundle (.build/debug or .build/release).
        var build = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 where !fm.fileExists(atPath: build.appendingPathComponent("Modules/Strata.swiftmodule").path) {
            build = build.deletingLastPathComponent()
        }
        let modules = build.appendingPathComponent("Modules")
        guard fm.fileExists(atPath: modules.appendingPathComponent("Strata.swiftmodule").path) else {
            throw XCTSkip("skipped: the Strata module is not beside the tests (\(build.path))")
        }
        var flags = ["-I", modules.path]
        var maps = ["CFFmpeg", "CGif", "CCairo", "CVTerm", "CZlib"].map { root.appendingPathComponent("Sources/\($0)/module.modulemap").path }
        maps += ["CLockAnnotations", "CStrataKernels", "CStrataGIF", "CPseudoTerminal"].map { build.appendingPathComponent("\($0).build/module.modulemap").path }
        let yams = root.appendingPathComponent(".build/checkouts/Yams/Sources/CYaml/include/module.modulemap").path
        if fm.fileExists(atPath: yams) { maps.append(yams) }
        for map in maps where fm.fileExists(atPath: map) { flags += ["-Xcc", "-fmodule-map-file=" + map] }
        for include in ["CLockAnnotations/include", "CStrataKernels/include", "CStrataGIF/include"] {
            flags += ["-Xcc", "-I" + root.appendingPathComponent("Sources/" + include).path]
        }
        let pkg = try runProcess("pkg-config", ["--cflags-only-I", "pangocairo", "libavformat", "libavcodec", "libswscale"])
        for part in pkg.text.split(whereSeparator: { $0 == " " || $0 == "\n" }) where part.hasPrefix("-I") {
            flags += ["-Xcc", String(part)]
        }
        return (swiftc, flags)
    }

    func testRelativeLinksLeadToFilesThatExist() throws {
        let fm = FileManager.default
        var pages = ["README.md", "CONTRIBUTING.md", "Templates/README.md"]
        pages += ((try? fm.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? [])
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var broken: [String] = []
        for page in pages {
            let url = root.appendingPathComponent(page)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { broken.append("\(page) is missing"); continue }
            for m in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let target = String(text[Range(m.range(at: 1), in: text)!])
                if target.contains("://") || target.hasPrefix("#") || target.hasPrefix("mailto:") { continue }
                let path = String(target.split(separator: "#", maxSplits: 1).first ?? "")
                let resolved = url.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                if !fm.fileExists(atPath: resolved.path) { broken.append("\(page): \(target)") }
            }
        }
        XCTAssertEqual(broken, [], "links to files that do not exist")
    }

    func testTheReadmeKeepsTheTwoSetUpCommandsAndTemplatesReadmeNamesTheLanguageAsItIs() throws {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("bash scripts/demo.sh"))
        XCTAssertTrue(readme.contains("bash scripts/test.sh"))
        let templates = try String(contentsOf: root.appendingPathComponent("Templates/README.md"), encoding: .utf8)
        XCTAssertFalse(templates.contains("DESIGN.md"), "Templates/README.md cites a file the repository does not have")
        XCTAssertTrue(templates.contains("`forEach`/`if`"))
        // The language reference says the same.
        let language = try String(contentsOf: root.appendingPathComponent("docs/template-language.md"), encoding: .utf8)
        XCTAssertTrue(language.contains("`forEach`") && language.contains("`if`"))
    }
}
