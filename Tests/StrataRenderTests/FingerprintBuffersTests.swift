// The fingerprint arrays a FrameHistory keeps from the frame it replaces and hands to the next
// frame: fingerprints written into them are the words written afresh, into the same memory when
// nothing else holds it (a history's frames take turns with two arrays), and a history's frames
// stay the bytes of frames drawn without one.
import XCTest
import StrataCore
@testable import StrataRender

final class FingerprintBuffersTests: XCTestCase {
    /// A scene whose items move and change colour with `t`.
    private func scene(_ t: Int) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 90)
        root.backgroundColor = .white
        for i in 0..<6 {
            let l = CALayer()
            l.frame = CGRect(x: 10 + 20 * i + t, y: 10 + 5 * i, width: 30, height: 20)
            l.backgroundColor = CGColor(red: Double(i) / 6, green: Double(t % 3) / 3, blue: 0.5, alpha: 0.8)
            l.cornerRadius = 4
            l.borderWidth = 1
            root.addSublayer(l)
        }
        return root
    }

    private func list(_ t: Int) -> DisplayList {
        DisplayListBuilder(width: 160, height: 90).build(PresentationBuilder(time: 0).snapshotTree(of: scene(t)))
    }

    func testReusedArraysHoldTheSameWordsInTheSameMemory() {
        var old = ItemFingerprints(list(0))
        let oldBase = old.chunks[0].words.withUnsafeBufferPointer { $0.baseAddress }
        let next = list(1)
        let reused = ItemFingerprints(next, reusing: old.takeBuffers())
        XCTAssertTrue(old.chunks.isEmpty && old.ranges.isEmpty)
        let fresh = ItemFingerprints(next)
        XCTAssertEqual(reused.words, fresh.words)
        XCTAssertEqual(reused.ranges, fresh.ranges)
        XCTAssertEqual(reused.chunks[0].words.withUnsafeBufferPointer { $0.baseAddress }, oldBase, "written where the old words were")
        for i in 0..<reused.ranges.count { XCTAssertTrue(reused.same(i, as: i, in: fresh)) }
    }

    /// A list longer than a chunk: chunks written in any order (as the span stage's jobs do) hold
    /// the words written in one pass, and items compare across chunk boundaries.
    func testChunksWrittenInAnyOrderHoldTheSameWords() {
        let base = list(0).items, other = list(1).items
        let n = 2 * ItemFingerprints.chunkLength + 100
        let long = DisplayList(items: (0..<n).map { base[$0 % base.count] })
        let serial = ItemFingerprints(long)
        XCTAssertEqual(serial.chunks.count, 3)
        let results = JobResults(ItemFingerprints.chunks(for: long, reusing: ItemFingerprints.Buffers()))
        for c in (0..<results.count).reversed() { ItemFingerprints.fill(chunk: c, of: long, in: results) }
        var reversed = ItemFingerprints(chunks: results.takeAll())
        XCTAssertEqual(reversed.words, serial.words)
        XCTAssertEqual(reversed.ranges, serial.ranges)
        // Each item's words are those of the same item fingerprinted alone.
        for i in [0, ItemFingerprints.chunkLength - 1, ItemFingerprints.chunkLength, n - 1] {
            let alone = ItemFingerprints(DisplayList(items: [long.items[i]])).words
            let r = serial.ranges[i]
            XCTAssertEqual(Array(serial.chunks[i / ItemFingerprints.chunkLength].words[r]), alone, "item \(i)")
        }
        // Item i of one chunk against item j of another: same when they are the same item.
        let k = base.count
        XCTAssertTrue(serial.same(1, as: 1 + k * (ItemFingerprints.chunkLength / k + 1), in: serial))
        let changed = DisplayList(items: (0..<n).map { $0 == n - 1 ? other[$0 % other.count] : base[$0 % base.count] })
        let second = ItemFingerprints(changed, reusing: reversed.takeBuffers())
        XCTAssertFalse(second.same(n - 1, as: n - 1, in: serial), "a moved item differs")
        XCTAssertTrue(second.same(n - 2, as: n - 2, in: serial))
        // Fewer items than before: the reused buffers shrink to the chunks needed.
        var longAgain = ItemFingerprints(long)
        let short = ItemFingerprints(list(0), reusing: longAgain.takeBuffers())
        XCTAssertEqual(short.chunks.count, 1)
        XCTAssertEqual(short.words, ItemFingerprints(list(0)).words)
    }

    func testAHistoryRecyclesItsFingerprintsAndKeepsTheBytes() {
        let history = FrameHistory()
        let kept = FrameRenderer(width: 160, height: 90, history: history)
        let plain = FrameRenderer(width: 160, height: 90)
        var addresses: [UnsafePointer<UInt64>?] = []
        for t in 0..<6 {
            let snap = PresentationBuilder(time: 0).snapshotTree(of: scene(t))
            XCTAssertEqual(kept.render(snap).pixels, plain.render(snap).pixels, "frame \(t)")
            addresses.append(history.previous(width: 160, height: 90)?.fingerprints.chunks[0].words.withUnsafeBufferPointer { $0.baseAddress })
        }
        // Each frame writes its words into the arrays of the frame two before: two buffers in turn.
        XCTAssertEqual(Array(addresses[2...]), [addresses[0], addresses[1], addresses[0], addresses[1]])
        XCTAssertNotEqual(addresses[0], addresses[1])
    }
}
