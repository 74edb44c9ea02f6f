// hitTest(_:) and contains(_:): deepest layer, front-most sibling by insertion and zPosition,
// hidden layers, masksToBounds, rotation, perspective (edges where only the projected shape has
// them), CATransformLayer depth (including two planes crossing), back faces, overridden
// contains, and presentation layers. Expected layers and points are worked out by hand in the
// comments (CORE_ANIMATION.md §1.2).
import Foundation
import XCTest
import StrataCore

private func named(_ name: String, _ frame: CGRect, in parent: CALayer? = nil) -> CALayer {
    let l = CALayer()
    l.name = name
    l.frame = frame
    parent?.addSublayer(l)
    return l
}

private func hitName(_ root: CALayer, _ x: CGFloat, _ y: CGFloat) -> String? {
    root.hitTest(CGPoint(x: x, y: y))?.name
}

/// A layer that is hit only inside the circle inscribed in its bounds.
private final class RoundLayer: CALayer {
    override func contains(_ p: CGPoint) -> Bool {
        let dx = p.x - bounds.midX, dy = p.y - bounds.midY, r = bounds.width / 2
        return dx * dx + dy * dy <= r * r
    }
}

final class HitTestingTests: XCTestCase {
    func testDeepestLayerAndBoundsContainment() {
        let root = named("root", CGRect(x: 0, y: 0, width: 400, height: 300))
        let a = named("a", CGRect(x: 50, y: 50, width: 200, height: 150), in: root)
        _ = named("b", CGRect(x: 20, y: 20, width: 50, height: 50), in: a)
        XCTAssertEqual(hitName(root, 80, 80), "b")        // a's (30, 30), b's (10, 10)
        XCTAssertEqual(hitName(root, 60, 60), "a")        // a's (10, 10): outside b
        XCTAssertEqual(hitName(root, 10, 10), "root")
        XCTAssertNil(hitName(root, 450, 10))              // outside everything
        // contains is half-open like CGRect: maxX is outside.
        XCTAssertTrue(a.contains(CGPoint(x: 0, y: 0)))
        XCTAssertFalse(a.contains(CGPoint(x: 200, y: 10)))
        // The point is in the superlayer's coordinates: a's hitTest takes root points.
        XCTAssertEqual(a.hitTest(CGPoint(x: 80, y: 80))?.name, "b")
        XCTAssertNil(a.hitTest(CGPoint(x: 10, y: 10)))
    }

    func testSiblingOrderZPositionAndHidden() {
        let root = named("root", CGRect(x: 0, y: 0, width: 400, height: 300))
        let first = named("first", CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        let second = named("second", CGRect(x: 50, y: 50, width: 100, height: 100), in: root)
        XCTAssertEqual(hitName(root, 75, 75), "second")   // later insertion is in front
        first.zPosition = 1
        XCTAssertEqual(hitName(root, 75, 75), "first")    // higher zPosition is in front
        first.zPosition = 0
        second.isHidden = true
        XCTAssertEqual(hitName(root, 75, 75), "first")
        XCTAssertEqual(hitName(root, 120, 120), "root")   // only the hidden layer was there
        // A hidden superlayer hides its subtree.
        second.isHidden = false
        _ = named("child", CGRect(x: 10, y: 10, width: 10, height: 10), in: second)
        XCTAssertEqual(hitName(root, 65, 65), "child")
        second.isHidden = true
        XCTAssertEqual(hitName(root, 65, 65), "first")
    }

    func testMasksToBoundsStopsPointsOutside() {
        let root = named("root", CGRect(x: 0, y: 0, width: 400, height: 300))
        let clip = named("clip", CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        _ = named("overflow", CGRect(x: 50, y: 50, width: 100, height: 100), in: clip)
        XCTAssertEqual(hitName(root, 120, 120), "overflow")  // sublayers may lie outside bounds
        clip.masksToBounds = true
        XCTAssertEqual(hitName(root, 120, 120), "root")
        XCTAssertEqual(hitName(root, 90, 90), "overflow")    // inside both
    }

    func testRotatedLayer() {
        let root = named("root", CGRect(x: 0, y: 0, width: 400, height: 300))
        let diamond = CALayer()
        diamond.name = "diamond"
        diamond.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        diamond.position = CGPoint(x: 200, y: 150)
        diamond.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        root.addSublayer(diamond)
        // Turned 45°, the square is a diamond |dx| + |dy| ≤ 50√2 ≈ 70.7 about (200, 150).
        XCTAssertEqual(hitName(root, 260, 150), "diamond")   // (60, 0): inside; unrotated it would miss
        XCTAssertEqual(hitName(root, 240, 110), "root")      // (40, −40): 80 > 70.7; unrotated it would hit
        // The local point: (60, 0) turned back by 45° is (60 cos 45°, −60 sin 45°) from the centre.
        let local = diamond.convert(CGPoint(x: 260, y: 150), from: root)
        let d = 60 * (0.5).squareRoot()
        XCTAssertEqual(local.x, 50 + d, accuracy: 1e-9)
        XCTAssertEqual(local.y, 50 - d, accuracy: 1e-9)
    }

    func testPerspectiveEdges() {
        // Face 100 × 100 at the centre of a container with m34 = −1/500, turned 60° about y.
        // Right edge (x = 100): (50, 0, 0) ↦ (25, 0, −25√3), seen at 200 + 25 / (1 + 25√3/500)
        // ≈ 223.007. Left edge: (−25, 0, +25√3), seen at 200 − 25 / (1 − 25√3/500) ≈ 172.630.
        // Without perspective both edges would be at 200 ± 25.
        let root = named("root", CGRect(x: 0, y: 0, width: 400, height: 300))
        let container = named("container", root.bounds, in: root)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        container.sublayerTransform = p
        let face = CALayer()
        face.name = "face"
        face.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        face.position = CGPoint(x: 200, y: 150)
        face.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
        container.addSublayer(face)
        XCTAssertEqual(hitName(root, 222.9, 150), "face")
        XCTAssertEqual(hitName(root, 223.1, 150), "container")   // an orthographic view would still hit
        XCTAssertEqual(hitName(root, 172.7, 150), "face")        // an orthographic view would miss
        XCTAssertEqual(hitName(root, 172.5, 150), "container")
        // Top edge near the left side: at screen x = 173 the face's local x is ≈ 0.62, where the top
        // edge is seen at y = 150 − 50 / (1 − 49.38 · sin 60° / 500) ≈ 95.32.
        XCTAssertEqual(hitName(root, 173, 95.4), "face")
        XCTAssertEqual(hitName(root, 173, 95.1), "container")
    }

    func testTransformLayerPicksTheNearestFace() {
        let root = named("root", CGRect(x: 0, y: 0, width: 400, height: 300))
        let t = CATransformLayer()
        t.name = "context"
        t.frame = root.bounds
        root.addSublayer(t)
        let front = CALayer()
        front.name = "front"
        front.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        front.position = CGPoint(x: 200, y: 150)
        front.transform = CATransform3DMakeTranslation(0, 0, 20)   // nearer the viewer
        t.addSublayer(front)
        let back = CALayer()
        back.name = "back"
        back.bounds = front.bounds
        back.position = front.position
        t.addSublayer(back)                                         // inserted later, but deeper
        XCTAssertEqual(hitName(root, 200, 150), "front")
        // The transform layer itself is never hit: outside the faces the root is.
        XCTAssertEqual(hitName(root, 20, 20), "root")
        // In a flattening container the same faces go by insertion order.
        let flat = named("flat", root.bounds, in: root)
        front.removeFromSuperlayer(); back.removeFromSuperlayer()
        flat.addSublayer(front); flat.addSublayer(back)
        XCTAssertEqual(hitName(root, 200, 150), "back")
    }

    func testIntersectingPlanesInATransformLayer() {
        // Two faces through the same centre turned ±30° about y: at screen x = 200 + d the faces'
        // local offset is d / cos 30° for both; "plus" (+30°) has z = −(d / cos 30°) sin 30°,
        // "minus" the opposite. Right of the centre "minus" is nearer, left of it "plus".
        let root = named("root", CGRect(x: 0, y: 0, width: 400, height: 300))
        let t = CATransformLayer()
        t.frame = root.bounds
        root.addSublayer(t)
        for (name, angle) in [("plus", CGFloat.pi / 6), ("minus", -CGFloat.pi / 6)] {
            let f = CALayer()
            f.name = name
            f.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            f.position = CGPoint(x: 200, y: 150)
            f.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
            t.addSublayer(f)
        }
        XCTAssertEqual(hitName(root, 220, 150), "minus")
        XCTAssertEqual(hitName(root, 180, 150), "plus")
        XCTAssertEqual(hitName(root, 240, 120), "minus")
        XCTAssertEqual(hitName(root, 160, 180), "plus")
    }

    func testBackFacesAreNotHitWhenSingleSided() {
        let root = named("root", CGRect(x: 0, y: 0, width: 400, height: 300))
        let card = named("card", CGRect(x: 150, y: 100, width: 100, height: 100), in: root)
        card.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        XCTAssertEqual(hitName(root, 200, 150), "card")     // double-sided: the back is hit
        card.isDoubleSided = false
        XCTAssertEqual(hitName(root, 200, 150), "root")
    }

    func testOverriddenContains() {
        let root = named("root", CGRect(x: 0, y: 0, width: 400, height: 300))
        let round = RoundLayer()
        round.name = "round"
        round.frame = CGRect(x: 100, y: 100, width: 100, height: 100)
        root.addSublayer(round)
        XCTAssertEqual(hitName(root, 150, 150), "round")
        XCTAssertEqual(hitName(root, 105, 105), "root")     // in the bounds' corner, outside the circle
        XCTAssertEqual(hitName(root, 101, 150), "round")
    }

    func testPresentationLayerUsesAnimatedValues() {
        let root = named("root", CGRect(x: 0, y: 0, width: 400, height: 300))
        let box = named("box", CGRect(x: 0, y: 0, width: 40, height: 40), in: root)
        box.position = CGPoint(x: 50, y: 50)
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = CGPoint(x: 50, y: 50)
        move.toValue = CGPoint(x: 250, y: 50)
        move.duration = 2
        box.add(move, forKey: "move")
        // At t = 1 the presentation position is (150, 50).
        let tree = PresentationBuilder(time: 1).presentationTree(of: root)
        let hit = tree.hitTest(CGPoint(x: 150, y: 50))
        XCTAssertEqual(hit?.name, "box")
        XCTAssertTrue(hit?.model() === box)
        XCTAssertEqual(hitName(root, 150, 50), "root")      // the model is still at (50, 50)
        XCTAssertEqual(hitName(root, 50, 50), "box")
    }
}
