// Media timing, table-driven (CORE_ANIMATION.md §4.1): one basic animation of position.x from 0
// to 100 (linear unless stated) on a layer whose model x is −1, evaluated at chosen scene times —
// before the begin, exactly at the begin and the end, inside reversed halves, at fractional
// repeat ends — against values worked out by hand from the formulas, to 1e-9. nil means "no
// effect" (the model value −1 shows). A `beginTime` of 1e-300 stands for "layer time 0": 0 itself
// means "now" (converted to the layer's time when added).
import XCTest
@testable import StrataCore

final class MediaTimingTableTests: XCTestCase {
    struct Row {
        let name: String
        let configure: (CABasicAnimation) -> Void
        let samples: [(t: Double, x: Double?)]
    }

    static var rows: [Row] { [
        Row(name: "begin 1, duration 2", configure: { $0.beginTime = 1 },
            samples: [(0.5, nil), (1, 0), (2, 50), (2.999, 99.95), (3, nil), (9, nil)]),
        Row(name: "fill backwards", configure: { $0.beginTime = 1; $0.fillMode = .backwards },
            samples: [(0, 0), (0.999, 0), (1.5, 25), (3, nil)]),
        Row(name: "fill forwards without isRemovedOnCompletion = false has no effect after the end",
            configure: { $0.beginTime = 1; $0.fillMode = .forwards },
            samples: [(0.5, nil), (3, nil)]),
        Row(name: "fill forwards, kept", configure: { $0.beginTime = 1; $0.fillMode = .forwards; $0.isRemovedOnCompletion = false },
            samples: [(0.5, nil), (1, 0), (3, 100), (10, 100)]),
        Row(name: "fill both, kept", configure: { $0.beginTime = 1; $0.fillMode = .both; $0.isRemovedOnCompletion = false },
            samples: [(0, 0), (2, 50), (5, 100)]),
        // cycle 4 s (2 forward, 2 back), active 6 s.
        Row(name: "autoreverses, repeatCount 1.5",
            configure: { $0.beginTime = 0.5; $0.autoreverses = true; $0.repeatCount = 1.5; $0.fillMode = .forwards; $0.isRemovedOnCompletion = false },
            samples: [(0.5, 0), (1.5, 50), (2.5, 100), (3.5, 50), (4, 25), (4.5, 0), (5, 25), (6.5, 100), (7.5, 100)]),
        // active 5 s: the third cycle stops halfway.
        Row(name: "repeatCount 2.5", configure: { $0.repeatCount = 2.5; $0.fillMode = .forwards; $0.isRemovedOnCompletion = false; $0.beginTime = 1e-300 },
            samples: [(1, 50), (2, 0), (3.5, 75), (4, 0), (4.5, 25), (5, 50), (6, 50)]),
        Row(name: "repeatCount 2.5 removed at the end", configure: { $0.repeatCount = 2.5; $0.beginTime = 1e-300 },
            samples: [(4.999, 49.95), (5, nil)]),
        Row(name: "repeatDuration wins over repeatCount", configure: { $0.repeatCount = 10; $0.repeatDuration = 3; $0.beginTime = 1e-300 },
            samples: [(2.5, 25), (2.999, 49.95), (3, nil)]),
        // local = (t − 1)·2 + 0.5: active for local in [0, 2), i.e. t in [0.75, 1.75).
        Row(name: "speed 2, timeOffset 0.5", configure: { $0.beginTime = 1; $0.speed = 2; $0.timeOffset = 0.5 },
            samples: [(0.7, nil), (0.75, 0), (1, 25), (1.5, 75), (1.749, 99.9), (1.75, nil)]),
        Row(name: "autoreverses with easeIn: the curve runs backwards in the second half",
            configure: { $0.beginTime = 1e-300; $0.autoreverses = true; $0.timingFunction = CAMediaTimingFunction(name: .easeIn) },
            samples: [(1, 100 * CAMediaTimingFunction(name: .easeIn).evaluate(0.5)),
                      (3, 100 * CAMediaTimingFunction(name: .easeIn).evaluate(0.5)),
                      (3.5, 100 * CAMediaTimingFunction(name: .easeIn).evaluate(0.25)), (4, nil)]),
        Row(name: "duration 0 is 0.25 s", configure: { $0.duration = 0; $0.beginTime = 1e-300 },
            samples: [(0.125, 50), (0.25, nil)]),
    ] }

    func testTable() throws {
        for row in Self.rows {
            let layer = CALayer()
            layer.position = CGPoint(x: -1, y: 0)
            let a = CABasicAnimation(keyPath: "position.x")
            a.fromValue = 0
            a.toValue = 100
            a.duration = 2
            row.configure(a)
            try layer.addChecked(a, forKey: "a")
            for (t, expected) in row.samples {
                let x = Double(PresentationBuilder(time: t).presentationTree(of: layer).position.x)
                XCTAssertEqual(x, expected ?? -1, accuracy: 1e-9, "\(row.name) at t = \(t)")
            }
        }
    }

    func testLayerTimingHierarchy() throws {
        // scene → parent (speed 2, beginTime 1) → child (timeOffset 0.5) → animation (begin 0, 2 s).
        let parent = CALayer(), child = CALayer()
        parent.addSublayer(child)
        parent.speed = 2
        parent.beginTime = 1
        child.timeOffset = 0.5
        child.position = CGPoint(x: -1, y: 0)
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 0; a.toValue = 100; a.duration = 2; a.beginTime = 1e-300
        try child.addChecked(a, forKey: "a")
        // child time = (t − 1)·2 + 0.5
        for (t, expected) in [(0.7, -1.0), (0.76, 1), (1, 25), (1.5, 75), (1.75, -1)] {
            let x = Double(PresentationBuilder(time: t).presentationTree(of: parent).sublayers![0].position.x)
            XCTAssertEqual(x, expected, accuracy: 1e-9, "t = \(t)")
        }
        XCTAssertEqual(child.convertTime(1.5, from: nil), 1.5, accuracy: 1e-12)
        XCTAssertEqual(child.convertTime(1.5, to: nil), 1.5, accuracy: 1e-12)
    }

    func testLayerDurationRepeatsItsTime() throws {
        // A layer with its own duration 1 and autoreverses: its animations see a time that runs
        // 0 → 1 → 0 and repeats (here: repeatCount 2, then held at the end).
        let layer = CALayer()
        layer.duration = 1
        layer.autoreverses = true
        layer.repeatCount = 2
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 0; a.toValue = 100; a.duration = 1; a.beginTime = 1e-300
        a.fillMode = .both; a.isRemovedOnCompletion = false
        try layer.addChecked(a, forKey: "a")
        let table: [(Double, Double)] = [(0.25, 25), (1.25, 75), (2.5, 50), (3.75, 25), (5, 0)]
        for (t, expected) in table {
            XCTAssertEqual(Double(PresentationBuilder(time: t).presentationTree(of: layer).position.x), expected, accuracy: 1e-9, "t = \(t)")
        }
    }

    func testSeveralAnimationsOnOneKeyPathStackInOrder() throws {
        let layer = CALayer()
        layer.position = CGPoint(x: 10, y: 0)
        let base = CABasicAnimation(keyPath: "position.x")
        base.fromValue = 100; base.toValue = 200; base.duration = 2
        let wobble = CABasicAnimation(keyPath: "position.x")
        wobble.fromValue = 0; wobble.toValue = 10; wobble.duration = 2; wobble.isAdditive = true
        let nudge = CABasicAnimation(keyPath: "position")
        nudge.byValue = CGPoint(x: 1, y: 1); nudge.duration = 2; nudge.isAdditive = true
        try layer.addChecked(base, forKey: "base")
        try layer.addChecked(wobble, forKey: "wobble")
        try layer.addChecked(nudge, forKey: "nudge")
        // 150 (replaces the model) + 5 (adds) + 0.5 (adds, on the whole point: an additive animation
        // without from/to runs from zero, so byValue alone adds 0…by)
        let p = PresentationBuilder(time: 1).presentationTree(of: layer).position
        XCTAssertEqual(Double(p.x), 155.5, accuracy: 1e-9)
        XCTAssertEqual(Double(p.y), 0.5, accuracy: 1e-9)
        // A replacing animation added later hides the ones before it.
        let override = CABasicAnimation(keyPath: "position.x")
        override.fromValue = 0; override.toValue = 0; override.duration = 2
        try layer.addChecked(override, forKey: "override")
        XCTAssertEqual(Double(PresentationBuilder(time: 1).presentationTree(of: layer).position.x), 0, accuracy: 1e-9)
    }

    func testCumulativeBasic() throws {
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 10; a.toValue = 20; a.duration = 1; a.repeatCount = 3; a.isCumulative = true
        a.fillMode = .forwards; a.isRemovedOnCompletion = false; a.beginTime = 1e-300
        try layer.addChecked(a, forKey: "a")
        // Each cycle starts where the previous ended: 10…20, 20…30, 30…40.
        for (t, expected) in [(0.5, 15.0), (1, 20), (1.5, 25), (2.25, 32.5), (3, 40), (9, 40)] {
            XCTAssertEqual(Double(PresentationBuilder(time: t).presentationTree(of: layer).position.x), expected, accuracy: 1e-9, "t = \(t)")
        }
    }
}
