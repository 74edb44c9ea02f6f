// CAShapeLayer: exact pixels where they can be worked out by hand (integer-aligned fills, a
// 2-pt line on a pixel boundary, trims and dashes of straight lines), reference images for the
// seeds' stick figure and rounded-corner mask with a dashed border, caps, joins, fill rules,
// dashes with phase and strokeStart/strokeEnd, plus animation and backing-store caching.
// Reference tolerance: 2 levels per channel, no pixel over it (shapes are scan-converted by Strata's own
// rasteriser, VectorShape and strips.c, whose coverage does not depend on tiles or threads).
import XCTest
import StrataCore
import StrataRender
import StrataTestSupport

/// A shape layer covering `frame` with `path`, stroked or filled as given.
func shape(_ path: CGPath, frame: CGRect = CGRect(x: 0, y: 0, width: 0, height: 0), fill: CGColor? = nil,
           stroke: CGColor? = nil, width: CGFloat = 1) -> CAShapeLayer {
    let s = CAShapeLayer()
    s.frame = frame
    s.path = path
    s.fillColor = fill
    s.strokeColor = stroke
    s.lineWidth = width
    return s
}

func line(_ a: CGPoint, _ b: CGPoint) -> CGPath {
    let p = CGMutablePath()
    p.move(to: a)
    p.addLine(to: b)
    return p
}

/// Whether a pixel is (within 1 level) the given opaque colour.
func isColor(_ img: Bitmap, _ x: Int, _ y: Int, _ c: (Int, Int, Int)) -> Bool {
    let p = img.pixel(x: x, y: y)
    return abs(Int(p.r) - c.0) <= 1 && abs(Int(p.g) - c.1) <= 1 && abs(Int(p.b) - c.2) <= 1 && p.a == 255
}

enum ShapeScenes {
    /// The seeds' stick figure (CAShapeLayer use case 1): red, width 5, round caps and joins.
    static func stickFigure() -> CALayer {
        let root = canvas(300, 260)
        let path = UIBezierPath()
        path.move(to: CGPoint(x: 175, y: 100))
        path.addArc(withCenter: CGPoint(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        path.move(to: CGPoint(x: 150, y: 125))
        path.addLine(to: CGPoint(x: 150, y: 175))
        path.addLine(to: CGPoint(x: 125, y: 225))
        path.move(to: CGPoint(x: 150, y: 175))
        path.addLine(to: CGPoint(x: 175, y: 225))
        path.move(to: CGPoint(x: 100, y: 150))
        path.addLine(to: CGPoint(x: 200, y: 150))
        let layer = CAShapeLayer()
        layer.strokeColor = color(1, 0, 0)
        layer.fillColor = CGColor.clear
        layer.lineWidth = 5
        layer.lineJoin = .round
        layer.lineCap = .round
        layer.path = path.cgPath
        root.addSublayer(layer)
        return root
    }

    /// A five-pointed star drawn as one self-intersecting polygon (a pentagram).
    static func star(center c: CGPoint, radius r: CGFloat) -> CGPath {
        let p = CGMutablePath()
        for i in 0..<5 {
            let a = -CGFloat.pi / 2 + CGFloat(i) * 4 * .pi / 5
            let q = CGPoint(x: c.x + r * cos(a), y: c.y + r * sin(a))
            if i == 0 { p.move(to: q) } else { p.addLine(to: q) }
        }
        p.closeSubpath()
        return p
    }
}

final class ShapeLayerTests: XCTestCase {
    // MARK: Exact pixels

    func testFilledIntegerSquareIsExact() {
        let root = canvas(20, 20)
        root.addSublayer(shape(CGPath(rect: CGRect(x: 5, y: 5, width: 10, height: 10)), frame: root.bounds, fill: color(1, 0, 0)))
        let img = render(root, width: 20, height: 20)
        for y in 0..<20 { for x in 0..<20 {
            let inside = (5..<15).contains(x) && (5..<15).contains(y)
            let p = img.pixel(x: x, y: y)
            if inside {
                XCTAssertTrue(p == (255, 0, 0, 255), "inside (\(x), \(y)) is \(p)")
            } else {
                XCTAssertTrue(p == (255, 255, 255, 255), "outside (\(x), \(y)) is \(p)")
            }
        } }
    }

    func testDefaultFillIsOpaqueBlackAndNoStroke() {
        let s = CAShapeLayer()
        XCTAssertEqual(s.fillColor, .black)
        XCTAssertNil(s.strokeColor)
        XCTAssertEqual(s.lineWidth, 1)
        XCTAssertEqual(s.miterLimit, 10)
        XCTAssertEqual(s.lineCap, .butt)
        XCTAssertEqual(s.lineJoin, .miter)
        XCTAssertEqual(s.fillRule, .nonZero)
        XCTAssertEqual(s.strokeStart, 0)
        XCTAssertEqual(s.strokeEnd, 1)
        let root = canvas(10, 10)
        let tri = CGMutablePath()
        tri.addRect(CGRect(x: 2, y: 2, width: 6, height: 6))
        s.path = tri
        root.addSublayer(s)
        XCTAssertTrue(render(root, width: 10, height: 10).pixel(x: 5, y: 5) == (0, 0, 0, 255))
    }

    func testTwoPointLineCoversTwoRows() {
        // A horizontal line of width 2 at y = 10 covers y 9…11: pixel rows 9 and 10 exactly.
        let root = canvas(20, 20)
        root.addSublayer(shape(line(CGPoint(x: 2, y: 10), CGPoint(x: 18, y: 10)), stroke: .black, width: 2))
        let img = render(root, width: 20, height: 20)
        for x in 2..<18 {
            XCTAssertTrue(img.pixel(x: x, y: 9) == (0, 0, 0, 255), "row 9, x \(x): \(img.pixel(x: x, y: 9))")
            XCTAssertTrue(img.pixel(x: x, y: 10) == (0, 0, 0, 255), "row 10, x \(x)")
            XCTAssertTrue(img.pixel(x: x, y: 8) == (255, 255, 255, 255), "row 8, x \(x)")
            XCTAssertTrue(img.pixel(x: x, y: 11) == (255, 255, 255, 255), "row 11, x \(x)")
        }
        // Butt caps: nothing left of x = 2 or right of x = 18.
        XCTAssertTrue(img.pixel(x: 1, y: 9) == (255, 255, 255, 255))
        XCTAssertTrue(img.pixel(x: 18, y: 10) == (255, 255, 255, 255))
    }

    func testSquareCapExtendsHalfTheWidth() {
        let root = canvas(20, 20)
        let s = shape(line(CGPoint(x: 4, y: 10), CGPoint(x: 16, y: 10)), stroke: .black, width: 4)
        s.lineCap = .square
        root.addSublayer(s)
        let img = render(root, width: 20, height: 20)
        XCTAssertTrue(img.pixel(x: 2, y: 9) == (0, 0, 0, 255))     // 4 − 2 = 2
        XCTAssertTrue(img.pixel(x: 17, y: 11) == (0, 0, 0, 255))   // 16 + 2 = 18
        XCTAssertTrue(img.pixel(x: 1, y: 10) == (255, 255, 255, 255))
        XCTAssertTrue(img.pixel(x: 18, y: 10) == (255, 255, 255, 255))
    }

    func testStrokeEndTrimsByArcLength() {
        // A 100-pt line trimmed to 0.5: x 0…50 painted, 50…100 not.
        let root = canvas(100, 20)
        let s = shape(line(CGPoint(x: 0, y: 10), CGPoint(x: 100, y: 10)), stroke: .black, width: 4)
        s.strokeEnd = 0.5
        root.addSublayer(s)
        let img = render(root, width: 100, height: 20)
        XCTAssertTrue(img.pixel(x: 49, y: 10) == (0, 0, 0, 255))
        XCTAssertTrue(img.pixel(x: 50, y: 10) == (255, 255, 255, 255))
        s.strokeStart = 0.25
        let img2 = render(root, width: 100, height: 20)
        XCTAssertTrue(img2.pixel(x: 24, y: 10) == (255, 255, 255, 255))
        XCTAssertTrue(img2.pixel(x: 25, y: 10) == (0, 0, 0, 255))
        XCTAssertTrue(img2.pixel(x: 49, y: 10) == (0, 0, 0, 255))
    }

    func testTrimSpansSubpathsOfTheWholePath() {
        // Two 40-pt lines; strokeEnd 0.75 covers the first wholly and half of the second.
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 5)); p.addLine(to: CGPoint(x: 40, y: 5))
        p.move(to: CGPoint(x: 0, y: 15)); p.addLine(to: CGPoint(x: 40, y: 15))
        let root = canvas(40, 20)
        let s = shape(p, stroke: .black, width: 2)
        s.strokeEnd = 0.75
        root.addSublayer(s)
        let img = render(root, width: 40, height: 20)
        XCTAssertTrue(img.pixel(x: 39, y: 4) == (0, 0, 0, 255))
        XCTAssertTrue(img.pixel(x: 19, y: 14) == (0, 0, 0, 255))
        XCTAssertTrue(img.pixel(x: 20, y: 14) == (255, 255, 255, 255))
        // strokeStart 0.5 starts exactly at the second subpath: the first is not drawn.
        s.strokeStart = 0.5
        let img2 = render(root, width: 40, height: 20)
        XCTAssertTrue(img2.pixel(x: 10, y: 4) == (255, 255, 255, 255))
        XCTAssertTrue(img2.pixel(x: 0, y: 14) == (0, 0, 0, 255))
    }

    func testStrokeEndZeroDrawsNothingEvenWithRoundCaps() {
        let root = ShapeScenes.stickFigure()
        (root.sublayers![0] as! CAShapeLayer).strokeEnd = 0
        let img = render(root, width: 300, height: 260)
        XCTAssertTrue(img.pixels.allSatisfy { $0 == 255 }, "nothing but the white canvas")
        // strokeStart == strokeEnd: nothing either.
        (root.sublayers![0] as! CAShapeLayer).strokeStart = 0.4
        (root.sublayers![0] as! CAShapeLayer).strokeEnd = 0.4
        XCTAssertTrue(render(root, width: 300, height: 260).pixels.allSatisfy { $0 == 255 })
    }

    func testDashPatternAndPhase() {
        // [10, 5] from x = 0, butt caps: dashes at 0…10, 15…25, …; phase 5 shifts them left by 5.
        let root = canvas(60, 20)
        let s = shape(line(CGPoint(x: 0, y: 10), CGPoint(x: 60, y: 10)), stroke: .black, width: 4)
        s.lineDashPattern = [10, 5]
        root.addSublayer(s)
        let img = render(root, width: 60, height: 20)
        for x in [0, 9, 15, 24, 30] { XCTAssertTrue(img.pixel(x: x, y: 10) == (0, 0, 0, 255), "x \(x) painted") }
        for x in [10, 14, 25, 29] { XCTAssertTrue(img.pixel(x: x, y: 10) == (255, 255, 255, 255), "x \(x) gap") }
        s.lineDashPhase = 5
        let img2 = render(root, width: 60, height: 20)
        for x in [0, 4, 10, 19] { XCTAssertTrue(img2.pixel(x: x, y: 10) == (0, 0, 0, 255), "phase 5: x \(x) painted") }
        for x in [5, 9, 20, 24] { XCTAssertTrue(img2.pixel(x: x, y: 10) == (255, 255, 255, 255), "phase 5: x \(x) gap") }
        // Swift arrays of numbers set the same pattern.
        s.setLineDashPattern([10.0, 5.0])
        XCTAssertEqual(s.lineDashLengths, [10, 5])
        s.setLineDashPattern([3, 1])
        XCTAssertEqual(s.lineDashPattern, [3, 1])
    }

    func testDashesStayFixedWhileTrimmed() {
        // Trimming the start does not slide the dashes: the dash at 15…25 is still there.
        let root = canvas(60, 20)
        let s = shape(line(CGPoint(x: 0, y: 10), CGPoint(x: 60, y: 10)), stroke: .black, width: 4)
        s.lineDashPattern = [10, 5]
        s.strokeStart = 0.3   // 18 pt
        root.addSublayer(s)
        let img = render(root, width: 60, height: 20)
        XCTAssertTrue(img.pixel(x: 16, y: 10) == (255, 255, 255, 255))  // trimmed away
        XCTAssertTrue(img.pixel(x: 19, y: 10) == (0, 0, 0, 255))         // rest of the 15…25 dash
        XCTAssertTrue(img.pixel(x: 26, y: 10) == (255, 255, 255, 255))  // gap 25…30
        XCTAssertTrue(img.pixel(x: 31, y: 10) == (0, 0, 0, 255))         // dash 30…40
    }

    func testEvenOddLeavesTheStarCentreEmpty() {
        let root = canvas(100, 50)
        let a = shape(ShapeScenes.star(center: CGPoint(x: 25, y: 26), radius: 22), fill: .black)
        let b = shape(ShapeScenes.star(center: CGPoint(x: 75, y: 26), radius: 22), fill: .black)
        b.fillRule = .evenOdd
        root.addSublayer(a); root.addSublayer(b)
        let img = render(root, width: 100, height: 50)
        XCTAssertTrue(img.pixel(x: 25, y: 26) == (0, 0, 0, 255), "non-zero fills the centre")
        XCTAssertTrue(img.pixel(x: 75, y: 26) == (255, 255, 255, 255), "even-odd leaves it empty")
        // A point in one of the arms is filled under both rules.
        XCTAssertTrue(img.pixel(x: 25, y: 8) == (0, 0, 0, 255))
        XCTAssertTrue(img.pixel(x: 75, y: 8) == (0, 0, 0, 255))
    }

    func testDrawsOutsideItsBoundsUnlessMasked() {
        let root = canvas(40, 40)
        let s = shape(CGPath(rect: CGRect(x: -10, y: -10, width: 20, height: 20)), frame: CGRect(x: 20, y: 20, width: 10, height: 10),
                      fill: color(0, 0, 1))
        root.addSublayer(s)
        XCTAssertTrue(render(root, width: 40, height: 40).pixel(x: 12, y: 12) == (0, 0, 255, 255))
        s.masksToBounds = true
        let img = render(root, width: 40, height: 40)
        XCTAssertTrue(img.pixel(x: 12, y: 12) == (255, 255, 255, 255))
        XCTAssertTrue(img.pixel(x: 22, y: 22) == (0, 0, 255, 255))
    }

    /// A stroke through an ancestor's rounded clip: the clip's coverage applies to every pixel of
    /// the shape's rows (the corner outside the disc stays the background).
    func testStrokesAreClippedByRoundedAncestors() {
        let root = canvas(100, 100)
        let container = CALayer()
        container.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
        container.cornerRadius = 20
        container.masksToBounds = true
        let s = shape(line(CGPoint(x: -20, y: -20), CGPoint(x: 80, y: 80)), stroke: .black, width: 10)
        s.frame = container.bounds
        container.addSublayer(s)
        root.addSublayer(container)
        let img = render(root, width: 100, height: 100)
        XCTAssertTrue(img.pixel(x: 15, y: 15) == (255, 255, 255, 255), "outside the container")
        XCTAssertTrue(img.pixel(x: 23, y: 23) == (255, 255, 255, 255), "inside its bounds, outside the corner's disc")
        XCTAssertTrue(img.pixel(x: 50, y: 50) == (0, 0, 0, 255), "inside")
        XCTAssertTrue(img.pixel(x: 33, y: 33) == (0, 0, 0, 255), "inside the disc")
    }

    func testMiterReachIsInsideTheDrawArea() {
        // A sharp wedge with a long miter: the tip is drawn, not cut off at the backing store.
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 10, y: 10)); p.addLine(to: CGPoint(x: 60, y: 20)); p.addLine(to: CGPoint(x: 10, y: 30))
        let root = canvas(100, 40)
        let s = shape(p, stroke: .black, width: 6)
        root.addSublayer(s)
        // Interior angle 2·atan(10/50) ≈ 22.6°: miter ratio 1/sin(11.3°) ≈ 5.1 ≤ 10, so the tip
        // reaches 3 · 5.1 ≈ 15.3 pt beyond the vertex, to x ≈ 75.3 (over pixel column 68 the
        // wedge is still more than ±1 pt wide, tan 11.3° = 0.2, so pixel (68, 20) is covered).
        let img = render(root, width: 100, height: 40)
        XCTAssertTrue(img.pixel(x: 68, y: 20) == (0, 0, 0, 255))
        XCTAssertTrue(img.pixel(x: 77, y: 20) == (255, 255, 255, 255))
        s.miterLimit = 4   // now bevelled: nothing beyond x ≈ 60 + 3·sin(…)
        let img2 = render(root, width: 100, height: 40)
        XCTAssertTrue(img2.pixel(x: 65, y: 20) == (255, 255, 255, 255))
    }

    // MARK: Reference images

    func testSeedsStickFigure() {
        assertReferenceImage(render(ShapeScenes.stickFigure(), width: 300, height: 260), named: "stick_figure")
    }

    func testCapsAndJoins() {
        let root = canvas(360, 220)
        // Caps: a thick line per cap, with the path drawn thin on top.
        for (i, cap) in [CAShapeLayerLineCap.butt, .round, .square].enumerated() {
            let y = CGFloat(30 + i * 40)
            let l = shape(line(CGPoint(x: 30, y: y), CGPoint(x: 130, y: y)), stroke: color(0.2, 0.4, 0.8), width: 20)
            l.lineCap = cap
            root.addSublayer(l)
            root.addSublayer(shape(line(CGPoint(x: 30, y: y), CGPoint(x: 130, y: y)), stroke: .white, width: 1))
        }
        // Joins: a zigzag per join, with a sharp corner under miter limits 10 and 2.
        for (i, join) in [CAShapeLayerLineJoin.miter, .round, .bevel].enumerated() {
            let x = CGFloat(180 + i * 60)
            let p = CGMutablePath()
            p.move(to: CGPoint(x: x, y: 60)); p.addLine(to: CGPoint(x: x + 20, y: 20)); p.addLine(to: CGPoint(x: x + 40, y: 60))
            let j = shape(p, stroke: color(0.8, 0.3, 0.1), width: 14)
            j.lineJoin = join
            root.addSublayer(j)
            root.addSublayer(shape(p, stroke: .white, width: 1))
        }
        for (i, limit) in [CGFloat(10), 2].enumerated() {
            let x = CGFloat(200 + i * 80)
            let p = CGMutablePath()
            p.move(to: CGPoint(x: x, y: 200)); p.addLine(to: CGPoint(x: x + 20, y: 120)); p.addLine(to: CGPoint(x: x + 40, y: 200))
            let j = shape(p, stroke: color(0.3, 0.6, 0.2), width: 10)
            j.miterLimit = limit
            root.addSublayer(j)
        }
        // A closed square: the closing corner is joined, not capped.
        let sq = shape(CGPath(rect: CGRect(x: 40, y: 150, width: 50, height: 50)), stroke: .black, width: 10)
        root.addSublayer(sq)
        assertReferenceImage(render(root, width: 360, height: 220), named: "caps_joins")
    }

    func testFillRules() {
        let root = canvas(240, 120)
        let a = shape(ShapeScenes.star(center: CGPoint(x: 60, y: 62), radius: 55), fill: color(0.9, 0.6, 0.1), stroke: .black, width: 2)
        let b = shape(ShapeScenes.star(center: CGPoint(x: 180, y: 62), radius: 55), fill: color(0.9, 0.6, 0.1), stroke: .black, width: 2)
        b.fillRule = .evenOdd
        root.addSublayer(a); root.addSublayer(b)
        assertReferenceImage(render(root, width: 240, height: 120), named: "fill_rules")
    }

    /// An explicit animation of `lineDashPattern` moves each length: [10, 10] → [30, 10] over 2 s
    /// is [20, 10] at 1 s (dashes at 0…20, 30…50); patterns of other counts switch half-way
    /// ([10, 10] → [5, 5, 30, 5]: the first until 1 s, the second from then). Setting it animates
    /// nothing implicitly.
    func testAnimatedDashPattern() {
        let root = canvas(60, 20)
        let s = shape(line(CGPoint(x: 0, y: 10), CGPoint(x: 60, y: 10)), stroke: .black, width: 4)
        s.lineDashPattern = [10, 10]
        let a = CABasicAnimation(keyPath: "lineDashPattern")
        a.fromValue = [10, 10] as [NSNumber]
        a.toValue = [30, 10] as [NSNumber]
        a.duration = 2
        a.fillMode = .both
        a.isRemovedOnCompletion = false
        s.add(a, forKey: "dashes")
        root.addSublayer(s)
        let black: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 255), white: (UInt8, UInt8, UInt8, UInt8) = (255, 255, 255, 255)
        let middle = render(root, width: 60, height: 20, time: 1)
        for x in [1, 18, 31, 48] { XCTAssertTrue(middle.pixel(x: x, y: 10) == black, "1 s: x \(x) painted") }
        for x in [21, 28, 51, 58] { XCTAssertTrue(middle.pixel(x: x, y: 10) == white, "1 s: x \(x) gap") }
        let end = render(root, width: 60, height: 20, time: 2)
        for x in [28, 41] { XCTAssertTrue(end.pixel(x: x, y: 10) == black, "2 s: x \(x) painted") }
        XCTAssertTrue(end.pixel(x: 35, y: 10) == white, "2 s: x 35 gap")

        a.toValue = [5, 5, 30, 5] as [NSNumber]
        s.removeAllAnimations()
        s.add(a, forKey: "dashes")
        XCTAssertTrue(render(root, width: 60, height: 20, time: 0.9).pixel(x: 12, y: 10) == white, "before half-way: [10, 10]")
        XCTAssertTrue(render(root, width: 60, height: 20, time: 1.1).pixel(x: 12, y: 10) == black, "after: [5, 5, 30, 5]")
        XCTAssertNil(s.action(forKey: "lineDashPattern"), "no implicit animation")
    }

    func testDashesWithPhase() {
        let root = canvas(260, 200)
        for (i, phase) in [CGFloat(0), 5, 10].enumerated() {
            let y = CGFloat(20 + i * 20)
            let l = shape(line(CGPoint(x: 20, y: y), CGPoint(x: 240, y: y)), stroke: .black, width: 6)
            l.lineDashPattern = [20, 10]
            l.lineDashPhase = phase
            root.addSublayer(l)
        }
        // Round-capped dots along a circle, and an odd-length pattern (repeats alternately).
        let dots = shape(CGPath(ellipseIn: CGRect(x: 20, y: 80, width: 100, height: 100)), stroke: color(0.8, 0.1, 0.4), width: 6)
        dots.lineDashPattern = [0, 12]
        dots.lineCap = .round
        root.addSublayer(dots)
        let odd = shape(CGPath(roundedRect: CGRect(x: 140, y: 80, width: 100, height: 100), cornerWidth: 20, cornerHeight: 20, transform: nil),
                        stroke: color(0.1, 0.4, 0.8), width: 4)
        odd.lineDashPattern = [15, 5, 5]
        odd.lineDashPhase = 3
        root.addSublayer(odd)
        assertReferenceImage(render(root, width: 260, height: 200), named: "dashes")
    }

    func testStrokeStartAndEnd() {
        // The stick figure drawn on at strokeEnd 0.3, 0.7, 1, and a circle trimmed at both ends.
        let root = canvas(560, 280)
        for (i, end) in [CGFloat(0.3), 0.7, 1].enumerated() {
            let figure = ShapeScenes.stickFigure().sublayers![0] as! CAShapeLayer
            figure.removeFromSuperlayer()
            figure.position = CGPoint(x: CGFloat(i) * 140 - 80, y: -70)
            figure.strokeEnd = end
            root.addSublayer(figure)
        }
        let ring = shape(CGPath(ellipseIn: CGRect(x: 440, y: 40, width: 100, height: 100)), stroke: color(0.1, 0.6, 0.3), width: 10)
        ring.lineCap = .round
        ring.strokeStart = 0.2
        ring.strokeEnd = 0.85
        root.addSublayer(ring)
        let dashed = shape(CGPath(ellipseIn: CGRect(x: 440, y: 160, width: 100, height: 100)), stroke: color(0.1, 0.3, 0.8, 0.6), width: 10)
        dashed.lineDashPattern = [20, 8]
        dashed.strokeStart = 0.1
        dashed.strokeEnd = 0.6
        root.addSublayer(dashed)
        assertReferenceImage(render(root, width: 560, height: 280), named: "stroke_start_end")
    }

    func testSeedsRoundedCornerMaskWithDashedBorder() {
        // The seeds' use case 2: a light grey view masked by a rounded rect (top-left and
        // bottom-right corners, radii 20×10) with a blue dashed border of width 10.
        let root = canvas(240, 160)
        let container = CALayer()
        container.frame = CGRect(x: 20, y: 20, width: 200, height: 120)
        container.backgroundColor = color(0.667, 0.667, 0.667)
        root.addSublayer(container)
        let path = UIBezierPath(roundedRect: container.bounds, byRoundingCorners: [.topLeft, .bottomRight],
                                cornerRadii: CGSize(width: 20, height: 10))
        let corner = CAShapeLayer()
        corner.path = path.cgPath
        container.mask = corner
        let border = CAShapeLayer()
        border.path = path.cgPath
        border.lineWidth = 10
        border.strokeColor = color(0, 0, 1)
        border.fillColor = CGColor.clear
        border.lineDashPattern = [10, 2]
        container.addSublayer(border)
        let img = render(root, width: 240, height: 160)
        // The masked-off top-left corner shows the white canvas.
        XCTAssertTrue(img.pixel(x: 21, y: 21) == (255, 255, 255, 255))
        assertReferenceImage(img, named: "rounded_mask_dashed_border")
    }

    // MARK: Scale, animation, caching

    func testZoomedShapeIsRasterisedAtTheOnScreenScale() {
        // A 10-pt circle scaled 8× must match a circle of radius 80 drawn directly (within
        // antialiasing noise), not a blurry upscaled 20-pixel bitmap.
        let small = canvas(200, 200)
        let s = shape(CGPath(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20)), frame: CGRect(x: 100, y: 100, width: 0, height: 0),
                      fill: color(0.8, 0.1, 0.1), stroke: .black, width: 1)
        s.transform = CATransform3DMakeScale(8, 8, 1)
        small.addSublayer(s)
        let big = canvas(200, 200)
        big.addSublayer(shape(CGPath(ellipseIn: CGRect(x: 20, y: 20, width: 160, height: 160)), fill: color(0.8, 0.1, 0.1), stroke: .black, width: 8))
        let a = render(small, width: 200, height: 200), b = render(big, width: 200, height: 200)
        let cmp = ImageComparison(actual: a, expected: b, tolerance: 24)!
        XCTAssertLessThanOrEqual(cmp.pixelsOverTolerance, 10, "zoomed shape differs from the directly drawn one: \(cmp.json)")
        XCTAssertGreaterThan(cmp.psnr, 35)
    }

    func testStrokeEndAnimatesAndPathMorphs() {
        let root = canvas(100, 20)
        let s = shape(line(CGPoint(x: 0, y: 10), CGPoint(x: 100, y: 10)), stroke: .black, width: 4)
        let a = CABasicAnimation(keyPath: "strokeEnd")
        a.fromValue = 0
        a.toValue = 1
        a.duration = 1
        s.add(a, forKey: "draw")
        root.addSublayer(s)
        let img = render(root, width: 100, height: 20, time: 0.25)
        XCTAssertTrue(img.pixel(x: 24, y: 10) == (0, 0, 0, 255))
        XCTAssertTrue(img.pixel(x: 25, y: 10) == (255, 255, 255, 255))

        // Path morph: a line moving from y = 5 to y = 15 is at y = 10 half way.
        let root2 = canvas(100, 20)
        let m = shape(line(CGPoint(x: 0, y: 5), CGPoint(x: 100, y: 5)), stroke: .black, width: 2)
        let morph = CABasicAnimation(keyPath: "path")
        morph.toValue = line(CGPoint(x: 0, y: 15), CGPoint(x: 100, y: 15))
        morph.duration = 1
        m.add(morph, forKey: "morph")
        root2.addSublayer(m)
        let mid = render(root2, width: 100, height: 20, time: 0.5)
        XCTAssertTrue(mid.pixel(x: 50, y: 9) == (0, 0, 0, 255))
        XCTAssertTrue(mid.pixel(x: 50, y: 4) == (255, 255, 255, 255))
        XCTAssertTrue(mid.pixel(x: 50, y: 15) == (255, 255, 255, 255))
    }

    func testShapeKeysAreAnimatableAndImplicit() {
        for key in ["path", "fillColor", "strokeColor", "lineWidth", "lineDashPhase", "strokeStart", "strokeEnd", "miterLimit"] {
            XCTAssertTrue(CAShapeLayer.implicitlyAnimates(key: key), key)
            XCTAssertNotNil(CAShapeLayer().animatableKind(forKeyPath: key), key)
        }
        XCTAssertFalse(CAShapeLayer.implicitlyAnimates(key: "lineCap"))
        // KVC with numbers of any kind.
        let s = CAShapeLayer()
        s.setValue(0.5, forKey: "strokeEnd")
        XCTAssertEqual(s.strokeEnd, 0.5)
        XCTAssertEqual(s.value(forKey: "lineWidth") as? CGFloat, 1)
        // A mutable path is copied on assignment.
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0, y: 0, width: 5, height: 5))
        s.path = p
        p.addRect(CGRect(x: 10, y: 10, width: 5, height: 5))
        XCTAssertEqual(s.path?.elements.count, 5)
        // Presentation copies keep the shape properties.
        s.lineCap = .round
        s.lineDashPattern = [4, 2]
        let copy = CAShapeLayer(layer: s)
        XCTAssertEqual(copy.lineCap, .round)
        XCTAssertEqual(copy.lineDashPattern, [4, 2])
        XCTAssertEqual(copy.path, s.path)
        XCTAssertEqual(copy.strokeEnd, 0.5)
    }

    func testChangesInsideASceneBlockAnimateImplicitly() {
        // As on iOS: setting strokeEnd in a run-loop turn (here: scene code at t = 1) adds a
        // 0.25 s animation from the value on screen; while building, changes never animate.
        let root = canvas(100, 20)
        let s = shape(line(CGPoint(x: 0, y: 10), CGPoint(x: 100, y: 10)), stroke: .black, width: 4)
        s.strokeEnd = 0
        root.addSublayer(s)
        XCTAssertNil(s.animation(forKey: "strokeEnd"))
        SceneClock.run(in: SceneContext(time: 1, schedule: { _, _ in })) {
            s.strokeEnd = 1
            s.strokeColor = color(1, 0, 0)
        }
        XCTAssertNotNil(s.animation(forKey: "strokeEnd"))
        XCTAssertNotNil(s.animation(forKey: "strokeColor"))
        let mid = PresentationBuilder(time: 1.125).snapshotTree(of: root)
        guard case .shape(let shapeMid) = mid.sublayers[0].content else { return XCTFail("no shape content") }
        XCTAssertGreaterThan(shapeMid.strokeEnd, 0.2)
        XCTAssertLessThan(shapeMid.strokeEnd, 0.95)
        let end = render(root, width: 100, height: 20, time: 2)
        XCTAssertTrue(end.pixel(x: 99, y: 10) == (255, 0, 0, 255))
    }

    /// Shapes are drawn straight into the tiles (no backing store); a frame whose shape did not
    /// change copies every tile from the previous frame.
    func testUnchangedShapeReusesItsTiles() {
        let root = ShapeScenes.stickFigure()
        let history = FrameHistory()
        let renderer = FrameRenderer(width: 300, height: 260, history: history)
        _ = renderer.render(PresentationBuilder(time: 0).snapshotTree(of: root))
        let again = renderer.render(PresentationBuilder(time: 0).snapshotTree(of: root))
        XCTAssertEqual(renderer.cache.statistics.misses, 0, "no backing store")
        let stats = history.tileStatistics
        XCTAssertEqual(stats.reused, stats.tiles / 2, "the second frame copies every tile")
        assertReferenceImage(again, named: "stick_figure")
    }

    /// While a stroke is drawn on (strokeEnd animating), only the tiles it crosses are redrawn;
    /// the still shape's tiles are copied.
    func testAnimatedStrokeEndRedrawsOnlyItsTiles() {
        let root = canvas(200, 100)
        let still = shape(CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 80)), fill: color(0.2, 0.6, 0.9))
        let drawn = shape(line(CGPoint(x: 110, y: 50), CGPoint(x: 190, y: 50)), stroke: .black, width: 6)
        let a = CABasicAnimation(keyPath: "strokeEnd")
        a.fromValue = 0
        a.toValue = 1
        a.duration = 1
        drawn.add(a, forKey: "draw")
        root.addSublayer(still); root.addSublayer(drawn)
        let history = FrameHistory()
        let renderer = FrameRenderer(width: 200, height: 100, history: history)
        var last = history.tileStatistics
        for frame in 1...5 {
            let image = renderer.render(PresentationBuilder(time: Double(frame) / 10).snapshotTree(of: root))
            let now = history.tileStatistics
            let drawnTiles = (now.tiles - last.tiles) - (now.reused - last.reused)
            // 64-pixel tiles: the line (y 47…53, x 110…190) lies in tiles 1 and 2 of the top row.
            if frame > 1 { XCTAssertLessThanOrEqual(drawnTiles, 2, "frame \(frame): only the line's tiles are redrawn") }
            XCTAssertTrue(image.pixel(x: 111, y: 50) == (0, 0, 0, 255), "frame \(frame): the line has started")
            last = now
        }
        XCTAssertEqual(renderer.cache.statistics.misses, 0, "no backing store")
    }

    // MARK: Cross-check export

    /// Renders the scenes of Tests/CrossCheck/crosscheck.py (given as DIR/scenes.json) into
    /// DIR/strata_<name>.png; the script draws the same scenes with Skia and compares. Skipped
    /// unless STRATA_CROSSCHECK_DIR is set.
    func testCrossCheckExport() throws {
        guard let dir = ProcessInfo.processInfo.environment["STRATA_CROSSCHECK_DIR"] else {
            throw XCTSkip("run Tests/CrossCheck/crosscheck.py (it sets STRATA_CROSSCHECK_DIR)")
        }
        let folder = URL(fileURLWithPath: dir)
        let data = try Data(contentsOf: folder.appendingPathComponent("scenes.json"))
        let scenes = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        func num(_ v: Any?) -> CGFloat? { v.flatMap { AnimatableValue.asNumber($0) } }
        func rgba(_ v: Any?) -> CGColor? {
            guard let c = v as? [Any], c.count == 4 else { return nil }
            return color(num(c[0])!, num(c[1])!, num(c[2])!, num(c[3])!)
        }
        for scene in scenes {
            let name = try XCTUnwrap(scene["name"] as? String)
            let w = Int(try XCTUnwrap(num(scene["width"]))), h = Int(try XCTUnwrap(num(scene["height"])))
            let root = canvas(CGFloat(w), CGFloat(h))
            for spec in try XCTUnwrap(scene["shapes"] as? [[String: Any]]) {
                let path = CGMutablePath()
                for cmd in try XCTUnwrap(spec["path"] as? [[Any]]) {
                    let v = cmd.dropFirst().map { num($0)! }
                    switch cmd[0] as? String {
                    case "M": path.move(to: CGPoint(x: v[0], y: v[1]))
                    case "L": path.addLine(to: CGPoint(x: v[0], y: v[1]))
                    case "Q": path.addQuadCurve(to: CGPoint(x: v[2], y: v[3]), control: CGPoint(x: v[0], y: v[1]))
                    case "C": path.addCurve(to: CGPoint(x: v[4], y: v[5]), control1: CGPoint(x: v[0], y: v[1]),
                                            control2: CGPoint(x: v[2], y: v[3]))
                    default: path.closeSubpath()
                    }
                }
                let layer = shape(path, fill: rgba(spec["fill"]), stroke: rgba(spec["stroke"]), width: num(spec["lineWidth"]) ?? 1)
                if let cap = spec["lineCap"] as? String { layer.lineCap = CAShapeLayerLineCap(rawValue: cap) }
                if let join = spec["lineJoin"] as? String { layer.lineJoin = CAShapeLayerLineJoin(rawValue: join) }
                if let limit = num(spec["miterLimit"]) { layer.miterLimit = limit }
                if (spec["fillRule"] as? String) == "evenOdd" { layer.fillRule = .evenOdd }
                if let dash = spec["dash"] as? [Any] { layer.lineDashLengths = dash.map { num($0)! } }
                if let phase = num(spec["phase"]) { layer.lineDashPhase = phase }
                if let start = num(spec["strokeStart"]) { layer.strokeStart = start }
                if let end = num(spec["strokeEnd"]) { layer.strokeEnd = end }
                root.addSublayer(layer)
            }
            try render(root, width: w, height: h).writePNG(to: folder.appendingPathComponent("strata_\(name).png"))
        }
    }
}
