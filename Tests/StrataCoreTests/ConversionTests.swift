// convert(_:from:/to:) for points and rectangles: nesting, bounds.origin, rotation, perspective
// in a sublayerTransform (un-projection), transform layers that do not flatten versus layers
// that do, edge-on planes, separate trees, the scene (nil), and convertTime. Every expected
// value is worked out by hand in the comments from CORE_ANIMATION.md §1.2:
// p_super = (p − anchor) · transform + position, then (q − a_S) · sublayerTransform + a_S,
// z dropped (w kept) at every superlayer except a CATransformLayer.
import Foundation
import XCTest
import StrataCore

private func layer(_ frame: CGRect, in parent: CALayer? = nil) -> CALayer {
    let l = CALayer()
    l.frame = frame
    parent?.addSublayer(l)
    return l
}

private func assertPoint(_ p: CGPoint, _ x: CGFloat, _ y: CGFloat, accuracy: CGFloat = 1e-9,
                         file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(p.x, x, accuracy: accuracy, "x of \(p)", file: file, line: line)
    XCTAssertEqual(p.y, y, accuracy: accuracy, "y of \(p)", file: file, line: line)
}

private func assertRect(_ r: CGRect, _ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat, accuracy: CGFloat = 1e-9,
                        file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(r.minX, x, accuracy: accuracy, "minX of \(r)", file: file, line: line)
    XCTAssertEqual(r.minY, y, accuracy: accuracy, "minY of \(r)", file: file, line: line)
    XCTAssertEqual(r.width, w, accuracy: accuracy, "width of \(r)", file: file, line: line)
    XCTAssertEqual(r.height, h, accuracy: accuracy, "height of \(r)", file: file, line: line)
}

final class ConversionTests: XCTestCase {
    func testNestedFramesAndTheScene() {
        let root = layer(CGRect(x: 0, y: 0, width: 400, height: 300))
        let a = layer(CGRect(x: 50, y: 40, width: 100, height: 80), in: root)
        let b = layer(CGRect(x: 10, y: 10, width: 20, height: 20), in: a)
        // b's (5, 5) is a's (15, 15), the root's (65, 55).
        assertPoint(b.convert(CGPoint(x: 5, y: 5), to: root), 65, 55)
        assertPoint(b.convert(CGPoint(x: 65, y: 55), from: root), 5, 5)
        assertPoint(root.convert(CGPoint(x: 5, y: 5), from: b), 65, 55)
        assertPoint(b.convert(CGPoint(x: 5, y: 5), to: a), 15, 15)
        assertPoint(a.convert(CGPoint(x: 5, y: 5), from: b), 15, 15)
        // nil is the scene: the root's frame is at the scene origin, so the same numbers.
        assertPoint(b.convert(CGPoint(x: 5, y: 5), to: nil), 65, 55)
        assertPoint(b.convert(CGPoint(x: 65, y: 55), from: nil), 5, 5)
        // A layer to itself, and rectangles.
        assertPoint(b.convert(CGPoint(x: 3, y: 4), to: b), 3, 4)
        assertRect(b.convert(b.bounds, to: root), 60, 50, 20, 20)
        assertRect(root.convert(CGRect(x: 60, y: 50, width: 20, height: 20), to: b), 0, 0, 20, 20)
    }

    func testRootPositionedInTheScene() {
        // A root whose frame starts at (30, 20) in the scene.
        let root = layer(CGRect(x: 30, y: 20, width: 100, height: 100))
        let child = layer(CGRect(x: 10, y: 10, width: 10, height: 10), in: root)
        assertPoint(child.convert(.zero, to: nil), 40, 30)
        assertPoint(root.convert(CGPoint(x: 40, y: 30), from: nil), 10, 10)
    }

    func testBoundsOriginShiftsSublayers() {
        let root = layer(CGRect(x: 0, y: 0, width: 400, height: 300))
        let a = layer(CGRect(x: 50, y: 40, width: 100, height: 80), in: root)
        let b = layer(CGRect(x: 10, y: 10, width: 20, height: 20), in: a)
        a.bounds.origin = CGPoint(x: 100, y: 0)
        // b sits at (10, 10) of a's bounds space, whose visible origin is x = 100: 90 points left
        // of a's left edge (50): x = −40; y = 40 + 10 = 50.
        assertPoint(b.convert(.zero, to: root), -40, 50)
        // a's own (100, 0) is its top-left on screen.
        assertPoint(a.convert(CGPoint(x: 100, y: 0), to: root), 50, 40)
        assertPoint(a.convert(CGPoint(x: 50, y: 40), from: root), 100, 0)
    }

    func testRotationAboutTheAnchor() {
        let root = layer(CGRect(x: 0, y: 0, width: 400, height: 300))
        let a = CALayer()
        a.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        a.position = CGPoint(x: 200, y: 150)
        a.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        root.addSublayer(a)
        // (x, y) − (50, 25), turned 90° clockwise on screen: (x, y) ↦ (−y, x), + (200, 150).
        // (0, 0): (−50, −25) ↦ (25, −50) ↦ (225, 100).
        assertPoint(a.convert(.zero, to: root), 225, 100)
        // (100, 0): (50, −25) ↦ (25, 50) ↦ (225, 200).
        assertPoint(a.convert(CGPoint(x: 100, y: 0), to: root), 225, 200)
        assertPoint(a.convert(CGPoint(x: 225, y: 100), from: root), 0, 0)
        // The bounds become a 50 × 100 box centred on the position.
        assertRect(a.convert(a.bounds, to: root), 175, 100, 50, 100)
        // An anchor at the top-left turns the layer about its corner: (x, y) ↦ (−y, x) + position.
        a.anchorPoint = .zero
        assertPoint(a.convert(CGPoint(x: 10, y: 20), to: root), 180, 160)
    }

    func testPerspectiveUnprojects() {
        // Container with the seeds' perspective (m34 = −1/500 about its centre (200, 150)), a
        // 100 × 100 face at the centre turned 60° about y.
        let root = layer(CGRect(x: 0, y: 0, width: 400, height: 300))
        let container = layer(root.bounds, in: root)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        container.sublayerTransform = p
        let face = CALayer()
        face.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        face.position = CGPoint(x: 200, y: 150)
        face.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
        container.addSublayer(face)
        // Face point (100, 0): relative to the anchor (50, −50, 0). Rotating about y by θ maps
        // (x, 0, 0) ↦ (x cos θ, 0, −x sin θ): (25, −50, −25√3). Relative to the container's
        // centre that stays (25, −50, −25√3); w = 1 − z/500 = 1 + 25√3/500.
        let w = 1 + 25 * 3.0.squareRoot() / 500
        let projected = face.convert(CGPoint(x: 100, y: 0), to: container)
        assertPoint(projected, 200 + 25 / w, 150 - 50 / w)
        // Un-projecting the seen point lands back on the face's plane.
        assertPoint(face.convert(projected, from: container), 100, 0)
        assertPoint(face.convert(projected, from: root), 100, 0)
        // The left edge comes towards the viewer: (−50, 0, 0) ↦ (−25, 0, +25√3), w = 1 − 25√3/500.
        let wl = 1 - 25 * 3.0.squareRoot() / 500
        assertPoint(face.convert(CGPoint(x: 0, y: 50), to: root), 200 - 25 / wl, 150)
        // Rectangles are the bounding box of the projected corners: the near (left) edge is
        // taller than the far one.
        let r = face.convert(face.bounds, to: root)
        assertRect(r, 200 - 25 / wl, 150 - 50 / wl, 25 / w + 25 / wl, 100 / wl)
    }

    func testTransformLayerKeepsDepthUntilThePerspective() {
        // container (perspective m34 = −1/500 about (200, 150)) → transform layer → face pushed
        // 100 points towards the viewer.
        let root = layer(CGRect(x: 0, y: 0, width: 400, height: 300))
        let container = layer(root.bounds, in: root)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        container.sublayerTransform = p
        let t = CATransformLayer()
        t.frame = container.bounds
        container.addSublayer(t)
        let near = CALayer()
        near.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        near.position = CGPoint(x: 200, y: 150)
        near.transform = CATransform3DMakeTranslation(0, 0, 100)
        t.addSublayer(near)
        // (0, 0): (−50, −50, 100) relative to the centre; w = 1 − 100/500 = 0.8, so
        // (−62.5, −62.5) + (200, 150) = (137.5, 87.5).
        assertPoint(near.convert(.zero, to: container), 137.5, 87.5)
        assertPoint(near.convert(.zero, to: root), 137.5, 87.5)
        assertPoint(near.convert(CGPoint(x: 137.5, y: 87.5), from: root), 0, 0)
        // A second face at z = 0 in the same context, seen without enlargement: its local (x, y)
        // is seen at (x + 150, y + 100). The line of sight through near's (0, 0) meets it where
        // its image is (137.5, 87.5): its local (−12.5, −12.5).
        let far = CALayer()
        far.bounds = near.bounds
        far.position = near.position
        t.addSublayer(far)
        assertPoint(far.convert(.zero, from: near), -12.5, -12.5)
        assertPoint(near.convert(CGPoint(x: -12.5, y: -12.5), from: far), 0, 0)
        // far's (37.5, 37.5) is seen at (187.5, 137.5); near's x with 200 + (x − 50)/0.8 = 187.5
        // is 40.
        assertPoint(near.convert(CGPoint(x: 37.5, y: 37.5), from: far), 40, 40)

        // The same face under a flattening layer: its z is dropped in that layer's plane, which
        // sits at z = 0, so the perspective does not enlarge it.
        let flat = layer(container.bounds)
        container.addSublayer(flat)
        near.removeFromSuperlayer()
        flat.addSublayer(near)
        assertPoint(near.convert(.zero, to: root), 150, 100)
    }

    func testEdgeOnPlaneGivesNaNAndSeparateTrees() {
        let root = layer(CGRect(x: 0, y: 0, width: 400, height: 300))
        let edge = CALayer()
        edge.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        edge.position = CGPoint(x: 200, y: 150)
        edge.transform = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        root.addSublayer(edge)
        let q = edge.convert(CGPoint(x: 200, y: 150), from: root)
        XCTAssertTrue(q.x.isNaN && q.y.isNaN, "\(q)")
        XCTAssertTrue(edge.convert(CGRect(x: 0, y: 0, width: 10, height: 10), from: root).isNull)

        // Two roots, each placed in the scene by its frame.
        let r1 = layer(CGRect(x: 0, y: 0, width: 100, height: 100))
        let r2 = layer(CGRect(x: 50, y: 50, width: 100, height: 100))
        assertPoint(r2.convert(.zero, from: r1), -50, -50)
        assertPoint(r1.convert(.zero, from: r2), 50, 50)
    }

    func testConvertTime() {
        let root = CALayer()
        let child = CALayer()
        root.addSublayer(child)
        child.beginTime = 1
        child.speed = 2
        // local = (parent − beginTime) · speed + timeOffset
        XCTAssertEqual(child.convertTime(3, from: nil), 4, accuracy: 1e-12)
        XCTAssertEqual(child.convertTime(3, from: root), 4, accuracy: 1e-12)
        XCTAssertEqual(child.convertTime(4, to: root), 3, accuracy: 1e-12)
        child.timeOffset = 0.5
        XCTAssertEqual(child.convertTime(3, from: root), 4.5, accuracy: 1e-12)
    }
}
