// The tiles a frame is drawn in: `tileWidth × tileHeight` pixels each, the last column and row cut
// at the frame's edge, numbered row by row. One value says it for the stages that share it (the
// bins, the tile workers, the kept prefixes, the history's check that two frames were tiled alike).
// TileCoverageLog computes tile rectangles on its own, on purpose: it checks this arithmetic.

/// A frame's grid of tiles.
struct TileGrid: Equatable, Sendable {
    /// The frame, in pixels.
    let width: Int, height: Int
    let tileWidth: Int, tileHeight: Int
    let columns: Int, rows: Int

    /// The grid of a `width × height` frame in tiles of `tileWidth × tileHeight` (both ≥ 1).
    init(width: Int, height: Int, tileWidth: Int, tileHeight: Int) {
        precondition(tileWidth > 0 && tileHeight > 0, "tiles of at least one pixel")
        self.width = width; self.height = height; self.tileWidth = tileWidth; self.tileHeight = tileHeight
        columns = (width + tileWidth - 1) / tileWidth
        rows = (height + tileHeight - 1) / tileHeight
    }

    /// The number of tiles.
    var count: Int { columns * rows }

    /// The pixels of tile `t`.
    func rect(of t: Int) -> PixelRect {
        let x = t % columns * tileWidth, y = t / columns * tileHeight
        return PixelRect(x0: x, y0: y, x1: min(width, x + tileWidth), y1: min(height, y + tileHeight))
    }
}
