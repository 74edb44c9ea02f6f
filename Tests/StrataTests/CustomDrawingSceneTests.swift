// Custom drawing, layout and image contents through the Scene: the seeds' custom progress-bar
// layer (002, "CALayer的探究应用——进度条": a `progress` property that redraws through
// needsDisplay(forKey:), animated explicitly and implicitly — reference frames at several
// times), display and layout running before each frame, and an image file decoded once and
// shown by many layers. Reference images: 2 levels per channel.
import XCTest
import Strata
import StrataTestSupport

/// The seeds' progress bar: a green line from the origin to the progress point, which rises
/// MAX_OFFSET (25) points at half progress, then a grey line on to the end. Ported from the
/// Objective-C `drawInContext:`; `progress` lives in the layer's key-value storage so that
/// presentation copies (`init(layer:)`) carry the animated value.
private final class ProgressLayer: CALayer {
    static let maxOffset: CGFloat = 25

    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(min(1, max(0, newValue)), forKey: "progress") }
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }

    // Apple's boilerplate, unchanged.
    override init() { super.init() }
    override init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

    var origin: CGPoint { CGPoint(x: 25, y: bounds.midY - 10) }
    var maxLength: CGFloat { bounds.width - 50 }

    /// Where the two lines meet for `progress`.
    func joint(_ p: CGFloat) -> CGPoint {
        CGPoint(x: origin.x + maxLength * p, y: origin.y + ProgressLayer.maxOffset * (1 - abs(p - 0.5) * 2))
    }

    override func draw(in ctx: CGContext) {
        let joint = joint(progress)
        ctx.setLineCap(.round)
        ctx.setLineWidth(6)
        ctx.setStrokeColor(CGColor(red: 0.2, green: 0.75, blue: 0.3, alpha: 1))
        ctx.move(to: origin)
        ctx.addLine(to: joint)
        ctx.strokePath()
        ctx.setStrokeColor(CGColor(gray: 0.75, alpha: 1))
        ctx.move(to: joint)
        ctx.addLine(to: CGPoint(x: origin.x + maxLength, y: origin.y))
        ctx.strokePath()
    }
}

private func isGreen(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool { p.g > 150 && p.r < 100 && p.b < 120 }
private func isGrey(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool {
    abs(Int(p.r) - 191) < 12 && abs(Int(p.g) - 191) < 12 && abs(Int(p.b) - 191) < 12
}

final class CustomDrawingSceneTests: XCTestCase {
    private func progressScene() -> (Scene, ProgressLayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 300, height: 100)
        root.backgroundColor = .white
        let bar = ProgressLayer()
        bar.frame = root.bounds
        root.addSublayer(bar)
        return (Scene(rootLayer: root, size: CGSize(width: 300, height: 100), frameRate: 10, duration: 3), bar)
    }

    func testSeedsProgressBarRedrawsWhileProgressAnimates() throws {
        let (scene, bar) = progressScene()
        bar.progress = 0
        let anim = CABasicAnimation(keyPath: "progress")
        anim.fromValue = 0
        anim.toValue = 1
        anim.duration = 2
        anim.timingFunction = CAMediaTimingFunction(name: .linear)
        anim.fillMode = .forwards
        anim.isRemovedOnCompletion = false
        bar.add(anim, forKey: "fill")

        for (t, p) in [(0.0, 0.0), (0.5, 0.25), (1.0, 0.5), (1.5, 0.75), (2.5, 1.0)] {
            let frame = try scene.renderFrame(at: t)
            assertReferenceImage(frame, named: "progress-\(Int(p * 100))")
            // The presentation value and the drawing agree: just behind the joint the line is
            // green, just beyond it grey (none at the ends).
            let pres = try XCTUnwrap(scene.presentation(of: bar, at: t) as? ProgressLayer)
            XCTAssertEqual(Double(pres.progress), p, accuracy: 1e-9)
            let j = bar.joint(CGFloat(p))
            if p > 0.1 {
                let o = bar.origin
                let back = CGPoint(x: o.x + (j.x - o.x) * 0.9, y: o.y + (j.y - o.y) * 0.9)
                XCTAssertTrue(isGreen(frame.pixel(x: Int(back.x), y: Int(back.y))), "t = \(t): \(frame.pixel(x: Int(back.x), y: Int(back.y)))")
            }
            if p < 0.9 {
                // Beyond the joint the grey line runs straight to (maxLength + 25, origin.y).
                let end = CGPoint(x: 25 + bar.maxLength, y: bar.origin.y)
                let ahead = CGPoint(x: j.x + (end.x - j.x) * 0.2, y: j.y + (end.y - j.y) * 0.2)
                XCTAssertTrue(isGrey(frame.pixel(x: Int(ahead.x), y: Int(ahead.y))), "t = \(t): \(frame.pixel(x: Int(ahead.x), y: Int(ahead.y)))")
            }
        }
        // The model never changed: it drew once, at progress 0; the frames came from
        // presentation copies.
        XCTAssertEqual(bar.progress, 0)
        XCTAssertNotNil(bar.currentDrawing)
    }

    func testImplicitProgressChangeAnimatesTheDrawing() throws {
        let (scene, bar) = progressScene()
        bar.progress = 0.2
        scene.at(1) {
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            bar.progress = 0.8
        }
        let before = try scene.renderFrame(at: 0.5)
        let middle = try scene.renderFrame(at: 1.5)
        let after = try scene.renderFrame(at: 2.5)
        let pres = try XCTUnwrap(scene.presentation(of: bar, at: 2.5) as? ProgressLayer)
        XCTAssertEqual(Double(pres.progress), 0.8, accuracy: 1e-9)
        // Halfway through, the joint is at progress 0.5: its highest point (origin.y + 25).
        // A point on the green line 90 % of the way to it: green now, white before and after.
        let o = bar.origin, j = bar.joint(0.5)
        let probe = CGPoint(x: o.x + (j.x - o.x) * 0.9, y: o.y + (j.y - o.y) * 0.9)
        let (px, py) = (Int(probe.x), Int(probe.y))
        XCTAssertTrue(isGreen(middle.pixel(x: px, y: py)), "\(middle.pixel(x: px, y: py))")
        XCTAssertEqual(before.pixel(x: px, y: py).g, 255)
        XCTAssertEqual(before.pixel(x: px, y: py).r, 255)
        XCTAssertEqual(after.pixel(x: px, y: py).r, 255)
        // After the animation the model's own drawing (progress 0.8) shows: green up to its joint.
        let j8 = bar.joint(0.8)
        let onGreen = CGPoint(x: o.x + (j8.x - o.x) * 0.9, y: o.y + (j8.y - o.y) * 0.9)
        XCTAssertTrue(isGreen(after.pixel(x: Int(onGreen.x), y: Int(onGreen.y))))
        assertReferenceImage(middle, named: "progress-implicit-middle")
    }

    func testDisplayAndLayoutRunBeforeEachFrame() throws {
        /// Lays its one sublayer out to fill the bounds inset by 10.
        final class Frame: CALayer {
            override func layoutSublayers() {
                for s in sublayers ?? [] { s.frame = bounds.insetBy(dx: 10, dy: 10) }
            }
        }
        /// Fills a 40-point-wide bar at the left of its bounds with `fill`.
        final class Swatch: CALayer {
            var fill = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            override func draw(in ctx: CGContext) {
                ctx.setFillColor(fill)
                ctx.fill(CGRect(x: bounds.minX, y: bounds.minY, width: 40, height: bounds.height))
            }
        }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = .white
        let frameLayer = Frame()
        frameLayer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.addSublayer(frameLayer)
        let swatch = Swatch()
        swatch.needsDisplayOnBoundsChange = true
        frameLayer.addSublayer(swatch)
        frameLayer.setNeedsLayout()
        swatch.setNeedsDisplay()
        let scene = Scene(rootLayer: root, size: CGSize(width: 200, height: 100), frameRate: 10, duration: 3)
        scene.at(1) {
            CATransaction.setDisableActions(true)
            frameLayer.frame = CGRect(x: 0, y: 0, width: 200, height: 100)   // resized: layout, then redraw
        }
        scene.at(2) {
            swatch.fill = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            swatch.setNeedsDisplay()
        }
        func rgb(_ f: Bitmap, _ x: Int) -> [UInt8] { let p = f.pixel(x: x, y: 50); return [p.r, p.g, p.b] }
        // Laid out to (10, 10, 80, 80) before the first frame; the bar covers x 10…50.
        var f = try scene.renderFrame(at: 0)
        XCTAssertEqual(swatch.frame, CGRect(x: 10, y: 10, width: 80, height: 80))
        XCTAssertEqual(rgb(f, 10), [255, 0, 0])
        XCTAssertEqual(rgb(f, 49), [255, 0, 0])
        XCTAssertEqual(rgb(f, 50), [255, 255, 255])
        // Resized at t = 1: laid out to 180 wide, then redrawn (a stretched drawing would put
        // the bar over x 10…100).
        f = try scene.renderFrame(at: 1)
        XCTAssertEqual(swatch.frame, CGRect(x: 10, y: 10, width: 180, height: 80))
        XCTAssertEqual(rgb(f, 49), [255, 0, 0])
        XCTAssertEqual(rgb(f, 55), [255, 255, 255])
        XCTAssertEqual(rgb(f, 150), [255, 255, 255])
        // setNeedsDisplay at t = 2 redraws with the new colour.
        f = try scene.renderFrame(at: 2)
        XCTAssertEqual(rgb(f, 30), [0, 0, 255])
    }

    func testImageFileSharedByManyLayers() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-scene-image-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var bm = Bitmap(width: 2, height: 1)
        bm.setPixel(x: 0, y: 0, (255, 0, 0, 255))
        bm.setPixel(x: 1, y: 0, (0, 0, 128, 128))                 // premultiplied half-transparent blue
        let url = dir.appendingPathComponent("tile.png")
        try bm.writePNG(to: url)

        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 80, height: 20)
        root.backgroundColor = .white
        var images: [CGImage] = []
        for i in 0..<4 {
            let l = CALayer()
            l.frame = CGRect(x: CGFloat(i) * 20, y: 0, width: 20, height: 20)
            let image = try CGImage.load(contentsOf: url)
            images.append(image)
            l.contents = image
            l.magnificationFilter = .nearest
            root.addSublayer(l)
        }
        XCTAssertTrue(images.allSatisfy { $0 === images[0] })
        let scene = Scene(rootLayer: root, size: CGSize(width: 80, height: 20), frameRate: 10, duration: 1)
        let f = try scene.renderFrame(at: 0)
        for i in 0..<4 {
            let left = f.pixel(x: i * 20 + 5, y: 10), right = f.pixel(x: i * 20 + 15, y: 10)
            XCTAssertEqual([left.r, left.g, left.b], [255, 0, 0])
            // 50 % blue over white: (127, 127, 255) give or take one level.
            XCTAssertLessThanOrEqual(abs(Int(right.r) - 127), 1)
            XCTAssertLessThanOrEqual(abs(Int(right.g) - 127), 1)
            XCTAssertEqual(right.b, 255)
        }
    }
}
