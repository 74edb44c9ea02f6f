// The compositor's fast paths must change no byte: interior runs (pixels well inside a shape
// skip the coverage computation, opaque fills are stored without blending, items under an
// opaque tile are skipped), checked pixel by pixel against `coverage` and frame by frame against
// the full path; the RGBA8 store (a C loop) against its formula; kept tile prefixes within their
// memory budget, and solid ones kept without pixels; the computed gradient dither against the
// Bayer matrix it replaces.
import XCTest
import StrataCore
import StrataTestSupport
@testable import StrataRender

final class InteriorRunTests: XCTestCase {
    /// Every pixel of every run has coverage exactly 1, for shapes under rotations, shears and
    /// scales (including mirrored and tiny ones), and large shapes do get runs.
    func testRunsLieWhereCoverageIsExactlyOne() {
        var rng = SplitMix(seed: 20261122)
        var checked = 0
        for trial in 0..<200 {
            let w = Double.random(in: 0.5...300, using: &rng), h = Double.random(in: 0.5...300, using: &rng)
            let shape = RoundedRect(rect: CGRect(x: Double.random(in: -50...50, using: &rng), y: Double.random(in: -50...50, using: &rng),
                                                 width: w, height: h),
                                    radius: trial % 3 == 0 ? 0 : Double.random(in: 0...min(w, h) / 2, using: &rng))
            let a = Double.random(in: -.pi...(.pi), using: &rng)
            let sx = Double.random(in: 0.2...3, using: &rng) * (trial % 5 == 0 ? -1 : 1), sy = Double.random(in: 0.2...3, using: &rng)
            let shear = trial % 4 == 0 ? Double.random(in: -0.5...0.5, using: &rng) : 0
            // Screen = R·S·local + t; the mapper takes the inverse.
            let m00 = cos(a) * sx, m01 = -sin(a) * sy + shear, m10 = sin(a) * sx, m11 = cos(a) * sy
            let tx = 200.0, ty = 150.0
            let det = m00 * m11 - m01 * m10
            let inv = Homography(m11 / det, -m10 / det, 0, -m01 / det, m00 / det, 0,
                                 (m01 * ty - m11 * tx) / det, (m10 * tx - m00 * ty) / det, 1)
            let mapper = PixelMapper(inv)
            let region = PixelRect(x0: -400, y0: -300, x1: 800, y1: 600)
            guard let runs = InteriorRuns(shape, mapper, over: region) else { continue }
            for y in region.y0..<region.y1 {
                guard let (x0, x1) = runs.columns(row: y, region.x0, region.x1) else { continue }
                for x in x0..<x1 {
                    let p = mapper.map(x, y)!
                    XCTAssertEqual(TileRasterizer.coverage(shape, p, antialiased: true), 1, "trial \(trial) pixel (\(x), \(y))")
                    XCTAssertEqual(TileRasterizer.coverage(shape, p, antialiased: false), 1, "trial \(trial) pixel (\(x), \(y))")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 100_000)

        // Perspective maps (a plane turned about an axis, seen with m34 = −1/d), tile by tile.
        var perspectiveChecked = 0
        for trial in 0..<150 {
            let w = Double.random(in: 20...300, using: &rng), h = Double.random(in: 20...300, using: &rng)
            let shape = RoundedRect(rect: CGRect(x: -w / 2, y: -h / 2, width: w, height: h),
                                    radius: Double.random(in: 0...min(w, h) / 2, using: &rng))
            var t = CATransform3DMakeRotation(CGFloat(Double.random(in: -1.2...1.2, using: &rng)), 0, 1, 0)
            t = CATransform3DConcat(t, CATransform3DMakeRotation(CGFloat(Double.random(in: -1.2...1.2, using: &rng)), 1, 0, 0))
            var p = CATransform3DIdentity
            p.m34 = CGFloat(-1 / Double.random(in: 200...1500, using: &rng))
            t = CATransform3DConcat(CATransform3DConcat(t, p), CATransform3DMakeTranslation(200, 150, 0))
            let toScreen = Homography(flattening: t)
            guard let fromScreen = toScreen.inverted() else { continue }
            let mapper = PixelMapper(fromScreen)
            for ty in stride(from: 0, to: 320, by: 64) {
                for tx in stride(from: 0, to: 420, by: 64) {
                    let tile = PixelRect(x0: tx, y0: ty, x1: tx + 64, y1: ty + 64)
                    guard let runs = InteriorRuns(shape, mapper, over: tile) else { continue }
                    for y in tile.y0..<tile.y1 {
                        guard let (x0, x1) = runs.columns(row: y, tile.x0, tile.x1) else { continue }
                        for x in x0..<x1 {
                            guard let p = mapper.map(x, y) else { XCTFail("behind the eye at (\(x), \(y))"); continue }
                            XCTAssertEqual(TileRasterizer.coverage(shape, p, antialiased: true), 1, "perspective trial \(trial) (\(x), \(y))")
                            perspectiveChecked += 1
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(perspectiveChecked, 100_000)
        // An upright 100 × 40 rectangle moved by 0.1 pixel: rows inside get all but the edge pixels.
        let upright = InteriorRuns(RoundedRect(rect: CGRect(x: 10, y: 10, width: 100, height: 40), radius: 0),
                                   PixelMapper(Homography(1, 0, 0, 0, 1, 0, 0.1, 0.1, 1)), over: PixelRect(x0: 0, y0: 0, x1: 200, y1: 100))!
        XCTAssertEqual(upright.columns(row: 30, 0, 200)?.0, 12)
        XCTAssertEqual(upright.columns(row: 30, 0, 200)?.1, 107)
        XCTAssertNil(upright.columns(row: 10, 0, 200))
    }

    /// A rectangle moved by a translation only, its numbers multiples of 1/256: the runs hold
    /// exactly the pixels whose coverage is 1, edge pixels of pixel-aligned edges included (so a
    /// full-frame background makes the frame's border tiles opaque). With a translation that is
    /// not a multiple of 1/256, the margin stays.
    func testTranslatedRectanglesRunOverEveryFullyCoveredPixel() {
        let region = PixelRect(x0: -8, y0: -8, x1: 240, y1: 120)
        let rects: [CGRect] = [CGRect(x: 10, y: 10, width: 100, height: 40), CGRect(x: 10.5, y: 3.25, width: 50.75, height: 20.5),
                               CGRect(x: 0, y: 0, width: 200, height: 100), CGRect(x: -3.5, y: 7.125, width: 90.5, height: 33.25)]
        for rect in rects {
            for (tx, ty) in [(0.0, 0.0), (2.5, -1.75), (-0.00390625, 3)] {
                let shape = RoundedRect(rect: rect, radius: 0)
                let mapper = PixelMapper(Homography(1, 0, 0, 0, 1, 0, tx, ty, 1))
                let runs = InteriorRuns(shape, mapper, over: region)!
                for y in region.y0..<region.y1 {
                    let run = runs.columns(row: y, region.x0, region.x1)
                    for x in region.x0..<region.x1 {
                        let inRun = run.map { x >= $0.0 && x < $0.1 } ?? false
                        let p = mapper.map(x, y)!
                        let covered = TileRasterizer.coverage(shape, p, antialiased: true) == 1
                        // The pixel's square inside the rectangle, worked out directly.
                        let inside = Double(x) + tx >= rect.minX && Double(x + 1) + tx <= rect.maxX
                            && Double(y) + ty >= rect.minY && Double(y + 1) + ty <= rect.maxY
                        XCTAssertEqual(inRun, inside, "\(rect) moved by (\(tx), \(ty)): pixel (\(x), \(y))")
                        XCTAssertEqual(covered, inside, "\(rect) moved by (\(tx), \(ty)): pixel (\(x), \(y))")
                    }
                }
            }
        }
        // Not a multiple of 1/256: one more pixel and a half of margin, as for any other map.
        let moved = InteriorRuns(RoundedRect(rect: CGRect(x: 0, y: 0, width: 200, height: 100), radius: 0),
                                 PixelMapper(Homography(1, 0, 0, 0, 1, 0, 0.001, 0, 1)), over: region)!
        XCTAssertEqual(moved.columns(row: 50, region.x0, region.x1)?.0, 2)
    }

    /// Rectangles moved by translations only — pixel-aligned, at multiples of 1/256 and not — and
    /// a full-frame background render to the same bytes with and without runs, with tiles of 64
    /// and 16, with every tile checked to be written exactly once (fresh tiles poisoned).
    func testTranslatedRectanglesAreByteIdenticalWithoutRuns() {
        let root = canvas(300, 200, color(0.9, 0.95, 1))
        let frames: [CGRect] = [CGRect(x: 0, y: 0, width: 300, height: 200), CGRect(x: 20, y: 10, width: 100, height: 60),
                                CGRect(x: 40.5, y: 30.25, width: 120.75, height: 50.5), CGRect(x: 60.1, y: 90.3, width: 150, height: 70),
                                CGRect(x: -10, y: 150, width: 90, height: 80)]
        for (i, f) in frames.enumerated() {
            let layer = box(CGRect(x: 0, y: 0, width: f.width, height: f.height), color(0.8, 0.3 + 0.1 * Double(i), 0.2, i % 2 == 0 ? 1 : 0.7))
            layer.frame = f
            if i == 4 { layer.borderWidth = 3; layer.borderColor = color(0, 0, 0, 1) }
            root.addSublayer(layer)
        }
        var withoutRuns = RenderOptions(workers: 1, tileSize: 64).verifyingTiles
        withoutRuns.usesInteriorRuns = false
        let full = FrameRenderer(width: 300, height: 200, options: withoutRuns).render(PresentationBuilder(time: 0).snapshotTree(of: root))
        for tile in [64, 16] {
            let options = RenderOptions(workers: 1, tileSize: tile).verifyingTiles
            let frame = FrameRenderer(width: 300, height: 200, options: options).render(PresentationBuilder(time: 0).snapshotTree(of: root))
            XCTAssertEqual(frame.pixels, full.pixels, "tiles of \(tile)")
        }
        // The background covers every tile opaquely, the frame's corner tiles included.
        let list = FrameRenderer(width: 300, height: 200).displayList(for: PresentationBuilder(time: 0).snapshotTree(of: root))
        for corner in [PixelRect(x0: 0, y0: 0, x1: 64, y1: 64), PixelRect(x0: 256, y0: 128, x1: 300, y1: 200)] {
            XCTAssertTrue(list.items[0].paintsOpaquely(corner), "tile \(corner)")
        }
    }

    /// Run ends far outside any frame (a near-degenerate map divides by almost zero) round to an
    /// empty run or to the region's end, and never reach the integer conversion out of range
    /// (which trapped in Swift and was undefined in C).
    func testRunEndsFarOutsideTheFrameAreClamped() {
        XCTAssertNil(InteriorRuns.inward(1e300, 2e300, 0, 100))
        XCTAssertNil(InteriorRuns.inward(-2e300, -1e300, 0, 100))
        XCTAssertTrue(InteriorRuns.inward(-1e300, 1e300, 0, 100)! == (0, 100))
        XCTAssertTrue(InteriorRuns.inward(-1e300, 50.2, 0, 100)! == (0, 49))
        XCTAssertTrue(InteriorRuns.inward(10.7, 1e300, 0, 100)! == (12, 100))
    }

    /// Through affine maps the runs reach into the rounded corners (the inset shape's discs):
    /// of the pixels whose coverage is exactly 1, more than 85 % lie in runs (86–97 % here) for
    /// rounded rectangles turned by any angle, mirrored and stretched. With the two slabs alone
    /// (the runs before the discs) these cases kept 0–89 %: 73 % for 110 × 80 with radius 12
    /// turned by 0.6, and none at all for a circle.
    func testRunsReachIntoTheCorners() {
        let cases: [(w: Double, h: Double, r: Double, angle: Double, sx: Double, sy: Double)] = [
            (110, 80, 12, 0.6, 1, 1), (110, 80, 12, 0, 1, 1), (60, 40, 20, 1.1, 1, 1), (150, 120, 30, -2.4, 1.5, 1.5),
            (90, 90, 45, 0.3, 1, 1), (120, 60, 16, 0.9, -1, 1), (100, 70, 14, 0.4, 1.6, 0.7),
        ]
        for c in cases {
            let shape = RoundedRect(rect: CGRect(x: -c.w / 2, y: -c.h / 2, width: c.w, height: c.h), radius: c.r)
            let m00 = cos(c.angle) * c.sx, m01 = -sin(c.angle) * c.sy, m10 = sin(c.angle) * c.sx, m11 = cos(c.angle) * c.sy
            let tx = 150.0, ty = 150.0, det = m00 * m11 - m01 * m10
            let mapper = PixelMapper(Homography(m11 / det, -m10 / det, 0, -m01 / det, m00 / det, 0,
                                                (m01 * ty - m11 * tx) / det, (m10 * tx - m00 * ty) / det, 1))
            let region = PixelRect(x0: 0, y0: 0, x1: 300, y1: 300)
            let runs = InteriorRuns(shape, mapper, over: region)!
            XCTAssertGreaterThan(runs.rho, 0, "\(c)")
            var solid = 0, inRuns = 0
            for y in region.y0..<region.y1 {
                let run = runs.columns(row: y, region.x0, region.x1)
                for x in region.x0..<region.x1 {
                    let inRun = run.map { x >= $0.0 && x < $0.1 } ?? false
                    let covered = TileRasterizer.coverage(shape, mapper.map(x, y)!, antialiased: true) == 1
                    if inRun { XCTAssertTrue(covered, "\(c) pixel (\(x), \(y))"); inRuns += 1 }
                    if covered { solid += 1 }
                }
            }
            XCTAssertGreaterThan(Double(inRuns), 0.85 * Double(solid), "\(c): \(inRuns) of \(solid)")
        }
    }

    /// Rounded rectangles at random angles, scales and radii — fills, gradients and borders,
    /// over one another — render to the same bytes through the C row driver with and without
    /// interior runs, with tiles of 64 and 16.
    func testTurnedRoundedRectanglesAreByteIdenticalWithoutRuns() {
        var rng = SplitMix(seed: 20261124)
        let root = canvas(320, 240, color(1, 1, 1))
        for i in 0..<24 {
            let w = Double.random(in: 20...140, using: &rng), h = Double.random(in: 20...110, using: &rng)
            let layer: CALayer
            if i % 3 == 0 {
                let g = CAGradientLayer()
                g.colors = [color(1, 0.2, 0.1, 0.9), color(0.1, 0.3, 1, 0.7)]
                g.endPoint = CGPoint(x: 1, y: 1)
                layer = g
            } else {
                layer = box(CGRect(x: 0, y: 0, width: w, height: h), color(0.2, 0.6, 0.3, i % 2 == 0 ? 1 : 0.6))
            }
            layer.frame = CGRect(x: Double.random(in: -20...280, using: &rng), y: Double.random(in: -20...200, using: &rng), width: w, height: h)
            layer.cornerRadius = CGFloat(Double.random(in: 0...min(w, h) / 2, using: &rng))
            if i % 4 == 1 { layer.borderWidth = CGFloat(Double.random(in: 1...6, using: &rng)); layer.borderColor = color(0, 0, 0, 0.8) }
            var t = CATransform3DMakeRotation(CGFloat(Double.random(in: -3.1...3.1, using: &rng)), 0, 0, 1)
            if i % 5 == 2 { t = CATransform3DScale(t, 1.4, 0.8, 1) }
            layer.transform = t
            root.addSublayer(layer)
        }
        var withoutRuns = RenderOptions(workers: 1, tileSize: 64)
        withoutRuns.usesInteriorRuns = false
        let full = FrameRenderer(width: 320, height: 240, options: withoutRuns).render(PresentationBuilder(time: 0).snapshotTree(of: root))
        for tile in [64, 16] {
            XCTAssertEqual(render(root, width: 320, height: 240, workers: 1, tileSize: tile).pixels, full.pixels, "tiles of \(tile)")
        }
    }

    /// The inverse of an affine map is exactly affine — third column (0, 0, 1) — so every fast
    /// path for affine planes applies. The general formula gives det · (1 / det) there, which is
    /// 1 − 2⁻⁵³ for a layer scaled by 0.6 or 1.2: such layers used to take the perspective paths.
    func testInverseOfAnAffineMapIsAffine() {
        for s in [0.6, 1.2, 0.7, 1] {
            for angle in [0, 0.3, 2.0] {
                let c = cos(angle) * s, n = sin(angle) * s
                let h = Homography(c, n, 0, -n, c, 0, 37.5, -12.25, 1)
                let inverse = h.inverted()!
                XCTAssertTrue(inverse.isAffine, "scale \(s), angle \(angle): \(inverse.m)")
                let (x, y, w) = h.apply(3, 4)
                let (u, v, q) = inverse.apply(x / w, y / w)
                XCTAssertEqual(u / q, 3, accuracy: 1e-12); XCTAssertEqual(v / q, 4, accuracy: 1e-12)
            }
        }
        // A projective map keeps its perspective row.
        let p = Homography(1, 0, 0.001, 0, 1, 0, 0, 0, 1).inverted()!
        XCTAssertFalse(p.isAffine)
        // A layer scaled by 0.6 reaches the display list with an affine plane.
        let root = canvas(200, 150)
        let layer = CALayer()
        layer.frame = CGRect(x: 40, y: 30, width: 100, height: 80)
        layer.backgroundColor = color(0.2, 0.4, 0.8)
        layer.transform = CATransform3DMakeScale(0.6, 0.6, 1)
        root.addSublayer(layer)
        let list = FrameRenderer(width: 200, height: 150).displayList(for: PresentationBuilder(time: 0).snapshotTree(of: root))
        XCTAssertEqual(list.items.count, 2)
        for item in list.items { XCTAssertTrue(item.plane.fromScreen.isAffine, "\(item.plane.fromScreen.m)") }
    }

    /// Images turned, scaled (up to 3×, down to 0.3×), mirrored and sheared, opaque and at half
    /// opacity, draw the same bytes with and without interior runs. Their interiors sample
    /// without clamping the texel indices where every bilinear footprint of a step is proven to
    /// lie inside the image (`footprintsInside`), which only the runs reach; the full path
    /// clamps every lane. Images of 2 × 2 texels and stretched single rows are included: their
    /// footprints are never inside.
    func testImagesAreByteIdenticalWithoutRuns() {
        var rng = SplitMix(seed: 20261125)
        let root = canvas(320, 240, color(0.9, 0.9, 0.85))
        let sizes = [(37, 23), (64, 48), (2, 2), (80, 1), (5, 90)]
        for i in 0..<18 {
            let (tw, th) = sizes[i % sizes.count]
            var texels = Bitmap(width: tw, height: th)
            for k in 0..<(tw * th) {
                // Premultiplied: every colour channel at most its alpha.
                let alpha = i % 3 == 0 ? 255 : Int.random(in: 0...255, using: &rng)
                for c in 0..<3 { texels.pixels[k * 4 + c] = UInt8(Int.random(in: 0...alpha, using: &rng)) }
                texels.pixels[k * 4 + 3] = UInt8(alpha)
            }
            let picture = CALayer()
            let w = Double.random(in: 30...160, using: &rng), h = Double.random(in: 30...120, using: &rng)
            picture.frame = CGRect(x: Double.random(in: -20...260, using: &rng), y: Double.random(in: -20...200, using: &rng), width: w, height: h)
            picture.contents = CGImage(bitmap: texels)
            picture.opacity = i % 2 == 0 ? 1 : 0.5
            var t = CATransform3DMakeRotation(CGFloat(Double.random(in: -3.1...3.1, using: &rng)), 0, 0, 1)
            if i % 4 == 1 { t = CATransform3DScale(t, -1, 1, 1) }
            if i % 5 == 3 { t.m21 = 0.3 }
            picture.transform = t
            if i % 6 == 4 { picture.contentsGravity = .resizeAspect }
            root.addSublayer(picture)
        }
        // Interiors that cross-fade two mipmap levels (trilinear minification) and shadows (an
        // image tinted with the shadow's colour) take their own loop: they are not "plain".
        for i in 0..<6 {
            var texels = Bitmap(width: 96, height: 72)
            for k in 0..<(96 * 72) {
                let alpha = Int.random(in: 128...255, using: &rng)
                for c in 0..<3 { texels.pixels[k * 4 + c] = UInt8(Int.random(in: 0...alpha, using: &rng)) }
                texels.pixels[k * 4 + 3] = UInt8(alpha)
            }
            let picture = CALayer()
            picture.frame = CGRect(x: Double(i) * 50 + 5, y: Double(i % 2) * 110 + 10, width: 70, height: 55)
            picture.contents = CGImage(bitmap: texels)
            picture.minificationFilter = .trilinear
            picture.transform = CATransform3DMakeRotation(CGFloat(Double.random(in: -3.1...3.1, using: &rng)), 0, 0, 1)
            if i % 2 == 1 {
                picture.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 70, height: 55), transform: nil)
                picture.shadowOpacity = 0.8
                picture.shadowOffset = CGSize(width: 6, height: 9)
                picture.shadowRadius = 2
            }
            root.addSublayer(picture)
        }
        var withoutRuns = RenderOptions(workers: 1, tileSize: 64)
        withoutRuns.usesInteriorRuns = false
        let full = FrameRenderer(width: 320, height: 240, options: withoutRuns).render(PresentationBuilder(time: 0).snapshotTree(of: root))
        for tile in [64, 16] {
            let fast = render(root, width: 320, height: 240, workers: 1, tileSize: tile)
            XCTAssertEqual(zip(fast.pixels, full.pixels).filter { $0 != $1 }.count, 0, "bytes that differ, tiles of \(tile)")
        }
    }

    /// Layers of every kind that uses the runs (also in perspective) render to the same bytes
    /// with and without them.
    func testFramesAreByteIdenticalWithoutRuns() {
        let root = canvas(260, 200, color(0.95, 0.95, 0.9))
        let card = box(CGRect(x: 20, y: 20, width: 120, height: 90), color(0.2, 0.5, 0.8))
        card.cornerRadius = 14; card.borderWidth = 5; card.borderColor = color(1, 0.6, 0.1)
        card.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        root.addSublayer(card)
        let glass = box(CGRect(x: 90, y: 60, width: 150, height: 100), color(0.9, 0.2, 0.3, 0.6))
        glass.cornerRadius = 30
        glass.transform = CATransform3DMakeScale(1.2, 0.7, 1)
        root.addSublayer(glass)
        let clipper = box(CGRect(x: 30, y: 120, width: 110, height: 70), color(0.1, 0.1, 0.1))
        clipper.masksToBounds = true; clipper.cornerRadius = 12
        let inner = box(CGRect(x: -20, y: 10, width: 90, height: 90), color(0.3, 0.9, 0.4))
        inner.transform = CATransform3DMakeRotation(-0.5, 0, 0, 1)
        clipper.addSublayer(inner)
        root.addSublayer(clipper)
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 150, y: 10, width: 100, height: 80)
        gradient.colors = [color(1, 1, 0), color(0, 0.3, 1)]
        gradient.cornerRadius = 10; gradient.masksToBounds = true
        gradient.transform = CATransform3DMakeRotation(0.2, 0, 0, 1)
        root.addSublayer(gradient)
        var pixels = Bitmap(width: 16, height: 16)
        for i in 0..<(16 * 16) { pixels.pixels[i * 4] = UInt8(i % 256); pixels.pixels[i * 4 + 1] = UInt8((i * 7) % 256); pixels.pixels[i * 4 + 3] = 255 }
        let picture = CALayer()
        picture.frame = CGRect(x: 170, y: 110, width: 70, height: 70)
        picture.contents = CGImage(bitmap: pixels)
        picture.transform = CATransform3DMakeRotation(0.7, 0, 0, 1)
        root.addSublayer(picture)

        let turned = box(CGRect(x: 150, y: 100, width: 90, height: 80), color(0.5, 0.2, 0.7))
        turned.cornerRadius = 9; turned.borderWidth = 4; turned.borderColor = color(1, 1, 1, 0.8)
        var perspective = CATransform3DMakeRotation(0.8, 0.3, 1, 0)
        perspective.m34 = -1 / 300
        turned.transform = perspective
        root.addSublayer(turned)
        // Vector content: backing stores split into sparse cells.
        let wave = CAShapeLayer()
        wave.frame = CGRect(x: 0, y: 0, width: 260, height: 200)
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 5, y: 190))
        path.addCurve(to: CGPoint(x: 250, y: 20), control1: CGPoint(x: 80, y: -40), control2: CGPoint(x: 160, y: 260))
        wave.path = path
        wave.fillColor = color(0.2, 0.8, 0.6, 0.5)
        wave.strokeColor = color(0.1, 0.1, 0.1)
        wave.lineWidth = 9
        root.addSublayer(wave)
        let label = CATextLayer()
        label.frame = CGRect(x: 10, y: 150, width: 240, height: 40)
        label.string = "Interior runs"
        label.fontSize = 28
        label.foregroundColor = color(0, 0, 0)
        root.addSublayer(label)
        // Tiles of 16 pixels: some lie wholly inside the opaque card and the gradient, so the
        // items below them (the canvas) are skipped as well.
        let fast = [64, 16].map { render(root, width: 260, height: 200, workers: 1, tileSize: $0) }
        var withoutRuns = RenderOptions(workers: 1, tileSize: 64)
        withoutRuns.usesInteriorRuns = false
        let full = FrameRenderer(width: 260, height: 200, options: withoutRuns).render(PresentationBuilder(time: 0).snapshotTree(of: root))
        XCTAssertEqual(fast[0].pixels, full.pixels, "tiles of 64")
        XCTAssertEqual(fast[1].pixels, full.pixels, "tiles of 16")
        XCTAssertEqual(fast[0].pixel(x: 60, y: 40).b, 204, "the card's interior is its colour")
        let tile = PixelRect(x0: 64, y0: 48, x1: 80, y1: 64)
        let list = FrameRenderer(width: 260, height: 200).displayList(for: PresentationBuilder(time: 0).snapshotTree(of: root))
        XCTAssertTrue(list.items.contains { $0.paintsOpaquely(tile) }, "the card covers \(tile)")
    }
}


final class OpaqueStartTests: XCTestCase {
    /// A tile drawn from an opaque item that covers it skips the items below; the state "after
    /// the items shared with the previous frame" is then not in the buffer and must not be kept
    /// as the next frame's starting point. Here the square covers the corner tile in the second
    /// frame and moves on in the third: the third frame equals a full draw.
    func testNoPrefixIsKeptFromUnderAnOpaqueItem() {
        let root = canvas(160, 160)
        let square = box(CGRect(x: 100, y: 100, width: 100, height: 100), color(1, 0, 0))
        root.addSublayer(square)
        let history = FrameHistory()
        let renderer = FrameRenderer(width: 160, height: 160, options: RenderOptions(workers: 1).verifyingTiles, history: history)
        var last: Bitmap?
        for origin in [CGPoint(x: 100, y: 100), CGPoint(x: -10, y: -10), CGPoint(x: 40, y: 40)] {
            square.frame.origin = origin
            last = renderer.render(PresentationBuilder(time: 0).snapshotTree(of: root))
        }
        let full = FrameRenderer(width: 160, height: 160, options: RenderOptions(workers: 1)).render(PresentationBuilder(time: 0).snapshotTree(of: root))
        XCTAssertEqual(last?.pixels, full.pixels)
        XCTAssertTrue(full.pixel(x: 20, y: 20) == (255, 255, 255, 255))
    }
}

final class StoreTests: XCTestCase {
    /// The RGBA8 store (a C loop, eight lanes and one) rounds each channel to floor(255·v + ½),
    /// clamps alpha to 0…1 and colour to 0…alpha, for exact halves, out-of-range and random values.
    func testStoreRoundsAndClampsLikeTheFormula() {
        var rng = SplitMix(seed: 7)
        var values: [SIMD4<Float>] = [
            SIMD4(0.5 / 255, 1.5 / 255, 254.5 / 255, 1), SIMD4(-0.1, 2, 0.3, 0.2), SIMD4(0.9, 0.9, 0.9, 1.5),
            SIMD4(0.4, 0.4, 0.4, -1), SIMD4(1, 1, 1, 1), SIMD4(0, 0, 0, 0), SIMD4(Float.nan, 0.2, 0.2, 0.5),
            // Colours whose lower clamp the SIMD store leaves to its saturating packs: below the
            // 32-bit range, infinite, NaN, just under 0; and a NaN alpha over a valid colour.
            SIMD4(-1e30, -Float.infinity, -0.003, 0.7), SIMD4(0.3, 0.3, 0.3, Float.nan), SIMD4(Float.infinity, -0, -Float.nan, 0.8),
            SIMD4(-1e-9, 0.5, 1e30, 1e30),
        ]
        for _ in 0..<2000 {
            let a = Float.random(in: -0.1...1.1, using: &rng)
            values.append(SIMD4(Float.random(in: -0.1...1.1, using: &rng), Float.random(in: 0...1, using: &rng) * a,
                                Float(Int.random(in: 0...510, using: &rng)) / 510, a))
        }
        let width = 37, height = (values.count + width - 1) / width
        var tile = TileBuffer(rect: PixelRect(x0: 3, y0: 2, x1: 3 + width, y1: 2 + height))
        for (i, v) in values.enumerated() { tile[3 + i % width, 2 + i / width] = v }
        for simd in [true, false] {
        var frame = [UInt8](repeating: 0, count: (3 + width + 5) * (2 + height) * 4)
        frame.withUnsafeMutableBufferPointer {
            TileRenderer.store(tile, into: $0.baseAddress!, frameWidth: 3 + width + 5, DrawSettings(RenderOptions(simd: simd)))
        }
        func byte(_ v: Float, _ hi: Float) -> UInt8 {
            let c = v >= 0 ? min(v, hi) : 0
            return UInt8((c * 255 + 0.5).rounded(.down))
        }
        for (i, v) in values.enumerated() {
            let x = 3 + i % width, y = 2 + i / width, o = (y * (3 + width + 5) + x) * 4
            let a: Float = v.w >= 0 ? min(v.w, 1) : 0
            let expected = [byte(v.x, a), byte(v.y, a), byte(v.z, a), byte(a, 1)]
            XCTAssertEqual(Array(frame[o..<o + 4]), expected, "pixel \(i): \(v) (simd \(simd))")
        }
        XCTAssertEqual(frame[0], 0, "outside the tile untouched")
        }
    }
}

final class TilePrefixTests: XCTestCase {
    /// Kept prefixes stay within their byte budget; replacing or dropping an entry frees its bytes.
    func testPrefixesStayWithinTheirBudget() {
        let tile = [Float](repeating: 0.5, count: 4 * 64 * 64)  // 64 KiB
        let prefixes = TilePrefixes(grid: TileGrid(width: 128, height: 128, tileWidth: 64, tileHeight: 64), budget: 2 * 64 * 64 * 16)
        prefixes.keep(.init(count: 1, planes: tile), for: 0)
        prefixes.keep(.init(count: 2, planes: tile), for: 1)
        prefixes.keep(.init(count: 3, planes: tile), for: 2)
        XCTAssertEqual(prefixes[0]?.count, 1)
        XCTAssertEqual(prefixes[1]?.count, 2)
        XCTAssertNil(prefixes[2], "over budget: not kept")
        XCTAssertEqual(prefixes.keptBytes, 2 * 64 * 64 * 16)
        prefixes.keep(.init(count: 5, planes: tile), for: 1)
        XCTAssertEqual(prefixes[1]?.count, 5, "replacing frees the old entry first")
        prefixes.drop(0)
        XCTAssertNil(prefixes[0])
        prefixes.keep(.init(count: 4, planes: tile), for: 3)
        XCTAssertEqual(prefixes[3]?.count, 4)
        XCTAssertEqual(prefixes.keptBytes, 2 * 64 * 64 * 16)
    }

    /// A still bottom made of an opaque fill covering the tile and solid fills (a background) is
    /// kept without its pixels and drawn again under a changed part; any other bottom (a
    /// gradient) keeps them. Either way the frames are those of full draws, and tiles resume.
    func testSolidBottomsAreKeptWithoutPixels() {
        for gradient in [false, true] {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
            root.backgroundColor = CGColor(red: 0.9, green: 0.9, blue: 0.95, alpha: 1)
            if gradient {
                let g = CAGradientLayer()
                g.frame = root.bounds
                g.colors = [CGColor(red: 0.1, green: 0.2, blue: 0.5, alpha: 1), CGColor(red: 0.9, green: 0.6, blue: 0.2, alpha: 1)]
                root.addSublayer(g)
            }
            let band = CALayer()
            band.frame = CGRect(x: 0, y: 60, width: 320, height: 40)
            band.backgroundColor = CGColor(red: 0.2, green: 0.3, blue: 0.8, alpha: 1)
            root.addSublayer(band)
            let square = CALayer()
            square.bounds = CGRect(x: 0, y: 0, width: 30, height: 30)
            square.cornerRadius = 6
            square.backgroundColor = CGColor(red: 1, green: 0.4, blue: 0.1, alpha: 0.8)
            root.addSublayer(square)
            let history = FrameHistory()
            let reusing = FrameRenderer(width: 320, height: 240, options: RenderOptions(workers: 2, tileSize: 64), history: history)
            let full = FrameRenderer(width: 320, height: 240, options: RenderOptions(workers: 1, tileSize: 64, reusesUnchangedTiles: false))
            for i in 0..<8 {
                square.position = CGPoint(x: 20 + 31 * Double(i), y: 40 + 17 * Double(i))
                let snapshot = PresentationBuilder(time: 0).snapshotTree(of: root)
                XCTAssertEqual(reusing.render(snapshot).pixels, full.render(snapshot).pixels, "gradient \(gradient), frame \(i)")
            }
            XCTAssertGreaterThan(history.tileStatistics.resumed, 4, "gradient \(gradient)")
            // The renderer's grid: tiles of 128 × 32 (tileSize 64, tileAspect 2), 3 × 8 of them.
            let (tw, th) = RenderOptions(tileSize: 64).tileDimensions(even: false)
            let kept = history.prefixes(grid: TileGrid(width: 320, height: 240, tileWidth: tw, tileHeight: th), valid: true).keptBytes
            if gradient { XCTAssertGreaterThan(kept, 0) } else { XCTAssertEqual(kept, 0, "a solid bottom keeps no pixels") }
        }
    }
}

final class DitherTests: XCTestCase {
    /// The computed dither is the 8×8 Bayer matrix: its first rows as tabulated, every level
    /// 0…63 exactly once per 8×8 block, repeating every 8 pixels.
    func testDitherIsTheBayerMatrix() {
        let level = { (x: Int, y: Int) in Int(((GradientPaint.dither(x, y) + 0.5) * 64 - 0.5).rounded()) }
        XCTAssertEqual((0..<8).map { level($0, 0) }, [0, 32, 8, 40, 2, 34, 10, 42])
        XCTAssertEqual((0..<8).map { level($0, 1) }, [48, 16, 56, 24, 50, 18, 58, 26])
        XCTAssertEqual((0..<8).map { level($0, 7) }, [63, 31, 55, 23, 61, 29, 53, 21])
        XCTAssertEqual(Set((0..<64).map { level($0 % 8, $0 / 8) }), Set(0..<64))
        XCTAssertEqual(level(13, 21), level(5, 5))
        XCTAssertEqual(GradientPaint.dither(0, 0), 0.5 / 64 - 0.5)
    }
}
