// A long display list is binned in chunks of items on several workers (TileBins.init(_:grid:
// dispatcher:)): every bin holds the items one pass over the list puts there, in drawing order,
// whatever the grid.
import XCTest
import StrataCore
@testable import StrataRender

final class TileBinsTests: XCTestCase {
    /// 6 000 small layers scattered over a 640 × 360 frame (some off it, some across tile
    /// edges), every tenth a circle drawn as a vector shape, binned by its coverage rows.
    private func longList() -> DisplayList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 640, height: 360)
        var seed: UInt64 = 7
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for i in 0..<6000 {
            let frame = CGRect(x: next() * 700 - 30, y: next() * 420 - 30, width: 2 + next() * 60, height: 2 + next() * 40)
            if i % 10 == 0 {
                let s = CAShapeLayer()
                s.frame = frame
                s.path = CGPath(ellipseIn: CGRect(origin: .zero, size: frame.size), transform: nil)
                s.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
                root.addSublayer(s)
            } else {
                let l = CALayer()
                l.frame = frame
                l.backgroundColor = CGColor(red: 0, green: 0.5, blue: 1, alpha: 0.5)
                root.addSublayer(l)
            }
        }
        return DisplayListBuilder(width: 640, height: 360).build(PresentationBuilder(time: 0).snapshotTree(of: root))
    }

    func testChunksOnSeveralWorkersGiveTheBinsOfOnePass() {
        let list = longList()
        XCTAssertGreaterThan(list.items.count, TileBins.parallelItems)
        // The shapes' coverage rows (by which they are binned) are made first, as the tile stage does.
        var shapes = ShapeJobs(claimingShapesOf: list)
        for shape in shapes.shapes(of: list) { shape.rasterize() }
        shapes.release()
        for (w, h) in [(256, 64), (64, 64), (100, 30)] {
            let grid = TileGrid(width: 640, height: 360, tileWidth: w, tileHeight: h)
            let serial = TileBins(list, grid: grid)
            for workers in [2, 3] {
                let parallel = TileBins(list, grid: grid, dispatcher: ConcurrentDispatcher(workers: workers))
                for t in 0..<grid.count {
                    XCTAssertEqual(Array(parallel[t]), Array(serial[t]), "tile \(t) of \(w)×\(h) tiles, \(workers) workers")
                }
            }
        }
    }
}
