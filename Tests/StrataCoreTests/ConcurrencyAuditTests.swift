// The concurrency rules of the sources, checked on the text of Sources/: every Mutex section is
// taken with `withCheckedLock` (visible to ThreadSanitizer), every `@unchecked Sendable` says why
// it is safe, and NSLock is not used (Mutex is the one lock; NSCondition only where a thread waits).
// The Mutex itself is checked too: its sections exclude each other under contention. Hidden state
// is listed: every `static let shared`, stored `static var`, `nonisolated(unsafe)`,
// `threadDictionary` and thread-local slot must be on an allow-list with its reason, so a new one
// fails here.
import Foundation
import Synchronization
import XCTest
@testable import StrataCore

final class ConcurrencyAuditTests: XCTestCase {
    /// The Swift files under Sources/, with their lines.
    private func sources() throws -> [(path: String, lines: [Substring])] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [(String, [Substring])] = []
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            files.append((url.path.replacingOccurrences(of: root.path + "/", with: ""), text.split(separator: "\n", omittingEmptySubsequences: false)))
        }
        XCTAssertGreaterThan(files.count, 100, "the sources were found")
        return files
    }

    private func isComment(_ line: Substring) -> Bool { line.trimmingCharacters(in: .whitespaces).hasPrefix("//") }

    func testMutexSectionsAreVisibleToThreadSanitizer() throws {
        var offenders: [String] = []
        for (path, lines) in try sources() where path != "StrataCore/Concurrency/CheckedLock.swift" {
            for (i, line) in lines.enumerated() where !isComment(line) {
                if line.range(of: #"\bwithLock\b"#, options: .regularExpression) != nil { offenders.append("\(path):\(i + 1)") }
            }
        }
        XCTAssertEqual(offenders, [], "use withCheckedLock (StrataCore/Concurrency/CheckedLock.swift), not withLock")
    }

    func testEveryUncheckedSendableSaysWhy() throws {
        var offenders: [String] = []
        var count = 0
        for (path, lines) in try sources() {
            for (i, line) in lines.enumerated() where !isComment(line) && line.contains("@unchecked Sendable") {
                count += 1
                // The reason is a `// @unchecked: …` comment within the eight lines above the
                // declaration's doc comment and attributes.
                var top = i
                while top > 0, lines[top - 1].trimmingCharacters(in: .whitespaces).hasPrefix("///")
                        || lines[top - 1].trimmingCharacters(in: .whitespaces).hasPrefix("@") { top -= 1 }
                let above = lines[max(0, top - 8)..<i]
                if !above.contains(where: { $0.contains("// @unchecked:") }) { offenders.append("\(path):\(i + 1)") }
            }
        }
        XCTAssertEqual(offenders, [], "each @unchecked Sendable needs a `// @unchecked: reason` comment above it")
        XCTAssertGreaterThan(count, 0)
    }

    func testNoNSLock() throws {
        var offenders: [String] = []
        for (path, lines) in try sources() {
            for (i, line) in lines.enumerated() where !isComment(line) && line.contains("NSLock") {
                offenders.append("\(path):\(i + 1)")
            }
        }
        XCTAssertEqual(offenders, [], "Mutex is the one lock (NSCondition only where a thread waits)")
    }

    /// Process-wide and thread-hidden state, by file and kind, with the reason each is allowed.
    /// Add to it only with a reason; an entry whose state is gone must be removed.
    private let hiddenStateAllowed: [String: (count: Int, why: String)] = [
        "Strata/Export/Interruption.swift static let shared": (1, "signal handlers are process-wide"),
        "StrataCore/Layers/CALayer+Drawing.swift static let shared": (1, "display keys: a process-unique numbering"),
        "StrataMedia/Decoders/ImageCache.swift static let shared": (1, "CGImage.load(contentsOf:)'s cache, as ImageIO's"),
        "StrataRender/Compositor/WorkerPool.swift static let shared": (1, "one pool of worker threads for the process's renderers"),
        "StrataRender/Content/TextLayout.swift static let shared": (1, "Pango and fontconfig are process-wide and not thread-safe"),
        "StrataMedia/Decoders/ImageIO.swift nonisolated(unsafe)": (3, "immutable constants of a non-Sendable type (Apple's globals)"),
        "Strata/Declarative/Scene+Composition.swift static var": (1, "a @TaskLocal: the command line's format override, bound only inside Scene.building(adjustedBy:_:)"),
        // Thread-local slots (ThreadLocal.swift, the one mechanism): each is set for the length
        // of a body by the scene or builder that owns the object, or holds per-thread scratch.
        "StrataCore/Timing/SceneClock.swift thread-local": (1, "the running scene's clock, set by the scene around its blocks"),
        "StrataCore/Presentation/SnapshotReport.swift thread-local": (1, "the builder's report, set by PresentationBuilder for a build"),
        "StrataMedia/Decoders/MediaContext.swift thread-local": (1, "the scene's media context, set by the scene while its code runs"),
        "StrataCore/Layers/CATransaction.swift thread-local": (1, "Core Animation's transaction stack is per thread"),
        "StrataCore/Layers/CALayer+Animation.swift thread-local": (1, "animation errors made outside any scene context, taken by the next scene"),
        "StrataCore/Drawing/UIGraphics.swift thread-local": (1, "UIKit's current-context stack is per thread"),
        "StrataUIKit/UIGraphicsImageContext.swift thread-local": (1, "UIGraphicsBeginImageContext's stack is per thread"),
        "StrataUIKit/UIView+Animation.swift thread-local": (1, "UIView.animate's open blocks are per thread"),
    ]

    func testHiddenStateIsOnTheAllowList() throws {
        let kinds = [("static let shared", #"\bstatic let shared\b"#), ("nonisolated(unsafe)", #"nonisolated\(unsafe\)"#),
                     ("threadDictionary", #"\bthreadDictionary\b"#),
                     ("thread-local", #"\b(ThreadLocalReference|PerThreadObject)\s*(<[^>]*>)?\s*[({]"#),
                     // Stored only: `static var name = …` or `static var name: Type` with no body.
                     ("static var", #"\bstatic var \w+(\s*:\s*[^={]+)?\s*(=.*)?$"#)]
        var found: [String: Int] = [:]
        for (path, lines) in try sources() {
            for line in lines where !isComment(line) {
                for (kind, pattern) in kinds where line.range(of: pattern, options: .regularExpression) != nil {
                    if kind == "static var", line.contains("{") { continue }
                    found["\(path) \(kind)", default: 0] += 1
                }
            }
        }
        for (key, count) in found.sorted(by: { $0.key < $1.key }) {
            XCTAssertLessThanOrEqual(count, hiddenStateAllowed[key]?.count ?? 0,
                                     "\(key): process-wide or thread-hidden state not on the allow-list; carry it in the scene or the builder")
        }
        for (key, entry) in hiddenStateAllowed where found[key, default: 0] < entry.count {
            XCTFail("\(key): the allow-list names \(entry.count) but the sources have \(found[key, default: 0]); shorten the list")
        }
    }

    /// The checked lock still excludes: four threads toggling entries of one array under it end
    /// with the count a serial run gives.
    func testCheckedSectionsExcludeEachOther() {
        final class Shared: Sendable { let state = Mutex<(items: [Int], operations: Int)>(([], 0)) }
        let shared = Shared()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for k in 0..<5_000 {
                shared.state.withCheckedLock { s in
                    if let i = s.items.firstIndex(of: k % 16) { s.items.remove(at: i) } else { s.items.append(k % 16) }
                    s.operations += 1
                }
            }
        }
        // Each value is toggled 4 × 5000 / 16 = 1250 times: an even count, so none is left.
        let (items, operations) = shared.state.withCheckedLock { ($0.items, $0.operations) }
        XCTAssertEqual(operations, 20_000)
        XCTAssertEqual(items, [])
    }
}
