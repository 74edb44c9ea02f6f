// A `CATiledLayer` as draw items: the part of the layer a frame shows (the frame and the clips
// of its ancestors mapped back into the layer's plane), the level of detail its on-screen scale
// needs (the coarsest level at least as fine as the largest stretch over that part), and one
// ordinary image item per visible tile of that level. The tiles come from the scene's
// `TiledLayerTileCache`, which draws the missing ones on the dispatcher (`workers` threads) before
// the tile workers composite. Each item draws only the pixels whose centres fall in its tile
// (`ImagePlacement.cell`) with edge anti-aliasing from the layer's bounds, so neighbouring tiles
// meet without seams.
//
// **Fade:** Core Animation fades a newly drawn tile in over `fadeDuration` because on a device
// the tile arrives late. Offline, every tile is ready for the frame that shows it, so Strata
// draws tiles at full opacity at once — a render looks like the device after its tiles have
// arrived, and a frame never depends on which frames were rendered before it.
import Foundation
import StrataCore

extension DisplayListBuilder {
    /// The most tiles one tiled layer may show in a frame: when the level chosen would need more
    /// (a layer seen almost edge-on), coarser levels are used.
    static let maximumVisibleTiles = 4096

    /// The draw items of the visible tiles of `content`, in `layer`'s plane `plane` (`H`).
    func tiledItems(_ content: TiledContentSnapshot, of layer: LayerSnapshot, H: Homography, plane: PlaneMap,
                    opacity: Float, clips: [ClipShape]) -> [DrawItem] {
        let g = content.geometry
        guard opacity > 0, g.bounds.width > 0, g.bounds.height > 0 else { return [] }
        var screen = Self.pixelBounds(of: layer.bounds, H).intersection(PixelRect(x0: 0, y0: 0, x1: width, y1: height))
        for c in clips { screen = screen.intersection(c.bounds) }
        guard !screen.isEmpty else { return [] }
        let area = visibleArea(screen, plane.fromScreen, layerBounds: layer.bounds)
        guard !area.isNull, area.width > 0, area.height > 0 else { return [] }
        var level = g.level(forScreenScale: DisplayListBuilder.largestStretch(over: area, H))
        var tiles = g.tiles(ofLevel: level, covering: area)
        while tiles.count > DisplayListBuilder.maximumVisibleTiles && level < g.levels - 1 {
            level += 1
            tiles = g.tiles(ofLevel: level, covering: area)
        }
        if tiles.count > DisplayListBuilder.maximumVisibleTiles { tiles = Array(tiles.prefix(DisplayListBuilder.maximumVisibleTiles)) }
        let rasters = cache.tiledLayerTiles.tiles(tiles, of: content, workers: workers)
        let clip = layer.masksToBounds ? RoundedRect(rect: layer.bounds, radius: Double(layer.cornerRadius), corners: layer.maskedCorners) : nil
        var items: [DrawItem] = []
        items.reserveCapacity(tiles.count)
        for (tile, raster) in zip(tiles, rasters) {
            guard let raster else { continue }
            let rect = g.rect(ofTile: tile)
            let placement = ImagePlacement(image: raster.image, destination: raster.area,
                                           source: CGRect(x: 0, y: 0, width: raster.bitmap.width, height: raster.bitmap.height),
                                           nearest: false, cell: rect, coverage: layer.bounds)
            let b = Self.pixelBounds(of: rect, H).intersection(screen)
            guard !b.isEmpty else { continue }
            items.append(DrawItem(op: .image(placement, clip: clip, opacity: opacity), plane: plane, bounds: b, clips: clips,
                                  outline: Self.screenQuad(of: rect, H)))
        }
        return items
    }

    /// The layer-space rectangle seen through the screen rectangle `screen` (a pixel of margin),
    /// within the bounds; the whole bounds when part of it is behind the eye.
    private func visibleArea(_ screen: PixelRect, _ fromScreen: Homography, layerBounds: CGRect) -> CGRect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(screen.x0 - 1, screen.y0 - 1), (screen.x1 + 1, screen.y0 - 1),
                       (screen.x0 - 1, screen.y1 + 1), (screen.x1 + 1, screen.y1 + 1)] {
            let (u, v, w) = fromScreen.apply(Double(x), Double(y))
            guard w > 1e-9 else { return layerBounds }
            minX = min(minX, u / w); maxX = max(maxX, u / w); minY = min(minY, v / w); maxY = max(maxY, v / w)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY).intersection(layerBounds)
    }

    /// The largest local-to-screen stretch (pixels per point) over `area`: the largest singular
    /// value of the map's Jacobian at its corners, edge midpoints and centre.
    static func largestStretch(over area: CGRect, _ H: Homography) -> Double {
        var stretch = 0.0
        let m = H.m
        for x in [Double(area.minX), Double(area.midX), Double(area.maxX)] {
            for y in [Double(area.minY), Double(area.midY), Double(area.maxY)] {
                let (X, Y, W) = H.apply(x, y)
                guard W > 1e-9 else { continue }
                let a = (m.0 - X / W * m.2) / W, b = (m.3 - X / W * m.5) / W
                let c = (m.1 - Y / W * m.2) / W, d = (m.4 - Y / W * m.5) / W
                let p = a * a + c * c, q = a * b + c * d, r = b * b + d * d
                stretch = max(stretch, ((p + r) / 2 + (((p - r) / 2) * ((p - r) / 2) + q * q).squareRoot()).squareRoot())
            }
        }
        return stretch.isFinite && stretch > 0 ? stretch : 1
    }
}
