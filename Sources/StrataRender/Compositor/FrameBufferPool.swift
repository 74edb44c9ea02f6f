// The pixel buffers of the frames a renderer without a history returned, kept so that a later
// frame is drawn into one its caller has dropped. Without them each frame allocates its buffer
// anew, and when the allocator has given the last one back to the system in between (glibc's
// adaptive thresholds do, depending on what else the process allocates), the first writes to the
// new one fault its pages in: 70–280 faults a frame, a fifth of the time of a 1080p frame of
// text. A buffer that served two frames ago is also still in the caches. The price: while the
// renderer lives, it keeps up to three frames' buffers its callers no longer hold.
//
// A kept buffer is only taken when the pool's reference is its only one. Were that ever wrong,
// nothing would be overwritten all the same: the renderer writes through Array's own
// copy-on-write check, which would copy a buffer someone still holds.
import Synchronization
import StrataCore

final class FrameBufferPool: Sendable {
    /// Buffers kept: the frame a caller holds while the next one renders, the one before it, and
    /// with frames pipelined (FramePipeline) one more: the tile thread starts frame N + 1 while
    /// its caller still holds frame N - 1 and frame N waits to be taken. With two, every
    /// pipelined frame allocated its buffer (the 1080p benchmark's: one allocation a frame).
    static let capacity = 3
    private let kept = Mutex<[[UInt8]]>([])
    /// How many `take`s found a buffer (for tests).
    let served = Atomic<Int>(0)

    init() {}

    /// A kept buffer of `count` bytes that nobody else holds any more, taken out of the pool.
    func take(count: Int) -> [UInt8]? {
        kept.withCheckedLock { k in
            for i in k.indices where k[i].count == count {
                // Moved out of the list first: asked in place, through the list's subscript, the
                // buffer may be read into a temporary copy, a second reference.
                var candidate = k.remove(at: i)
                if candidate.isOnlyReferenceToStorage() {
                    served.add(1, ordering: .relaxed)
                    return candidate
                }
                k.insert(candidate, at: i)
            }
            return nil
        }
    }

    /// Keeps a reference to the buffer of a frame about to be returned.
    func keep(_ pixels: [UInt8]) {
        let dropped = kept.withCheckedLock { k -> [UInt8]? in
            k.append(pixels)
            return k.count > Self.capacity ? k.removeFirst() : nil
        }
        _ = dropped  // freed here, after the lock
    }

    /// The number of buffers kept (for tests).
    var count: Int { kept.withCheckedLock { $0.count } }
}
