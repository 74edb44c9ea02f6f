// A layer's attached animations as it stores them: the entries in the order added, and how many
// entries each key has, so that adding under a new key (the usual case: a composition adds its
// animations under keys of their own) costs O(1) amortised instead of a scan of every entry.
// A template whose timeline loop made 10 000 animations on one layer took 40 s to compile when
// each addition scanned and copied the list.
//
// Animations that ran to their end with `isRemovedOnCompletion` are no longer visible
// (`animationKeys()`, `animation(forKey:)` skip them, and their timing shows nothing after their
// end); they are dropped from the storage when the list has doubled since the last pruning, or
// when their key is used again, so pruning costs O(1) amortised too.
import Foundation

struct AnimationList {
    /// The entries in the order added.
    private(set) var entries: [AnimationEntry] = []
    /// The number of entries under each key.
    private var keyCounts: [String: Int] = [:]
    /// The number of entries after the last pruning.
    private var prunedCount = 0
    /// Whether the layer's snapshot can be made from its model with these animations applied
    /// (`PresentationBuilder.animatesGeometryOnly`), once asked: found once for each list,
    /// not every frame. Cleared by every change of the entries.
    var animatesGeometryOnly: Bool?

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// Whether an entry has `key` (finished ones included).
    func contains(key: String) -> Bool { keyCounts[key] != nil }

    /// Adds `entry` after removing the entries under its key (detach them first) and, from time
    /// to time, those that ran to their end.
    mutating func add(_ entry: AnimationEntry) {
        if contains(key: entry.key) {
            removeAll { $0.key == entry.key || $0.original.runtime?.removedAtEnd == true }
        } else if entries.count >= max(16, 2 * prunedCount) {
            removeAll { $0.original.runtime?.removedAtEnd == true }
        }
        entries.append(entry)
        keyCounts[entry.key, default: 0] += 1
        animatesGeometryOnly = nil
    }

    /// Removes the entries that satisfy `predicate`.
    mutating func removeAll(where predicate: (AnimationEntry) -> Bool) {
        entries.removeAll(where: predicate)
        keyCounts.removeAll(keepingCapacity: true)
        for e in entries { keyCounts[e.key, default: 0] += 1 }
        prunedCount = entries.count
        animatesGeometryOnly = nil
    }

    /// Removes every entry.
    mutating func removeAll() {
        entries.removeAll()
        keyCounts.removeAll()
        prunedCount = 0
        animatesGeometryOnly = nil
    }

    /// Checks that the key counts match the entries (for tests).
    func testOnly_verifyInvariants() -> Bool {
        var counts: [String: Int] = [:]
        for e in entries { counts[e.key, default: 0] += 1 }
        return counts == keyCounts
    }
}
