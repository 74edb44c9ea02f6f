// Masks (a layer's alpha applied to the composited layer and its sublayers) and shadows (with and
// without shadowPath), including exact values where they can be computed by hand, and seams
// between tiles.
import XCTest
import StrataCore
@testable import StrataRender
import StrataTestSupport

final class MaskShadowTests: XCTestCase {
    /// A 64×64 image: an opaque disc of radius 28 with a soft edge, transparent elsewhere.
    private func discImage() -> CGImage {
        var b = Bitmap(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 {
            let d = ((Double(x) + 0.5 - 32) * (Double(x) + 0.5 - 32) + (Double(y) + 0.5 - 32) * (Double(y) + 0.5 - 32)).squareRoot()
            let a = UInt8(max(0, min(1, 28.5 - d)) * 255)
            b.setPixel(x: x, y: y, (a, a, a, a))
        } }
        return CGImage(bitmap: b)
    }

    func testImageMaskAppliesToSublayers() {
        let root = canvas(120, 120)
        let layer = box(CGRect(x: 10, y: 10, width: 100, height: 100), color(0.2, 0.4, 0.9))
        layer.addSublayer(box(CGRect(x: 50, y: 0, width: 50, height: 100), color(0.9, 0.3, 0.2)))
        let mask = CALayer()
        mask.frame = layer.bounds
        mask.contents = discImage()
        layer.mask = mask
        root.addSublayer(layer)
        let img = render(root, width: 120, height: 120)
        // Outside the disc: background; inside: the layer and its sublayer.
        XCTAssertTrue(img.pixel(x: 12, y: 12) == (255, 255, 255, 255))
        XCTAssertTrue(img.pixel(x: 40, y: 60) == (51, 102, 230, 255))
        XCTAssertTrue(img.pixel(x: 80, y: 60) == (230, 77, 51, 255))
        assertReferenceImage(img, named: "image_mask")
    }

    func testMaskAlphaScalesAndShapeLayerFreeMask() {
        // A half-transparent mask background halves the layer everywhere the mask covers.
        let root = canvas(40, 40)
        let layer = box(CGRect(x: 0, y: 0, width: 40, height: 40), .black)
        let mask = box(CGRect(x: 0, y: 0, width: 20, height: 40), CGColor(gray: 0, alpha: 0.5))
        layer.mask = mask
        root.addSublayer(layer)
        let img = render(root, width: 40, height: 40)
        XCTAssertEqual(Int(img.pixel(x: 10, y: 20).r), 128, accuracy: 1)
        XCTAssertTrue(img.pixel(x: 30, y: 20) == (255, 255, 255, 255))
    }

    func testHardShadowExactOffset() {
        // Radius 0, opacity 1, offset (6, 8): a black copy of the square, 6 right and 8 down.
        let root = canvas(60, 60)
        let l = box(CGRect(x: 10, y: 10, width: 20, height: 20), color(1, 0, 0))
        l.shadowOpacity = 1
        l.shadowRadius = 0
        l.shadowOffset = CGSize(width: 6, height: 8)
        root.addSublayer(l)
        let img = render(root, width: 60, height: 60)
        XCTAssertTrue(img.pixel(x: 33, y: 35) == (0, 0, 0, 255))       // shadow only
        XCTAssertTrue(img.pixel(x: 20, y: 20) == (255, 0, 0, 255))     // the layer above its shadow
        XCTAssertTrue(img.pixel(x: 37, y: 20) == (255, 255, 255, 255)) // neither
    }

    /// A layer faded as a group (opacity 0.5 with a sublayer) fades its shadow once, with the
    /// rest of the group, as Core Animation composites them (and CSS `opacity` over a
    /// `box-shadow`): a black hard shadow over white shows 128, not the 191 of a shadow faded
    /// twice. The same with `shadowPath`, and without a sublayer (no group: the shadow of the
    /// items drawn at half opacity, 128 too).
    func testAGroupsShadowFadesOnceWithTheGroup() {
        for (sublayer, path) in [(true, false), (true, true), (false, false), (false, true)] {
            let root = canvas(60, 60)
            let l = box(CGRect(x: 10, y: 10, width: 20, height: 20), color(1, 0, 0))
            if sublayer { l.addSublayer(box(CGRect(x: 0, y: 0, width: 10, height: 10), color(0, 0, 1))) }
            l.opacity = 0.5
            l.shadowOpacity = 1
            l.shadowRadius = 0
            l.shadowOffset = CGSize(width: 6, height: 8)
            if path { l.shadowPath = CGPath(rect: l.bounds, transform: nil) }
            root.addSublayer(l)
            let img = render(root, width: 60, height: 60)
            let label = "sublayer \(sublayer), shadowPath \(path)"
            let shadow = img.pixel(x: 33, y: 35)
            XCTAssertTrue(abs(Int(shadow.r) - 128) <= 1 && shadow.r == shadow.g && shadow.g == shadow.b, "\(label): \(shadow)")
            // A group: the red layer over its shadow, then the whole at half opacity over white.
            let red = img.pixel(x: 25, y: 25)
            if sublayer { XCTAssertTrue(abs(Int(red.r) - 255) <= 1 && abs(Int(red.g) - 128) <= 1, "\(label): \(red)") }
        }
    }

    func testShadowsWithAndWithoutPathAndMasksToBounds() {
        let root = canvas(300, 120, color(0.95, 0.95, 0.95))
        // 1: derived from the composited alpha (rounded layer + a sublayer sticking out).
        let a = box(CGRect(x: 20, y: 20, width: 70, height: 70), color(0.3, 0.6, 0.9))
        a.cornerRadius = 16
        a.addSublayer(box(CGRect(x: 50, y: 50, width: 30, height: 30), color(0.9, 0.5, 0.2)))
        a.shadowOpacity = 0.6
        a.shadowRadius = 6
        a.shadowOffset = CGSize(width: 0, height: 5)
        root.addSublayer(a)
        // 2: from an explicit elliptical shadowPath.
        let b = box(CGRect(x: 120, y: 20, width: 70, height: 70), color(0.3, 0.8, 0.5))
        b.shadowOpacity = 0.8
        b.shadowRadius = 4
        b.shadowOffset = CGSize(width: 0, height: 0)
        b.shadowPath = CGPath(ellipseIn: CGRect(x: -10, y: 50, width: 90, height: 30))
        root.addSublayer(b)
        // 3: masksToBounds clips the shadow away.
        let c = box(CGRect(x: 220, y: 20, width: 60, height: 60), color(0.8, 0.3, 0.5))
        c.shadowOpacity = 1
        c.shadowRadius = 3
        c.shadowOffset = CGSize(width: 8, height: 8)
        c.masksToBounds = true
        root.addSublayer(c)
        let img = render(root, width: 300, height: 120)
        XCTAssertTrue(img.pixel(x: 285, y: 85) == (242, 242, 242, 255))
        XCTAssertLessThan(img.pixel(x: 155, y: 95).r, 200)  // the ellipse's shadow below the layer
        assertReferenceImage(img, named: "shadows")
        // Blurred shadows are identical at tile seams whatever the tile size.
        XCTAssertEqual(render(root, width: 300, height: 120, workers: 1, tileSize: 16).pixels, img.pixels)
        XCTAssertEqual(render(root, width: 300, height: 120, workers: 2, tileSize: 23).pixels, img.pixels)
    }

    /// A shape layer that casts a shadow is reached twice by the display list (as its content and
    /// as the shadow's source): its shapes must go to one rasterisation job each — two workers
    /// rasterising the same shape wrote its cells at once (ThreadSanitizer, the terminal-typing
    /// template's window). And the frame is the same for 1 and 4 workers.
    func testShapesOfALayerWithAShadowAreRasterisedOnce() {
        let root = canvas(160, 120)
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 20, y: 20, width: 100, height: 70)
        shape.path = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 70), cornerWidth: 12, cornerHeight: 12, transform: nil)
        shape.fillColor = color(0.2, 0.5, 0.9)
        shape.strokeColor = color(0.1, 0.1, 0.1)
        shape.lineWidth = 3
        shape.shadowOpacity = 0.7
        shape.shadowOffset = CGSize(width: 6, height: 8)
        shape.shadowRadius = 5
        root.addSublayer(shape)
        let list = FrameRenderer(width: 160, height: 120).displayList(for: PresentationBuilder(time: 0).snapshotTree(of: root))
        var reached: [ObjectIdentifier] = []
        list.forEachVectorShape { reached.append(ObjectIdentifier($0)) }
        XCTAssertEqual(reached.count, 4, "fill and stroke, as content and as the shadow's source")
        XCTAssertEqual(Set(reached).count, 2)
        var jobs = ShapeJobs(claimingShapesOf: list)
        let claimed = jobs.shapes(of: list).map(ObjectIdentifier.init)
        jobs.release()
        XCTAssertEqual(claimed.count, 2)
        XCTAssertEqual(Set(claimed), Set(reached))
        var again = ShapeJobs(claimingShapesOf: list)
        XCTAssertEqual(again.count, 0, "claimed once only")
        again.release()
        XCTAssertEqual(render(root, width: 160, height: 120, workers: 1).pixels, render(root, width: 160, height: 120, workers: 4).pixels)
    }
}

/// A mask layer's shadow is part of the mask's alpha (Core Animation composites the whole mask
/// layer tree for it), and a `shadowPath` shadow fades with its layer's opacity.
final class MaskLayerShadowTests: XCTestCase {
    /// A shape layer with no fill whose shadow (black, radius 4, no offset) follows the path of
    /// the rectangle x 20…60 masks a red square: the red is the blurred rectangle's alpha,
    /// Φ(d / 4) across its left edge (½ there), opaque deep inside, nothing far outside; at
    /// opacity ½ the mask, and so the red, is half as strong.
    func testMaskShadowIsTheMasksAlpha() {
        func masked(opacity: Float) -> Bitmap {
            let root = canvas(80, 80, CGColor(red: 0, green: 0, blue: 0, alpha: 0))
            let layer = box(CGRect(x: 0, y: 0, width: 80, height: 80), color(1, 0, 0))
            let mask = CAShapeLayer()
            mask.frame = layer.bounds
            mask.fillColor = nil
            mask.shadowPath = CGPath(rect: CGRect(x: 20, y: 20, width: 40, height: 40), transform: nil)
            mask.shadowColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            mask.shadowOpacity = 1
            mask.shadowOffset = .zero
            mask.shadowRadius = 4
            mask.opacity = opacity
            layer.mask = mask
            root.addSublayer(layer)
            return render(root, width: 80, height: 80)
        }
        let phi = { (z: Double) in 0.5 * erfc(-z / 2.squareRoot()) }
        let full = masked(opacity: 1), half = masked(opacity: 0.5)
        XCTAssertTrue(full.pixel(x: 40, y: 40) == (255, 0, 0, 255), "deep inside")
        XCTAssertEqual(full.pixel(x: 5, y: 40).a, 0, "far outside")
        for x in 10...30 {
            let want = 255 * phi((Double(x) + 0.5 - 20) / 4)
            XCTAssertEqual(Double(full.pixel(x: x, y: 40).a), want, accuracy: 3, "x \(x)")
            XCTAssertEqual(Double(half.pixel(x: x, y: 40).a), want / 2, accuracy: 3, "x \(x) at opacity ½")
        }
    }
}
