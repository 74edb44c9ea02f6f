// Reference images and exact pixel checks for the tile compositor: layer geometry, anchor points,
// corner radius + border + masksToBounds, group opacity, zPosition order, perspective, the cube,
// image contents. Tolerance for reference images: 2 levels per channel, no pixel over it (the
// renderer is deterministic; the slack absorbs libm differences between machines).
import XCTest
import StrataCore
@testable import StrataRender
import StrataTestSupport
import CStrataKernels

func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor { CGColor(red: r, green: g, blue: b, alpha: a) }

/// Renders `root` with the widest kernels the CPU runs, and checks that the scalar path, every other
/// instantiation the CPU runs and their general code (RenderOptions.usesSpecialisedKernels) give the
/// same bytes, and that the Swift pixel path without the C span kernels (RenderOptions.usesSpanKernels)
/// gives the same image within `swiftPathTolerance` (so every reference image is checked on each).
func render(_ root: CALayer, width: Int, height: Int, workers: Int = 2, tileSize: Int = 64, time: Double = 0,
            file: StaticString = #filePath, line: UInt = #line) -> Bitmap {
    let snap = PresentationBuilder(time: time).snapshotTree(of: root)
    let frame = FrameRenderer(width: width, height: height, options: RenderOptions(workers: workers, tileSize: tileSize).verifyingTiles).render(snap)
    // The other renders: each other instantiation, and the best one with its general code.
    var others: [(String, RenderOptions)] = []
    for kernels in kernelInstantiations() where kernels != strata_best_lanes() {
        var options = RenderOptions(workers: workers, tileSize: tileSize).verifyingTiles
        options.kernels = kernels
        others.append(("kernels \(kernels.rawValue)", options))
    }
    var general = RenderOptions(workers: workers, tileSize: tileSize).verifyingTiles
    general.usesSpecialisedKernels = false
    others.append(("the kernels' general code", general))
    for (what, options) in others {
        let other = FrameRenderer(width: width, height: height, options: options).render(snap)
        if frame.pixels != other.pixels {
            let differing = zip(frame.pixels, other.pixels).filter { $0 != $1 }.count
            XCTFail("\(what) gives other bytes than kernels \(strata_best_lanes().rawValue) with their specialised code "
                    + "(\(differing) bytes)", file: file, line: line)
        }
    }
    // The Swift pixel path (PixelShaders.swift) without the C span kernels: the same operations in
    // other arithmetic (Double coverage and bilinear weights where the kernels use Float), so the
    // same image within a tolerance, not the same bytes (measured over StrataRenderTests' 98
    // renders: 75 identical, the rest at most 1 level off in up to 1 % of the bytes).
    var swiftPath = RenderOptions(workers: workers, tileSize: tileSize).verifyingTiles
    swiftPath.usesSpanKernels = false
    let swift = FrameRenderer(width: width, height: height, options: swiftPath).render(snap)
    let worst = zip(frame.pixels, swift.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    let over = zip(frame.pixels, swift.pixels).filter { abs(Int($0) - Int($1)) > swiftPathTolerance }.count
    XCTAssertEqual(over, 0, "the Swift pixel path differs from the span kernels by up to \(worst) levels", file: file, line: line)
    return frame
}

/// The largest difference a channel may have between the span kernels and the Swift pixel path.
let swiftPathTolerance = 1

func canvas(_ w: CGFloat, _ h: CGFloat, _ bg: CGColor = .white) -> CALayer {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: w, height: h)
    root.backgroundColor = bg
    return root
}

func box(_ frame: CGRect, _ c: CGColor) -> CALayer {
    let l = CALayer()
    l.frame = frame
    l.backgroundColor = c
    return l
}

enum Scenes {
    /// Shapes and text drawn straight into the tiles (coverage cells, glyph masks) over
    /// gradients, rotated, clipped and in a group.
    static func vectorAndText() -> CALayer {
        let root = canvas(260, 180, color(0.97, 0.97, 0.95))
        let wave = CAShapeLayer()
        wave.frame = root.bounds
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 8, y: 160))
        p.addCurve(to: CGPoint(x: 250, y: 30), control1: CGPoint(x: 60, y: -30), control2: CGPoint(x: 170, y: 250))
        wave.path = p
        wave.fillColor = color(0.2, 0.7, 0.5, 0.4)
        wave.strokeColor = color(0.1, 0.1, 0.3)
        wave.lineWidth = 5
        wave.lineCap = .round
        wave.lineDashPattern = [18, 7]
        root.addSublayer(wave)
        let card = CAGradientLayer()
        card.frame = CGRect(x: 120, y: 60, width: 110, height: 80)
        card.colors = [color(1, 0.6, 0.1, 0.8), color(0.5, 0.1, 0.8, 0.8)]
        card.cornerRadius = 14; card.masksToBounds = true
        card.transform = CATransform3DMakeRotation(-0.35, 0, 0, 1)
        let star = CAShapeLayer()
        star.frame = card.bounds
        star.path = ShapeScenes.star(center: CGPoint(x: 55, y: 40), radius: 45)
        star.fillRule = .evenOdd
        star.fillColor = color(1, 1, 1, 0.7)
        card.addSublayer(star)
        root.addSublayer(card)
        let label = CATextLayer()
        label.frame = CGRect(x: 10.3, y: 8.6, width: 220, height: 30)
        label.string = "Tiles agree, glyphs too"
        label.fontSize = 19
        label.foregroundColor = color(0.1, 0.1, 0.1)
        root.addSublayer(label)
        let group = CALayer()
        group.frame = CGRect(x: 20, y: 110, width: 100, height: 60)
        group.opacity = 0.6
        let small = CATextLayer()
        small.frame = group.bounds
        small.string = "grouped"
        small.fontSize = 22
        small.foregroundColor = color(0.8, 0.1, 0.1)
        group.addSublayer(small)
        let ring = CAShapeLayer()
        ring.path = CGPath(ellipseIn: CGRect(x: 60, y: 5, width: 40, height: 40), transform: nil)
        ring.fillColor = nil; ring.strokeColor = color(0, 0.3, 0.9); ring.lineWidth = 3
        group.addSublayer(ring)
        root.addSublayer(group)
        return root
    }

    /// The seeds' cube: six faces in a container whose sublayerTransform has perspective and two rotations.
    static func cube() -> CALayer {
        let root = canvas(300, 300, color(0.9, 0.9, 0.92))
        let container = CALayer()
        container.frame = root.bounds
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500.0
        p = CATransform3DRotate(p, -.pi / 4, 1, 0, 0)
        p = CATransform3DRotate(p, -.pi / 4, 0, 1, 0)
        container.sublayerTransform = p
        root.addSublayer(container)
        let ts: [CATransform3D] = [
            CATransform3DMakeTranslation(0, 0, 50),
            CATransform3DRotate(CATransform3DMakeTranslation(50, 0, 0), .pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, -50, 0), .pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 50, 0), -.pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(-50, 0, 0), -.pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -50), .pi, 0, 1, 0),
        ]
        let colors = [color(0.9, 0.2, 0.2), color(0.2, 0.7, 0.3), color(0.2, 0.4, 0.9),
                      color(0.95, 0.8, 0.2), color(0.6, 0.3, 0.8), color(0.2, 0.8, 0.8)]
        for (i, t) in ts.enumerated() {
            let face = CALayer()
            face.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            face.position = CGPoint(x: 150, y: 150)
            face.backgroundColor = colors[i]
            face.borderWidth = 3
            face.borderColor = .white
            face.isDoubleSided = false
            face.transform = t
            container.addSublayer(face)
        }
        return root
    }
}

final class CompositorTests: XCTestCase {
    func testIntegerAlignedRectIsExact() {
        let root = canvas(20, 20)
        root.addSublayer(box(CGRect(x: 5, y: 5, width: 10, height: 10), color(1, 0, 0)))
        let img = render(root, width: 20, height: 20)
        XCTAssertTrue(img.pixel(x: 5, y: 5) == (255, 0, 0, 255))
        XCTAssertTrue(img.pixel(x: 14, y: 14) == (255, 0, 0, 255))
        XCTAssertTrue(img.pixel(x: 4, y: 10) == (255, 255, 255, 255))
        XCTAssertTrue(img.pixel(x: 15, y: 10) == (255, 255, 255, 255))
    }

    func testHalfPixelEdgeIsHalfCovered() {
        // A black rect whose left edge is at x = 5.5 covers half of pixel column 5.
        let root = canvas(20, 20)
        root.addSublayer(box(CGRect(x: 5.5, y: 0, width: 10, height: 20), .black))
        let img = render(root, width: 20, height: 20)
        // 1 − 0.5 coverage of white: 127.5 → rounds to 128.
        XCTAssertEqual(img.pixel(x: 5, y: 10).r, 128)
        XCTAssertEqual(img.pixel(x: 6, y: 10).r, 0)
        XCTAssertEqual(img.pixel(x: 15, y: 10).r, 128)
    }

    func testInheritedOpacityMultiplies() {
        // Opacity 0.5 on a parent without group (allowsGroupOpacity false), 0.5 on the child:
        // red at 25 % over white = (255, 191.25, 191.25).
        let root = canvas(10, 10)
        let parent = CALayer()
        parent.frame = root.bounds
        parent.opacity = 0.5
        parent.allowsGroupOpacity = false
        let child = box(parent.bounds, color(1, 0, 0))
        child.opacity = 0.5
        parent.addSublayer(child)
        root.addSublayer(parent)
        let p = render(root, width: 10, height: 10).pixel(x: 5, y: 5)
        XCTAssertEqual(p.r, 255)
        XCTAssertEqual(p.g, 191)
        XCTAssertEqual(p.b, 191)
    }

    func testLayers() {
        let root = canvas(200, 120)
        root.addSublayer(box(CGRect(x: 10, y: 10, width: 80, height: 50), color(0.9, 0.3, 0.2)))
        let rotated = box(CGRect(x: 110, y: 20, width: 60, height: 60), color(0.2, 0.5, 0.9))
        rotated.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 8))
        root.addSublayer(rotated)
        let scaled = box(CGRect(x: 30, y: 80, width: 40, height: 20), color(0.3, 0.8, 0.4))
        scaled.transform = CATransform3DMakeScale(1.5, 0.8, 1)
        root.addSublayer(scaled)
        let shifted = CALayer()
        shifted.frame = CGRect(x: 110, y: 90, width: 80, height: 25)
        shifted.bounds.origin = CGPoint(x: 20, y: 0)  // sublayers move 20 left
        shifted.backgroundColor = color(0.85, 0.85, 0.85)
        shifted.addSublayer(box(CGRect(x: 20, y: 5, width: 15, height: 15), .black))
        root.addSublayer(shifted)
        assertReferenceImage(render(root, width: 200, height: 120), named: "layers")
    }

    func testAnchorPoints() {
        // Clock hands: anchor at the bottom centre, rotated about it.
        let root = canvas(160, 160)
        let face = box(CGRect(x: 20, y: 20, width: 120, height: 120), color(0.95, 0.95, 0.8))
        face.cornerRadius = 60
        root.addSublayer(face)
        for (len, angle, c) in [(50.0, CGFloat.pi / 3, color(0.1, 0.1, 0.1)), (35.0, -CGFloat.pi / 2, color(0.8, 0.1, 0.1))] {
            let hand = CALayer()
            hand.bounds = CGRect(x: 0, y: 0, width: 6, height: len)
            hand.anchorPoint = CGPoint(x: 0.5, y: 1)
            hand.position = CGPoint(x: 80, y: 80)
            hand.backgroundColor = c
            hand.setAffineTransform(CGAffineTransform(rotationAngle: angle))
            root.addSublayer(hand)
        }
        assertReferenceImage(render(root, width: 160, height: 160), named: "anchor_points")
    }

    func testFrameFollowsAnchorPoint() {
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        XCTAssertEqual(l.position, CGPoint(x: 60, y: 45))
        l.anchorPoint = CGPoint(x: 0, y: 0)
        XCTAssertEqual(l.frame, CGRect(x: 60, y: 45, width: 100, height: 50))
        l.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        let f = l.frame
        XCTAssertEqual(f.minX, 10, accuracy: 1e-9)
        XCTAssertEqual(f.minY, 45, accuracy: 1e-9)
        XCTAssertEqual(f.width, 50, accuracy: 1e-9)
        XCTAssertEqual(f.height, 100, accuracy: 1e-9)
    }

    func testCornerRadiusBorderMasksToBounds() {
        let root = canvas(200, 140)
        let card = box(CGRect(x: 20, y: 20, width: 160, height: 100), color(0.2, 0.3, 0.5))
        card.cornerRadius = 24
        card.borderWidth = 5
        card.borderColor = color(1, 0.7, 0.1)
        card.masksToBounds = true
        let child = box(CGRect(x: -20, y: 50, width: 120, height: 80), color(0.9, 0.2, 0.4))
        card.addSublayer(child)
        root.addSublayer(card)
        let partial = box(CGRect(x: 150, y: 5, width: 40, height: 40), color(0.1, 0.7, 0.4))
        partial.cornerRadius = 12
        partial.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        root.addSublayer(partial)
        let img = render(root, width: 200, height: 140)
        // The child is clipped: the corner outside the rounded card stays background.
        XCTAssertTrue(img.pixel(x: 21, y: 118) == (255, 255, 255, 255))
        // The border is drawn above the child.
        let b = img.pixel(x: 22, y: 90)
        XCTAssertEqual(b.r, 255); XCTAssertEqual(b.g, 179)
        assertReferenceImage(img, named: "corner_border_masks")
    }

    func testGroupOpacity() {
        let root = canvas(220, 120)
        for (i, group) in [true, false].enumerated() {
            let parent = CALayer()
            parent.frame = CGRect(x: 10 + CGFloat(i) * 110, y: 10, width: 100, height: 100)
            parent.opacity = 0.5
            parent.allowsGroupOpacity = group
            parent.addSublayer(box(CGRect(x: 0, y: 0, width: 70, height: 70), color(0.9, 0.1, 0.1)))
            parent.addSublayer(box(CGRect(x: 30, y: 30, width: 70, height: 70), color(0.1, 0.1, 0.9)))
            root.addSublayer(parent)
        }
        let img = render(root, width: 220, height: 120)
        // Group: the overlap shows only the blue square at 50 % over white: (140, 140, 242) ±1.
        let g = img.pixel(x: 60, y: 60)
        XCTAssertEqual(Int(g.r), 140, accuracy: 1); XCTAssertEqual(Int(g.b), 242, accuracy: 1)
        // No group: blue at 50 % over red at 50 % over white → red shows through.
        let n = img.pixel(x: 170, y: 60)
        XCTAssertLessThan(Int(n.g), Int(g.g) - 30)
        assertReferenceImage(img, named: "group_opacity")
    }

    func testZPositionOrder() {
        let root = canvas(160, 100)
        let a = box(CGRect(x: 20, y: 20, width: 70, height: 60), color(0.9, 0.2, 0.2))
        let b = box(CGRect(x: 50, y: 30, width: 70, height: 60), color(0.2, 0.6, 0.9))
        let c = box(CGRect(x: 80, y: 10, width: 60, height: 60), color(0.2, 0.8, 0.3))
        a.zPosition = 10  // drawn last although added first
        c.zPosition = -5  // drawn first
        [a, b, c].forEach(root.addSublayer)
        let img = render(root, width: 160, height: 100)
        XCTAssertEqual(img.pixel(x: 60, y: 50).r, 230)  // a on top of b
        XCTAssertEqual(img.pixel(x: 100, y: 50).b, 230) // b on top of c
        assertReferenceImage(img, named: "zposition_order")
    }

    func testPerspectiveSingleLayer() {
        // The seeds' example: m34 = −1/500, rotated 45° about y.
        let root = canvas(200, 200)
        let l = box(CGRect(x: 50, y: 50, width: 100, height: 100), color(0.2, 0.7, 0.3))
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        t = CATransform3DRotate(t, .pi / 4, 0, 1, 0)
        l.transform = t
        root.addSublayer(l)
        let img = render(root, width: 200, height: 200)
        // Rotating about y turns the layer narrower (cos 45° ≈ 0.707 of 100 points wide at most).
        var minX = 200, maxX = 0
        for x in 0..<200 where img.pixel(x: x, y: 100).r < 128 { minX = min(minX, x); maxX = max(maxX, x) }
        XCTAssertGreaterThan(maxX - minX, 60); XCTAssertLessThan(maxX - minX, 80)
        // Perspective: the right edge (turned towards the viewer? no: away) is shorter than the left.
        func columnHeight(_ x: Int) -> Int { (0..<200).filter { img.pixel(x: x, y: $0).r < 128 }.count }
        XCTAssertNotEqual(columnHeight(minX + 2), columnHeight(maxX - 2))
        assertReferenceImage(img, named: "perspective_single")
    }

    func testCube() {
        let img = render(Scenes.cube(), width: 300, height: 300)
        assertReferenceImage(img, named: "cube")
    }

    func testRotatedContainerFlattensChildren() {
        let root = canvas(200, 200)
        let container = box(CGRect(x: 40, y: 40, width: 120, height: 120), color(0.85, 0.85, 0.9))
        var p = CATransform3DIdentity
        p.m34 = -1 / 400
        container.sublayerTransform = p
        let child = box(CGRect(x: 20, y: 20, width: 80, height: 80), color(0.9, 0.5, 0.1))
        child.transform = CATransform3DMakeRotation(.pi / 3, 1, 0, 0)
        container.addSublayer(child)
        container.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        root.addSublayer(container)
        assertReferenceImage(render(root, width: 200, height: 200), named: "flattened_container")
    }

    func testImageContentsNearestAndLinear() {
        var checker = Bitmap(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 {
            checker.setPixel(x: x, y: y, (x + y) % 2 == 0 ? (20, 20, 20, 255) : (240, 200, 40, 255))
        } }
        let image = CGImage(bitmap: checker)
        let root = canvas(200, 100)
        for (i, filter) in [CALayerContentsFilter.nearest, .linear].enumerated() {
            let l = CALayer()
            l.frame = CGRect(x: 10 + CGFloat(i) * 100, y: 10, width: 80, height: 80)
            l.contents = image
            l.magnificationFilter = filter
            root.addSublayer(l)
        }
        let img = render(root, width: 200, height: 100)
        // Nearest: pixel (12, 12) is inside texel (0, 0), exactly its colour.
        XCTAssertTrue(img.pixel(x: 12, y: 12) == (20, 20, 20, 255))
        // Linear: at a texel boundary the colour is the average of the neighbours.
        let mid = img.pixel(x: 130, y: 40)
        XCTAssertEqual(Int(mid.r), 130, accuracy: 12)
        assertReferenceImage(img, named: "image_contents")
    }

    func testContentsGravityAndRect() {
        var img4 = Bitmap(width: 6, height: 3)
        for y in 0..<3 { for x in 0..<6 { img4.setPixel(x: x, y: y, (UInt8(x * 40), UInt8(y * 100), 200, 255)) } }
        let image = CGImage(bitmap: img4)
        let root = canvas(240, 80, color(0.3, 0.3, 0.3))
        let gravities: [CALayerContentsGravity] = [.resizeAspect, .resizeAspectFill, .topLeft, .bottomRight]
        for (i, g) in gravities.enumerated() {
            let l = CALayer()
            l.frame = CGRect(x: 5 + CGFloat(i) * 60, y: 10, width: 50, height: 60)
            l.backgroundColor = color(0.9, 0.9, 0.9)
            l.contents = image
            l.contentsGravity = g
            l.contentsScale = 0.5  // 6×3 pixels at 0.5 px/pt = 12×6 points natural size
            l.masksToBounds = true
            l.magnificationFilter = .nearest
            root.addSublayer(l)
        }
        assertReferenceImage(render(root, width: 240, height: 80), named: "contents_gravity")
    }

    /// The display list is built in one array: sublayers whose depths differ are reordered far to
    /// near with each one's whole subtree (its own sublayers, border, shadow, group) moved as a
    /// block, and the parent's items before and after them stay where they were.
    func testSublayersReorderedByDepthKeepTheirItemsTogether() {
        func tinted(_ red: CGFloat, _ frame: CGRect) -> CALayer { box(frame, color(red, 0.5, 0.5)) }
        let root = canvas(200, 200, color(0.01, 0.5, 0.5))
        root.borderWidth = 1; root.borderColor = color(0.02, 0.5, 0.5)
        // Listed near, middle, far: drawn far, middle, near.
        let near = tinted(0.1, CGRect(x: 10, y: 10, width: 80, height: 80))
        near.transform = CATransform3DMakeTranslation(0, 0, 10)
        near.addSublayer(tinted(0.11, CGRect(x: 5, y: 5, width: 20, height: 20)))
        near.borderWidth = 2; near.borderColor = color(0.12, 0.5, 0.5)
        let middle = tinted(0.2, CGRect(x: 60, y: 60, width: 80, height: 80))
        middle.opacity = 0.5  // a group: its items become one
        middle.addSublayer(tinted(0.21, CGRect(x: 5, y: 5, width: 20, height: 20)))
        let far = tinted(0.3, CGRect(x: 100, y: 100, width: 80, height: 80))
        far.transform = CATransform3DMakeTranslation(0, 0, -5)
        far.shadowOpacity = 1; far.shadowPath = CGPath(rect: far.bounds, transform: nil)
        [near, middle, far].forEach(root.addSublayer)

        let snap = PresentationBuilder(time: 0).snapshotTree(of: root)
        let list = DisplayListBuilder(width: 200, height: 200).build(snap)
        func describe(_ item: DrawItem) -> String {
            switch item.op {
            case .fill(_, let c): return "fill \(Int((c.x / c.w * 100).rounded()))"
            case .ring(_, _, let c): return "ring \(Int((c.x / c.w * 100).rounded()))"
            case .group(let sub, _, _): return "group[" + sub.items.map(describe).joined(separator: ", ") + "]"
            case .image(let p, _, _) where p.tint != nil: return "shadow"
            default: return "other"
            }
        }
        XCTAssertEqual(list.items.map(describe), ["fill 1", "shadow", "fill 30", "group[fill 20, fill 21]",
                                                  "fill 10", "fill 11", "ring 12", "ring 2"])
    }

    func testDeterministicAcrossWorkersAndTiles() {
        let scenes: [(CALayer, Int, Int)] = [(Scenes.cube(), 300, 300), (Scenes.vectorAndText(), 260, 180)]
        for (root, w, h) in scenes {
            let reference = render(root, width: w, height: h, workers: 1, tileSize: 64)
            for (workers, tile) in [(2, 64), (8, 64), (1, 16), (2, 100), (8, 37)] {
                let other = render(root, width: w, height: h, workers: workers, tileSize: tile)
                XCTAssertEqual(other.pixels, reference.pixels, "workers \(workers), tile \(tile)")
            }
        }
    }
}
