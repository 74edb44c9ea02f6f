// CATransformLayer 3D rendering contexts: faces are depth-resolved per pixel, so two planes that
// intersect cut each other along their intersection (Core Animation sorts whole layers and shows
// one of them on top); the seeds' two cubes; back faces; nesting.
import XCTest
import StrataCore
import StrataRender
import StrataTestSupport

final class TransformLayerTests: XCTestCase {
    private func stage(_ w: CGFloat, _ h: CGFloat) -> (CALayer, CALayer) {
        let root = canvas(w, h, color(0.1, 0.1, 0.12))
        let container = CALayer()
        container.frame = root.bounds
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        container.sublayerTransform = p
        root.addSublayer(container)
        return (root, container)
    }

    func testIntersectingPlanesCutEachOther() {
        let (root, container) = stage(200, 160)
        let context = CATransformLayer()
        context.frame = container.bounds
        container.addSublayer(context)
        for (angle, c) in [(CGFloat.pi / 6, color(0.9, 0.2, 0.2)), (-CGFloat.pi / 6, color(0.2, 0.4, 0.9))] {
            let plane = CALayer()
            plane.bounds = CGRect(x: 0, y: 0, width: 120, height: 100)
            plane.position = CGPoint(x: 100, y: 80)
            plane.backgroundColor = c
            plane.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
            context.addSublayer(plane)
        }
        let img = render(root, width: 200, height: 160)
        // Rotating +30° about y brings the left half of the red plane forward (z = −x·sin θ > 0
        // for x < 0): red wins on the left, blue on the right, whatever the insertion order.
        XCTAssertGreaterThan(img.pixel(x: 70, y: 80).r, 200)
        XCTAssertLessThan(img.pixel(x: 70, y: 80).b, 100)
        XCTAssertGreaterThan(img.pixel(x: 130, y: 80).b, 200)
        XCTAssertLessThan(img.pixel(x: 130, y: 80).r, 100)
        assertReferenceImage(img, named: "intersecting_planes")
    }

    /// The seeds' cube built from a CATransformLayer with six faces of the given colours.
    private func cube(_ transform: CATransform3D, at p: CGPoint) -> CATransformLayer {
        let cube = CATransformLayer()
        let ts: [CATransform3D] = [
            CATransform3DMakeTranslation(0, 0, 50),
            CATransform3DRotate(CATransform3DMakeTranslation(50, 0, 0), .pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, -50, 0), .pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 50, 0), -.pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(-50, 0, 0), -.pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -50), .pi, 0, 1, 0),
        ]
        let colors = [color(0.9, 0.3, 0.3), color(0.3, 0.8, 0.4), color(0.3, 0.5, 0.95),
                      color(0.95, 0.85, 0.3), color(0.7, 0.4, 0.9), color(0.3, 0.85, 0.85)]
        for (t, c) in zip(ts, colors) {
            let face = CALayer()
            face.frame = CGRect(x: -50, y: -50, width: 100, height: 100)
            face.backgroundColor = c
            face.transform = t
            cube.addSublayer(face)
        }
        cube.position = p
        cube.transform = transform
        return cube
    }

    func testSeedsTwoCubes() {
        let (root, container) = stage(400, 240)
        container.addSublayer(cube(CATransform3DTranslate(CATransform3DIdentity, -100, 0, 0), at: CGPoint(x: 200, y: 120)))
        var t2 = CATransform3DTranslate(CATransform3DIdentity, 100, 0, 0)
        t2 = CATransform3DRotate(t2, -.pi / 4, 1, 0, 0)
        t2 = CATransform3DRotate(t2, -.pi / 4, 0, 1, 0)
        container.addSublayer(cube(t2, at: CGPoint(x: 200, y: 120)))
        let img = render(root, width: 400, height: 240)
        // The first cube faces the viewer: its front face (red) is what shows at its centre,
        // even though the back face was added later and all faces are double-sided.
        let c = img.pixel(x: 100, y: 120)
        XCTAssertGreaterThan(c.r, 200); XCTAssertLessThan(c.g, 110)
        assertReferenceImage(img, named: "two_cubes")
    }

    func testDeterministicAcrossTiles() {
        let (root, container) = stage(300, 200)
        var t = CATransform3DMakeRotation(0.5, 1, 1, 0)
        t = CATransform3DTranslate(t, 0, 0, 20)
        container.addSublayer(cube(t, at: CGPoint(x: 150, y: 100)))
        let a = render(root, width: 300, height: 200, workers: 1, tileSize: 64)
        XCTAssertEqual(render(root, width: 300, height: 200, workers: 8, tileSize: 13).pixels, a.pixels)
    }
}
