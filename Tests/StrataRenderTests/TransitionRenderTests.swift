// Rendering of CATransition states (the TransitionSnapshot the animation engine produces):
// fade, moveIn, push, reveal × four subtypes at 25 / 50 / 75 %, one reference sheet per type,
// plus exact values of the cross-dissolve and of a half-way push.
import XCTest
import StrataCore
import StrataRender
import StrataTestSupport

final class TransitionRenderTests: XCTestCase {
    private func cellLayer(_ frame: CGRect, _ bg: CGColor, _ bar: CGColor, barAtLeft: Bool) -> CALayer {
        let l = box(frame, bg)
        l.addSublayer(box(CGRect(x: barAtLeft ? 6 : 44, y: 8, width: 10, height: 24), bar))
        return l
    }

    /// A sheet of 4 subtypes (rows) × 3 progresses (columns) of one transition type.
    private func sheet(type: String) -> Bitmap {
        let root = canvas(3 * 70 + 10, 4 * 50 + 10, color(0.2, 0.2, 0.2))
        let subtypes = ["fromLeft", "fromRight", "fromTop", "fromBottom"]
        let progresses = [0.25, 0.5, 0.75]
        for (r, _) in subtypes.enumerated() { for (c, _) in progresses.enumerated() {
            let cell = cellLayer(CGRect(x: 10 + c * 70, y: 10 + r * 50, width: 60, height: 40),
                                 color(0.2, 0.4, 0.9), color(1, 0.9, 0.2), barAtLeft: false)
            cell.masksToBounds = true
            root.addSublayer(cell)
        } }
        var snap = PresentationBuilder(time: 0).snapshotTree(of: root)
        for (r, sub) in subtypes.enumerated() { for (c, p) in progresses.enumerated() {
            let i = r * 3 + c
            let before = cellLayer(CGRect(x: 10 + c * 70, y: 10 + r * 50, width: 60, height: 40),
                                   color(0.9, 0.25, 0.25), .white, barAtLeft: true).makeSnapshot()
            snap.sublayers[i].transition = TransitionSnapshot(before: before, type: type, subtype: sub, progress: p)
        } }
        return FrameRenderer(width: 220, height: 210).render(snap)
    }

    func testTransitionSheets() {
        for type in ["fade", "moveIn", "push", "reveal"] {
            assertReferenceImage(sheet(type: type), named: "transition_\(type)")
        }
    }

    func testFadeIsAnExactCrossDissolve() {
        let root = canvas(10, 10, .black)
        root.addSublayer(box(root.bounds, color(0, 0, 1)))
        var snap = PresentationBuilder(time: 0).snapshotTree(of: root)
        let before = box(root.bounds, color(1, 0, 0)).makeSnapshot()
        snap.sublayers[0].transition = TransitionSnapshot(before: before, type: "fade", subtype: nil, progress: 0.25)
        let p = FrameRenderer(width: 10, height: 10).render(snap).pixel(x: 5, y: 5)
        XCTAssertEqual(Int(p.r), 191, accuracy: 1)  // 0.75 red
        XCTAssertEqual(Int(p.b), 64, accuracy: 1)   // 0.25 blue
        XCTAssertEqual(p.a, 255)
    }

    func testHalfwayPushFromLeft() {
        let root = canvas(40, 10, .black)
        root.addSublayer(box(CGRect(x: 0, y: 0, width: 40, height: 10), color(0, 0, 1)))
        var snap = PresentationBuilder(time: 0).snapshotTree(of: root)
        let before = box(CGRect(x: 0, y: 0, width: 40, height: 10), color(1, 0, 0)).makeSnapshot()
        snap.sublayers[0].transition = TransitionSnapshot(before: before, type: "push", subtype: "fromLeft", progress: 0.5)
        let img = FrameRenderer(width: 40, height: 10).render(snap)
        // New (blue) content occupies the left half, the old (red) one was pushed to the right half.
        XCTAssertTrue(img.pixel(x: 10, y: 5) == (0, 0, 255, 255))
        XCTAssertTrue(img.pixel(x: 30, y: 5) == (255, 0, 0, 255))
    }
}
