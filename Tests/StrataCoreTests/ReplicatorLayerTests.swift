// CAReplicatorLayer: Apple's defaults, key-value coding and animatable keys, and the instances a
// snapshot expands to — positions of cumulative transforms about the replicator's centre, the
// modulation colours (instanceColor plus k offsets, clamped), instanceDelay against instance
// times worked out by hand, nested replicators (a grid), preservesDepth, instanceCount 0 and its
// limit, and hit testing (instance 0 only, as Apple's header says).
import Foundation
import XCTest
import StrataCore

/// The centre of every sublayer of `snap`, in `snap`'s own coordinates.
private func centres(_ snap: LayerSnapshot) -> [CGPoint] {
    snap.sublayers.map { s in
        let m = s.localToParent.concatenating(snap.sublayerToLocal)
        let p = m.project(CGPoint(x: s.bounds.midX, y: s.bounds.midY))
        return CGPoint(x: p.x / p.w, y: p.y / p.w)
    }
}

private func assertPoints(_ a: [CGPoint], _ b: [CGPoint], accuracy: CGFloat = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, file: file, line: line)
    for (p, q) in zip(a, b) {
        XCTAssertEqual(p.x, q.x, accuracy: accuracy, "\(a)", file: file, line: line)
        XCTAssertEqual(p.y, q.y, accuracy: accuracy, "\(a)", file: file, line: line)
    }
}

private func ring(count: Int, angle: CGFloat) -> (CALayer, CAReplicatorLayer, CALayer) {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
    let r = CAReplicatorLayer()
    r.frame = CGRect(x: 100, y: 100, width: 200, height: 200)
    r.instanceCount = count
    r.instanceTransform = CATransform3DMakeRotation(angle, 0, 0, 1)
    root.addSublayer(r)
    let dot = CALayer()
    dot.frame = CGRect(x: 95, y: 10, width: 10, height: 10)
    dot.backgroundColor = .white
    r.addSublayer(dot)
    return (root, r, dot)
}

final class ReplicatorLayerTests: XCTestCase {
    func testDefaultsAreApples() {
        let r = CAReplicatorLayer()
        XCTAssertEqual(r.instanceCount, 1)
        XCTAssertEqual(r.instanceDelay, 0)
        XCTAssertTrue(r.instanceTransform.isIdentity)
        XCTAssertEqual(r.instanceColor, CGColor.white)
        XCTAssertEqual([r.instanceRedOffset, r.instanceGreenOffset, r.instanceBlueOffset, r.instanceAlphaOffset], [0, 0, 0, 0])
        XCTAssertFalse(r.preservesDepth)
    }

    func testKeyValueCodingAndAnimatableKeys() throws {
        let r = CAReplicatorLayer()
        r.setValue(5, forKey: "instanceCount")
        r.setValue(0.25, forKey: "instanceDelay")
        r.setValue(-0.1, forKey: "instanceBlueOffset")
        XCTAssertEqual(r.instanceCount, 5)
        XCTAssertEqual(r.instanceDelay, 0.25)
        XCTAssertEqual(r.instanceBlueOffset, -0.1)
        r.setValue(CGFloat.pi / 5, forKeyPath: "instanceTransform.rotation.z")
        XCTAssertEqual(r.value(forKeyPath: "instanceTransform.rotation.z") as? CGFloat ?? 0, .pi / 5, accuracy: 1e-12)
        for key in ["instanceCount", "instanceDelay", "instanceTransform", "instanceColor", "instanceRedOffset",
                    "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset", "instanceTransform.translation.x"] {
            XCTAssertNotNil(r.animatableKind(forKeyPath: key), key)
        }
        let a = CABasicAnimation(keyPath: "instanceTransform.rotation.z")
        a.toValue = CGFloat.pi
        XCTAssertNoThrow(try r.addChecked(a, forKey: "spin"))
    }

    func testRingOfInstancesTurnsAboutTheCentre() {
        // Four dots at 90° steps: the dot's centre (100, 15) turned clockwise (y down) about the
        // replicator's centre (100, 100): (185, 100), (100, 185), (15, 100).
        let (root, _, _) = ring(count: 4, angle: .pi / 2)
        let snap = PresentationBuilder(time: 0).snapshotTree(of: root).sublayers[0]
        assertPoints(centres(snap), [CGPoint(x: 100, y: 15), CGPoint(x: 185, y: 100), CGPoint(x: 100, y: 185),
                                     CGPoint(x: 15, y: 100)])
        // The dots' own rotation is the instance's: the last one is turned 270°.
        XCTAssertEqual(snap.sublayers[3].transform.value(forVirtualKey: "rotation.z") ?? 0, -.pi / 2, accuracy: 1e-9)
    }

    func testSeedsRingTranslatesThenTurnsEachStep() {
        // Seed 000 §5.5: t = Rotate(Translate(I, 0, 10, 0), π/5): each step turns 36° then moves
        // 10 down (CATransform3DRotate puts the new rotation first), about the centre of a
        // 390 × 200 replicator (195, 100). The square's centre (25, 25): relative (−170, −75).
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 390, height: 400)
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 200, width: 390, height: 200)
        r.instanceCount = 10
        var t = CATransform3DIdentity
        t = CATransform3DTranslate(t, 0, 10, 0)
        t = CATransform3DRotate(t, .pi / 5, 0, 0, 1)
        r.instanceTransform = t
        root.addSublayer(r)
        let square = CALayer()
        square.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        r.addSublayer(square)
        let got = centres(PresentationBuilder(time: 0).snapshotTree(of: root).sublayers[0])
        var expected: [CGPoint] = []
        var p = (x: -170.0, y: -75.0)
        for _ in 0..<10 {
            expected.append(CGPoint(x: 195 + p.x, y: 100 + p.y))
            let c = cos(Double.pi / 5), s = sin(Double.pi / 5)
            p = (p.x * c - p.y * s, p.x * s + p.y * c + 10)
        }
        assertPoints(got, expected, accuracy: 1e-9)
    }

    func testModulationColoursAddTheOffsetsAndClamp() {
        let r = CAReplicatorLayer()
        r.instanceColor = CGColor(red: 1, green: 0.5, blue: 1, alpha: 1)
        r.instanceRedOffset = -0.25
        r.instanceAlphaOffset = -0.3
        func near(_ a: RGBA, _ b: RGBA) -> Bool {
            abs(a.r - b.r) < 1e-6 && abs(a.g - b.g) < 1e-6 && abs(a.b - b.b) < 1e-6 && abs(a.a - b.a) < 1e-6
        }
        XCTAssertTrue(near(r.modulationColor(ofInstance: 0), RGBA(r: 1, g: 0.5, b: 1, a: 1)))
        XCTAssertTrue(near(r.modulationColor(ofInstance: 2), RGBA(r: 0.5, g: 0.5, b: 1, a: 0.4)))
        XCTAssertTrue(near(r.modulationColor(ofInstance: 5), RGBA(r: 0, g: 0.5, b: 1, a: 0)))
        // In the snapshot: instance 0 keeps no multiplier when the colour is white.
        let (root, rep, _) = ring(count: 3, angle: 0.1)
        rep.instanceGreenOffset = -0.5
        let snap = PresentationBuilder(time: 0).snapshotTree(of: root).sublayers[0]
        XCTAssertEqual(snap.sublayers.map(\.colorMultiplier), [nil, RGBA(r: 1, g: 0.5, b: 1, a: 1), RGBA(r: 1, g: 0, b: 1, a: 1)])
    }

    func testInstanceDelayShiftsEachInstancesTime() {
        // position.x 0 → 100 over 1 s from t = 0, three instances 0.25 s apart. At t = 0.5 the
        // instances are at local times 0.5, 0.25, 0.0: x = 50, 25, 0. At t = 0.1, instance 2 is at
        // −0.4: the animation has not begun, so it shows the model value 200 (no backwards fill).
        let (root, r, dot) = ring(count: 3, angle: 0)
        r.instanceDelay = 0.25
        dot.position = CGPoint(x: 200, y: 50)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 0
        move.toValue = 100
        move.duration = 1
        dot.add(move, forKey: "move")
        let at05 = PresentationBuilder(time: 0.5).snapshotTree(of: root).sublayers[0].sublayers.map(\.position.x)
        XCTAssertEqual(at05.count, 3)
        for (got, want) in zip(at05, [50.0, 25.0, 0.0]) { XCTAssertEqual(Double(got), want, accuracy: 1e-9) }
        let at01 = PresentationBuilder(time: 0.1).snapshotTree(of: root).sublayers[0].sublayers.map(\.position.x)
        for (got, want) in zip(at01, [10.0, 200.0, 200.0]) { XCTAssertEqual(Double(got), want, accuracy: 1e-9) }
        XCTAssertEqual(r.timeShift(ofInstance: 2), 0.5)
        // Without a delay the instances share one evaluation.
        r.instanceDelay = 0
        let same = PresentationBuilder(time: 0.5).snapshotTree(of: root).sublayers[0].sublayers.map(\.position.x)
        XCTAssertEqual(same, [50, 50, 50])
    }

    func testNestedReplicatorsMakeAGrid() {
        // Apple's example: a row of 3 (110 apart) replicated 2 times 110 down; red falls by half
        // per row and blue by 0.25 per column.
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        let outer = CAReplicatorLayer()
        outer.frame = root.bounds
        outer.instanceCount = 2
        outer.instanceTransform = CATransform3DMakeTranslation(0, 110, 0)
        outer.instanceRedOffset = -0.5
        let inner = CAReplicatorLayer()
        inner.frame = outer.bounds
        inner.instanceCount = 3
        inner.instanceTransform = CATransform3DMakeTranslation(110, 0, 0)
        inner.instanceBlueOffset = -0.25
        let square = CALayer()
        square.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        inner.addSublayer(square)
        outer.addSublayer(inner)
        root.addSublayer(outer)
        let outerSnap = PresentationBuilder(time: 0).snapshotTree(of: root).sublayers[0]
        XCTAssertEqual(outerSnap.sublayers.count, 2)
        var cells: [(CGPoint, RGBA)] = []
        for innerSnap in outerSnap.sublayers {
            let toOuter = innerSnap.localToParent.concatenating(outerSnap.sublayerToLocal)
            for s in innerSnap.sublayers {
                let m = s.localToParent.concatenating(innerSnap.sublayerToLocal).concatenating(toOuter)
                let p = m.project(CGPoint(x: 50, y: 50))
                let a = innerSnap.colorMultiplier ?? RGBA(r: 1, g: 1, b: 1, a: 1), b = s.colorMultiplier ?? RGBA(r: 1, g: 1, b: 1, a: 1)
                cells.append((CGPoint(x: p.x / p.w, y: p.y / p.w), RGBA(r: a.r * b.r, g: a.g * b.g, b: a.b * b.b, a: a.a * b.a)))
            }
        }
        assertPoints(cells.map(\.0), [CGPoint(x: 50, y: 50), CGPoint(x: 160, y: 50), CGPoint(x: 270, y: 50),
                                      CGPoint(x: 50, y: 160), CGPoint(x: 160, y: 160), CGPoint(x: 270, y: 160)])
        XCTAssertEqual(cells.map(\.1.r), [1, 1, 1, 0.5, 0.5, 0.5])
        XCTAssertEqual(cells.map(\.1.b), [1, 0.75, 0.5, 1, 0.75, 0.5])
    }

    func testPreservesDepthMakesATransformLayerAndZeroInstancesDrawNothing() {
        let (root, r, _) = ring(count: 3, angle: 0.5)
        XCTAssertFalse(PresentationBuilder(time: 0).snapshotTree(of: root).sublayers[0].isTransformLayer)
        r.preservesDepth = true
        XCTAssertTrue(PresentationBuilder(time: 0).snapshotTree(of: root).sublayers[0].isTransformLayer)
        r.instanceCount = 0
        XCTAssertTrue(PresentationBuilder(time: 0).snapshotTree(of: root).sublayers[0].sublayers.isEmpty)
        r.instanceCount = -4
        XCTAssertTrue(PresentationBuilder(time: 0).snapshotTree(of: root).sublayers[0].sublayers.isEmpty)
    }

    func testInstanceLimitDrawsTheFirstInstancesAndReportsTheLayer() {
        let (root, r, _) = ring(count: 50, angle: 0.1)
        r.name = "dots"
        let report = SnapshotReport(limits: SnapshotLimits(replicatorInstances: 20))
        let snap = PresentationBuilder(time: 0, report: report).snapshotTree(of: root).sublayers[0]
        XCTAssertEqual(snap.sublayers.count, 20)
        // A build without the report has the default limit and records nothing in it.
        XCTAssertEqual(PresentationBuilder(time: 0).snapshotTree(of: root).sublayers[0].sublayers.count, 50)
        let issues = report.issues
        XCTAssertEqual(issues.count, 1)
        XCTAssertEqual(issues.first, SnapshotIssue(what: "CAReplicatorLayer 'dots' with instanceCount 50",
                                                   limit: 20, limitName: "instances"))
    }

    func testHitTestingSeesOnlyInstanceZero() {
        // As Apple's header notes: the copies are drawn, not hit.
        let (root, _, dot) = ring(count: 4, angle: .pi / 2)
        dot.name = "dot"
        XCTAssertTrue(root.hitTest(CGPoint(x: 200, y: 115)) === dot)              // instance 0
        XCTAssertFalse(root.hitTest(CGPoint(x: 285, y: 200)) === dot)             // instance 1: the replicator
        XCTAssertTrue(root.hitTest(CGPoint(x: 285, y: 200)) is CAReplicatorLayer)
        // convert goes through the sublayers themselves.
        XCTAssertEqual(dot.convert(CGPoint(x: 5, y: 5), to: root), CGPoint(x: 200, y: 115))
    }

    func testTransformOfInstanceIsTheCumulativeStepAboutTheCentre() {
        let (_, r, _) = ring(count: 4, angle: .pi / 2)
        let m = r.transform(ofInstance: 2)
        let p = m.project(CGPoint(x: 100, y: 15))
        XCTAssertEqual(p.x / p.w, 100, accuracy: 1e-9)
        XCTAssertEqual(p.y / p.w, 185, accuracy: 1e-9)
        XCTAssertTrue(r.transform(ofInstance: 0).isIdentity)
    }
}
