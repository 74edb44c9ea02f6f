// A snapshot's particles evaluated on several threads (SnapshotReport.threads: a cell's many
// births in parts of consecutive intervals, joined in order) are the ones one thread gives, in the
// same order, with the same images: a moving emitter (its configuration changes from interval to
// interval), two cells, one with sub-cells.
import Foundation
import XCTest
@testable import StrataCore

final class ParallelParticleTests: XCTestCase {
    private func image(_ value: UInt8) -> CGImage {
        var b = Bitmap(width: 4, height: 4)
        for i in 0..<b.pixels.count { b.pixels[i] = value }
        return CGImage(bitmap: b)
    }

    private func makeRoot() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 640, height: 360)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterShape = .rectangle
        e.emitterMode = .surface
        e.emitterPosition = CGPoint(x: 320, y: 180)
        e.emitterSize = CGSize(width: 600, height: 300)
        e.renderMode = .oldestFirst
        let move = CABasicAnimation(keyPath: "emitterPosition")
        move.fromValue = NSValue(cgPoint: CGPoint(x: 100, y: 100))
        move.toValue = NSValue(cgPoint: CGPoint(x: 500, y: 260))
        move.duration = 3
        e.add(move, forKey: "move")
        let a = CAEmitterCell()
        a.contents = image(255)
        a.birthRate = 4000
        a.lifetime = 2
        a.lifetimeRange = 1
        a.velocity = 50
        a.emissionRange = 2 * .pi
        a.spin = 1
        let b = CAEmitterCell()
        b.contents = image(128)
        b.birthRate = 40
        b.lifetime = 1.5
        b.velocity = 80
        let spark = CAEmitterCell()
        spark.contents = image(64)
        spark.birthRate = 20
        spark.lifetime = 0.5
        spark.velocity = 30
        b.emitterCells = [spark]
        e.emitterCells = [a, b]
        root.addSublayer(e)
        return root
    }

    private func system(_ root: CALayer, at t: Double, threads: Int) -> ParticleSystemSnapshot? {
        PresentationBuilder(time: t, report: SnapshotReport(threads: threads)).snapshotTree(of: root).sublayers.first?.particles
    }

    func testManyParticlesOnSeveralThreadsAreThoseOfOne() throws {
        let root = makeRoot()
        for t in [1.3, 2.0, 2.75] {
            let one = try XCTUnwrap(system(root, at: t, threads: 1))
            // Enough births for the parts (ParticleSimulation.parallelBirths).
            XCTAssertGreaterThan(one.particles.count, ParticleSimulation.parallelBirths, "t = \(t)")
            for threads in [2, 3, 8] {
                let many = try XCTUnwrap(system(root, at: t, threads: threads))
                XCTAssertEqual(many.particles.count, one.particles.count, "t = \(t), \(threads) threads")
                XCTAssertTrue(many.particles == one.particles, "t = \(t), \(threads) threads: the particles or their order differ")
                XCTAssertEqual(many.images.map(\.image.identifier), one.images.map(\.image.identifier), "t = \(t), \(threads) threads")
            }
        }
    }
}
