// Custom drawing: CGContext recording replayed by Cairo. Exact pixels where the geometry is
// pixel-aligned (fills, strokes, CTM, clip, save/restore, dashes, clear, image blocks, gradients'
// painted extents and one-sided extension), the display() / delegate flow, gravity placement of
// a stale drawing, re-rasterisation at the on-screen scale (sharp when zoomed), backing-store
// cache keys, and two reference sheets (reviewed by eye) covering paths, arcs, joins, caps,
// gradients, images, clipping, blend modes and text. Tolerance for reference images: 2 levels
// per channel (as CompositorTests).
import XCTest
import StrataCore
import StrataRender
import StrataTestSupport

/// A layer whose `draw(in:)` runs `body`.
private final class DrawingLayer: CALayer {
    var body: (CGContext, CALayer) -> Void = { _, _ in }
    var drawCount = 0
    override func draw(in ctx: CGContext) {
        drawCount += 1
        body(ctx, self)
    }
}

private let red = color(1, 0, 0), blue = color(0, 0, 1), green = color(0, 1, 0)

private func drawingLayer(_ frame: CGRect, in root: CALayer, _ body: @escaping (CGContext, CALayer) -> Void) -> DrawingLayer {
    let l = DrawingLayer()
    l.frame = frame
    l.body = body
    l.setNeedsDisplay()
    root.addSublayer(l)
    return l
}

/// Runs display where needed, then renders.
private func renderDrawn(_ root: CALayer, _ w: Int, _ h: Int, cache: RenderCaches = RenderCaches()) -> Bitmap {
    root.displayTreeIfNeeded()
    let snap = PresentationBuilder(time: 0).snapshotTree(of: root)
    return FrameRenderer(width: w, height: h, options: RenderOptions(workers: 2, tileSize: 64).verifyingTiles, cache: cache).render(snap)
}

private func rgb(_ b: Bitmap, _ x: Int, _ y: Int) -> [Int] {
    let p = b.pixel(x: x, y: y)
    return [Int(p.r), Int(p.g), Int(p.b)]
}

private func assertRGB(_ b: Bitmap, _ x: Int, _ y: Int, _ e: [Int], tolerance: Int = 0,
                       file: StaticString = #filePath, line: UInt = #line) {
    let p = rgb(b, x, y)
    let d = zip(p, e).map { abs($0 - $1) }.max()!
    XCTAssertLessThanOrEqual(d, tolerance, "pixel (\(x), \(y)) is \(p), expected \(e)", file: file, line: line)
}

private let R = [255, 0, 0], G = [0, 255, 0], B = [0, 0, 255], W = [255, 255, 255], K = [0, 0, 0]

final class CustomDrawingTests: XCTestCase {
    // MARK: Exact pixels

    func testFillStrokeAndSeparateColours() {
        let root = canvas(60, 40)
        _ = drawingLayer(CGRect(x: 0, y: 0, width: 60, height: 40), in: root) { ctx, _ in
            ctx.setFillColor(red)
            ctx.setStrokeColor(blue)
            ctx.fill(CGRect(x: 10, y: 10, width: 20, height: 10))
            ctx.setLineWidth(2)
            ctx.stroke(CGRect(x: 40, y: 10, width: 10, height: 20))   // covers 39…41 and 49…51
        }
        let b = renderDrawn(root, 60, 40)
        assertRGB(b, 10, 10, R); assertRGB(b, 29, 19, R)
        assertRGB(b, 9, 10, W); assertRGB(b, 30, 15, W); assertRGB(b, 15, 20, W)
        assertRGB(b, 39, 15, B); assertRGB(b, 40, 15, B); assertRGB(b, 41, 15, W)
        assertRGB(b, 49, 20, B); assertRGB(b, 50, 20, B); assertRGB(b, 51, 20, W)
        assertRGB(b, 45, 9, B); assertRGB(b, 45, 10, B); assertRGB(b, 45, 11, W); assertRGB(b, 45, 30, B)
    }

    func testCTMTransformsPathsAndPen() {
        let root = canvas(60, 60)
        _ = drawingLayer(root.bounds, in: root) { ctx, _ in
            ctx.setFillColor(red)
            ctx.translateBy(x: 20, y: 10)
            ctx.scaleBy(x: 2, y: 3)
            ctx.fill(CGRect(x: 0, y: 0, width: 5, height: 5))        // → (20, 10, 10, 15)
            // The pen scales too: a 1-unit line at x = 15 under ×2 is 2 pixels wide (49…51).
            ctx.setStrokeColor(blue)
            ctx.move(to: CGPoint(x: 15, y: 0))
            ctx.addLine(to: CGPoint(x: 15, y: 10))
            ctx.strokePath()
        }
        let b = renderDrawn(root, 60, 60)
        assertRGB(b, 20, 10, R); assertRGB(b, 29, 24, R)
        assertRGB(b, 30, 10, W); assertRGB(b, 20, 25, W); assertRGB(b, 19, 10, W)
        assertRGB(b, 49, 20, B); assertRGB(b, 50, 20, B); assertRGB(b, 48, 20, W); assertRGB(b, 51, 20, W)
        assertRGB(b, 50, 39, B); assertRGB(b, 50, 40, W)
    }

    func testRotationMatchesScreenClockwise() {
        // rotate(by: π/2) maps user (x, y) to (−y, x): a rect along +x ends up along +y.
        let root = canvas(40, 40)
        _ = drawingLayer(root.bounds, in: root) { ctx, _ in
            ctx.setFillColor(red)
            ctx.translateBy(x: 20, y: 20)
            ctx.rotate(by: .pi / 2)
            ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 4))      // → x 16…20, y 20…30
        }
        let b = renderDrawn(root, 40, 40)
        assertRGB(b, 17, 25, R, tolerance: 1)
        assertRGB(b, 25, 17, W)
        assertRGB(b, 21, 25, W, tolerance: 1)
    }

    func testClipAndSaveRestore() {
        let root = canvas(40, 40)
        _ = drawingLayer(root.bounds, in: root) { ctx, _ in
            ctx.setFillColor(red)
            ctx.saveGState()
            ctx.setFillColor(blue)
            ctx.clip(to: CGRect(x: 0, y: 0, width: 20, height: 40))
            XCTAssertEqual(ctx.boundingBoxOfClipPath, CGRect(x: 0, y: 0, width: 20, height: 40))
            ctx.fill(CGRect(x: 0, y: 0, width: 40, height: 20))     // blue, only the left half
            ctx.restoreGState()
            XCTAssertEqual(ctx.boundingBoxOfClipPath, CGRect(x: 0, y: 0, width: 40, height: 40))
            ctx.fill(CGRect(x: 0, y: 20, width: 40, height: 20))    // red again, unclipped
        }
        let b = renderDrawn(root, 40, 40)
        assertRGB(b, 0, 0, B); assertRGB(b, 19, 19, B); assertRGB(b, 20, 0, W); assertRGB(b, 39, 19, W)
        assertRGB(b, 0, 20, R); assertRGB(b, 39, 39, R)
    }

    func testEvenOddClipAndFill() {
        let root = canvas(40, 40)
        _ = drawingLayer(root.bounds, in: root) { ctx, _ in
            ctx.addRect(CGRect(x: 0, y: 0, width: 40, height: 40))
            ctx.addRect(CGRect(x: 10, y: 10, width: 20, height: 20))
            ctx.clip(using: .evenOdd)
            XCTAssertTrue(ctx.isPathEmpty)                           // clip consumes the path
            ctx.setFillColor(green)
            ctx.fill(CGRect(x: 0, y: 0, width: 40, height: 40))
        }
        let b = renderDrawn(root, 40, 40)
        assertRGB(b, 5, 5, G); assertRGB(b, 35, 35, G); assertRGB(b, 9, 20, G)
        assertRGB(b, 10, 10, W); assertRGB(b, 20, 20, W); assertRGB(b, 29, 29, W)
    }

    func testDashesCapsAndAlpha() {
        let root = canvas(40, 40)
        _ = drawingLayer(root.bounds, in: root) { ctx, _ in
            ctx.setStrokeColor(.black)
            ctx.setLineWidth(2)
            ctx.setLineDash(phase: 0, lengths: [4, 4])
            ctx.strokeLineSegments(between: [CGPoint(x: 0, y: 11), CGPoint(x: 40, y: 11)])   // rows 10…11
            ctx.setLineDash(phase: 0, lengths: [])
            ctx.setLineCap(.square)
            ctx.strokeLineSegments(between: [CGPoint(x: 10, y: 21), CGPoint(x: 20, y: 21)])  // x 9…21
            ctx.setAlpha(0.5)
            ctx.setFillColor(red)
            ctx.fill(CGRect(x: 0, y: 30, width: 10, height: 10))
        }
        let b = renderDrawn(root, 40, 40)
        for x in 0..<4 { assertRGB(b, x, 10, K); assertRGB(b, x, 11, K) }
        for x in 4..<8 { assertRGB(b, x, 10, W) }
        assertRGB(b, 8, 11, K); assertRGB(b, 12, 11, W)
        assertRGB(b, 10, 9, W); assertRGB(b, 10, 12, W)
        assertRGB(b, 9, 20, K); assertRGB(b, 20, 21, K); assertRGB(b, 21, 20, W); assertRGB(b, 8, 20, W)
        // Half-transparent red over white.
        assertRGB(b, 5, 35, [255, 128, 128], tolerance: 1)
    }

    func testClearRevealsTheLayerBackground() {
        let root = canvas(40, 40)
        let l = drawingLayer(root.bounds, in: root) { ctx, _ in
            ctx.setFillColor(red)
            ctx.fill(CGRect(x: 0, y: 0, width: 40, height: 40))
            ctx.clear(CGRect(x: 10, y: 10, width: 20, height: 20))
        }
        l.backgroundColor = green
        let b = renderDrawn(root, 40, 40)
        assertRGB(b, 5, 5, R); assertRGB(b, 10, 10, G); assertRGB(b, 29, 29, G); assertRGB(b, 30, 30, R)
    }

    func testImageBlocksWithNearestSampling() {
        // A 2×2 image (red, green / blue, white) drawn into 20×20 points at (10, 10): upright,
        // 10-pixel blocks with nearest sampling.
        var bm = Bitmap(width: 2, height: 2)
        bm.setPixel(x: 0, y: 0, (255, 0, 0, 255)); bm.setPixel(x: 1, y: 0, (0, 255, 0, 255))
        bm.setPixel(x: 0, y: 1, (0, 0, 255, 255)); bm.setPixel(x: 1, y: 1, (255, 255, 255, 255))
        let image = CGImage(bitmap: bm)
        let root = canvas(40, 40, .black)
        _ = drawingLayer(root.bounds, in: root) { ctx, _ in
            ctx.interpolationQuality = .none
            ctx.draw(image, in: CGRect(x: 10, y: 10, width: 20, height: 20))
        }
        let b = renderDrawn(root, 40, 40)
        assertRGB(b, 10, 10, R); assertRGB(b, 19, 19, R); assertRGB(b, 20, 10, G); assertRGB(b, 29, 19, G)
        assertRGB(b, 10, 20, B); assertRGB(b, 29, 29, W); assertRGB(b, 9, 10, K); assertRGB(b, 30, 30, K)
    }

    func testLinearGradientExtents() {
        // Black → white from x = 64 to x = 192 across a 256-wide layer; the value at pixel x is
        // 255 · (x + 0.5 − 64) / 128 inside the band.
        let g = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [.black, .white], locations: [0, 1])!
        let cases: [(CGGradientDrawingOptions, before: [Int], after: [Int])] = [
            ([], W, W),                                   // nothing painted outside the band
            (.drawsBeforeStartLocation, K, W),
            (.drawsAfterEndLocation, W, W),
            ([.drawsBeforeStartLocation, .drawsAfterEndLocation], K, W),
        ]
        for (options, before, after) in cases {
            let root = canvas(256, 8, color(1, 0, 0))
            _ = drawingLayer(root.bounds, in: root) { ctx, _ in
                ctx.drawLinearGradient(g, start: CGPoint(x: 64, y: 0), end: CGPoint(x: 192, y: 0), options: options)
            }
            let b = renderDrawn(root, 256, 8)
            let outsideBefore = options.contains(.drawsBeforeStartLocation) ? before : R
            let outsideAfter = options.contains(.drawsAfterEndLocation) ? after : R
            assertRGB(b, 20, 4, outsideBefore)
            assertRGB(b, 230, 4, outsideAfter)
            for x in [70, 100, 128, 160, 185] {
                let v = Int((255 * (Double(x) + 0.5 - 64) / 128).rounded())
                assertRGB(b, x, 4, [v, v, v], tolerance: 2)
            }
        }
    }

    func testRadialGradientExtents() {
        // Concentric: red at the centre (radius 0) to blue at radius 40; outside the end circle
        // only drawsAfterEndLocation paints (blue).
        let g = CGGradient(colorsSpace: nil, colors: [red, blue], locations: nil)!
        for after in [false, true] {
            let root = canvas(100, 100)
            _ = drawingLayer(root.bounds, in: root) { ctx, _ in
                ctx.drawRadialGradient(g, startCenter: CGPoint(x: 50, y: 50), startRadius: 0,
                                       endCenter: CGPoint(x: 50, y: 50), endRadius: 40,
                                       options: after ? .drawsAfterEndLocation : [])
            }
            let b = renderDrawn(root, 100, 100)
            // At pixel (x, y) the gradient parameter is the centre's distance / 40.
            for (x, y) in [(50, 50), (70, 50), (50, 30), (60, 75)] {
                let t = hypot(Double(x) + 0.5 - 50, Double(y) + 0.5 - 50) / 40
                assertRGB(b, x, y, [Int((255 * (1 - t)).rounded()), 0, Int((255 * t).rounded())], tolerance: 2)
            }
            assertRGB(b, 95, 50, after ? B : W)
            assertRGB(b, 2, 2, after ? B : W)
        }
    }

    // MARK: The display flow

    func testDelegateDisplayAndDrawHooks() {
        final class Drawer: CALayerDelegate {
            var draws = 0
            func draw(_ layer: CALayer, in ctx: CGContext) {
                draws += 1
                ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
                ctx.fill(layer.bounds)
            }
        }
        final class Displayer: CALayerDelegate {
            var displays = 0
            var draws = 0
            let image: CGImage
            init(_ image: CGImage) { self.image = image }
            func display(_ layer: CALayer) { displays += 1; layer.contents = image }
            func draw(_ layer: CALayer, in ctx: CGContext) { draws += 1 }
        }
        let root = canvas(40, 20)
        let drawer = Drawer()
        let a = CALayer()
        a.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        a.delegate = drawer
        root.addSublayer(a)
        let displayer = Displayer(CGImage(bitmap: .filled(width: 1, height: 1, red: 0, green: 255, blue: 0)))
        let b = CALayer()
        b.frame = CGRect(x: 20, y: 0, width: 20, height: 20)
        b.delegate = displayer
        root.addSublayer(b)

        // Nothing is drawn before setNeedsDisplay (as on iOS).
        var frame = renderDrawn(root, 40, 20)
        XCTAssertEqual(drawer.draws, 0)
        assertRGB(frame, 10, 10, W)
        a.setNeedsDisplay(); b.setNeedsDisplay()
        XCTAssertTrue(a.needsDisplay())
        frame = renderDrawn(root, 40, 20)
        XCTAssertFalse(a.needsDisplay())
        XCTAssertEqual(drawer.draws, 1)
        XCTAssertEqual(displayer.displays, 1)
        XCTAssertEqual(displayer.draws, 0)                 // display(_:) replaces drawing
        XCTAssertNil(b.currentDrawing)
        assertRGB(frame, 10, 10, B)
        assertRGB(frame, 30, 10, G)
        // Displayed once per setNeedsDisplay.
        _ = renderDrawn(root, 40, 20)
        XCTAssertEqual(drawer.draws, 1)
        a.setNeedsDisplay(CGRect(x: 0, y: 0, width: 1, height: 1))
        _ = renderDrawn(root, 40, 20)
        XCTAssertEqual(drawer.draws, 2)
    }

    func testCurrentContextAndQueries() {
        let root = canvas(40, 40)
        let l = drawingLayer(CGRect(x: 0, y: 0, width: 40, height: 40), in: root) { ctx, _ in
            XCTAssertTrue(UIGraphicsGetCurrentContext() === ctx)
            XCTAssertEqual(ctx.ctm, .identity)
            XCTAssertEqual(ctx.width, 80)                  // contentsScale 2
            ctx.translateBy(x: 10, y: 5)
            XCTAssertEqual(ctx.ctm, CGAffineTransform(translationX: 10, y: 5))
            XCTAssertTrue(ctx.isPathEmpty)
            ctx.move(to: CGPoint(x: 1, y: 2))
            ctx.addLine(to: CGPoint(x: 7, y: 4))
            XCTAssertEqual(ctx.currentPointOfPath, CGPoint(x: 7, y: 4))
            XCTAssertEqual(ctx.boundingBoxOfPath, CGRect(x: 1, y: 2, width: 6, height: 2))
            XCTAssertEqual(ctx.boundingBoxOfClipPath, CGRect(x: -10, y: -5, width: 40, height: 40))
            UIGraphicsGetCurrentContext()?.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
            XCTAssertTrue(ctx.isPathEmpty)                 // fill(rect) clears the path
        }
        l.contentsScale = 2
        l.displayTreeIfNeeded()
        XCTAssertNil(UIGraphicsGetCurrentContext())
        XCTAssertEqual(l.currentDrawing?.bounds, CGRect(x: 0, y: 0, width: 40, height: 40))
    }

    func testEqualDrawingsShareOneBackingStore() {
        func record(_ width: CGFloat) -> DrawingRecording {
            let ctx = CGContext(recordingIn: CGRect(x: 0, y: 0, width: 40, height: 40))
            ctx.translateBy(x: 5, y: 5)           // a transform never used by a CTM-dependent op
            ctx.translateBy(x: -5, y: -5)
            ctx.setLineWidth(width)
            ctx.stroke(CGRect(x: 10, y: 10, width: 10, height: 10))
            return ctx.makeRecording()
        }
        XCTAssertEqual(record(2), record(2))
        XCTAssertEqual(record(2).hashValue, record(2).hashValue)
        XCTAssertNotEqual(record(2), record(3))
        XCTAssertFalse(record(2).commands.contains { if case .setCTM = $0 { return true } else { return false } })

        // Redrawing the same thing every frame rasterises once.
        let cache = RenderCaches()
        let root = canvas(40, 40)
        let l = drawingLayer(root.bounds, in: root) { ctx, _ in
            ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
            ctx.fillEllipse(in: CGRect(x: 5, y: 5, width: 30, height: 30))
        }
        for _ in 0..<3 {
            l.setNeedsDisplay()
            _ = renderDrawn(root, 40, 40, cache: cache)
        }
        XCTAssertEqual(l.drawCount, 3)
        XCTAssertEqual(cache.statistics.misses, 1)
    }

    func testStaleDrawingIsPlacedByGravityOrRedrawn() {
        // A 10 × 10 red square at the drawing's top-left; the layer then grows from 20 × 20 to
        // 40 × 20 (frame origin kept).
        func run(_ configure: (CALayer) -> Void) -> (Bitmap, Int) {
            let root = canvas(60, 30)
            let l = drawingLayer(CGRect(x: 0, y: 0, width: 20, height: 20), in: root) { ctx, _ in
                ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
                ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
            }
            configure(l)
            _ = renderDrawn(root, 60, 30)
            l.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
            return (renderDrawn(root, 60, 30), l.drawCount)
        }
        // .resize (default): stretched to 20 × 10.
        var (b, draws) = run { _ in }
        XCTAssertEqual(draws, 1)
        assertRGB(b, 19, 9, R); assertRGB(b, 20, 5, W); assertRGB(b, 5, 10, W)
        // .center: the 20 × 20 drawing centred in 40 × 20: the square at x 10…20.
        (b, draws) = run { $0.contentsGravity = .center }
        assertRGB(b, 9, 5, W); assertRGB(b, 10, 5, R); assertRGB(b, 19, 9, R); assertRGB(b, 20, 5, W)
        // needsDisplayOnBoundsChange: redrawn at the new size, 10 × 10 at the top-left.
        (b, draws) = run { $0.needsDisplayOnBoundsChange = true }
        XCTAssertEqual(draws, 2)
        assertRGB(b, 9, 9, R); assertRGB(b, 10, 5, W)
    }

    func testZoomedDrawingIsRasterisedSharp() {
        // A 1-point line drawn in a 20 × 20 layer scaled 4×: 4 crisp pixels (40…43), not a
        // magnified 1-pixel line (which bilinear sampling would blur into its neighbours).
        let root = canvas(80, 80)
        let l = drawingLayer(CGRect(x: 0, y: 0, width: 20, height: 20), in: root) { ctx, _ in
            ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
            ctx.fill(CGRect(x: 10, y: 0, width: 1, height: 20))
        }
        l.position = CGPoint(x: 40, y: 40)
        l.transform = CATransform3DMakeScale(4, 4, 1)
        let b = renderDrawn(root, 80, 80)
        for x in 40...43 { assertRGB(b, x, 40, R) }
        assertRGB(b, 39, 40, W); assertRGB(b, 44, 40, W)
    }

    func testReplayIsIdenticalAcrossWorkersAndTiles() {
        let root = canvas(120, 90)
        _ = drawingLayer(CGRect(x: 10, y: 10, width: 100, height: 70), in: root) { ctx, layer in
            let g = CGGradient(colorsSpace: nil, colors: [CGColor(red: 0.2, green: 0.3, blue: 0.9, alpha: 1), .white], locations: nil)!
            ctx.drawRadialGradient(g, startCenter: CGPoint(x: 30, y: 30), startRadius: 0, endCenter: CGPoint(x: 50, y: 35),
                                   endRadius: 45, options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
            ctx.setStrokeColor(.black)
            ctx.setLineWidth(2.5)
            ctx.addArc(center: CGPoint(x: 50, y: 35), radius: 25, startAngle: 0.3, endAngle: 4, clockwise: false)
            ctx.strokePath()
        }
        root.displayTreeIfNeeded()
        let snap = PresentationBuilder(time: 0).snapshotTree(of: root)
        let reference = FrameRenderer(width: 120, height: 90, options: RenderOptions(workers: 1, tileSize: 16).verifyingTiles).render(snap)
        for (workers, tile) in [(2, 64), (3, 32), (4, 128)] {
            let other = FrameRenderer(width: 120, height: 90, options: RenderOptions(workers: workers, tileSize: tile).verifyingTiles).render(snap)
            XCTAssertEqual(other.pixels, reference.pixels, "workers \(workers), tile \(tile)")
        }
    }

    // MARK: Reference sheets

    func testPathsAndStrokesSheet() {
        let root = canvas(320, 200, color(0.96, 0.96, 0.94))
        _ = drawingLayer(root.bounds, in: root) { ctx, _ in
            // Joins: miter, round, bevel on a zig-zag.
            ctx.setLineWidth(10)
            ctx.setStrokeColor(CGColor(red: 0.15, green: 0.35, blue: 0.8, alpha: 1))
            for (i, join) in [CGLineJoin.miter, .round, .bevel].enumerated() {
                ctx.setLineJoin(join)
                let x = 20 + CGFloat(i) * 100
                ctx.addLines(between: [CGPoint(x: x, y: 60), CGPoint(x: x + 30, y: 20), CGPoint(x: x + 60, y: 60)])
                ctx.strokePath()
            }
            // Caps on thick segments, with a thin guide.
            for (i, cap) in [CGLineCap.butt, .round, .square].enumerated() {
                ctx.setLineCap(cap)
                ctx.setLineWidth(12)
                ctx.setStrokeColor(CGColor(red: 0.85, green: 0.3, blue: 0.2, alpha: 1))
                let y = 90 + CGFloat(i) * 20
                ctx.strokeLineSegments(between: [CGPoint(x: 30, y: y), CGPoint(x: 110, y: y)])
            }
            ctx.setLineCap(.butt)
            ctx.setLineWidth(1)
            ctx.setStrokeColor(.black)
            ctx.strokeLineSegments(between: [CGPoint(x: 30, y: 80), CGPoint(x: 30, y: 140),
                                             CGPoint(x: 110, y: 80), CGPoint(x: 110, y: 140)])
            // Arcs and curves: a pie wedge, a tangent-arc rounded corner, a cubic wave (dashed).
            ctx.setFillColor(CGColor(red: 0.95, green: 0.7, blue: 0.1, alpha: 1))
            ctx.move(to: CGPoint(x: 180, y: 110))
            ctx.addArc(center: CGPoint(x: 180, y: 110), radius: 35, startAngle: 0, endAngle: .pi * 1.5, clockwise: false)
            ctx.closePath()
            ctx.fillPath()
            ctx.setStrokeColor(CGColor(red: 0.2, green: 0.6, blue: 0.3, alpha: 1))
            ctx.setLineWidth(4)
            ctx.move(to: CGPoint(x: 230, y: 140))
            ctx.addArc(tangent1End: CGPoint(x: 230, y: 80), tangent2End: CGPoint(x: 300, y: 80), radius: 25)
            ctx.addLine(to: CGPoint(x: 300, y: 80))
            ctx.strokePath()
            ctx.setLineDash(phase: 0, lengths: [8, 4, 2, 4])
            ctx.setLineWidth(3)
            ctx.setStrokeColor(CGColor(red: 0.5, green: 0.2, blue: 0.6, alpha: 1))
            ctx.move(to: CGPoint(x: 20, y: 175))
            ctx.addCurve(to: CGPoint(x: 300, y: 175), control1: CGPoint(x: 110, y: 130), control2: CGPoint(x: 210, y: 220))
            ctx.strokePath()
            ctx.setLineDash(phase: 0, lengths: [])
            // Even-odd star, filled and stroked in one go.
            ctx.setFillColor(CGColor(red: 0.3, green: 0.75, blue: 0.9, alpha: 0.8))
            ctx.setStrokeColor(CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1))
            ctx.setLineWidth(1.5)
            let c = CGPoint(x: 270, y: 135)
            let pts = (0..<5).map { i -> CGPoint in
                let a = -CGFloat.pi / 2 + CGFloat(i) * 4 * .pi / 5
                return CGPoint(x: c.x + 28 * cos(a), y: c.y + 28 * sin(a))
            }
            ctx.addLines(between: pts)
            ctx.closePath()
            ctx.drawPath(using: .eoFillStroke)
        }
        assertReferenceImage(renderDrawn(root, 320, 200), named: "paths-and-strokes")
    }

    func testPaintSheet() {
        var checker = Bitmap(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 {
            checker.setPixel(x: x, y: y, (x + y) % 2 == 0 ? (30, 30, 30, 255) : (230, 200, 60, 255))
        } }
        let image = CGImage(bitmap: checker)
        let root = canvas(320, 200, .white)
        _ = drawingLayer(root.bounds, in: root) { ctx, _ in
            // Linear gradient clipped to a rounded rectangle.
            let sunset = CGGradient(colorsSpace: nil, colors: [CGColor(red: 1, green: 0.55, blue: 0.1, alpha: 1),
                                                               CGColor(red: 0.9, green: 0.2, blue: 0.5, alpha: 1),
                                                               CGColor(red: 0.25, green: 0.1, blue: 0.5, alpha: 1)],
                                    locations: [0, 0.6, 1])!
            ctx.saveGState()
            ctx.addPath(CGPath(roundedRect: CGRect(x: 10, y: 10, width: 140, height: 80), cornerWidth: 16, cornerHeight: 16, transform: nil))
            ctx.clip()
            ctx.drawLinearGradient(sunset, start: CGPoint(x: 10, y: 10), end: CGPoint(x: 150, y: 90), options: [])
            ctx.restoreGState()
            // Radial glow, offset centres (a sphere highlight), clipped to its disc.
            let sphere = CGGradient(colorsSpace: nil, colors: [.white, CGColor(red: 0.1, green: 0.4, blue: 0.9, alpha: 1)], locations: nil)!
            ctx.saveGState()
            ctx.addEllipse(in: CGRect(x: 180, y: 10, width: 80, height: 80))
            ctx.clip()
            ctx.drawRadialGradient(sphere, startCenter: CGPoint(x: 205, y: 35), startRadius: 2,
                                   endCenter: CGPoint(x: 220, y: 50), endRadius: 40, options: .drawsAfterEndLocation)
            ctx.restoreGState()
            // An image, scaled smoothly, tiled, and drawn rotated with alpha.
            ctx.draw(image, in: CGRect(x: 10, y: 110, width: 40, height: 40))
            ctx.saveGState()
            ctx.clip(to: CGRect(x: 60, y: 110, width: 60, height: 40))
            ctx.interpolationQuality = .none
            ctx.draw(image, in: CGRect(x: 60, y: 110, width: 16, height: 16), byTiling: true)
            ctx.restoreGState()
            ctx.saveGState()
            ctx.translateBy(x: 160, y: 130)
            ctx.rotate(by: .pi / 8)
            ctx.setAlpha(0.6)
            ctx.draw(image, in: CGRect(x: -20, y: -20, width: 40, height: 40))
            ctx.restoreGState()
            // Blend modes over a band.
            ctx.setFillColor(CGColor(red: 0.2, green: 0.7, blue: 0.9, alpha: 1))
            ctx.fill(CGRect(x: 200, y: 100, width: 110, height: 20))
            for (i, mode) in [CGBlendMode.multiply, .screen, .difference].enumerated() {
                ctx.setBlendMode(mode)
                ctx.setFillColor(CGColor(red: 0.9, green: 0.3, blue: 0.2, alpha: 1))
                ctx.fillEllipse(in: CGRect(x: 205 + CGFloat(i) * 35, y: 95, width: 30, height: 30))
            }
            ctx.setBlendMode(.normal)
            // Text through UIKit's string drawing into the current context.
            let font = UIFont(name: "DejaVu Sans", size: 18)!
            "Strata ✓".draw(at: CGPoint(x: 10, y: 165), withAttributes: [.font: font, .foregroundColor: CGColor(red: 0.1, green: 0.1, blue: 0.3, alpha: 1)])
            NSAttributedString(string: "wrapped text in a box", attributes: [.font: UIFont(name: "DejaVu Sans", size: 12)!])
                .draw(in: CGRect(x: 200, y: 140, width: 90, height: 50))
            ctx.setStrokeColor(CGColor(gray: 0.6, alpha: 1))
            ctx.stroke(CGRect(x: 200, y: 140, width: 90, height: 50), width: 1)
        }
        assertReferenceImage(renderDrawn(root, 320, 200), named: "paint")
    }
}
