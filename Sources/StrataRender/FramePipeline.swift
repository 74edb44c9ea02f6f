// A sequence of frames with two in flight: while the tile workers draw frame N, the caller poses
// the scene and builds frame N + 1's snapshot and display list. Those stages run on one thread
// (about 5 ms of a 1080p motion frame), so drawn one after the other they leave the other cores
// idle; overlapped, two workers keep both cores busy.
//
// What makes the overlap safe: a display list is a Sendable value that holds no model layer (the
// snapshot copied what it needs), so posing frame N + 1 cannot change frame N's items; the caches
// the display-list builder fills (backing stores, shaped text, glyph masks) are behind locks, and
// items keep the rasters they use alive after an eviction; the tile stage of each frame starts
// after the previous one ended (one serial queue), so copying unchanged tiles from the previous
// frame (FrameHistory) sees the same frame as without the overlap. The frames' bytes do not
// depend on it (tested).
import Dispatch
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
    public let renderer: FrameRenderer
    private let queue = DispatchQueue(label: "strata.frame-pipeline.tiles")
    private var inFlight: Drawing?
    /// Without overlap: the display list submitted last, drawn when the next one is submitted
    /// (or at `finish`), so each frame is handed back as soon as it is drawn, as with overlap.
    private var pending: (list: DisplayList, yuv: Bool)?

    /// One frame's tile stage, run on `queue`.
    // @unchecked: `result` is written once on the queue before `done` is signalled, and read by
    // the submitting thread only after waiting for `done`.
    private final class Drawing: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: (Bitmap, YUVFrame?)?
    }

    /// Whether frames overlap.
    public let overlaps: Bool

    /// `overlapping` nil: frames overlap with more than one worker.
    public init(_ renderer: FrameRenderer, overlapping: Bool? = nil) {
        self.renderer = renderer
        overlaps = overlapping ?? (renderer.tiles.options.workers > 1)
    }

    deinit { if let d = inFlight { d.done.wait() } }

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
        // Queued before waiting for the frame before: the queue's thread goes on to this frame's
        // tiles as soon as it ends that one's, without waiting for this thread to wake and hand
        // the frame over (the queue is serial, so the frame before's tile stage still ends first).
        let renderer = renderer, drawing = Drawing()
        queue.async {
            drawing.result = renderer.drawTiles(of: list, yuv: yuv)
            drawing.done.signal()
        }
        let previous = takeInFlight()
        inFlight = drawing
        return previous
    }

    /// Waits for the last submitted frame and returns it (nil when every frame was returned).
    public func finish() -> (Bitmap, YUVFrame?)? { takeInFlight() }

    private func takeInFlight() -> (Bitmap, YUVFrame?)? {
        if let p = pending {
            pending = nil
            return renderer.drawTiles(of: p.list, yuv: p.yuv)
        }
        guard let d = inFlight else { return nil }
        inFlight = nil
        d.done.wait()
        return d.result
    }
}
