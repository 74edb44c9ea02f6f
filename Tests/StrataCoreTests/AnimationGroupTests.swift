// CAAnimationGroup: children in the group's local time, cut (not scaled) at its end, duration 0
// taking the group's, their own fill modes inside the group, nesting, repeat, errors.
import XCTest
@testable import StrataCore

final class AnimationGroupTests: XCTestCase {
    private func x(_ layer: CALayer, _ t: Double) -> Double {
        Double(PresentationBuilder(time: t).presentationTree(of: layer).position.x)
    }

    private func move(from: Double, to: Double, duration: Double = 0, begin: Double = 0) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = from; a.toValue = to; a.duration = duration; a.beginTime = begin
        return a
    }

    func testChildrenRunInGroupTimeAndAreCutAtItsEnd() throws {
        let layer = CALayer()
        layer.position = CGPoint(x: -1, y: 0)
        let group = CAAnimationGroup()
        group.animations = [move(from: 0, to: 300, duration: 3, begin: 0.5)]  // longer than the group
        group.duration = 2
        group.beginTime = 1
        try layer.addChecked(group, forKey: "g")
        XCTAssertEqual(x(layer, 1.25), -1)                       // child not begun (group time 0.25)
        XCTAssertEqual(x(layer, 1.5), 0, accuracy: 1e-9)         // child begins at group time 0.5
        XCTAssertEqual(x(layer, 2.5), 100, accuracy: 1e-9)       // group 1.5 = child 1.0: not scaled
        XCTAssertEqual(x(layer, 2.999), 149.9, accuracy: 1e-9)
        XCTAssertEqual(x(layer, 3), -1)                          // cut at the group's end
    }

    func testZeroDurationChildTakesTheGroupsDuration() throws {
        let layer = CALayer()
        let group = CAAnimationGroup()
        group.animations = [move(from: 0, to: 100)]
        group.duration = 4
        try layer.addChecked(group, forKey: "g")
        XCTAssertEqual(x(layer, 1), 25, accuracy: 1e-9)
        XCTAssertEqual(x(layer, 3), 75, accuracy: 1e-9)
    }

    func testChildFillModesApplyInsideTheGroupAndGroupFillHoldsTheEnd() throws {
        let layer = CALayer()
        layer.position = CGPoint(x: -1, y: 0)
        let early = move(from: 0, to: 10, duration: 1)
        early.fillMode = .forwards   // holds inside the group; its isRemovedOnCompletion is ignored
        let group = CAAnimationGroup()
        group.animations = [early]
        group.duration = 3
        group.fillMode = .forwards
        group.isRemovedOnCompletion = false
        try layer.addChecked(group, forKey: "g")
        XCTAssertEqual(x(layer, 2), 10, accuracy: 1e-9)
        XCTAssertEqual(x(layer, 10), 10, accuracy: 1e-9)        // the group holds its end
        let plain = move(from: 0, to: 10, duration: 1)
        let g2 = CAAnimationGroup()
        g2.animations = [plain]
        g2.duration = 3
        let other = CALayer()
        other.position = CGPoint(x: -1, y: 0)
        try other.addChecked(g2, forKey: "g")
        XCTAssertEqual(x(other, 2), -1)                          // child ended, no fill
    }

    func testGroupTimingRepeatsAndReversesItsChildren() throws {
        let layer = CALayer()
        let group = CAAnimationGroup()
        group.animations = [move(from: 0, to: 100)]
        group.duration = 1
        group.autoreverses = true
        group.repeatCount = 2
        try layer.addChecked(group, forKey: "g")
        XCTAssertEqual(x(layer, 0.25), 25, accuracy: 1e-9)
        XCTAssertEqual(x(layer, 1.25), 75, accuracy: 1e-9)
        XCTAssertEqual(x(layer, 2.5), 50, accuracy: 1e-9)
    }

    func testNestedGroupsAndSeveralKeyPaths() throws {
        let layer = CALayer()
        let inner = CAAnimationGroup()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1; fade.toValue = 0
        inner.animations = [fade]
        inner.beginTime = 1
        inner.duration = 2
        let outer = CAAnimationGroup()
        outer.animations = [move(from: 0, to: 40), inner]
        outer.duration = 4
        try layer.addChecked(outer, forKey: "g")
        let p = PresentationBuilder(time: 2).presentationTree(of: layer)
        XCTAssertEqual(Double(p.position.x), 20, accuracy: 1e-9)
        XCTAssertEqual(Double(p.opacity), 0.5, accuracy: 1e-6)
    }

    func testGroupChildrenAreCheckedWhenAdded() {
        let layer = CALayer()
        let bad = CABasicAnimation(keyPath: "opacity")
        bad.toValue = CGPoint.zero
        let group = CAAnimationGroup()
        group.animations = [move(from: 0, to: 1), bad]
        XCTAssertThrowsError(try layer.addChecked(group, forKey: nil)) { e in
            XCTAssertEqual("\(e)", "animations[1] of the group: toValue of the animation on 'opacity' is a CGPoint; expected a number")
        }
        let unknown = CAKeyframeAnimation(keyPath: "wobble.x")
        unknown.values = [1, 2]
        group.animations = [unknown]
        XCTAssertThrowsError(try layer.addChecked(group, forKey: nil)) { e in
            XCTAssertEqual("\(e)", "animations[0] of the group: unknown animatable key path 'wobble.x' on CALayer")
        }
        group.animations = [CATransition()]
        XCTAssertThrowsError(try layer.addChecked(group, forKey: nil))
        XCTAssertNil(layer.animationKeys())
    }
}
