// The renderer's front door: snapshot → display list (with its content made) → tiles → Bitmap.
import Foundation
import StrataCore

/// Renders presentation snapshots into frames.
public struct FrameRenderer: Sendable {
    /// The frame's width in pixels.
    public let width: Int
    /// The frame's height in pixels.
    public let height: Int
    /// Pixels per point of the snapshot's layers (a scene's `contentsScale`).
    public let scale: Double
    /// The stage that draws a display list into the frame, tile by tile, on its workers.
    public var tiles: TileRenderer
    /// Backing stores kept between frames (share one renderer, or one cache, across frames).
    public let cache: RenderCaches
    /// The previous frame of the sequence, whose unchanged tiles are copied (nil: draw all).
    public let history: FrameHistory?
    /// The buffers of the frames it returns, drawn into again once dropped: the history's, or
    /// without one its own (FrameBuffers.swift).
    let buffers: FrameBuffers

    /// A renderer of `width` × `height` pixel frames at `scale` pixels per point, drawing with
    /// `options`, keeping backing stores in `cache` and, with a `history`, copying the tiles a frame
    /// shares with the one before.
    public init(width: Int, height: Int, scale: Double = 1, options: RenderOptions = RenderOptions(),
                cache: RenderCaches = RenderCaches(), history: FrameHistory? = nil) {
        self.width = width; self.height = height; self.scale = scale
        tiles = TileRenderer(options: options)
        self.cache = cache
        self.history = history
        buffers = history?.buffers ?? FrameBuffers()
    }

    /// The display list of a snapshot, with the backing stores and rasterised subtrees it needs
    /// made first by the content stage on the tile workers (ContentStage.swift). Exposed for
    /// tests and benchmarks.
    public func displayList(for root: LayerSnapshot) -> DisplayList {
        var builder = DisplayListBuilder(width: width, height: height, scale: scale, cache: cache)
        builder.workers = tiles.options.workers
        return ContentStage.displayList(of: root, builder: builder, dispatcher: tiles.options.dispatcher).list
    }

    /// The tile stage of a frame whose display list is built: its pixels, and with `yuv` also
    /// BT.709 YUV 4:2:0 (nil when the size is odd). Uses no backing-store cache, so the caller
    /// may end the cache's frame before or after it (FramePipeline does before).
    public func drawTiles(of list: DisplayList, yuv: Bool = false) -> (Bitmap, YUVFrame?) {
        tiles.render(list, width: width, height: height, history: history, yuv: yuv, buffers: buffers)
    }

    /// Draws one frame.
    public func render(_ root: LayerSnapshot) -> Bitmap {
        let frame = drawTiles(of: displayList(for: root)).0
        cache.endFrame()
        return frame
    }

    /// Draws one frame, and also as BT.709 YUV 4:2:0 for a video encoder (nil when the size is
    /// odd), converted by the tile workers as they finish each tile.
    public func renderWithYUV(_ root: LayerSnapshot) -> (Bitmap, YUVFrame?) {
        let frame = drawTiles(of: displayList(for: root), yuv: true)
        cache.endFrame()
        return frame
    }
}
