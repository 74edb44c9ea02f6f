// CAEmitterLayer and CAEmitterCell: Apple's defaults, key paths (`emitterCells.NAME.KEY`), and
// the closed-form particles — positions at chosen times worked out by hand, ranges within
// [mean − range, mean + range], alpha speed and lifetime, the layer's multipliers, emitter
// shapes and modes, sub-cells (positions, directions and colours relative to their parent),
// animated birth rates, the particle limit, render-mode ordering, the numbering of images in
// drawing order, and determinism: the same
// particles whether a time is evaluated alone, after others, or in any order.
import Foundation
import XCTest
import StrataCore

private let dotImage: CGImage = {
    var b = Bitmap(width: 4, height: 4)
    for i in 0..<(b.width * b.height) { b.pixels[4 * i] = 255; b.pixels[4 * i + 1] = 255; b.pixels[4 * i + 2] = 255; b.pixels[4 * i + 3] = 255 }
    return CGImage(bitmap: b)
}()

private func scene(_ configure: (CAEmitterLayer, CAEmitterCell) -> Void) -> (CALayer, CAEmitterLayer, CAEmitterCell) {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
    let e = CAEmitterLayer()
    e.frame = root.bounds
    e.emitterPosition = CGPoint(x: 50, y: 50)
    let cell = CAEmitterCell()
    cell.name = "fire"
    cell.contents = dotImage
    cell.birthRate = 2
    cell.lifetime = 10
    configure(e, cell)
    e.emitterCells = [cell]
    root.addSublayer(e)
    return (root, e, cell)
}

private func particles(_ root: CALayer, at t: Double, report: SnapshotReport? = nil) -> [ParticleSnapshot] {
    PresentationBuilder(time: t, report: report).snapshotTree(of: root).sublayers[0].particles?.particles ?? []
}

final class EmitterLayerTests: XCTestCase {
    func testDefaultsAreApples() {
        let e = CAEmitterLayer()
        XCTAssertNil(e.emitterCells)
        XCTAssertEqual([e.birthRate, e.lifetime, e.velocity, e.scale, e.spin], [1, 1, 1, 1, 1])
        XCTAssertEqual(e.emitterPosition, .zero)
        XCTAssertEqual(e.emitterZPosition, 0)
        XCTAssertEqual(e.emitterSize, .zero)
        XCTAssertEqual(e.emitterDepth, 0)
        XCTAssertEqual(e.emitterShape, .point)
        XCTAssertEqual(e.emitterMode, .volume)
        XCTAssertEqual(e.renderMode, .unordered)
        XCTAssertFalse(e.preservesDepth)
        XCTAssertEqual(e.seed, 0)
        let c = CAEmitterCell()
        XCTAssertNil(c.name)
        XCTAssertTrue(c.isEnabled)
        XCTAssertEqual([c.birthRate, c.lifetime, c.lifetimeRange], [0, 0, 0])
        XCTAssertEqual([c.emissionLatitude, c.emissionLongitude, c.emissionRange, c.velocity, c.velocityRange,
                        c.xAcceleration, c.yAcceleration, c.zAcceleration, c.scaleRange, c.scaleSpeed, c.spin, c.spinRange],
                       [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(c.scale, 1)
        XCTAssertEqual(c.color, CGColor.white)
        XCTAssertEqual([c.redRange, c.greenRange, c.blueRange, c.alphaRange, c.redSpeed, c.greenSpeed, c.blueSpeed, c.alphaSpeed],
                       [0, 0, 0, 0, 0, 0, 0, 0])
        XCTAssertNil(c.contents)
        XCTAssertEqual(c.contentsRect, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(c.contentsScale, 1)
        XCTAssertEqual(c.minificationFilter, "linear")
        XCTAssertNil(c.emitterCells)
        XCTAssertEqual(c.duration, 0)
        XCTAssertEqual(c.speed, 1)
        XCTAssertEqual(CAEmitterCell.defaultValue(forKey: "scale") as? CGFloat, 1)
        XCTAssertEqual(kCAEmitterLayerAdditive, .additive)
        XCTAssertEqual(kCAEmitterLayerSphere.rawValue, "sphere")
    }

    func testKeyPathsReachNamedCells() throws {
        let (root, e, cell) = scene { _, _ in }
        let spark = CAEmitterCell()
        spark.name = "spark"
        cell.emitterCells = [spark]
        e.setValue(7, forKeyPath: "emitterCells.fire.birthRate")
        XCTAssertEqual(cell.birthRate, 7)
        XCTAssertEqual(e.value(forKeyPath: "emitterCells.fire.birthRate") as? CGFloat, 7)
        e.setValue(CGColor(red: 1, green: 0, blue: 0, alpha: 1), forKeyPath: "emitterCells.fire.emitterCells.spark.color")
        XCTAssertEqual(spark.color, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        XCTAssertEqual(e.animatableKind(forKeyPath: "emitterCells.fire.velocity"), .number)
        XCTAssertNil(e.animatableKind(forKeyPath: "emitterCells.nobody.velocity"))
        let a = CABasicAnimation(keyPath: "emitterCells.fire.birthRate")
        a.fromValue = 0; a.toValue = 10
        XCTAssertNoThrow(try e.addChecked(a, forKey: "ramp"))
        XCTAssertThrowsError(try e.addChecked(CABasicAnimation(keyPath: "emitterCells.nobody.birthRate"), forKey: "x"))
        // The cell's own KVC, and its presentation: copies of the cells, animated.
        cell.setValue(3.5, forKey: "lifetime")
        XCTAssertEqual(cell.lifetime, 3.5)
        XCTAssertEqual(cell.value(forKey: "lifetime") as? CGFloat, 3.5)
        let copy = PresentationBuilder(time: 0.125).presentationTree(of: root).sublayers![0] as! CAEmitterLayer
        XCTAssertEqual(copy.emitterCells?[0].birthRate ?? -1, 5, accuracy: 1e-6)    // halfway through 0.25 s
        XCTAssertEqual(cell.birthRate, 7)                                               // the model's is untouched
    }

    func testPositionsAtChosenTimesAreTheBallisticFormula() {
        // birthRate 2: births at 0, 0.5, 1.0, …; velocity 100 along +x, gravity 40 down.
        // At t = 1.25 the three particles have ages 1.25, 0.75, 0.25:
        // x = 50 + 100a = 175, 125, 75;  y = 50 + 20a² = 81.25, 61.25, 51.25.
        let (root, _, _) = scene { _, c in
            c.velocity = 100
            c.yAcceleration = 40
        }
        let ps = particles(root, at: 1.25)
        XCTAssertEqual(ps.count, 3)
        let expected: [(Double, Double, Double)] = [(0, 175, 81.25), (0.5, 125, 61.25), (1.0, 75, 51.25)]
        for (p, e) in zip(ps, expected) {
            XCTAssertEqual(p.birthTime, e.0, accuracy: 1e-9)
            XCTAssertEqual(Double(p.x), e.1, accuracy: 1e-4)
            XCTAssertEqual(Double(p.y), e.2, accuracy: 1e-4)
            XCTAssertEqual(p.scale, 1)
            XCTAssertEqual(p.rotation, 0)
            XCTAssertEqual(p.color, RGBA(r: 1, g: 1, b: 1, a: 1))
        }
        // At t = 0 exactly, the first particle is born at the emitter.
        let first = particles(root, at: 0)
        XCTAssertEqual(first.count, 1)
        XCTAssertEqual(first.first?.x, 50)
    }

    func testLongitudeTurnsClockwiseAndSpinScaleColourFollowTheirSpeeds() {
        // Longitude −π/2: straight up (y down). Spin 1 rad/s × layer spin 2; scale 0.5 + 0.25/s;
        // red from 1 falling 0.5/s; alpha from 1 falling 0.4/s.
        let (root, e, _) = scene { e, c in
            c.birthRate = 1
            c.velocity = 10
            c.emissionLongitude = -.pi / 2
            c.spin = 1
            c.scale = 0.5
            c.scaleSpeed = 0.25
            c.redSpeed = -0.5
            c.alphaSpeed = -0.4
            e.spin = 2
        }
        _ = e
        let p = particles(root, at: 1.5)
        XCTAssertEqual(p.count, 2)                          // born at 0 and 1
        let old = p[0]
        XCTAssertEqual(Double(old.x), 50, accuracy: 1e-4)
        XCTAssertEqual(Double(old.y), 35, accuracy: 1e-4)  // 50 − 10 × 1.5
        XCTAssertEqual(Double(old.rotation), 3, accuracy: 1e-5)
        XCTAssertEqual(Double(old.scale), 0.875, accuracy: 1e-6)
        XCTAssertEqual(Double(old.color.r), 0.25, accuracy: 1e-6)
        XCTAssertEqual(Double(old.color.a), 0.4, accuracy: 1e-6)
        // At 2.6 the first particle's alpha is 1 − 1.04 < 0: no longer drawn.
        XCTAssertEqual(particles(root, at: 2.6).map(\.birthTime), [1, 2])
    }

    func testRangesAreUniformAroundTheMean() {
        // velocity 50 ± 25 (range 25, Apple's ± range), along +x: every speed in [25, 75], spread over it.
        let (root, _, _) = scene { _, c in
            c.birthRate = 200
            c.lifetime = 5
            c.velocity = 50
            c.velocityRange = 25
            c.lifetimeRange = 2
        }
        let ps = particles(root, at: 1)
        XCTAssertGreaterThan(ps.count, 150)
        let speeds = ps.filter { $0.age > 0.05 }.map { (Double($0.x) - 50) / Double($0.age) }
        XCTAssertGreaterThanOrEqual(speeds.min()!, 25 - 1e-3)
        XCTAssertLessThanOrEqual(speeds.max()!, 75 + 1e-3)
        XCTAssertLessThan(speeds.min()!, 27)
        XCTAssertGreaterThan(speeds.max()!, 73)
        let mean = speeds.reduce(0, +) / Double(speeds.count)
        XCTAssertEqual(mean, 50, accuracy: 3)
    }

    func testLayerMultipliers() {
        let (root, e, _) = scene { _, c in c.velocity = 10 }
        e.birthRate = 2
        e.velocity = 3
        e.lifetime = 0.5          // 10 s × 0.5
        let ps = particles(root, at: 6)
        // 4 per second for 6 s, born at 0, 0.25, …; alive while younger than 5 s: ages ≤ 5.
        XCTAssertEqual(ps.count, 20)                        // born 1.25 … 6.0 (age 5 is dead)
        XCTAssertEqual(ps.first!.birthTime, 1.25, accuracy: 1e-9)
        XCTAssertEqual(Double(ps.last!.x), 50, accuracy: 1e-4)
        XCTAssertEqual(Double(ps.first!.x), 50 + 30 * 4.75, accuracy: 1e-3)
    }

    func testEmitterShapesAndModes() {
        func positions(_ shape: CAEmitterLayerEmitterShape, _ mode: CAEmitterLayerEmitterMode,
                       size: CGSize = CGSize(width: 100, height: 60), depth: CGFloat = 40) -> [ParticleSnapshot] {
            let (root, _, _) = scene { e, c in
                e.emitterShape = shape; e.emitterMode = mode; e.emitterSize = size; e.emitterDepth = depth
                c.birthRate = 100
            }
            return particles(root, at: 2)
        }
        let line = positions(.line, .volume)
        XCTAssertTrue(line.allSatisfy { $0.y == 50 && $0.x >= 0 && $0.x <= 100 })
        XCTAssertTrue(Set(positions(.line, .points).map(\.x)) == [0, 100])
        let rect = positions(.rectangle, .surface)
        XCTAssertTrue(rect.allSatisfy { $0.x >= 0 && $0.x <= 100 && $0.y >= 20 && $0.y <= 80 && $0.z == 0 })
        XCTAssertEqual(Set(positions(.rectangle, .points).map { "\($0.x),\($0.y)" }), ["0.0,20.0", "100.0,20.0", "0.0,80.0", "100.0,80.0"])
        let outline = positions(.rectangle, .outline)
        XCTAssertTrue(outline.allSatisfy { abs($0.x - 0) < 1e-3 || abs($0.x - 100) < 1e-3 || abs($0.y - 20) < 1e-3 || abs($0.y - 80) < 1e-3 })
        let circle = positions(.circle, .outline)
        XCTAssertTrue(circle.allSatisfy { abs(hypot(Double($0.x) - 50, Double($0.y) - 50) - 50) < 1e-3 })
        let disc = positions(.circle, .volume)
        XCTAssertTrue(disc.allSatisfy { hypot(Double($0.x) - 50, Double($0.y) - 50) <= 50 + 1e-3 })
        let sphere = positions(.sphere, .surface)
        XCTAssertTrue(sphere.allSatisfy { abs(((Double($0.x) - 50) * (Double($0.x) - 50) + (Double($0.y) - 50) * (Double($0.y) - 50)
                                                + Double($0.z) * Double($0.z)).squareRoot() - 50) < 1e-3 })
        let box = positions(.cuboid, .volume)
        XCTAssertTrue(box.allSatisfy { $0.z >= -20 && $0.z <= 20 && $0.x >= 0 && $0.x <= 100 })
        XCTAssertTrue(box.contains { $0.z > 10 } && box.contains { $0.z < -10 })
        XCTAssertEqual(Set(positions(.cuboid, .points).map(\.z)), [-20, 20])
        XCTAssertTrue(positions(.point, .outline).allSatisfy { $0.x == 50 && $0.y == 50 })
    }

    func testEmissionRangeIsAConeAroundTheDirection() {
        // A cone of full angle π/2 around +x: every direction within 45° of it (in 3D).
        let (root, _, _) = scene { _, c in
            c.birthRate = 300; c.velocity = 100; c.emissionRange = .pi / 2
        }
        for p in particles(root, at: 1) where p.age > 0.01 {
            let dx = Double(p.x) - 50, dy = Double(p.y) - 50, dz = Double(p.z)
            let angle = acos(dx / (dx * dx + dy * dy + dz * dz).squareRoot())
            XCTAssertLessThanOrEqual(angle, .pi / 4 + 1e-6)
        }
    }

    func testSubcellsEmitFromTheirParentRelativeToItsDirectionAndColour() {
        // An invisible parent moving +x at 100/s, red; its sub-cell 10/s, velocity 20 at
        // longitude +π/2 — clockwise from the parent's direction: +y. At t = 0.55 the parent
        // (born at 0, age 0.55) has emitted six sparks at ages 0, 0.1, …, 0.5 from x = 50 + 100a;
        // each has since moved 20 × (0.55 − a) down.
        let (root, _, cell) = scene { _, c in
            c.contents = nil
            c.birthRate = 1
            c.lifetime = 2
            c.velocity = 100
            c.color = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        }
        let spark = CAEmitterCell()
        spark.contents = dotImage
        spark.birthRate = 10
        spark.lifetime = 1
        spark.velocity = 20
        spark.emissionLongitude = .pi / 2
        cell.emitterCells = [spark]
        let ps = particles(root, at: 0.55)
        XCTAssertEqual(ps.count, 6)
        for (j, p) in ps.enumerated() {
            let a = Double(j) / 10
            XCTAssertEqual(p.birthTime, a, accuracy: 1e-9)
            XCTAssertEqual(Double(p.x), 50 + 100 * a, accuracy: 1e-3)
            XCTAssertEqual(Double(p.y), 50 + 20 * (0.55 - a), accuracy: 1e-3)
            XCTAssertEqual(p.color, RGBA(r: 1, g: 0, b: 0, a: 1))
        }
        // The parent dies at 2: its sparks live on for up to 1 s, and no new ones are born.
        XCTAssertEqual(particles(root, at: 2.5).map(\.birthTime).min() ?? 0, 1.6, accuracy: 1e-9)
        // Live at 2.5: sparks born after 1.5 — parent 0's 1.6 … 1.9, parent 1's 1.6 … 2.5,
        // parent 2's (born at 2) 2.0 … 2.5.
        XCTAssertEqual(particles(root, at: 2.5).count, 4 + 10 + 6)
    }

    func testAnimatedBirthRateThroughTheKeyPath() {
        // 10 per second for the first second (an animation of emitterCells.fire.birthRate), then
        // the model's 1 per second: births 0, 0.1, …, 0.9, then 1.0, 2.0, …
        let (root, e, _) = scene { _, c in c.birthRate = 1; c.lifetime = 100 }
        let a = CABasicAnimation(keyPath: "emitterCells.fire.birthRate")
        a.fromValue = 10; a.toValue = 10; a.duration = 1
        e.add(a, forKey: "burst")
        let births = particles(root, at: 2.5).map(\.birthTime)
        XCTAssertEqual(births.count, 12)
        for (b, want) in zip(births, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 2.0]) {
            XCTAssertEqual(b, want, accuracy: 1e-9)
        }
    }

    func testDeterministicInAnyOrder() {
        func make() -> CALayer {
            scene { e, c in
                c.birthRate = 120; c.lifetime = 3; c.lifetimeRange = 1; c.velocity = 80; c.velocityRange = 60
                c.emissionRange = 2 * .pi; c.spin = 1; c.spinRange = 2; c.scaleRange = 0.5
                c.redRange = 0.5; c.alphaSpeed = -0.2; c.yAcceleration = 30
                e.seed = 42
                let move = CABasicAnimation(keyPath: "emitterPosition")
                move.fromValue = CGPoint(x: 0, y: 0); move.toValue = CGPoint(x: 300, y: 200); move.duration = 4
                e.add(move, forKey: "move")
            }.0
        }
        let alone = particles(make(), at: 3.0)
        let sequential = make()
        for i in 0..<30 { _ = particles(sequential, at: Double(i) / 10) }
        XCTAssertEqual(particles(sequential, at: 3.0), alone)
        let shuffled = make()
        for t in [3.9, 0.2, 2.5, 1.0, 3.5] { _ = particles(shuffled, at: t) }
        XCTAssertEqual(particles(shuffled, at: 3.0), alone)
        XCTAssertGreaterThan(alone.count, 200)
        // Another seed: other particles.
        let other = make()
        (other.sublayers![0] as! CAEmitterLayer).seed = 43
        XCTAssertNotEqual(particles(other, at: 3.0), alone)
    }

    func testParticleLimitKeepsTheNewestAndReports() {
        let (root, e, _) = scene { _, c in c.birthRate = 100; c.lifetime = 1 }
        e.name = "sparks"
        let report = SnapshotReport(limits: SnapshotLimits(particles: 10))
        let ps = particles(root, at: 0.5, report: report)
        XCTAssertEqual(ps.count, 10)
        XCTAssertEqual(ps.map(\.birthTime).min() ?? 0, 0.41, accuracy: 1e-9)
        let issues = report.issues
        XCTAssertEqual(issues.count, 1)
        XCTAssertEqual(issues.first, SnapshotIssue(what: "CAEmitterLayer 'sparks' with 51 live particles",
                                                   limit: 10, limitName: "particles"))
    }

    func testRenderModesOrderTheParticles() {
        let (root, e, _) = scene { _, c in c.birthRate = 4; c.velocity = 10; c.zAcceleration = 0 }
        e.renderMode = .oldestFirst
        XCTAssertEqual(particles(root, at: 1).map(\.birthTime), [0, 0.25, 0.5, 0.75, 1])
        e.renderMode = .oldestLast
        XCTAssertEqual(particles(root, at: 1).map(\.birthTime), [1, 0.75, 0.5, 0.25, 0])
        e.emitterShape = .cuboid
        e.emitterDepth = 100
        e.renderMode = .backToFront
        let zs = particles(root, at: 1).map(\.z)
        XCTAssertEqual(zs, zs.sorted())
        e.renderMode = .additive
        XCTAssertTrue(PresentationBuilder(time: 1).snapshotTree(of: root).sublayers[0].particles!.isAdditive)
    }

    func testSimulationStartsAtTheLayersBeginTime() {
        // beginTime 1: nothing before, the first particle at scene time 1; timeOffset pre-warms.
        let (root, e, _) = scene { _, _ in }
        e.beginTime = 1
        XCTAssertTrue(particles(root, at: 0.9).isEmpty)
        XCTAssertEqual(particles(root, at: 1.6).count, 2)
        e.beginTime = 0
        e.timeOffset = 5
        XCTAssertEqual(particles(root, at: 0).count, 11)       // births at local 0 … 5
    }

    func testCellTimingLimitsEmission() {
        // A cell that emits only during its duration: beginTime 0.5, duration 1 (10/s).
        let (root, _, cell) = scene { _, c in c.birthRate = 10; c.beginTime = 0.5; c.duration = 1 }
        _ = cell
        let births = particles(root, at: 5).map(\.birthTime)
        XCTAssertEqual(births.count, 10)
        XCTAssertEqual(births.first ?? 0, 0.5, accuracy: 1e-9)
        XCTAssertEqual(births.last ?? 0, 1.4, accuracy: 1e-9)
    }

    func testImagesAreNumberedAsTheDrawingOrderMeetsThem() {
        // Three cells: `late` (image X, first births at 0.5), `bare` (no contents: no particles,
        // no image) and `early` (image Y from 0, with a sub-cell drawing X). Oldest first, Y is
        // met first; X is one image for both cells that draw it. Scales tell the cells apart.
        func image(_ v: UInt8) -> CGImage {
            var b = Bitmap(width: 2, height: 2)
            for i in 0..<b.pixels.count { b.pixels[i] = v }
            return CGImage(bitmap: b)
        }
        let x = image(200), y = image(100)
        let (root, e, late) = scene { _, c in c.contents = x; c.scale = 1; c.beginTime = 0.5 }
        let bare = CAEmitterCell()
        bare.birthRate = 2; bare.lifetime = 10; bare.scale = 2
        let early = CAEmitterCell()
        early.contents = y; early.birthRate = 2; early.lifetime = 10; early.scale = 3
        let sub = CAEmitterCell()
        sub.contents = x; sub.birthRate = 1; sub.lifetime = 10; sub.scale = 4
        early.emitterCells = [sub]
        e.emitterCells = [late, bare, early]
        e.renderMode = .oldestFirst
        let system = PresentationBuilder(time: 2).snapshotTree(of: root).sublayers[0].particles!
        XCTAssertEqual(system.images.map(\.image.identifier), [y.identifier, x.identifier])
        let byScale = Dictionary(grouping: system.particles, by: { Int($0.scale.rounded()) })
        XCTAssertEqual(Set(byScale.keys), [1, 3, 4])
        XCTAssertEqual(Set(byScale[1]!.map(\.image)), [1])
        XCTAssertEqual(Set(byScale[3]!.map(\.image)), [0])
        XCTAssertEqual(Set(byScale[4]!.map(\.image)), [1])
    }
}
