// Public API keeps its doc comments: scripts/undocumented.py lists the public declarations with no
// `///` comment directly above them, and the folders it names FINISHED (all of whose public
// declarations are documented) must stay at none. A second test feeds the checker a file with
// known gaps, so a checker that finds nothing cannot pass for one that finds everything.
import Foundation
import XCTest

final class DocCommentTests: XCTestCase {
    /// The package's folder (this file is Tests/StrataTests/DocCommentTests.swift).
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private var checker: String { root.appendingPathComponent("scripts/undocumented.py").path }

    private func python() throws -> String {
        for path in ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw XCTSkip("python3 is not installed (scripts/undocumented.py needs it)")
    }

    func testFinishedFoldersHaveADocCommentOnEveryPublicDeclaration() throws {
        let result = try runProcess(try python(), [checker, "--check"], timeout: 60)
        XCTAssertEqual(result.status, 0, """
            public declarations without a doc comment (add a /// comment above each):
            \(result.text)\(result.stderr)
            """)
        XCTAssertTrue(result.text.contains("every public declaration has a doc comment"), result.text)
    }

    func testTheCheckerFindsEachKindOfUndocumentedDeclaration() throws {
        let python = try python()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-doc-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = """
            /// Documented.
            public struct Documented {
                /// Documented.
                public var a = 1
                public var b = 2
                @inlinable public func c() {}
                /// Documented, with an attribute between.
                @discardableResult
                public func d() -> Int { 0 }
                public static let e = 0
                var internalIsFine = 0
                let s = "public var notADeclaration = 0 // in a string"
            }
            public enum Kind {
                /// Documented.
                case one
                case two, three
            }
            public enum Inline { case x, y }
            public protocol Requirement {
                func f()
            }
            /// A doc comment separated from its declaration by a plain comment does not attach.
            // a note
            public final class Separated: CustomStringConvertible {
                public var description: String { "" }
                public override init() {}
                /**
                 A block doc comment.
                 */
                public init(x: Int) {}
                /* a plain block comment */
                public func g() {}
            }
            enum InternalKind {
                case fine
            }
            """
        let file = dir.appendingPathComponent("Sample.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let result = try runProcess(python, [checker, "--check", dir.path], timeout: 60)
        XCTAssertEqual(result.status, 1, result.stderr)
        let lines = result.text.split(separator: "\n").compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 2)
            return parts.count == 3 ? Int(parts[1]) : nil
        }
        // b, c, e, Kind, `case two, three`, the cases of Inline, Inline itself, Requirement, f,
        // Separated, g. Not: documented ones, internal ones, the string, `description` (inherited
        // from CustomStringConvertible), `override init`.
        XCTAssertEqual(lines, [5, 6, 10, 14, 17, 19, 19, 20, 21, 25, 33], result.text)
    }
}
