// Media timing (CORE_ANIMATION.md §4.1) and basic animations: values at chosen times, computed by
// hand from the formulas, compared to 1e-9.
import XCTest
@testable import StrataCore

final class MediaTimingTests: XCTestCase {
    private func timing(_ configure: (inout MediaTimingValues) -> Void) -> MediaTimingValues {
        var v = MediaTimingValues()
        v.duration = 2
        configure(&v)
        return v
    }

    func testProgressInsideAndAtBoundaries() {
        let t = timing { $0.beginTime = 1 }
        XCTAssertEqual(t.evaluate(atParentTime: 0.5), .inactive)
        XCTAssertEqual(t.evaluate(atParentTime: 1).progress!, 0, accuracy: 1e-12)
        XCTAssertEqual(t.evaluate(atParentTime: 2).progress!, 0.5, accuracy: 1e-12)
        XCTAssertEqual(t.evaluate(atParentTime: 3), .finished)  // removed at the end
    }

    func testFillModes() {
        var t = timing { $0.beginTime = 1; $0.fillMode = .backwards }
        XCTAssertEqual(t.evaluate(atParentTime: 0).progress!, 0, accuracy: 1e-12)
        t.fillMode = .forwards
        XCTAssertEqual(t.evaluate(atParentTime: 0), .inactive)
        // Forwards fill needs isRemovedOnCompletion = false, as on iOS.
        XCTAssertEqual(t.evaluate(atParentTime: 5), .finished)
        t.removedOnCompletion = false
        XCTAssertEqual(t.evaluate(atParentTime: 5).progress!, 1, accuracy: 1e-12)
        t.fillMode = .both
        XCTAssertEqual(t.evaluate(atParentTime: 0).progress!, 0, accuracy: 1e-12)
        XCTAssertEqual(t.evaluate(atParentTime: 99).progress!, 1, accuracy: 1e-12)
    }

    func testAutoreversesAndRepeat() {
        let t = timing { $0.autoreverses = true; $0.repeatCount = 1.5; $0.fillMode = .forwards; $0.removedOnCompletion = false }
        // cycle 4 s, active 6 s.
        XCTAssertEqual(t.evaluate(atParentTime: 1).progress!, 0.5, accuracy: 1e-12)
        XCTAssertEqual(t.evaluate(atParentTime: 3).progress!, 0.5, accuracy: 1e-12)  // coming back
        XCTAssertEqual(t.evaluate(atParentTime: 3.5).progress!, 0.25, accuracy: 1e-12)
        XCTAssertEqual(t.evaluate(atParentTime: 4.5).progress!, 0.25, accuracy: 1e-12)
        XCTAssertEqual(t.evaluate(atParentTime: 4.5).iteration, 1)
        // Fractional repeat end at 6 s: forward half of the second cycle finished → progress 1.
        XCTAssertEqual(t.evaluate(atParentTime: 6).progress!, 1, accuracy: 1e-12)
        XCTAssertEqual(t.evaluate(atParentTime: 7).progress!, 1, accuracy: 1e-12)
    }

    func testSpeedAndTimeOffset() {
        let t = timing { $0.speed = 2; $0.timeOffset = 0.5 }
        // local = (tp − 0)·2 + 0.5
        XCTAssertEqual(t.evaluate(atParentTime: 0.25).progress!, 0.5, accuracy: 1e-12)
        XCTAssertEqual(t.evaluate(atParentTime: 0.7).progress!, 0.95, accuracy: 1e-12)
        XCTAssertEqual(t.evaluate(atParentTime: 0.8), .finished)
    }

    func testRepeatDurationWins() {
        let t = timing { $0.repeatCount = 10; $0.repeatDuration = 3 }
        XCTAssertEqual(t.evaluate(atParentTime: 2.5).progress!, 0.25, accuracy: 1e-12)
        XCTAssertEqual(t.evaluate(atParentTime: 3), .finished)
    }

    func testBasicAnimationFromToOnLayer() throws {
        let layer = CALayer()
        layer.position = CGPoint(x: 10, y: 10)
        let a = CABasicAnimation(keyPath: "position")
        a.fromValue = CGPoint(x: 0, y: 0)
        a.toValue = CGPoint(x: 100, y: 50)
        a.duration = 2
        a.beginTime = 1
        try layer.addChecked(a, forKey: "move")
        let p = PresentationBuilder(time: 2.5).presentationTree(of: layer)
        XCTAssertEqual(p.position.x, 75, accuracy: 1e-9)
        XCTAssertEqual(p.position.y, 37.5, accuracy: 1e-9)
        // Before the begin: the model value shows.
        XCTAssertEqual(PresentationBuilder(time: 0.5).presentationTree(of: layer).position, CGPoint(x: 10, y: 10))
        // After the end (removed on completion): the model value again.
        XCTAssertEqual(PresentationBuilder(time: 3.5).presentationTree(of: layer).position, CGPoint(x: 10, y: 10))
    }

    func testFromByToCombinations() throws {
        func value(_ configure: (CABasicAnimation) -> Void, at t: Double) throws -> CGFloat {
            let layer = CALayer()
            layer.opacity = 0.2
            let a = CABasicAnimation(keyPath: "opacity")
            a.duration = 1
            configure(a)
            try layer.addChecked(a, forKey: "x")
            return CGFloat(PresentationBuilder(time: t).presentationTree(of: layer).opacity)
        }
        XCTAssertEqual(try value({ $0.fromValue = 0.0; $0.byValue = 0.8 }, at: 0.5), 0.4, accuracy: 1e-6)
        XCTAssertEqual(try value({ $0.toValue = 1.0; $0.byValue = 0.5 }, at: 0.5), 0.75, accuracy: 1e-6)
        XCTAssertEqual(try value({ $0.toValue = 1.0 }, at: 0.5), 0.6, accuracy: 1e-6)          // current → to
        XCTAssertEqual(try value({ $0.fromValue = 1.0 }, at: 0.5), 0.6, accuracy: 1e-6)        // from → current
        XCTAssertEqual(try value({ $0.byValue = 0.4 }, at: 0.25), 0.3, accuracy: 1e-6)         // current → current + by
        XCTAssertEqual(try value({ $0.fromValue = 0; $0.toValue = 1; $0.isAdditive = true }, at: 0.5), 0.7, accuracy: 1e-6)
    }

    func testTimingFunctionAppliesToProgress() throws {
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 0
        a.toValue = 100
        a.duration = 1
        a.timingFunction = CAMediaTimingFunction(name: .easeIn)
        try layer.addChecked(a, forKey: "x")
        let x = PresentationBuilder(time: 0.5).presentationTree(of: layer).position.x
        let expected = 100 * CAMediaTimingFunction(name: .easeIn).evaluate(0.5)
        XCTAssertEqual(Double(x), expected, accuracy: 1e-9)
        XCTAssertLessThan(x, 50)  // ease-in lags at the midpoint
    }

    func testRotationVirtualKeyAndCumulativeRepeat() throws {
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "transform.rotation.z")
        a.byValue = CGFloat.pi / 2
        a.duration = 1
        a.repeatCount = 3
        a.isCumulative = true
        try layer.addChecked(a, forKey: "spin")
        let t = PresentationBuilder(time: 1.5).presentationTree(of: layer).transform
        // Second cycle, halfway: π/2 + π/4 = 3π/4.
        XCTAssertEqual(Double(t.m11), cos(3 * .pi / 4), accuracy: 1e-9)
        XCTAssertEqual(Double(t.m12), sin(3 * .pi / 4), accuracy: 1e-9)
    }

    func testUnknownKeyPathAndWrongTypeThrow() {
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "positon")
        a.toValue = CGPoint(x: 1, y: 1)
        XCTAssertThrowsError(try layer.addChecked(a, forKey: nil)) { e in
            XCTAssertEqual("\(e)", "unknown animatable key path 'positon' on CALayer")
        }
        let b = CABasicAnimation(keyPath: "opacity")
        b.toValue = "loud"
        XCTAssertThrowsError(try layer.addChecked(b, forKey: nil)) { e in
            XCTAssertEqual("\(e)", "toValue of the animation on 'opacity' is a String; expected a number")
        }
    }

    func testNumbersComeBackAsCGFloat() {
        let layer = CALayer()
        layer.setValue(3, forKey: "progress")
        XCTAssertEqual(layer.value(forKey: "progress") as? CGFloat, 3)
        layer.setValue(NSNumber(value: 0.5), forKey: "opacity")
        XCTAssertEqual(layer.opacity, 0.5)
        layer.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        XCTAssertEqual(Double(layer.value(forKeyPath: "transform.rotation.z") as? CGFloat ?? -1), 0.3, accuracy: 1e-9)
    }

    func testLayerTimingFreezesSubtree() throws {
        // The seeds' pause recipe: speed 0 and a timeOffset freeze the layer's animations.
        let parent = CALayer(), child = CALayer()
        parent.addSublayer(child)
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0; a.toValue = 1; a.duration = 10; a.beginTime = 0.0001
        try child.addChecked(a, forKey: "fade")
        parent.speed = 0
        parent.timeOffset = 4.0001
        for t in [1.0, 5.0, 9.0] {
            let p = PresentationBuilder(time: t).presentationTree(of: parent)
            XCTAssertEqual(Double(p.sublayers![0].opacity), 0.4, accuracy: 1e-6)
        }
    }
}
