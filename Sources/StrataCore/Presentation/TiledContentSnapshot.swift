// A CATiledLayer's content as the renderer reads it: where its tiles are at each level of
// detail, which level an on-screen scale needs, and a source that draws one tile (the layer's
// `draw(in:)` into a recording context whose clip box is the tile). The renderer asks only for
// the tiles it shows, concurrently, and caches them; the whole image never exists at once.
import Foundation

/// The tile grid of a tiled layer at its levels of detail (Apple's `CATiledLayer.h`).
///
/// Level 0 is the finest: `contentsScale × 2^levelsOfDetailBias` pixels per point; each next
/// level halves it, down to level `levels − 1`. Tiles are `tileSize` pixels of their level
/// (so `tileSize / scale` points), on a grid aligned with the layer's coordinate origin and cut
/// at the bounds.
public struct TiledLayerGeometry: Sendable, Hashable {
    /// The layer's bounds: tiles are cut at them.
    public var bounds: CGRect
    /// Tile size in pixels.
    public var tileSize: CGSize
    /// The number of levels, at least 1 and no more than the coarsest level still has a pixel in
    /// each dimension (Apple clamps the same way).
    public var levels: Int
    /// The layer's `levelsOfDetailBias` (at least 0): how many levels are finer than `contentsScale`,
    /// each doubling it.
    public var bias: Int
    /// The layer's `contentsScale` (1 when not positive and finite).
    public var contentsScale: CGFloat

    /// The grid of a tiled layer with these properties: a tile size that is not finite becomes 256,
    /// one below 1 becomes 1, and `levels` is clamped as described above.
    public init(bounds: CGRect, tileSize: CGSize, levelsOfDetail: Int, levelsOfDetailBias: Int, contentsScale: CGFloat) {
        self.bounds = bounds
        self.tileSize = CGSize(width: max(1, tileSize.width.isFinite ? tileSize.width : 256),
                               height: max(1, tileSize.height.isFinite ? tileSize.height : 256))
        self.bias = max(0, levelsOfDetailBias)
        self.contentsScale = contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1
        // The coarsest level must still be at least one pixel wide and high.
        let side = Double(min(bounds.width, bounds.height)) * Double(self.contentsScale)
        let most = side >= 1 ? bias + Int(log2(side).rounded(.down)) + 1 : 1
        self.levels = min(max(1, levelsOfDetail), max(1, most))
    }

    /// Pixels per point of level `level` (0 the finest).
    public func scale(ofLevel level: Int) -> CGFloat {
        contentsScale * CGFloat(pow(2.0, Double(bias - level)))
    }

    /// The level for content shown at `screenScale` pixels per point: the coarsest level that is
    /// at least that fine (never magnified), or the finest when none is.
    public func level(forScreenScale screenScale: Double) -> Int {
        guard screenScale.isFinite, screenScale > 0 else { return levels - 1 }
        var chosen = 0
        for l in 0..<levels where Double(scale(ofLevel: l)) >= screenScale * (1 - 1e-9) { chosen = l }
        return chosen
    }

    /// The size of a tile of `level` in points.
    public func tilePoints(ofLevel level: Int) -> CGSize {
        let s = scale(ofLevel: level)
        return CGSize(width: tileSize.width / s, height: tileSize.height / s)
    }

    /// The rectangle of tile (`column`, `row`) of `level`, in layer points (cut at the bounds).
    public func rect(ofTile tile: TileIndex) -> CGRect {
        let p = tilePoints(ofLevel: tile.level)
        let r = CGRect(x: CGFloat(tile.column) * p.width, y: CGFloat(tile.row) * p.height, width: p.width, height: p.height)
        return r.intersection(bounds)
    }

    /// The tiles of `level` that intersect `area` (layer points), row by row.
    public func tiles(ofLevel level: Int, covering area: CGRect) -> [TileIndex] {
        let a = area.intersection(bounds)
        guard !a.isNull, a.width > 0, a.height > 0 else { return [] }
        let p = tilePoints(ofLevel: level)
        let c0 = Int((a.minX / p.width).rounded(.down)), c1 = Int((a.maxX / p.width).rounded(.up)) - 1
        let r0 = Int((a.minY / p.height).rounded(.down)), r1 = Int((a.maxY / p.height).rounded(.up)) - 1
        guard c1 >= c0, r1 >= r0 else { return [] }
        var out: [TileIndex] = []
        out.reserveCapacity((c1 - c0 + 1) * (r1 - r0 + 1))
        for r in r0...r1 {
            for c in c0...c1 {
                let t = TileIndex(level: level, column: c, row: r)
                let tr = rect(ofTile: t)
                if !tr.isNull, tr.width > 0, tr.height > 0 { out.append(t) }
            }
        }
        return out
    }
}

/// One tile of a tiled layer.
public struct TileIndex: Sendable, Hashable {
    /// The level of detail (0 the finest).
    public var level: Int
    /// The column, counted from x = 0 of the layer's coordinates.
    public var column: Int
    /// The row, counted from y = 0.
    public var row: Int
    /// Tile (`column`, `row`) of `level`.
    public init(level: Int, column: Int, row: Int) { self.level = level; self.column = column; self.row = row }
}

// @unchecked: holds the (main-thread) layer to call its drawing from the workers, which is
// CATiledLayer's documented contract: `draw(in:)` runs on background threads, several at once.
/// Draws one tile of a tiled layer: its `draw(in:)` (or delegate) into a recording context whose
/// clip box is the tile. Called by the renderer's workers, several at once, as on iOS.
public final class TiledLayerTileSource: @unchecked Sendable, Hashable {
    private let layer: CALayer
    /// A process-unique identity of the layer (cache key).
    public let identity: ObjectIdentifier

    init(layer: CALayer) {
        self.layer = layer
        identity = ObjectIdentifier(layer)
    }

    /// The recorded drawing of `rect` (layer points) at `scale` pixels per point.
    public func drawTile(_ rect: CGRect, scale: CGFloat) -> DrawingContent {
        let ctx = CGContext(recordingIn: rect, contentsScale: scale)
        UIGraphicsPushContext(ctx)
        layer.draw(in: ctx)
        UIGraphicsPopContext()
        return ctx.makeDrawing()
    }

    public static func == (l: TiledLayerTileSource, r: TiledLayerTileSource) -> Bool { l.identity == r.identity }
    public func hash(into h: inout Hasher) { h.combine(identity) }
}

/// A tiled layer's content in a snapshot.
public struct TiledContentSnapshot: Sendable, Hashable {
    /// The tile grid.
    public var geometry: TiledLayerGeometry
    /// What draws the tiles.
    public var source: TiledLayerTileSource
    /// Changes whenever the layer is told to redraw (`setNeedsDisplay`): cached tiles of an older
    /// version are stale.
    public var version: Int
    /// Seconds a newly drawn tile takes to fade in (Apple's 0.25 s); **Strata:** offline
    /// rendering has every tile at once, so the renderer draws tiles fully unless asked to fade.
    public var fadeDuration: Double

    /// A tiled content snapshot with these values.
    public init(geometry: TiledLayerGeometry, source: TiledLayerTileSource, version: Int, fadeDuration: Double) {
        self.geometry = geometry; self.source = source; self.version = version; self.fadeDuration = fadeDuration
    }
}
