// LRUCache: eviction order, the byte bound, generations, and that eviction visits only the entries
// it removes (O(1) a removed entry, whatever the cache holds).
import XCTest
import StrataCore

final class LRUCacheTests: XCTestCase {
    func testEvictsLeastRecentlyUsedFirst() {
        var cache = LRUCache<String, Int>()
        for (i, k) in ["a", "b", "c", "d"].enumerated() { cache.insert(i, for: k, bytes: 10) }
        XCTAssertEqual(cache.value(for: "a"), 0)            // a becomes the most recent
        XCTAssertEqual(cache.testOnly_verifyInvariants(), ["a", "d", "c", "b"])
        cache.evict(toFit: 25)
        XCTAssertEqual(cache.testOnly_verifyInvariants(), ["a", "d"])
        XCTAssertNil(cache.value(for: "b"))
        XCTAssertNil(cache.value(for: "c"))
        XCTAssertEqual(cache.bytes, 20)
    }

    func testByteBoundCountsReplacementsAndRemovals() {
        var cache = LRUCache<Int, String>()
        cache.insert("x", for: 1, bytes: 100)
        cache.insert("y", for: 2, bytes: 50)
        cache.insert("x2", for: 1, bytes: 30)               // replaced: 30 counted, not 130
        XCTAssertEqual(cache.bytes, 80)
        XCTAssertEqual(cache.testOnly_verifyInvariants(), [1, 2])
        XCTAssertEqual(cache.removeValue(for: 2), "y")
        XCTAssertEqual(cache.bytes, 30)
        XCTAssertEqual(cache.count, 1)
        cache.removeAll()
        XCTAssertEqual(cache.bytes, 0)
        XCTAssertEqual(cache.testOnly_verifyInvariants(), [])
        // Slots of removed entries are reused.
        for k in 0..<1000 { cache.insert("\(k)", for: k, bytes: 1); cache.evict(toFit: 10) }
        XCTAssertEqual(cache.bytes, 10)
        XCTAssertEqual(cache.testOnly_verifyInvariants(), Array((990..<1000).reversed()))
    }

    func testSparedEntriesStayEvenOverTheBound() {
        var cache = LRUCache<Int, Int>()
        for k in 0..<5 { cache.insert(k, for: k, bytes: 10) }
        cache.evict(toFit: 0, sparing: { $0 == 0 || $0 == 3 })
        XCTAssertEqual(cache.testOnly_verifyInvariants(), [3, 0])
        XCTAssertEqual(cache.bytes, 20)
    }

    func testEvictionVisitsOnlyWhatItRemoves() {
        var cache = LRUCache<Int, Int>()
        let n = 100_000
        for k in 0..<n { cache.insert(k, for: k, bytes: 1) }
        var visited = 0
        cache.insert(n, for: n, bytes: 1)
        cache.evict(toFit: n, sparing: { _ in visited += 1; return false })
        XCTAssertEqual(visited, 1)                           // the oldest only, not a scan of 100 000
        XCTAssertNil(cache.value(for: 0))
        XCTAssertEqual(cache.count, n)
        // A lookup moves an entry to the front without touching the others: the next eviction
        // takes the next oldest.
        XCTAssertEqual(cache.value(for: 1), 1)
        cache.insert(n + 1, for: n + 1, bytes: 1)
        cache.evict(toFit: n, sparing: { _ in visited += 1; return false })
        XCTAssertEqual(visited, 2)
        XCTAssertNil(cache.value(for: 2))
        XCTAssertEqual(cache.value(for: 1), 1)
    }

    func testGenerationsDropWhatTwoFramesDidNotUse() {
        var cache = LRUCache<String, Int>()
        cache.insert(1, for: "every frame")
        cache.insert(2, for: "once")
        cache.endGeneration()                                // frame 0 ends: both used in it
        XCTAssertEqual(cache.count, 2)
        _ = cache.value(for: "every frame")
        var dropped: [Int] = []
        cache.endGeneration { dropped.append($0) }           // frame 1 ends: "once" was used in frame 0
        XCTAssertEqual(dropped, [])
        _ = cache.value(for: "every frame")
        cache.endGeneration { dropped.append($0) }           // frame 2 ends: "once" unused in 1 and 2
        XCTAssertEqual(dropped, [2])
        XCTAssertEqual(cache.testOnly_verifyInvariants(), ["every frame"])
    }
}
