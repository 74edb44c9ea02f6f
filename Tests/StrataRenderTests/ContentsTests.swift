// Image contents beyond gravity: the seeds' 3×3 sprite grid through contentsRect (values
// outside 0…1 included), contentsCenter nine-slice stretching, and isGeometryFlipped.
import XCTest
import StrataCore
import StrataRender
import StrataTestSupport

final class ContentsTests: XCTestCase {
    /// A 30×30 sprite sheet of nine 10×10 cells, each a distinct colour.
    private func spriteSheet() -> CGImage {
        var b = Bitmap(width: 30, height: 30)
        for y in 0..<30 { for x in 0..<30 {
            let i = (y / 10) * 3 + x / 10
            b.setPixel(x: x, y: y, (UInt8(40 + i * 24), UInt8(250 - i * 25), UInt8((i % 3) * 110), 255))
        } }
        return CGImage(bitmap: b)
    }

    func testSpriteGridThroughContentsRect() {
        let sheet = spriteSheet()
        let root = canvas(190, 70, color(0.2, 0.2, 0.2))
        for i in 0..<9 {
            let l = CALayer()
            l.frame = CGRect(x: 5 + CGFloat(i) * 20, y: 5, width: 15, height: 15)
            l.contents = sheet
            l.magnificationFilter = .nearest
            l.contentsRect = CGRect(x: CGFloat(i % 3) / 3, y: CGFloat(i / 3) / 3, width: 1.0 / 3, height: 1.0 / 3)
            root.addSublayer(l)
        }
        // Outside 0…1: the right-most third plus beyond (edges clamp).
        let wide = CALayer()
        wide.frame = CGRect(x: 5, y: 30, width: 60, height: 30)
        wide.contents = sheet
        wide.magnificationFilter = .nearest
        wide.contentsRect = CGRect(x: 2.0 / 3, y: 0, width: 2.0 / 3, height: 1.0 / 3)
        root.addSublayer(wide)
        let img = render(root, width: 190, height: 70)
        for i in 0..<9 {
            let p = img.pixel(x: 5 + i * 20 + 7, y: 12)
            XCTAssertEqual(Int(p.r), 40 + i * 24, "cell \(i)")
            XCTAssertEqual(Int(p.g), 250 - i * 25, "cell \(i)")
        }
        assertReferenceImage(img, named: "sprite_grid")
    }

    func testNineSliceKeepsCornersAndStretchesCentre() {
        // 12×12 image: 4-px red corners, green edges, blue centre; contentsCenter = middle third.
        var b = Bitmap(width: 12, height: 12)
        for y in 0..<12 { for x in 0..<12 {
            let ex = x < 4 || x >= 8, ey = y < 4 || y >= 8
            b.setPixel(x: x, y: y, ex && ey ? (255, 0, 0, 255) : (ex || ey ? (0, 255, 0, 255) : (0, 0, 255, 255)))
        } }
        let root = canvas(120, 60)
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 10, width: 100, height: 40)
        l.contents = CGImage(bitmap: b)
        l.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        l.magnificationFilter = .nearest
        root.addSublayer(l)
        let img = render(root, width: 120, height: 60)
        XCTAssertTrue(img.pixel(x: 11, y: 11) == (255, 0, 0, 255))   // corner keeps 4 × 4 points
        XCTAssertTrue(img.pixel(x: 13, y: 13) == (255, 0, 0, 255))
        XCTAssertTrue(img.pixel(x: 15, y: 11) == (0, 255, 0, 255))   // top edge starts at x = 14
        XCTAssertTrue(img.pixel(x: 60, y: 30) == (0, 0, 255, 255))   // stretched centre
        XCTAssertTrue(img.pixel(x: 107, y: 47) == (255, 0, 0, 255))  // bottom-right corner
        XCTAssertTrue(img.pixel(x: 60, y: 48) == (0, 255, 0, 255))   // bottom edge
        assertReferenceImage(img, named: "nine_slice")
    }

    func testGeometryFlippedMovesSublayersToYUp() {
        let root = canvas(60, 60)
        let parent = box(CGRect(x: 10, y: 10, width: 40, height: 40), color(0.9, 0.9, 0.9))
        parent.isGeometryFlipped = true
        parent.addSublayer(box(CGRect(x: 0, y: 0, width: 10, height: 10), color(1, 0, 0)))
        root.addSublayer(parent)
        let img = render(root, width: 60, height: 60)
        // Origin at the bottom-left of the parent: the red square sits at its bottom.
        XCTAssertTrue(img.pixel(x: 12, y: 47) == (255, 0, 0, 255))
        XCTAssertTrue(img.pixel(x: 12, y: 12) == (230, 230, 230, 255))
    }
}

final class MipmapTests: XCTestCase {
    /// A 256×256 one-pixel checkerboard shown at 30×30: linear filtering samples individual
    /// texels (aliasing to black or white), trilinear averages them to mid grey.
    func testTrilinearAveragesWhereLinearAliases() {
        var b = Bitmap(width: 256, height: 256)
        for y in 0..<256 { for x in 0..<256 {
            let v: UInt8 = (x + y) % 2 == 0 ? 0 : 255
            b.setPixel(x: x, y: y, (v, v, v, 255))
        } }
        let image = CGImage(bitmap: b)
        XCTAssertEqual(image.mipLevelCount, 8)
        XCTAssertEqual(image.mipLevel(1).pixel(x: 3, y: 5).r, 128)  // (0+255+255+0+2)/4
        let root = canvas(80, 40)
        for (i, f) in [CALayerContentsFilter.linear, .trilinear].enumerated() {
            let l = CALayer()
            l.frame = CGRect(x: 4 + CGFloat(i) * 40, y: 4, width: 30, height: 30)
            l.contents = image
            l.minificationFilter = f
            root.addSublayer(l)
        }
        let img = render(root, width: 80, height: 40)
        var linearSpread = 0, trilinearSpread = 0
        for y in 6..<32 { for x in 6..<32 {
            linearSpread = max(linearSpread, abs(Int(img.pixel(x: x, y: y).r) - 128))
            trilinearSpread = max(trilinearSpread, abs(Int(img.pixel(x: x + 40, y: y).r) - 128))
        } }
        XCTAssertGreaterThan(linearSpread, 60)
        XCTAssertLessThanOrEqual(trilinearSpread, 2)
    }
}

extension CGImage {
    func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) { bitmap.pixel(x: x, y: y) }
}

final class ShouldRasterizeTests: XCTestCase {
    private func card() -> CALayer {
        let l = box(CGRect(x: 20, y: 20, width: 80, height: 60), color(0.2, 0.5, 0.9))
        l.cornerRadius = 10
        l.addSublayer(box(CGRect(x: 10, y: 10, width: 40, height: 40), color(0.9, 0.4, 0.2)))
        l.addSublayer(box(CGRect(x: 30, y: 20, width: 40, height: 40), color(0.3, 0.8, 0.4)))
        l.opacity = 0.6
        return l
    }

    func testRasterizedLayerMatchesDirectDrawingAndIsReused() {
        let direct = canvas(120, 100), rasterized = canvas(120, 100)
        direct.addSublayer(card())
        let r = card()
        r.shouldRasterize = true
        rasterized.addSublayer(r)
        let cache = RenderCaches()
        let renderer = FrameRenderer(width: 120, height: 100, cache: cache)
        let a = renderer.render(PresentationBuilder(time: 0).snapshotTree(of: direct))
        let b = renderer.render(PresentationBuilder(time: 0).snapshotTree(of: rasterized))
        // At an integer position and scale 1 the bitmap lines up with the pixel grid: the
        // result equals group-opacity drawing within rounding.
        let cmp = ImageComparison(actual: b, expected: a, tolerance: 1)!
        XCTAssertEqual(cmp.pixelsOverTolerance, 0)
        // Moving and fading the layer reuses the bitmap; changing a sublayer redraws it.
        let misses = cache.statistics.misses
        r.position.x += 7
        r.opacity = 0.9
        _ = renderer.render(PresentationBuilder(time: 0).snapshotTree(of: rasterized))
        XCTAssertEqual(cache.statistics.misses, misses)
        r.sublayers![0].backgroundColor = color(0, 0, 0)
        _ = renderer.render(PresentationBuilder(time: 0).snapshotTree(of: rasterized))
        XCTAssertEqual(cache.statistics.misses, misses + 1)
    }
}
