// CAGradientLayer: the seeds' two gradients, radial and conic, exact values along an axial ramp,
// mismatched locations drawing nothing, and dithering that stays within half a level.
import XCTest
import StrataCore
import StrataRender
import StrataTestSupport

final class GradientLayerTests: XCTestCase {
    private func gradient(_ frame: CGRect, _ colors: [CGColor], start: CGPoint, end: CGPoint,
                          locations: [NSNumber]? = nil, type: CAGradientLayerType = .axial) -> CAGradientLayer {
        let g = CAGradientLayer()
        g.frame = frame
        g.colors = colors
        g.locations = locations
        g.startPoint = start
        g.endPoint = end
        g.type = type
        return g
    }

    func testAxialRampValues() {
        // Black → white over 256 points: pixel x samples t = (x + 0.5) / 256, so the 8-bit value is
        // 255·t ± the dither (half a level) → within 1 of round(255·t).
        let root = canvas(256, 4, .black)
        root.addSublayer(gradient(root.bounds, [.black, .white], start: CGPoint(x: 0, y: 0.5), end: CGPoint(x: 1, y: 0.5)))
        let img = render(root, width: 256, height: 4)
        for x in stride(from: 0, to: 256, by: 17) {
            let expected = 255 * (Double(x) + 0.5) / 256
            for y in 0..<4 {
                XCTAssertEqual(Double(img.pixel(x: x, y: y).r), expected, accuracy: 1.0, "x \(x) y \(y)")
            }
        }
    }

    func testDitherBreaksBandsButKeepsTheMean() {
        // A very dark, nearly flat gradient: the mean over an 8×8 block matches the exact value.
        let root = canvas(64, 64, .black)
        let dark = CGColor(red: 0.05, green: 0.05, blue: 0.05, alpha: 1)
        let darker = CGColor(red: 0.06, green: 0.06, blue: 0.06, alpha: 1)
        root.addSublayer(gradient(root.bounds, [dark, darker], start: CGPoint(x: 0, y: 0), end: CGPoint(x: 1, y: 0)))
        let img = render(root, width: 64, height: 64)
        var sum = 0.0, values = Set<UInt8>()
        for y in 0..<8 { for x in 24..<32 { sum += Double(img.pixel(x: x, y: y).r); values.insert(img.pixel(x: x, y: y).r) } }
        let exact = 255 * (0.05 + 0.01 * (28.0 / 64))
        XCTAssertEqual(sum / 64, exact, accuracy: 0.2)
        XCTAssertEqual(values.count, 2, "dither mixes the two nearest levels")
    }

    /// Locations out of order are sorted (stably) with their colours, as Core Graphics takes them:
    /// the same pixels as the stops given in order.
    func testUnsortedLocationsDrawAsSorted() {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        func draw(_ colors: [CGColor], _ locations: [NSNumber]) -> Bitmap {
            let root = canvas(96, 8, .black)
            root.addSublayer(gradient(root.bounds, colors, start: CGPoint(x: 0, y: 0.5), end: CGPoint(x: 1, y: 0.5), locations: locations))
            return render(root, width: 96, height: 8)
        }
        let sorted = draw([red, green, blue], [0.1, 0.5, 0.9])
        XCTAssertTrue(draw([blue, red, green], [0.9, 0.1, 0.5]).pixels == sorted.pixels)
        XCTAssertTrue(draw([green, blue, red], [0.5, 0.9, 0.1]).pixels == sorted.pixels)
        XCTAssertFalse(draw([red, green, blue], [0.1, 0.9, 0.5]).pixels == sorted.pixels)
        // The middle is green, the ends red and blue.
        XCTAssertGreaterThan(sorted.pixel(x: 48, y: 4).g, 250)
        XCTAssertGreaterThan(sorted.pixel(x: 2, y: 4).r, 250)
        XCTAssertGreaterThan(sorted.pixel(x: 93, y: 4).b, 250)
    }

    func testMismatchedLocationsDrawNothing() {
        let root = canvas(20, 20, .white)
        root.addSublayer(gradient(root.bounds, [.black, .black], start: .zero, end: CGPoint(x: 1, y: 1), locations: [0, 0.5, 1]))
        let img = render(root, width: 20, height: 20)
        XCTAssertTrue(img.pixel(x: 10, y: 10) == (255, 255, 255, 255))
    }

    func testSeedsGradients() {
        let root = canvas(320, 420, .white)
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let yellow = CGColor(red: 1, green: 1, blue: 0, alpha: 1), green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        root.addSublayer(gradient(CGRect(x: 0, y: 0, width: 320, height: 200), [red, blue],
                                  start: .zero, end: CGPoint(x: 1, y: 1)))
        root.addSublayer(gradient(CGRect(x: 0, y: 220, width: 320, height: 200), [red, yellow, blue, green],
                                  start: .zero, end: CGPoint(x: 1, y: 1), locations: [0, 0.25, 0.5, 0.75]))
        let img = render(root, width: 320, height: 420)
        // The top-left corner is the first colour, the bottom-right the last (extended past 0.75).
        // (Within one level: the pixel centre is half a pixel into the ramp, plus the dither.)
        let tl = img.pixel(x: 0, y: 0), br = img.pixel(x: 319, y: 419)
        XCTAssertEqual(Int(tl.r), 255, accuracy: 1); XCTAssertEqual(Int(tl.g), 0, accuracy: 1); XCTAssertEqual(Int(tl.b), 0, accuracy: 1)
        XCTAssertEqual(Int(br.r), 0, accuracy: 1); XCTAssertEqual(Int(br.g), 255, accuracy: 1); XCTAssertEqual(Int(br.b), 0, accuracy: 1)
        assertReferenceImage(img, named: "seeds_gradients", tolerance: 1)
    }

    func testRadialAndConic() {
        let root = canvas(300, 150, .white)
        let colors = [CGColor(red: 1, green: 0.9, blue: 0.2, alpha: 1), CGColor(red: 0.9, green: 0.2, blue: 0.4, alpha: 1),
                      CGColor(red: 0.2, green: 0.2, blue: 0.6, alpha: 1)]
        root.addSublayer(gradient(CGRect(x: 10, y: 10, width: 130, height: 130), colors,
                                  start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 1, y: 1), type: .radial))
        let conic = gradient(CGRect(x: 160, y: 10, width: 130, height: 130), colors + [colors[0]],
                             start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 1, y: 0.5), type: .conic)
        conic.cornerRadius = 65
        conic.masksToBounds = true
        root.addSublayer(conic)
        let img = render(root, width: 300, height: 150)
        // Radial: the pixel centre (75.5, 75.5) is at t = √2·0.5/65 ≈ 0.011, 2.2 % of the way from
        // the first stop to the second: g = 229.5 − 0.022·(229.5 − 51) ≈ 225.6.
        let c = img.pixel(x: 75, y: 75)
        XCTAssertEqual(Int(c.r), 255, accuracy: 1); XCTAssertEqual(Int(c.g), 226, accuracy: 1)
        // Conic: just below the +x axis (clockwise on screen) the ramp starts at colour 0.
        let k = img.pixel(x: 280, y: 76)
        XCTAssertEqual(Int(k.r), 255, accuracy: 3); XCTAssertEqual(Int(k.g), 230, accuracy: 6)
        assertReferenceImage(img, named: "radial_conic", tolerance: 1)
    }

    /// The value (0…255) of a black → white two-point conical gradient centred at `c` with radius
    /// `r` and focus `f` at point `p`, found by bisection on |p − (f + t·(c − f))| = t·r (the
    /// circles grow from the focus to the whole circle; the renderer solves it in closed form).
    private func conical(_ p: CGPoint, centre c: CGPoint, radius r: Double, focus f: CGPoint) -> Double {
        func gap(_ t: Double) -> Double {
            hypot(p.x - (f.x + t * (c.x - f.x)), p.y - (f.y + t * (c.y - f.y))) - t * r
        }
        var lo = 0.0, hi = 4.0
        for _ in 0..<60 { let mid = (lo + hi) / 2; if gap(mid) > 0 { lo = mid } else { hi = mid } }
        return 255 * min(lo, 1)
    }

    /// A radial gradient with a focal point (CAGradientLayer's package-level `focalPoint`, which
    /// Lottie's highlight sets): black at the focus, white on the circle, every kernel
    /// instantiation and the Swift pixel path agreeing (`render`). Centre (50.5, 50.5), radius 40,
    /// focus (70.5, 50.5): along the axis t = (x − 70.5) / 20 to the right of the focus and
    /// (70.5 − x) / 60 to its left; off the axis from the circles' definition.
    func testRadialFocalPoint() {
        let root = canvas(100, 100, .black)
        let g = gradient(root.bounds, [.black, .white], start: CGPoint(x: 0.505, y: 0.505), end: CGPoint(x: 0.905, y: 0.905), type: .radial)
        g.focalPoint = CGPoint(x: 0.705, y: 0.505)
        root.addSublayer(g)
        let img = render(root, width: 100, height: 100)
        XCTAssertEqual(img.pixel(x: 70, y: 50).r, 0, "the focus is the first stop")
        let axis: [(Int, Double)] = [(79, 9 / 20), (85, 15 / 20), (50, 20 / 60), (30, 40 / 60), (69, 1 / 60)]
        for (x, t) in axis {
            XCTAssertEqual(Double(img.pixel(x: x, y: 50).r), 255 * t, accuracy: 1, "on the axis at x \(x)")
        }
        for (x, y) in [(60, 20), (80, 70), (40, 75), (20, 40)] {
            let want = conical(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5), centre: CGPoint(x: 50.5, y: 50.5), radius: 40,
                               focus: CGPoint(x: 70.5, y: 50.5))
            XCTAssertEqual(Double(img.pixel(x: x, y: y).r), want, accuracy: 1, "off the axis at (\(x), \(y))")
        }
        XCTAssertEqual(img.pixel(x: 95, y: 95).r, 255, "outside the circle: the last stop")
        // A focus outside the circle is drawn 0.99 of the radius from the centre, towards it: at
        // the centre, left of that focus, t = (0.99 − 0) / (1 + 0.99).
        g.focalPoint = CGPoint(x: 1.5, y: 0.505)
        let clamped = render(root, width: 100, height: 100)
        XCTAssertEqual(Double(clamped.pixel(x: 50, y: 50).r), 255 * 0.99 / 1.99, accuracy: 1)
    }

    /// `focalPoint` animates as a point: half-way from (70.5, 50.5) to (30.5, 50.5) the focus is
    /// the centre, the plain radial gradient (t = |p − c| / r).
    func testAnimatedFocalPoint() {
        let root = canvas(100, 100, .black)
        let g = gradient(root.bounds, [.black, .white], start: CGPoint(x: 0.505, y: 0.505), end: CGPoint(x: 0.905, y: 0.905), type: .radial)
        g.focalPoint = CGPoint(x: 0.705, y: 0.505)
        let a = CABasicAnimation(keyPath: "focalPoint")
        a.fromValue = CGPoint(x: 0.705, y: 0.505)
        a.toValue = CGPoint(x: 0.305, y: 0.505)
        a.duration = 2
        a.fillMode = .both
        a.isRemovedOnCompletion = false
        g.add(a, forKey: "focus")
        root.addSublayer(g)
        let middle = render(root, width: 100, height: 100, time: 1)
        XCTAssertEqual(Double(middle.pixel(x: 70, y: 50).r), 255 * 20 / 40, accuracy: 1)
        XCTAssertEqual(Double(middle.pixel(x: 30, y: 50).r), 255 * 20 / 40, accuracy: 1)
        let end = render(root, width: 100, height: 100, time: 2)
        XCTAssertEqual(end.pixel(x: 30, y: 50).r, 0, "the focus at the end")
        XCTAssertEqual(Double(end.pixel(x: 50, y: 50).r), 255 * 20 / 60, accuracy: 1)
    }
}
