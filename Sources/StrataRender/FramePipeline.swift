// A sequence of frames with two in flight: while the tile workers draw frame N, the caller poses
// the scene and builds frame N + 1's snapshot and display list. Those stages run on one thread
// (about 5 ms of a 1080p motion frame), so drawn one after the other they leave the other cores
// idle while they run. Frames overlap from three tile workers on (`overlapsByDefault`).
//
// What makes the overlap safe: a display list is a Sendable value that holds no model layer (the
// snapshot copied what it needs), so posing frame N + 1 cannot change frame N's items; the caches
// the display-list builder fills (backing stores, shaped text, glyph masks) are behind locks, and
// items keep the rasters they use alive after an eviction; the tile stage of each frame starts
// after the previous one ended (one thread draws them in order), so copying unchanged tiles from
// the previous frame (FrameHistory) sees the same frame as without the overlap. The frames' bytes
// do not depend on it (tested).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StrataCore

/// Renders a sequence of snapshots, drawing one frame's tiles while the next frame's display list
/// is built. Without overlap (one worker, or asked) the calling thread draws a frame's tiles at
/// the next `submit`, after that one's display list, or at `finish`: the same order of stages
/// and the same hand-over, one thread.
///
///     let pipeline = FramePipeline(renderer)
///     for t in times {
///         pose(t)
///         if let (frame, _) = pipeline.submit(snapshot(t)) { write(frame) }   // the frame before t
///     }
///     if let (frame, _) = pipeline.finish() { write(frame) }                   // the last one
///
/// Use it from one thread.
public final class FramePipeline {
    /// The renderer that draws the frames (its size, scale, options and caches).
    public let renderer: FrameRenderer
    /// The thread drawing overlapped frames' tiles (started by the first such frame).
    private var tileThread: TileThread?
    /// Frames submitted to the tile thread and not yet returned (at most one between calls).
    private var inFlight = 0
    /// Without overlap: the display list submitted last, drawn when the next one is submitted
    /// (or at `finish`), so each frame is handed back as soon as it is drawn, as with overlap.
    private var pending: (list: DisplayList, yuv: Bool)?

    /// Whether frames overlap.
    public let overlaps: Bool

    /// Whether frames overlap when the caller does not say: from three tile workers on. With two,
    /// an export's encoder thread and the tiles already keep both cores busy: measured on the
    /// 1080p motion export, overlapping changed no throughput (7.19 s without, 7.32 s with) and
    /// held one more frame (peak RSS 381 → 395 MiB).
    public static func overlapsByDefault(workers: Int) -> Bool { workers > 2 }

    /// `overlapping` nil: `overlapsByDefault(workers:)`.
    public init(_ renderer: FrameRenderer, overlapping: Bool? = nil) {
        self.renderer = renderer
        overlaps = overlapping ?? FramePipeline.overlapsByDefault(workers: renderer.tiles.options.workers)
    }

    deinit {
        guard let thread = tileThread else { return }
        while inFlight > 0 { _ = thread.take(); inFlight -= 1 }
        thread.stop()
    }

    /// Builds `root`'s display list on this thread, starts drawing its tiles, and returns the
    /// frame submitted before it once that one is drawn (nil for the first). `yuv` also converts
    /// the frame to BT.709 YUV 4:2:0 in the tile workers (as `FrameRenderer.renderWithYUV`).
    /// Without overlap the tiles of the frame before are drawn here, after this display list.
    public func submit(_ root: LayerSnapshot, yuv: Bool = false) -> (Bitmap, YUVFrame?)? {
        let list = renderer.displayList(for: root)
        // The tile stage does not use the backing-store cache (FrameRenderer.drawTiles), so its
        // frame ends here, as it would after the tiles.
        renderer.cache.endFrame()
        guard overlaps else {
            let previous = takeInFlight()
            pending = (list, yuv)
            return previous
        }
        // Handed over before waiting for the frame before: the tile thread goes on to this
        // frame's tiles as soon as it ends that one's, without waiting for this thread to wake
        // and hand the frame over (it draws them in order, so the frame before still ends first).
        let thread: TileThread
        if let t = tileThread { thread = t } else { thread = TileThread(renderer); tileThread = thread }
        thread.submit(list, yuv: yuv)
        let previous = takeInFlight()
        inFlight += 1
        return previous
    }

    /// Waits for the last submitted frame and returns it (nil when every frame was returned).
    public func finish() -> (Bitmap, YUVFrame?)? { takeInFlight() }

    private func takeInFlight() -> (Bitmap, YUVFrame?)? {
        if let p = pending {
            pending = nil
            return renderer.drawTiles(of: p.list, yuv: p.yuv)
        }
        guard inFlight > 0, let thread = tileThread else { return nil }
        inFlight -= 1
        return thread.take()
    }
}

/// A thread that draws the tiles of the display lists handed to it, in the order given, and
/// keeps each frame until it is taken. At most two lists are outstanding (one drawn or done,
/// the next queued): the slots are fixed, so a frame costs no allocation (a `DispatchQueue.async`
/// block, a semaphore and a result box made 5 a frame).
// @unchecked: `slots`, the counters and `stopping` are read and written with `mutex` held; the
// renderer is used by this thread alone while frames are in flight (FramePipeline's caller only
// builds display lists, which do not touch the tile stage's state).
private final class TileThread: @unchecked Sendable {
    private struct Slot {
        var list: DisplayList?
        var yuv = false
        var result: (Bitmap, YUVFrame?)?
    }

    private let renderer: FrameRenderer
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Signalled when a list is submitted, a frame is drawn, or the thread is to stop.
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    private var slots = [Slot(), Slot()]
    /// Lists submitted, frames drawn and frames taken since the start; slot `n % 2` holds the
    /// n-th.
    private var submitted = 0, drawn = 0, taken = 0
    private var stopping = false

    init(_ renderer: FrameRenderer) {
        self.renderer = renderer
        mutex = .allocate(capacity: 1)
        changed = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
        // The thread holds this object until it stops.
        let thread = Thread { [self] in loop() }
        thread.stackSize = 8 << 20
        thread.name = "strata.frame-pipeline.tiles"
        thread.start()
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    func submit(_ list: DisplayList, yuv: Bool) {
        pthread_mutex_lock(mutex)
        precondition(submitted - taken < slots.count, "FramePipeline: a third frame in flight")
        slots[submitted % 2].list = list
        slots[submitted % 2].yuv = yuv
        submitted += 1
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// The next frame in submission order, once drawn.
    func take() -> (Bitmap, YUVFrame?) {
        pthread_mutex_lock(mutex)
        precondition(taken < submitted, "FramePipeline: no frame in flight")
        while drawn == taken { pthread_cond_wait(changed, mutex) }
        let result = slots[taken % 2].result.take()!
        taken += 1
        pthread_mutex_unlock(mutex)
        return result
    }

    /// Ends the thread (after the frames in flight were taken).
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    private func loop() {
        pthread_mutex_lock(mutex)
        while true {
            while drawn == submitted && !stopping { pthread_cond_wait(changed, mutex) }
            if drawn == submitted { break }
            let slot = drawn % 2
            let result = draw(slots[slot].list.take()!, yuv: slots[slot].yuv)
            slots[slot].result = result
            drawn += 1
            pthread_cond_broadcast(changed)
        }
        pthread_mutex_unlock(mutex)
    }

    /// Draws `list` with the mutex released; the list is let go before the frame is published
    /// (its shapes can be recycled by the display list after next).
    private func draw(_ list: consuming DisplayList, yuv: Bool) -> (Bitmap, YUVFrame?) {
        pthread_mutex_unlock(mutex)
        defer { pthread_mutex_lock(mutex) }
        return renderer.drawTiles(of: list, yuv: yuv)
    }
}
