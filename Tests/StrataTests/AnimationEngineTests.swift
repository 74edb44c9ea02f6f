// The animation engine inside scenes: delegate callbacks and removal at their scene times,
// transaction completion blocks (nested, waiting, scheduling more changes), the action search
// (delegate → actions → style → default, NSNull), onOrderIn/Out, disabled actions, interrupted
// implicit animations continuing from the presented value, the seeds' pause/resume recipe
// verbatim, and the seeds' airplane (keyframes along a bezier with rotateAuto, in a group with a
// colour change) as reference frames.
import XCTest
import Strata
import StrataTestSupport

/// Records delegate calls with the scene time they happen at.
private final class Recorder: CAAnimationDelegate, CALayerDelegate {
    var events: [String] = []
    var actionsByKey: [String: CAAction] = [:]
    func animationDidStart(_ anim: CAAnimation) {
        events.append("start \(anim.value(forKey: "name") as? String ?? "?") @\(CACurrentMediaTime())")
    }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        events.append("stop \(anim.value(forKey: "name") as? String ?? "?") \(flag) @\(CACurrentMediaTime())")
    }
    func action(for layer: CALayer, forKey event: String) -> CAAction? { actionsByKey[event] }
}

/// A CAAction that only records that it ran.
private final class MarkAction: CAAction {
    var runs: [String] = []
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) { runs.append(event) }
}

final class AnimationEngineTests: XCTestCase {
    private func makeScene() -> (Scene, CALayer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        let box = CALayer()
        box.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        root.addSublayer(box)
        return (Scene(rootLayer: root, size: CGSize(width: 200, height: 100), frameRate: 10, duration: 30), root, box)
    }

    private func named(_ a: CAAnimation, _ name: String, delegate: CAAnimationDelegate) -> CAAnimation {
        a.setValue(name, forKey: "name")
        a.delegate = delegate
        return a
    }

    private func fade(_ duration: Double) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0; a.toValue = 1; a.duration = duration
        return a
    }

    func testDelegateCallsAndRemovalHappenAtTheirSceneTimes() throws {
        let (scene, _, box) = makeScene()
        let rec = Recorder()
        box.add(named(fade(2), "built", delegate: rec), forKey: "built")       // while building: starts at 0
        scene.at(1) {
            let a = self.fade(2)
            a.beginTime = CACurrentMediaTime() + 0.5
            box.add(self.named(a, "later", delegate: rec), forKey: "later")
        }
        _ = try scene.presentation(of: box, at: 1.2)
        XCTAssertEqual(box.animationKeys(), ["built", "later"])
        _ = try scene.presentation(of: box, at: 10)
        XCTAssertEqual(rec.events, ["start built @0.0", "start later @1.5", "stop built true @2.0", "stop later true @3.5"])
        XCTAssertNil(box.animationKeys())  // removed on completion
    }

    func testScenesRenderInAnyOrderAndDelegatesHearEachEventOnce() throws {
        let (scene, _, box) = makeScene()
        box.add(fade(1), forKey: "fade")
        let late = try XCTUnwrap(scene.presentation(of: box, at: 2))
        XCTAssertNil(box.animationKeys())                       // removed on completion…
        XCTAssertEqual(late.opacity, 1)
        let early = try XCTUnwrap(scene.presentation(of: box, at: 0.5))
        XCTAssertEqual(early.opacity, 0.5, accuracy: 1e-6)      // …yet earlier frames still show it
        XCTAssertEqual(box.animationKeys(), ["fade"])           // the model is back at 0.5 too
        // With user code (a delegate): each event is heard once, whatever the order of times.
        let (other, _, layer) = makeScene()
        let rec = Recorder()
        layer.add(named(fade(1), "f", delegate: rec), forKey: "f")
        _ = try other.presentation(of: layer, at: 2)
        let again = try XCTUnwrap(other.presentation(of: layer, at: 0.5))
        XCTAssertEqual(again.opacity, 0.5, accuracy: 1e-6)
        XCTAssertEqual(layer.animationKeys(), ["f"])
        _ = try other.presentation(of: layer, at: 3)
        XCTAssertEqual(rec.events, ["start f @0.0", "stop f true @1.0"])
        XCTAssertNil(layer.animationKeys())
    }

    func testRemovalAndReplacementReportUnfinished() throws {
        let (scene, _, box) = makeScene()
        let rec = Recorder()
        let kept = fade(2)
        kept.isRemovedOnCompletion = false
        scene.at(1) {
            box.add(self.named(self.fade(5), "a", delegate: rec), forKey: "a")
            box.add(self.named(kept, "kept", delegate: rec), forKey: "kept")
        }
        scene.at(2) { box.removeAnimation(forKey: "a") }
        scene.at(2.5) { box.add(self.named(self.fade(1), "b1", delegate: rec), forKey: "b") }
        scene.at(3) { box.add(self.named(self.fade(1), "b2", delegate: rec), forKey: "b") }   // replaces b1
        _ = try scene.presentation(of: box, at: 20)
        XCTAssertEqual(rec.events, ["start a @1.0", "start kept @1.0", "stop a false @2.0", "start b1 @2.5",
                                    "stop kept true @3.0", "stop b1 false @3.0", "start b2 @3.0", "stop b2 true @4.0"])
        XCTAssertEqual(box.animationKeys(), ["kept"])  // not removed on completion
    }

    func testCompletionBlocksWaitForTheirAnimationsAndCanScheduleMore() throws {
        let (scene, _, box) = makeScene()
        var log: [String] = []
        scene.at(1) {
            CATransaction.begin()
            CATransaction.setCompletionBlock {
                log.append("outer @\(CACurrentMediaTime())")
                box.position = CGPoint(x: 150, y: 50)   // animates implicitly from here
            }
            CATransaction.setAnimationDuration(2)
            box.opacity = 0.5                           // ends at 3
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.5)
            CATransaction.setCompletionBlock { log.append("inner @\(CACurrentMediaTime())") }
            box.cornerRadius = 4                         // ends at 1.5
            CATransaction.commit()
            CATransaction.commit()
        }
        scene.at(2) {
            CATransaction.setCompletionBlock { log.append("no animations @\(CACurrentMediaTime())") }
        }
        _ = try scene.presentation(of: box, at: 3.1)
        XCTAssertEqual(log, ["inner @1.5", "no animations @2.0", "outer @3.0"])
        // The position change made in the completion block animates from 3.0 (0.25 s, default timing).
        let p = try XCTUnwrap(scene.presentation(of: box, at: 3.125))
        let f = CAMediaTimingFunction(name: .default).evaluate(0.5)
        XCTAssertEqual(Double(p.position.x), 10 + 140 * f, accuracy: 1e-9)
    }

    func testCompletionWaitsForeverOnRepeatingAnimationsUntilRemoved() throws {
        let (scene, _, box) = makeScene()
        var done: Double?
        scene.at(1) {
            CATransaction.setCompletionBlock { done = CACurrentMediaTime() }
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.byValue = CGFloat.pi; spin.duration = 1; spin.repeatCount = .infinity
            box.add(spin, forKey: "spin")
        }
        _ = try scene.presentation(of: box, at: 5)
        XCTAssertNil(done)
        scene.at(6) { box.removeAllAnimations() }
        _ = try scene.presentation(of: box, at: 7)
        XCTAssertEqual(done, 6)
    }

    func testActionSearchOrderAndNSNull() throws {
        let (scene, _, box) = makeScene()
        let rec = Recorder()
        let viaDelegate = MarkAction(), viaActions = MarkAction(), viaStyle = MarkAction()
        box.delegate = rec
        rec.actionsByKey = ["opacity": viaDelegate, "position": NSNull()]
        box.actions = ["opacity": viaActions, "position": viaActions, "bounds": viaActions]
        box.style = ["actions": ["bounds": viaStyle, "cornerRadius": viaStyle] as [String: CAAction]]
        XCTAssertTrue(box.action(forKey: "opacity") as? MarkAction === viaDelegate)
        XCTAssertNil(box.action(forKey: "position"))                                     // NSNull stops
        XCTAssertTrue(box.action(forKey: "bounds") as? MarkAction === viaActions)
        XCTAssertTrue(box.action(forKey: "cornerRadius") as? MarkAction === viaStyle)
        XCTAssertEqual((box.action(forKey: "borderWidth") as? CABasicAnimation)?.keyPath, "borderWidth")  // default
        XCTAssertTrue(box.action(forKey: "contents") is CATransition)
        XCTAssertNil(box.action(forKey: "masksToBounds"))
        scene.at(1) {
            box.opacity = 0.5
            box.position = CGPoint(x: 90, y: 90)
            box.cornerRadius = 3
            box.borderWidth = 2
        }
        _ = try scene.presentation(of: box, at: 1)
        XCTAssertEqual(viaDelegate.runs, ["opacity"])
        XCTAssertEqual(viaActions.runs, [])
        XCTAssertEqual(viaStyle.runs, ["cornerRadius"])
        XCTAssertEqual(box.animationKeys(), ["borderWidth"])   // position: NSNull, nothing added
    }

    func testActionDictionaryAnimationWithoutValuesRunsFromThePreviousValue() throws {
        let (scene, _, box) = makeScene()
        let slow = CABasicAnimation()   // no key path, no values: Core Animation fills both in
        slow.duration = 2
        box.actions = ["opacity": slow]
        scene.at(1) { box.opacity = 0 }
        let p = try XCTUnwrap(scene.presentation(of: box, at: 2))
        XCTAssertEqual(p.opacity, 0.5, accuracy: 1e-6)
        XCTAssertEqual((box.animation(forKey: "opacity") as? CABasicAnimation)?.keyPath, "opacity")
        XCTAssertNil(slow.keyPath)  // the dictionary's object is not changed
    }

    func testOrderInAndOutActions() throws {
        let (scene, root, _) = makeScene()
        let badge = CALayer()
        badge.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        let appear = CABasicAnimation(keyPath: "opacity")
        appear.fromValue = 0; appear.duration = 1
        let mark = MarkAction()
        badge.actions = [kCAOnOrderIn: appear, kCAOnOrderOut: mark]
        root.addSublayer(badge)            // while building: no action
        badge.removeFromSuperlayer()
        XCTAssertNil(badge.animationKeys())
        scene.at(1) { root.addSublayer(badge) }
        let p = try XCTUnwrap(scene.presentation(of: badge, at: 1.5))
        XCTAssertEqual(p.opacity, 0.5, accuracy: 1e-6)
        scene.at(3) { badge.removeFromSuperlayer() }
        _ = try scene.presentation(of: root, at: 3)
        XCTAssertEqual(mark.runs, [kCAOnOrderOut])
    }

    func testDisableActionsAndNestedSettings() throws {
        let (scene, _, box) = makeScene()
        scene.at(1) {
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            box.opacity = 0.5                       // animates over 2 s
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            box.cornerRadius = 5                    // jumps
            XCTAssertEqual(CATransaction.animationDuration(), 2)   // inherited
            CATransaction.commit()
            box.borderWidth = 4                     // animates again (inner setting gone), 2 s
            CATransaction.commit()
        }
        let p = try XCTUnwrap(scene.presentation(of: box, at: 2))
        XCTAssertEqual(p.cornerRadius, 5)
        XCTAssertEqual(box.animationKeys(), ["opacity", "borderWidth"])
        XCTAssertEqual(box.animation(forKey: "borderWidth")?.duration, 2)
    }

    func testInterruptedImplicitAnimationContinuesFromThePresentedValue() throws {
        let (scene, _, box) = makeScene()
        scene.at(1) {
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            box.position = CGPoint(x: 110, y: 10)   // from x 10
        }
        var presentedBefore = 0.0
        scene.at(1.5) {
            presentedBefore = Double(box.presentation()!.position.x)   // 60, mid-flight
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            box.position = CGPoint(x: 10, y: 10)    // turn back
        }
        let at15 = try XCTUnwrap(scene.presentation(of: box, at: 1.5))
        XCTAssertEqual(presentedBefore, 60, accuracy: 1e-9)
        XCTAssertEqual(Double(at15.position.x), 60, accuracy: 1e-9)   // no jump
        let at2 = try XCTUnwrap(scene.presentation(of: box, at: 2))
        XCTAssertEqual(Double(at2.position.x), 35, accuracy: 1e-9)    // 60 → 10 over 1 s
        XCTAssertEqual(box.animationKeys(), ["position"])              // replaced, not stacked
    }

    func testSeedsPauseAndResumeRecipeVerbatim() throws {
        let (scene, _, box) = makeScene()
        let rec = Recorder()
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 0; move.toValue = 100; move.duration = 10
        box.add(named(move, "move", delegate: rec), forKey: "move")
        let layer = box
        scene.at(2) {
            // pause
            let pauseTime = layer.convertTime(CACurrentMediaTime(), from: nil)
            layer.speed = 0
            layer.timeOffset = pauseTime
        }
        scene.at(5) {
            // resume
            let pausedTime = layer.timeOffset
            layer.speed = 1
            layer.timeOffset = 0
            layer.beginTime = 0
            let continueTime = layer.convertTime(CACurrentMediaTime(), from: nil)
            let timePause = continueTime - pausedTime
            layer.beginTime = timePause
        }
        for (t, x) in [(1.0, 10.0), (2, 20), (4, 20), (5, 20), (6, 30), (12.9, 99)] {
            XCTAssertEqual(Double(try XCTUnwrap(scene.presentation(of: box, at: t)).position.x), x, accuracy: 1e-9, "t = \(t)")
        }
        _ = try scene.presentation(of: box, at: 20)
        // The stop moved from 10 to 13 with the 3 paused seconds.
        XCTAssertEqual(rec.events, ["start move @0.0", "stop move true @13.0"])
    }

    func testPresentationInsideABlockAndModelLayer() throws {
        let (scene, _, box) = makeScene()
        box.add(fade(2), forKey: "fade")
        var seen: Float = -1
        var model: CALayer?
        scene.at(1) {
            let p = box.presentation()!
            seen = p.opacity
            model = p.modelLayer
        }
        _ = try scene.presentation(of: box, at: 1)
        XCTAssertEqual(seen, 0.5, accuracy: 1e-6)
        XCTAssertTrue(model === box)
    }

    func testUnknownKeyPathInAnActionIsAClearError() {
        let layer = CALayer()
        let a = CAKeyframeAnimation(keyPath: "frame.origin")
        a.values = [CGPoint.zero, CGPoint(x: 1, y: 1)]
        XCTAssertThrowsError(try layer.addChecked(a, forKey: nil)) { e in
            XCTAssertEqual("\(e)", "unknown animatable key path 'frame.origin' on CALayer")
        }
    }

    /// The seeds' example: a container, the bezier stroked by a shape layer, and an airplane
    /// flying along it with `rotationMode = .rotateAuto` inside a group that also turns its
    /// background red; four frames of one cycle in a 2 × 2 sheet.
    func testSeedsAirplaneAlongABezierInAGroup() throws {
        let size = CGSize(width: 320, height: 300)
        let container = CALayer()
        container.frame = CGRect(origin: .zero, size: size)
        container.backgroundColor = CGColor(gray: 0.83, alpha: 1)
        let bezierPath = BezierPath()
        bezierPath.move(to: CGPoint(x: 0, y: 150))
        bezierPath.addCurve(to: CGPoint(x: 320, y: 150), controlPoint1: CGPoint(x: 75, y: 0), controlPoint2: CGPoint(x: 225, y: 300))
        let pathLayer = CAShapeLayer()
        pathLayer.path = bezierPath.cgPath
        pathLayer.fillColor = .clear
        pathLayer.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        pathLayer.lineWidth = 3
        container.addSublayer(pathLayer)
        // The airplane: a 64 × 64 layer whose artwork points right (+x), as rotateAuto expects.
        let airLayer = CALayer()
        airLayer.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        airLayer.position = CGPoint(x: 0, y: 150)
        let plane = CGMutablePath()
        plane.addLines(between: [CGPoint(x: 60, y: 32), CGPoint(x: 44, y: 27), CGPoint(x: 30, y: 8), CGPoint(x: 24, y: 8),
                                 CGPoint(x: 30, y: 27), CGPoint(x: 12, y: 28), CGPoint(x: 6, y: 18), CGPoint(x: 2, y: 18),
                                 CGPoint(x: 6, y: 32), CGPoint(x: 2, y: 46), CGPoint(x: 6, y: 46), CGPoint(x: 12, y: 36),
                                 CGPoint(x: 30, y: 37), CGPoint(x: 24, y: 56), CGPoint(x: 30, y: 56), CGPoint(x: 44, y: 37)])
        plane.closeSubpath()
        let artwork = CAShapeLayer()
        artwork.frame = airLayer.bounds
        artwork.path = plane
        artwork.fillColor = CGColor(red: 0.1, green: 0.2, blue: 0.5, alpha: 1)
        airLayer.addSublayer(artwork)
        container.addSublayer(airLayer)

        let animation = CAKeyframeAnimation()
        animation.keyPath = "position"
        animation.duration = 4.0
        animation.path = bezierPath.cgPath
        animation.rotationMode = kCAAnimationRotateAuto
        let baseAnimation = CABasicAnimation()
        baseAnimation.keyPath = "backgroundColor"
        baseAnimation.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let group = CAAnimationGroup()
        group.animations = [animation, baseAnimation]
        group.duration = 4.0
        group.repeatCount = .infinity
        airLayer.add(group, forKey: nil)

        let scene = Scene(rootLayer: container, size: size, frameRate: 30, duration: 8)
        var sheet = Bitmap(width: 640, height: 600)
        for (i, t) in [0.5, 1.5, 2.5, 5.5].enumerated() {   // 5.5: the second cycle repeats 1.5
            let frame = try scene.renderFrame(at: t)
            for y in 0..<300 { for x in 0..<320 { sheet.setPixel(x: (i % 2) * 320 + x, y: (i / 2) * 300 + y, frame.pixel(x: x, y: y)) } }
        }
        assertReferenceImage(sheet, named: "seeds_airplane")
        // The plane sits on the curve and faces along it.
        let p = try XCTUnwrap(scene.presentation(of: airLayer, at: 6))  // second cycle, halfway
        // Linear mode: halfway in time is parameter 0.5 of the curve, B(0.5) = (P0 + 3C1 + 3C2 + P1) / 8,
        // heading along B'(0.5) = 0.75·(C1 − P0) + 1.5·(C2 − C1) + 0.75·(P1 − C2) = (352.5, 225).
        XCTAssertEqual(Double(p.position.x), 152.5, accuracy: 1e-9)
        XCTAssertEqual(Double(p.position.y), 150, accuracy: 1e-9)
        let heading = atan2(Double(p.transform.m12), Double(p.transform.m11))
        XCTAssertEqual(heading, atan2(225, 352.5), accuracy: 1e-9)
    }
}
