// Particles and replicas in scenes with scheduled changes: changes an emitter gets in a block apply
// to particles born from then on (earlier ones keep what they got), and the particles at a time
// are the same whether that time is asked for first, after the whole timeline, or after later
// times; an emitter added in a block starts then; the particle and instance limits fail the
// render with one error naming the layer; a replicator's animatable instanceCount animates
// implicitly in a block.
import XCTest
import Strata
import StrataTestSupport

private let dot: CGImage = {
    var b = Bitmap(width: 2, height: 2)
    for i in 0..<b.pixels.count { b.pixels[i] = 255 }
    return CGImage(bitmap: b)
}()

final class ParticleSceneTests: XCTestCase {
    /// An emitter moving right at 100 pt/s, 4 births a second, lifetime 3 s; at t = 1 the
    /// emitter moves to (300, 200), at t = 2 it stops emitting.
    private func makeScene() -> (Scene, CAEmitterLayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterPosition = CGPoint(x: 20, y: 50)
        let c = CAEmitterCell()
        c.name = "p"
        c.contents = dot
        c.birthRate = 4
        c.lifetime = 3
        c.velocity = 100
        e.emitterCells = [c]
        root.addSublayer(e)
        let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 10, duration: 6)
        scene.at(1) { e.emitterPosition = CGPoint(x: 300, y: 200) }
        scene.at(2) { e.setValue(0, forKeyPath: "emitterCells.p.birthRate") }
        return (scene, e)
    }

    private func particles(_ scene: Scene, at t: Double) throws -> [ParticleSnapshot] {
        try scene.snapshot(at: t).sublayers[0].particles?.particles ?? []
    }

    func testBlockChangesApplyToLaterBirthsOnly() throws {
        let (scene, _) = makeScene()
        let ps = try particles(scene, at: 2.5)
        // Born 0 … 0.75 from (20, 50); 1.0 … 2.0 from (300, 200) — the emitter moved at 1 (an
        // implicit animation does not apply: emitter layers added while building animate inside
        // blocks, so the move is animated over 0.25 s).
        XCTAssertEqual(ps.map(\.birthTime), [0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75])
        for p in ps where p.birthTime < 1 {
            XCTAssertEqual(Double(p.y), 50, accuracy: 1e-9)
            XCTAssertEqual(Double(p.x), 20 + 100 * (2.5 - p.birthTime), accuracy: 1e-3)
        }
        // Births from 1.25 s on are after the 0.25 s implicit animation: at the new point.
        for p in ps where p.birthTime >= 1.25 {
            XCTAssertEqual(Double(p.y), 200, accuracy: 1e-9)
            XCTAssertEqual(Double(p.x), 300 + 100 * (2.5 - p.birthTime), accuracy: 1e-3)
        }
        // The rate became 0 at 2: the birth due at 2.0 is the last one that may happen
        // (the change takes effect at the grid point it falls on).
        XCTAssertTrue(ps.allSatisfy { $0.birthTime < 2 })
        // Everything is gone after the last particle's lifetime.
        XCTAssertTrue(try particles(scene, at: 5.0).isEmpty)
    }

    func testSameParticlesInAnyOrder() throws {
        let times = [0.3, 1.1, 1.6, 2.2, 2.9, 4.4]
        let (fresh, _) = makeScene()
        var alone: [Double: [ParticleSnapshot]] = [:]
        for t in times {
            let (s, _) = makeScene()
            alone[t] = try particles(s, at: t)
        }
        for t in times { XCTAssertEqual(try particles(fresh, at: t), alone[t], "forward \(t)") }
        for t in times.reversed() { XCTAssertEqual(try particles(fresh, at: t), alone[t], "backward \(t)") }
        for t in [2.9, 0.3, 4.4, 1.1, 2.2, 1.6] { XCTAssertEqual(try particles(fresh, at: t), alone[t], "shuffled \(t)") }
    }

    func testAnEmitterAddedInABlockStartsThen() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let e = CAEmitterLayer()
        let c = CAEmitterCell()
        c.contents = dot; c.birthRate = 2; c.lifetime = 10
        e.emitterCells = [c]
        let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 10, duration: 4)
        scene.at(1.5) { root.addSublayer(e) }
        XCTAssertEqual(try particles(scene, at: 2.6).map(\.birthTime), [1.5, 2.0, 2.5])
        XCTAssertTrue(try scene.snapshot(at: 1).sublayers.isEmpty)
        XCTAssertEqual(try particles(scene, at: 2.6).map(\.birthTime), [1.5, 2.0, 2.5])
    }

    func testParticleLimitFailsTheRenderNamingTheLayer() throws {
        let (scene, e) = makeScene()
        e.name = "trail"
        scene.limits.particles = 5
        XCTAssertNoThrow(try scene.snapshot(at: 1.0))   // 5 alive: 0 … 1.0
        XCTAssertThrowsError(try scene.renderFrame(at: 1.3)) { error in
            guard case SceneError.limitExceeded(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("CAEmitterLayer 'trail'") && message.contains("over the limit of 5")
                          && message.contains("--limit particles=N"), message)
        }
    }

    func testReplicatorInstanceCountAnimatesImplicitlyInABlock() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        let r = CAReplicatorLayer()
        r.frame = root.bounds
        r.instanceCount = 3
        r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        let square = CALayer()
        square.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        r.addSublayer(square)
        root.addSublayer(r)
        let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 10, duration: 2)
        scene.at(1) { r.instanceCount = 7 }
        XCTAssertEqual(try scene.snapshot(at: 0.5).sublayers[0].sublayers.count, 3)
        // Halfway through the 0.25 s implicit animation (default timing): 3 + 4 × eased(½), rounded down.
        let eased = CAMediaTimingFunction(name: .default).evaluate(0.5)
        XCTAssertEqual(try scene.snapshot(at: 1.125).sublayers[0].sublayers.count, Int(3 + 4 * eased))
        XCTAssertEqual(try scene.snapshot(at: 1.5).sublayers[0].sublayers.count, 7)
        XCTAssertEqual(try scene.snapshot(at: 0.5).sublayers[0].sublayers.count, 3)
    }
}
