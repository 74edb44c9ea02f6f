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
}
