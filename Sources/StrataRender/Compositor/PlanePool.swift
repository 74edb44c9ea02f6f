// Float buffers for tiles, reused from frame to frame: a tile's planes (64 KiB for a 64-pixel
// tile), the working copy a kept prefix starts from, the prefix kept for the next frame. Taking
// and giving back under a lock costs far less than the allocation, zero fill and first-touch
// page faults of a fresh buffer for every tile of every frame, and keeps the tile stage free of
// heap allocations once the pool holds what a frame needs. Buffers are handed over uniquely, so
// writing into them never copies.
import Foundation
import Synchronization

/// A pool of `[Float]` buffers by length.
typealias PlanePool = BufferPool<Float>

/// The pools the tile stage uses (shared by every renderer: buffers are sized per grid).
extension BufferPool where Element == Float {
    static var shared: BufferPool<Float> { Pools.planes }
}
extension BufferPool where Element == Int32 {
    static var shared: BufferPool<Int32> { Pools.spans }
}
enum Pools {
    static let planes = BufferPool<Float>()
    static let spans = BufferPool<Int32>(limit: 4)
    /// Offscreen groups' and masks' buffers, by power-of-two lengths (`TileBuffer(pooled:roundedFrom:)`):
    /// a few per worker, nested groups a few more.
    static let groups = BufferPool<Float>(limit: 4, byteLimit: 8 << 20)
}

/// A pool of buffers by length.
final class BufferPool<Element: BitwiseCopyable & Sendable>: Sendable {
    /// Spare buffers of one length. (An array of these, searched linearly — a frame has a few
    /// lengths — rather than a dictionary, whose values were copied on every change.)
    struct Bucket: Sendable {
        var count: Int
        var buffers: [[Element]]
    }
    private struct State: Sendable {
        var buckets: [Bucket] = []
        var bytes = 0
    }
    private let spare = Mutex(State())
    /// Buffers kept per length (a frame's workers plus a few in flight).
    let limit: Int
    /// Bytes kept in all (the resumed parts of tiles come in many lengths: without a bound the
    /// pool would hold on to every one seen). When full, the least recently given length goes first.
    let byteLimit: Int

    init(limit: Int = 16, byteLimit: Int = 32 << 20) { self.limit = limit; self.byteLimit = byteLimit }

    /// A buffer of `count` elements whose contents are unspecified.
    func take(_ count: Int) -> [Element] {
        if let b = spare.withCheckedLock({ s -> [Element]? in
            guard let i = s.buckets.firstIndex(where: { $0.count == count }), let b = s.buckets[i].buffers.popLast() else { return nil }
            s.bytes -= count * MemoryLayout<Element>.stride
            return b
        }) { return b }
        return .uninitialized(count)
    }

    /// A buffer of `count` zero bytes.
    func takeZeroed(_ count: Int) -> [Element] {
        var b = take(count)
        b.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
        return b
    }

    /// A copy of `source` in a pooled buffer.
    func copy(_ source: [Element]) -> [Element] {
        var b = take(source.count)
        b.withUnsafeMutableBufferPointer { dst in source.withUnsafeBufferPointer { dst.baseAddress!.update(from: $0.baseAddress!, count: $0.count) } }
        return b
    }

    /// Gives a buffer back (the caller must hold its only reference).
    func give(_ buffer: inout [Element]) {
        let b = buffer
        buffer = []
        guard !b.isEmpty else { return }
        let size = b.count * MemoryLayout<Element>.stride
        guard size <= byteLimit else { return }
        spare.withCheckedLock { s in
            // The most recently given length goes last: the front holds the lengths least used.
            var bucket = Bucket(count: b.count, buffers: [])
            if let i = s.buckets.firstIndex(where: { $0.count == b.count }) {
                if s.buckets[i].buffers.count >= limit { return }
                bucket = s.buckets.remove(at: i)
            }
            while !s.buckets.isEmpty && (s.bytes + size > byteLimit || s.buckets.count >= 64) {
                let gone = s.buckets.removeFirst()
                s.bytes -= gone.buffers.count * gone.count * MemoryLayout<Element>.stride
            }
            if s.bytes + size > byteLimit { return }
            s.bytes += size
            bucket.buffers.append(b)
            s.buckets.append(bucket)
        }
    }

    /// The lengths held (least recently given first) and the bytes they take.
    var testOnly_held: (lengths: [Int], bytes: Int) {
        spare.withCheckedLock { s in (s.buckets.filter { !$0.buffers.isEmpty }.map(\.count), s.bytes) }
    }
}

extension Array where Element: BitwiseCopyable {
    /// `count` elements whose contents are unspecified (every caller overwrites them). An empty
    /// array is made plainly: `init(unsafeUninitializedCapacity: 0)` writes the count into the
    /// standard library's shared empty-array storage, a write other threads reading any empty
    /// array race with (ThreadSanitizer reports it).
    static func uninitialized(_ count: Int) -> [Element] {
        count == 0 ? [] : [Element](unsafeUninitializedCapacity: count) { _, n in n = count }
    }
}
