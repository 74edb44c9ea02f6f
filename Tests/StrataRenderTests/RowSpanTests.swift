// strata_item_row_spans finds the spans of an item with an outline and an affine interior (with
// corner discs, or square corners) eight rows at a time, in lanes of doubles: the same values,
// row for row, as the row-by-row functions (strata_quad_span_fast, strata_interior_columns_fast)
// give. Rectangles of every size, radius (0 too), turn, scale and shear, partly off the region,
// are compared through every instantiation this CPU runs (the lanes in 512-bit registers with
// AVX-512, in 256-bit ones with AVX2; the scalar and SSE2 ones are the row-by-row code).
import XCTest
import Foundation
import CStrataKernels
@testable import StrataRender
import StrataTestSupport

final class RowSpanTests: XCTestCase {
    /// The item rows of a rounded rectangle `w × h` (radius `radius`) placed by `toScreen`, over
    /// its pixel bounds within a 640 × 480 frame (nil when off the frame or without interior).
    private func rows(w: Double, h: Double, radius: Double, toScreen: Homography) -> strata_rows? {
        let corners = [(0.0, 0.0), (w, 0), (w, h), (0, h)].map { toScreen.apply($0.0, $0.1) }
        let xs = corners.map { $0.0 / $0.2 }, ys = corners.map { $0.1 / $0.2 }
        let bounds = PixelRect(x0: Int(xs.min()!.rounded(.down)) - 1, y0: Int(ys.min()!.rounded(.down)) - 1,
                               x1: Int(xs.max()!.rounded(.up)) + 1, y1: Int(ys.max()!.rounded(.up)) + 1)
        let region = bounds.intersection(PixelRect(x0: 0, y0: 0, x1: 640, y1: 480))
        guard !region.isEmpty, let fromScreen = toScreen.inverted() else { return nil }
        let shape = RoundedRect(rect: CGRect(x: 0, y: 0, width: w, height: h), radius: radius)
        guard let runs = InteriorRuns(shape, PixelMapper(fromScreen), over: region) else { return nil }
        var r = strata_rows()
        r.x0 = Int32(region.x0); r.y0 = Int32(region.y0); r.x1 = Int32(region.x1); r.y1 = Int32(region.y1)
        r.hasOutline = 1
        r.outline.xs = (xs[0], xs[1], xs[2], xs[3]); r.outline.ys = (ys[0], ys[1], ys[2], ys[3])
        r.hasInterior = 1
        r.interior = runs.strataInterior
        return r
    }

    func testSpansOfEightRowsAtOnceAreTheRowByRowSpans() {
        var rng = SplitMix(seed: 1_234)
        var rowsCompared = 0, interiorRows = 0, roundedItems = 0, squareItems = 0
        for trial in 0..<400 {
            let w = Double.random(in: 4..<260, using: &rng), h = Double.random(in: 4..<200, using: &rng)
            let radius = trial % 5 == 0 ? 0 : Double.random(in: 0..<(min(w, h) / 2 + 4), using: &rng)
            let angle = trial % 7 == 0 ? 0 : Double.random(in: 0..<(2 * .pi), using: &rng)
            let scale = Double.random(in: 0.3..<3, using: &rng)
            // A similarity, or with a shear and an uneven scale.
            let shear = trial % 3 == 0 ? Double.random(in: -0.8..<0.8, using: &rng) : 0
            let sy = trial % 3 == 0 ? scale * Double.random(in: 0.5..<2, using: &rng) : scale
            let c = cos(angle), s = sin(angle)
            // Local (x, y) → screen: scale and shear, then turn, then place anywhere (also partly
            // off the frame).
            let a = scale * c, b = scale * s, d = (shear * scale) * c - sy * s, e = (shear * scale) * s + sy * c
            let tx = Double.random(in: -150..<790, using: &rng), ty = Double.random(in: -150..<630, using: &rng)
            let toScreen = Homography(a, b, 0, d, e, 0, tx, ty, 1)
            guard var r = rows(w: w, h: h, radius: radius, toScreen: toScreen) else { continue }
            var setup = strata_row_setup()
            strata_prepare_rows(&r, &setup)
            if setup.discs == 1 { roundedItems += 1 } else if setup.affineInterior == 1 { squareItems += 1 }
            let n = Int(r.y1 - r.y0)
            for lanes in kernelInstantiations() {
                var spans = [Int32](repeating: -7, count: 4 * n)
                spans.withUnsafeMutableBufferPointer { strata_item_row_spans_with(&r, $0.baseAddress!, lanes) }
                for i in 0..<n {
                    let y = r.y0 + Int32(i)
                    var sx0 = r.x0, sx1 = r.x1, ia: Int32 = 0, ib: Int32 = 0
                    var expected: [Int32] = [0, 0, 0, 0]
                    if strata_quad_span_fast(&setup, y, &sx0, &sx1) == 1 && sx0 < sx1 {
                        if strata_interior_columns_fast(&setup, &r.interior, y, sx0, sx1, &ia, &ib) == 0 { ia = sx0; ib = sx0 }
                        expected = [sx0, sx1, ia, ib]
                        if ia < ib { interiorRows += 1 }
                    }
                    XCTAssertEqual(Array(spans[(4 * i)..<(4 * i + 4)]), expected, "trial \(trial) row \(y) lanes \(lanes.rawValue)")
                    rowsCompared += 1
                }
            }
        }
        // The comparisons reached the rounded items' rows and their interiors.
        XCTAssertGreaterThan(roundedItems, 150)
        XCTAssertGreaterThan(squareItems, 40, "items with square corners")
        XCTAssertGreaterThan(rowsCompared, 20_000)
        XCTAssertGreaterThan(interiorRows, 10_000)
    }
}
