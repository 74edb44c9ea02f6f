// Who owns a frame's buffers. A renderer draws each frame into buffers of one pool (its history's,
// or its own without one): the RGBA8 pixels, and the YUV planes when rendered for an encoder. It
// lends them to whoever takes the frame — the caller, an export's queue and encoder, the history
// keeping it as the previous frame — and they come back by one path, the pool's: a buffer is
// drawn into again only once the pool's reference is the only one left (the storage's reference
// count, UniqueStorage.swift). So a frame somebody still holds is never overwritten, and nobody
// gives buffers back by hand. The one exception to "the pool's reference only": the previous
// frame's RGBA8 buffer, which the history holds too, is drawn over in place once the history's
// and the pool's are the only references left (`takeBack`, FrameHistory.takePreviousBuffer) — an
// export that sends only YUV on then needs one RGBA8 buffer, not two.
//
// Without the reuse each frame allocates its buffers anew, and when the allocator has given the
// last one back to the system in between (glibc's adaptive thresholds do), the first writes fault
// its pages in: 70–280 faults a frame, a fifth of the time of a 1080p frame of text, 7 % of an
// export's at 720p. A buffer that served two frames ago is also still in the caches, and the tiles
// no frame has drawn since it was drawn need no copying (FrameHistory): the pool numbers the
// frames it lends, and a buffer says which frame it holds.
import Synchronization
import StrataCore

/// The pixels one frame is drawn into, taken from a pool (`FrameBuffers.take`): the pool it goes
/// back to, the number of the frame drawn into it, and that of the frame it holds when recycled.
struct FrameBuffer {
    /// The pool the buffer was taken from (nil: none; a fresh buffer, let go with its frame).
    let owner: ObjectIdentifier?
    /// The number of the frame drawn into it (increasing in its pool).
    let generation: Int
    /// The frame whose pixels it holds from its last use (nil: fresh, contents unspecified).
    let holds: Int?
    var pixels: [UInt8]

    /// A buffer of `count` bytes, fresh unless `holds` says which frame's pixels it has.
    init(count: Int, owner: ObjectIdentifier? = nil, generation: Int = 0, holds: (generation: Int, pixels: [UInt8])? = nil) {
        self.owner = owner; self.generation = generation; self.holds = holds?.generation
        pixels = holds?.pixels ?? .uninitialized(count)
    }
}

/// The buffers of the frames a renderer lends out, drawn into again once nobody else holds them.
final class FrameBuffers: Sendable {
    private struct State {
        var generation = 0
        /// Lent buffers (oldest first), with the number of the frame each holds.
        var pixels: [(generation: Int, pixels: [UInt8])] = []
        var planes: [YUVFrame] = []
    }
    private let state = Mutex(State())
    /// Lent buffers followed (of each kind): an export's queue (`queueDepth`, 2 by default), the frame being
    /// encoded, the history's previous frame and a pipelined one in flight fit.
    static let followed = 12
    /// Buffers nobody else holds kept for later frames (the memory an idle pool costs): the frame
    /// a caller held while the next rendered, and with frames pipelined the one before it.
    static let kept = 2
    /// How many `take`s found a buffer (for tests).
    let served = Atomic<Int>(0)

    init() {}

    /// The buffer for the next frame: the most recent lent one of `count` bytes that nobody else
    /// holds any more, else a fresh one.
    func take(count: Int) -> FrameBuffer {
        let (generation, held) = state.withCheckedLock { s in
            s.generation += 1
            return (s.generation, Self.sweep(&s.pixels, taking: true, fits: { $0.pixels.count == count }, isFree: { $0.pixels.isOnlyReferenceToStorage() }))
        }
        if held != nil { served.add(1, ordering: .relaxed) }
        return FrameBuffer(count: count, owner: ObjectIdentifier(self), generation: generation, holds: held)
    }

    /// The buffer for the next frame when it is `pixels`, those of lent frame `held`, to be drawn
    /// over in place: taken (and `pixels` emptied) when, this pool's reference dropped, `pixels` is
    /// the only one left; otherwise the pool follows them as before and the answer is nil.
    func takeBack(_ pixels: inout [UInt8], holding held: Int) -> FrameBuffer? {
        let generation = state.withCheckedLock { s -> Int? in
            guard let i = s.pixels.firstIndex(where: { $0.generation == held }) else { return nil }
            // Dropped before asking (in place: a copy of the entry would be a reference).
            s.pixels[i].pixels = []
            guard pixels.isOnlyReferenceToStorage() else { s.pixels[i].pixels = pixels; return nil }
            s.pixels.remove(at: i)
            s.generation += 1
            return s.generation
        }
        guard let generation else { return nil }
        served.add(1, ordering: .relaxed)
        var taken: [UInt8] = []
        swap(&taken, &pixels)
        return FrameBuffer(count: taken.count, owner: ObjectIdentifier(self), generation: generation, holds: (held, taken))
    }

    /// YUV planes for the next frame, recycled as `take` recycles pixels.
    func takePlanes(width: Int, height: Int) -> YUVFrame {
        state.withCheckedLock { Self.sweep(&$0.planes, taking: true, fits: { $0.width == width && $0.height == height }, isFree: Self.isFree) }
            ?? YUVFrame(width: width, height: height)
    }

    /// Follows the buffers of a frame drawn into `buffer` (taken from this pool), about to be lent.
    func lend(_ pixels: [UInt8], of buffer: FrameBuffer, planes: YUVFrame?) {
        assert(problem(lending: buffer) == nil, problem(lending: buffer) ?? "")
        state.withCheckedLock { s in
            s.pixels.append((buffer.generation, pixels))
            _ = Self.sweep(&s.pixels, taking: false, fits: { _ in true }, isFree: { $0.pixels.isOnlyReferenceToStorage() })
            if let planes { s.planes.append(planes); _ = Self.sweep(&s.planes, taking: false, fits: { _ in true }, isFree: Self.isFree) }
        }
    }

    /// Why lending `buffer` would break the rule (checked in debug builds): it belongs to another
    /// pool, or its frame's buffer is lent already.
    func problem(lending buffer: FrameBuffer) -> String? {
        guard buffer.owner == ObjectIdentifier(self) else { return "frame \(buffer.generation)'s buffer belongs to another pool" }
        return state.withCheckedLock { $0.pixels.contains { $0.generation == buffer.generation } } ? "frame \(buffer.generation)'s buffer is lent twice" : nil
    }

    /// Forgets every buffer (those still lent live on with their holders).
    func clear() { state.withCheckedLock { s in s.pixels = []; s.planes = [] } }

    /// The number of buffers followed (for tests).
    var count: Int { state.withCheckedLock { $0.pixels.count } }

    /// Goes through `list` (dropping the oldest past `followed`) newest first: when `taking`,
    /// removes and returns the first entry nobody else holds that `fits`; keeps `kept` other free
    /// ones that fit and drops the rest (those of another size too). Each is moved out of the list
    /// before it is asked: asked in place, through the subscript, it may be read into a copy.
    private static func sweep<T>(_ list: inout [T], taking: Bool, fits: (T) -> Bool, isFree: (inout T) -> Bool) -> T? {
        if list.count > followed { list.removeFirst(list.count - followed) }
        var taken: T?, free = 0
        for i in list.indices.reversed() {
            var e = list.remove(at: i)
            guard isFree(&e) else { list.insert(e, at: i); continue }
            guard fits(e) else { continue }
            if taking && taken == nil { taken = e } else if free < kept { free += 1; list.insert(e, at: i) }
        }
        return taken
    }

    private static func isFree(_ f: inout YUVFrame) -> Bool {
        f.y.isOnlyReferenceToStorage() && f.u.isOnlyReferenceToStorage() && f.v.isOnlyReferenceToStorage()
    }
}
