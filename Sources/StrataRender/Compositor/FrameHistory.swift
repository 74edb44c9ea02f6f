// Reusing the unchanged tiles of the previous frame. A tile's pixels are a function of the draw
// items whose bounds touch it and of the tile's position, nothing else (see TileRasterizer), so
// when the items touching a tile are, in order, exactly those that touched it in the previous
// frame, its pixels are exactly the previous frame's and are copied instead of drawn. "Exactly"
// is decided on fingerprints (ItemFingerprints.swift). Copying therefore gives the same bytes as
// drawing, so frames stay identical for any worker count, tile size, frame range or rendering
// order; in a typical motion-graphics frame most of the area does not change from one frame to
// the next.
//
// A tile that did change usually changed above a still bottom (a background gradient or image,
// a card under a moving stripe). Items are drawn in order, so the tile's working pixels after
// its first k items are a function of those k items: each drawn tile keeps them (the "prefix"
// the previous and current frame share) and the next frame starts from there when its first k
// items are still the same, drawing only the rest.
import Foundation
import Synchronization
import StrataCore

/// The previous frame of a sequence, kept so that the next frame can reuse its unchanged tiles.
/// One history belongs to one sequence of frames (a scene keeps one); frames of another size
/// simply do not reuse anything. Its state lives in a `Mutex`. Its frames' buffers come from its
/// pool (`buffers`), which numbers them.
public final class FrameHistory: Sendable {
    private struct State {
        var stored: RenderedFrame?
        var tileCount = 0, reusedCount = 0, resumedCount = 0
        var prefixes: TilePrefixes?
        /// The fingerprint arrays of the frame last replaced, emptied, for the next frame's.
        var spareFingerprints = ItemFingerprints.Buffers()
    }
    private let state = Mutex(State())
    /// The buffers its frames are drawn into (FrameBuffers.swift).
    let buffers = FrameBuffers()

    /// A history with no frame yet (the first frame is drawn whole).
    public init() {}

    /// The last frame recorded, if it has the given size.
    func previous(width: Int, height: Int) -> RenderedFrame? {
        state.withCheckedLock { s in
            guard let f = s.stored, f.bitmap.width == width, f.bitmap.height == height else { return nil }
            return f
        }
    }

    func record(_ frame: RenderedFrame, tiles: Int, reused: Int, resumed: Int) {
        var replaced = state.withCheckedLock { s -> RenderedFrame? in
            s.tileCount += tiles; s.reusedCount += reused; s.resumedCount += resumed
            defer { s.stored = frame }
            return s.stored
        }
        // Released here, after the lock (its display list may hold images); its fingerprints'
        // arrays are kept for the next frame (a motion frame's 31 K words, ~250 KB, were past
        // malloc's mmap threshold: a fresh mapping, and its page faults, every frame). Taken in
        // place: a copy of the frame would share the arrays, and emptying them would allocate anew.
        guard let buffers = replaced?.fingerprints.takeBuffers() else { return }
        state.withCheckedLock { $0.spareFingerprints = buffers }
        replaced = nil
    }

    /// Empty arrays for the next frame's fingerprints, with the capacity of an earlier frame's.
    func takeFingerprintBuffers() -> ItemFingerprints.Buffers {
        state.withCheckedLock { s in
            defer { s.spareFingerprints = ItemFingerprints.Buffers() }
            return s.spareFingerprints
        }
    }

    /// The previous frame's pixel buffer, for the next frame of `count` bytes to be drawn over in
    /// place, when nobody but this history and its pool holds it any more (an export that sends
    /// only the YUV planes on lets the RGBA8 frame go): then it is taken from both, and the frame
    /// kept stays without pixels (its list, bins and fingerprints still serve the next frame). Its
    /// unchanged tiles need no copying, and a sequence needs one RGBA8 buffer, not two (8 MB at
    /// 1080p). Otherwise nil, and nothing changes.
    func takePreviousBuffer(count: Int) -> FrameBuffer? {
        var pixels: [UInt8] = []
        guard let generation = state.withCheckedLock({ s -> Int? in
            guard let generation = s.stored?.generation, s.stored?.bitmap.pixels.count == count else { return nil }
            swap(&pixels, &s.stored!.bitmap.pixels)
            return generation
        }) else { return nil }
        if let buffer = buffers.takeBack(&pixels, holding: generation) { return buffer }
        // Held elsewhere: the frame keeps its pixels (frames of one history render one after
        // another, so the stored frame is still the one they were taken from).
        state.withCheckedLock { s in swap(&pixels, &s.stored!.bitmap.pixels) }
        return nil
    }

    /// Tiles drawn or copied so far, how many of them were copied from the previous frame, and
    /// how many were drawn starting from a kept prefix of their items.
    public var tileStatistics: (tiles: Int, reused: Int, resumed: Int) {
        state.withCheckedLock { ($0.tileCount, $0.reusedCount, $0.resumedCount) }
    }

    /// Whether a previous frame is kept.
    public var keepsFrame: Bool { state.withCheckedLock { $0.stored != nil } }

    /// Forgets the previous frame (its display list holds images alive), the kept prefixes and
    /// the spare buffers.
    public func clear() {
        state.withCheckedLock { s in s.stored = nil; s.prefixes = nil }
        buffers.clear()
    }

    /// The prefixes kept for `grid`, valid for the frame `previous(width:height:)` returns;
    /// emptied when there is none or the grid changed.
    func prefixes(grid: TileGrid, valid: Bool) -> TilePrefixes {
        state.withCheckedLock { s in
            if valid, let p = s.prefixes, p.grid == grid { return p }
            let p = TilePrefixes(grid: grid)
            s.prefixes = p
            return p
        }
    }

    /// Drops the kept prefixes (a frame was drawn without maintaining them).
    func dropPrefixes() {
        state.withCheckedLock { $0.prefixes = nil }
    }
}

/// Per tile of a grid: the working pixels after the tile's first `count` items of the previous
/// frame. Each tile worker reads and writes only its own tiles' slots. The kept pixels are
/// bounded (16 bytes a pixel: a whole 4K frame would be 133 MB): past `budget` bytes no new
/// entry is kept and those tiles are drawn from their first item, as without prefixes.
// @unchecked: the slots and frame numbers are raw per-tile storage, not locked; a frame's tile
// workers each touch only their own tiles' entries (TileRenderer's dispatcher gives every tile to
// one job), and frames of one history render one after another. The byte total is an Atomic.
final class TilePrefixes: @unchecked Sendable {
    struct Entry {
        var count: Int
        /// The tile's planes (TileBuffer.planes) after its first `count` items; empty when those
        /// items are an opaque one covering the tile and solid fills, drawn again instead.
        var planes: [Float]
    }
    let grid: TileGrid
    var count: Int { grid.count }
    /// Bytes of kept pixels allowed (default 64 MiB: every tile of a 1080p frame fits).
    let budget: Int
    private let slots: UnsafeMutableBufferPointer<Entry?>
    private let bytes = Atomic<Int>(0)
    /// Per tile: the number of the last frame that drew it (not copied); Int.max: unknown.
    private let drawnAt: UnsafeMutableBufferPointer<Int>

    init(grid: TileGrid, budget: Int = 64 << 20) {
        self.grid = grid; self.budget = budget
        let count = grid.count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
        drawnAt = .allocate(capacity: count)
        drawnAt.initialize(repeating: .max)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
        drawnAt.deallocate()
    }

    /// Marks `tile` drawn by frame `generation`.
    func drawn(_ tile: Int, by generation: Int) { drawnAt[tile] = generation }

    /// Whether a buffer holding frame `generation` already has `tile`'s current pixels: no frame
    /// since has drawn it (every one copied it unchanged).
    func isUnchanged(_ tile: Int, since generation: Int) -> Bool { drawnAt[tile] <= generation }

    subscript(tile: Int) -> Entry? { slots[tile] }

    /// Bytes of pixels kept now.
    var keptBytes: Int { bytes.load(ordering: .relaxed) }

    /// Keeps `entry` for `tile` if the budget allows (the old entry's bytes are freed first);
    /// otherwise the tile keeps nothing.
    func keep(_ entry: Entry, for tile: Int) {
        var entry = entry
        let old = (slots[tile]?.planes.count ?? 0) * 4, new = entry.planes.count * 4
        if var gone = slots[tile]?.planes { slots[tile] = nil; PlanePool.shared.give(&gone) }
        slots[tile] = nil
        let total = bytes.add(new - old, ordering: .relaxed).newValue
        if total <= budget {
            slots[tile] = entry
        } else {
            bytes.subtract(new, ordering: .relaxed)
            PlanePool.shared.give(&entry.planes)
        }
    }

    /// Forgets the entry of `tile`.
    func drop(_ tile: Int) {
        if var old = slots[tile] {
            bytes.subtract(old.planes.count * 4, ordering: .relaxed)
            slots[tile] = nil
            PlanePool.shared.give(&old.planes)
        }
    }
}

/// A finished frame with the display list and fingerprints it was drawn from.
struct RenderedFrame {
    var list: DisplayList
    var bins: TileBins
    var fingerprints: ItemFingerprints
    var bitmap: Bitmap
    /// The frame as YUV, when it was rendered for the encoder.
    var yuv: YUVFrame? = nil
    /// The number its buffer got from the history's pool (FrameBuffers), nil without one.
    var generation: Int? = nil
}
