// A layer whose content is drawn in tiles, on demand: only the tiles a frame shows, at the level
// of detail its on-screen scale needs, by the renderer's workers concurrently. Its `display()`
// records nothing (a 20 000-point drawing is never made whole); the snapshot hands the renderer
// a source that calls `draw(in:)` per tile (Presentation/TiledContentSnapshot.swift).
import Foundation

/// A layer that provides its content in tiles, possibly at several levels of detail (Apple's
/// `CATiledLayer`).
///
/// `draw(in:)` (or the delegate's `draw(_:in:)`) is called once per tile needed, possibly on
/// several threads at once — drawing code must be thread-safe, as on iOS. The context's
/// `boundingBoxOfClipPath` is the tile's rectangle in the layer's coordinates:
///
/// ```swift
/// func draw(_ layer: CALayer, in ctx: CGContext) {
///     let tiled = layer as! CATiledLayer
///     let box = ctx.boundingBoxOfClipPath
///     let column = Int(box.minX / tiled.tileSize.width), row = Int(box.minY / tiled.tileSize.height)
///     UIGraphicsPushContext(ctx)
///     tileImage(column, row)?.draw(in: box)
///     UIGraphicsPopContext()
/// }
/// ```
///
/// **Strata:** tiles are ready at once in an offline render, so they do not fade in
/// (`fadeDuration()` is kept and reported, Apple's 0.25 s). Drawn tiles are kept across frames
/// within the renderer's memory budget; `setNeedsDisplay()` makes every tile draw again.
open class CATiledLayer: CALayer {
    /// Seconds newly drawn tiles take to fade in (Apple's default 0.25). Override to change it.
    open class func fadeDuration() -> CFTimeInterval { 0.25 }

    /// The number of levels of detail (default 1); each one half the resolution of the one
    /// before. Clamped so the coarsest level has at least a pixel in each dimension.
    public var levelsOfDetail: Int = 1 { didSet { journal(self, \.levelsOfDetail, oldValue) } }
    /// How many of the levels magnify (default 0): with 2, the finest levels are 2× and 4× the
    /// layer's `contentsScale`.
    public var levelsOfDetailBias: Int = 0 { didSet { journal(self, \.levelsOfDetailBias, oldValue) } }
    /// The largest tile, in pixels (default 256 × 256): `tileSize / contentsScale` points at the
    /// unmagnified level.
    public var tileSize = CGSize(width: 256, height: 256) { didSet { journal(self, \.tileSize, oldValue) } }
    /// Counts redraw requests: cached tiles of older versions are stale.
    var tileVersion = 0 { didSet { journal(self, \.tileVersion, oldValue) } }

    public override init() { super.init() }

    /// **Strata:** no archives: a layer with default values.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    public override init(layer: Any) {
        super.init(layer: layer)
        guard let t = layer as? CATiledLayer else { return }
        levelsOfDetail = t.levelsOfDetail; levelsOfDetailBias = t.levelsOfDetailBias; tileSize = t.tileSize
        tileVersion = t.tileVersion
    }

    /// Marks every tile as needing to be drawn again (no drawing happens here: tiles are drawn
    /// when a frame shows them).
    open override func display() {
        tileVersion &+= 1
    }

    /// The tile grid and levels of this layer now.
    public var tileGeometry: TiledLayerGeometry {
        TiledLayerGeometry(bounds: bounds, tileSize: tileSize, levelsOfDetail: levelsOfDetail,
                           levelsOfDetailBias: levelsOfDetailBias, contentsScale: contentsScale)
    }

    /// The recorded drawing of one tile at its level's scale (what the renderer's workers call;
    /// public for tests and tools).
    public func drawTile(_ tile: TileIndex) -> DrawingContent {
        let g = tileGeometry
        return TiledLayerTileSource(layer: self).drawTile(g.rect(ofTile: tile), scale: g.scale(ofLevel: tile.level))
    }

    open override func snapshotContent() -> LayerContent { .none }

    open override func completeSnapshot(_ snapshot: inout LayerSnapshot) {
        let model = (modelLayerReference as? CATiledLayer) ?? self
        snapshot.tiledContent = TiledContentSnapshot(geometry: tileGeometry, source: TiledLayerTileSource(layer: model),
                                                     version: model.tileVersion,
                                                     fadeDuration: type(of: self).fadeDuration())
    }
}
