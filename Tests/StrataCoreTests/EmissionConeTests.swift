// The per-cell numbers a birth reads (EmissionCone, EmitterGeometryKind), made once per cell
// instead of once per particle, give the directions and positions of the per-particle
// arithmetic to the bit: the formulas are written out here as they stood and compared.
import Foundation
import XCTest
@testable import StrataCore

final class EmissionConeTests: XCTestCase {
    /// The direction as it was computed for every birth (axis, cap and frame made each time).
    private func reference(longitude: Double, latitude: Double, range: Double, frame: EmissionFrame,
                           _ r: ParticleRandom) -> Vector3 {
        let axis = Vector3(x: cos(latitude) * cos(longitude), y: cos(latitude) * sin(longitude), z: sin(latitude))
        var d = axis
        let half = min(abs(range) / 2, Double.pi)
        if half > 0 {
            let cosGamma = 1 - r.unit(.cone) * (1 - cos(half))
            let sinGamma = max(0, 1 - cosGamma * cosGamma).squareRoot()
            let beta = 2 * Double.pi * r.unit(.coneTurn)
            let f = EmissionFrame(direction: axis)
            d = f.forward * cosGamma + f.side * (sinGamma * cos(beta)) + f.up * (sinGamma * sin(beta))
        }
        return frame.map(d)
    }

    private func assertBitwiseEqual(_ a: Vector3, _ b: Vector3, _ message: String, line: UInt = #line) {
        XCTAssertEqual(a.x.bitPattern, b.x.bitPattern, message, line: line)
        XCTAssertEqual(a.y.bitPattern, b.y.bitPattern, message, line: line)
        XCTAssertEqual(a.z.bitPattern, b.z.bitPattern, message, line: line)
    }

    func testConeDirectionsEqualThePerBirthFormulaToTheBit() {
        let frames = [EmissionFrame.identity, EmissionFrame(direction: Vector3(x: 0.3, y: -2, z: 0.7))]
        let key = ParticleRandom.cellKey(seed: 7, cellIndex: 1)
        var checked = 0
        for longitude in [0, -Double.pi / 2, 0.4, 3.9] {
            for latitude in [0, 0.25, -1.2, Double.pi / 2] {
                for range in [0, 0.5, -1, 2 * Double.pi, 9] {
                    let cone = EmissionCone(longitude: longitude, latitude: latitude, range: range)
                    for frame in frames {
                        for i in 0..<40 {
                            let r = ParticleRandom(streamKey: key, index: i)
                            let got = EmissionGeometry.direction(cone, frame: frame, r)
                            let want = reference(longitude: longitude, latitude: latitude, range: range, frame: frame, r)
                            assertBitwiseEqual(got, want, "lon \(longitude) lat \(latitude) range \(range) #\(i)")
                            checked += 1
                        }
                    }
                }
            }
        }
        XCTAssertEqual(checked, 4 * 4 * 5 * 2 * 40)
    }

    func testGeometryKindReadsEveryShapeAndMode() {
        var c = EmitterConfiguration()
        let shapes: [(CAEmitterLayerEmitterShape, EmitterGeometryKind.Shape)] = [
            (.point, .point), (.line, .line), (.rectangle, .rectangle), (.cuboid, .cuboid), (.circle, .circle),
            (.sphere, .sphere), (CAEmitterLayerEmitterShape(rawValue: "hexagon"), .other)]
        let modes: [(CAEmitterLayerEmitterMode, EmitterGeometryKind.Mode)] = [
            (.points, .points), (.outline, .outline), (.surface, .surface), (.volume, .volume),
            (CAEmitterLayerEmitterMode(rawValue: "edges"), .other)]
        for (shape, s) in shapes {
            for (mode, m) in modes {
                c.emitterShape = shape; c.emitterMode = mode
                let kind = EmitterGeometryKind(c)
                XCTAssertEqual(kind.shape, s, shape.rawValue)
                XCTAssertEqual(kind.mode, m, mode.rawValue)
            }
        }
    }

    func testPositionsReadOnlyTheStreamsTheirShapeNeeds() {
        // The streams are drawn lazily now: each position is the formula of its shape over the
        // particle's own streams, whatever the others would have been.
        var c = EmitterConfiguration()
        c.emitterSize = CGSize(width: 120, height: 60)
        c.emitterDepth = 30
        let centre = Vector3(x: 10, y: 20, z: 5)
        let key = ParticleRandom.cellKey(seed: 3, cellIndex: 0)
        for i in 0..<50 {
            let r = ParticleRandom(streamKey: key, index: i)
            let a = r.unit(.shapeA), b = r.unit(.shapeB), e = r.unit(.shapeC)
            c.emitterShape = .rectangle; c.emitterMode = .surface
            assertBitwiseEqual(EmissionGeometry.position(c, kind: EmitterGeometryKind(c), center: centre, r),
                               Vector3(x: 10 + 120 * (a - 0.5), y: 20 + 60 * (b - 0.5), z: 5 + 0), "rectangle #\(i)")
            c.emitterShape = .cuboid; c.emitterMode = .volume
            assertBitwiseEqual(EmissionGeometry.position(c, kind: EmitterGeometryKind(c), center: centre, r),
                               Vector3(x: 10 + 120 * (a - 0.5), y: 20 + 60 * (b - 0.5), z: 5 + 30 * (e - 0.5)), "cuboid #\(i)")
            c.emitterShape = .line; c.emitterMode = .outline
            assertBitwiseEqual(EmissionGeometry.position(c, kind: EmitterGeometryKind(c), center: centre, r),
                               Vector3(x: 10 + 120 * (a - 0.5), y: 20 + 0, z: 5 + 0), "line #\(i)")
            // The wrapper without a kind reads the same.
            assertBitwiseEqual(EmissionGeometry.position(c, center: centre, r),
                               EmissionGeometry.position(c, kind: EmitterGeometryKind(c), center: centre, r), "wrapper #\(i)")
        }
    }
}
