// Shadows are blurred once per frame into a mask kept by silhouette (ShadowMask.swift): a frame
// drawn with a mask from the cache is the frame drawn from a cold cache, byte for byte, when the
// layer's inner content changed or the layer moved; the box blur stays within a stated distance
// of the exact Gaussian it approximates.
import XCTest
import StrataCore
@testable import StrataRender
import StrataTestSupport

final class ShadowMaskTests: XCTestCase {
    /// The box passes against the exact Gaussian on a step edge and on a one-pixel line (both
    /// running down a square): the largest difference is under 0.7 % of the step (1.8 of 255)
    /// for σ from 2 to 40; the line keeps its total and stays centred.
    func testBoxBlurStaysCloseToTheGaussian() {
        for sigma in [2.0, 3.5, 6, 8, 30, 40] {
            let reach = AlphaBlur.reach(sigma: sigma) + 2
            let w = 2 * reach + 41, h = 2 * reach + 1
            var step = [Float](repeating: 0, count: w * h), line = step
            for y in 0..<h {
                for x in (w / 2)..<w { step[y * w + x] = 1 }
                line[y * w + w / 2] = 1
            }
            AlphaBlur.blur(&step, width: w, height: h, sigma: sigma)
            AlphaBlur.blur(&line, width: w, height: h, sigma: sigma)
            let mid = (h / 2) * w
            var worst: Float = 0
            for x in reach..<(w - reach) {
                let exact = 0.5 * (1 + erf((Double(x - w / 2) + 0.5) / (sigma * 2.0.squareRoot())))
                worst = max(worst, abs(step[mid + x] - Float(exact)))
            }
            XCTAssertLessThan(worst, 0.007, "σ = \(sigma)")
            let row = line[mid..<(mid + w)]
            XCTAssertEqual(Double(row.reduce(0, +)), 1, accuracy: 0.002, "σ = \(sigma)")
            let mean = row.enumerated().reduce(0.0) { $0 + Double($1.offset - w / 2) * Double($1.element) }
            XCTAssertEqual(mean, 0, accuracy: 0.01, "σ = \(sigma)")
        }
    }

    /// A window-like layer: an opaque rounded background with a shadow and a sublayer inside.
    private func window(_ root: CALayer, inner: CGColor, at origin: CGPoint) -> CALayer {
        let w = box(CGRect(origin: origin, size: CGSize(width: 120, height: 80)), color(0.15, 0.15, 0.2))
        w.cornerRadius = 10
        w.shadowOpacity = 0.6
        w.shadowRadius = 9
        w.shadowOffset = CGSize(width: 0, height: 6)
        w.addSublayer(box(CGRect(x: 15, y: 20, width: 60, height: 30), inner))
        root.addSublayer(w)
        return w
    }

    private func made() -> Int { ShadowMaskCache.made.load(ordering: .relaxed) }

    /// Changing what is inside the window does not blur its shadow again, and the frame equals
    /// the frame drawn from an empty cache.
    func testChangedInnerContentReusesTheMask() {
        ShadowMaskCache.removeAll()
        let root = canvas(200, 140, color(0.9, 0.9, 0.9))
        let w = window(root, inner: color(1, 0, 0), at: CGPoint(x: 30, y: 20))
        let first = render(root, width: 200, height: 140)
        let before = made()
        w.sublayers![0].backgroundColor = color(0, 0.8, 0.2)
        w.sublayers![0].frame.origin.x = 30
        let second = render(root, width: 200, height: 140)
        XCTAssertEqual(made(), before, "the silhouette did not change: no new blur")
        XCTAssertNotEqual(first.pixels, second.pixels)
        ShadowMaskCache.removeAll()
        XCTAssertEqual(render(root, width: 200, height: 140).pixels, second.pixels)
        XCTAssertEqual(made(), before + 1)
        // The shadow is there: below the window, darker than the background.
        XCTAssertLessThan(second.pixel(x: 90, y: 104).r, 200)
    }

    /// A window moved by whole pixels, and by a fraction of one, reuses its mask; the frames
    /// equal those drawn from an empty cache, and a whole-pixel move moves the shadow's pixels.
    func testMovedSilhouetteIsAMovedCopy() {
        ShadowMaskCache.removeAll()
        let root = canvas(240, 160, color(0.9, 0.9, 0.9))
        let w = window(root, inner: color(1, 0, 0), at: CGPoint(x: 30, y: 20))
        let first = render(root, width: 240, height: 160, workers: 1)
        let before = made()
        w.position = CGPoint(x: w.position.x + 17, y: w.position.y + 11)
        let moved = render(root, width: 240, height: 160, workers: 2, tileSize: 23)
        w.position = CGPoint(x: w.position.x + 0.37, y: w.position.y + 0.61)
        let fraction = render(root, width: 240, height: 160, workers: 2)
        XCTAssertEqual(made(), before, "a moved silhouette is not blurred again")
        for y in 0..<120 { for x in 0..<200 {
            XCTAssertTrue(first.pixel(x: x, y: y) == moved.pixel(x: x + 17, y: y + 11), "(\(x), \(y))")
        } }
        ShadowMaskCache.removeAll()
        XCTAssertEqual(render(root, width: 240, height: 160).pixels, fraction.pixels)
        w.position = CGPoint(x: w.position.x - 0.37, y: w.position.y - 0.61)
        XCTAssertEqual(render(root, width: 240, height: 160).pixels, moved.pixels)
    }

    /// A silhouette that is not one opaque rectangle (a shape layer's alpha) is drawn once a frame
    /// and kept by its values: the same shape moved by whole pixels is found again.
    func testDrawnSilhouetteIsFoundAgainAfterAMove() {
        ShadowMaskCache.removeAll()
        let root = canvas(200, 140)
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 20, y: 20, width: 100, height: 70)
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 70), transform: nil)
        shape.fillColor = color(0.2, 0.5, 0.9, 0.8)
        shape.shadowOpacity = 0.7
        shape.shadowOffset = CGSize(width: 6, height: 8)
        shape.shadowRadius = 5
        root.addSublayer(shape)
        let first = render(root, width: 200, height: 140)
        let before = made()
        shape.position.x += 40
        let moved = render(root, width: 200, height: 140)
        XCTAssertEqual(made(), before)
        for y in 0..<140 { for x in 0..<150 where first.pixel(x: x, y: y) != (255, 255, 255, 255) {
            XCTAssertTrue(first.pixel(x: x, y: y) == moved.pixel(x: x + 40, y: y), "(\(x), \(y))")
        } }
    }

    /// A blur far wider than the frame still draws (tile by tile, as before) and agrees at seams.
    func testVeryWideBlurFallsBackToTiles() {
        let root = canvas(96, 64)
        let l = box(CGRect(x: 20, y: 20, width: 40, height: 20), color(0, 0, 1))
        l.shadowOpacity = 1
        l.shadowRadius = 900
        root.addSublayer(l)
        let a = render(root, width: 96, height: 64, workers: 1, tileSize: 16)
        XCTAssertEqual(render(root, width: 96, height: 64, workers: 2, tileSize: 37).pixels, a.pixels)
    }
}
