// CAReplicatorLayer drawn: the instances the snapshot expands are composited with their
// cumulative transforms and their modulation colours, nested replicators multiply, a mask on the
// replicator covers every instance. Reference images (viewed when recorded) with tolerance 2
// per channel, none over; the spinner's instanceDelay checked pixel by pixel against opacities
// computed by hand from t − i·delay.
import XCTest
import Strata
import StrataTestSupport

final class ReplicatorRenderTests: XCTestCase {
    private func strip(_ scene: Scene, _ times: [Double]) throws -> Bitmap {
        ContactSheet.make(try times.map { try scene.renderFrame(at: $0) }, columns: times.count, reduction: 1, spacing: 2)
    }

    func testRingOfSquaresMatchesReference() throws {
        assertReferenceImage(try LayerClassFixtures.ring().renderFrame(at: 0), named: "ring", tolerance: 2)
    }

    func testSpinnerAtThreeTimesMatchesReference() throws {
        let (scene, _, _) = LayerClassFixtures.spinner()
        assertReferenceImage(try strip(scene, [0.25, 0.5, 1.75]), named: "spinner", tolerance: 2)
    }

    func testNestedGridMatchesReference() throws {
        assertReferenceImage(try LayerClassFixtures.grid().renderFrame(at: 0), named: "grid", tolerance: 2)
    }

    func testReflectionWithGradientMaskMatchesReference() throws {
        assertReferenceImage(try LayerClassFixtures.reflection().renderFrame(at: 0), named: "reflection", tolerance: 2)
    }

    /// Instance i of the spinner shows the bar's fade at t − i/12: opacity 1 − 0.85·frac(t − i/12)
    /// once that time is ≥ 0 (before, the bar's own opacity, 1). The pixel at the bar's centre
    /// is the bar's colour over the background at that opacity.
    func testSpinnerInstancesShowTheirDelayedTimes() throws {
        let (scene, _, _) = LayerClassFixtures.spinner()
        let bg = SIMD3<Double>(0.08, 0.09, 0.12), bar = SIMD3<Double>(0.35, 0.8, 1)
        for t in [0.2, 0.5, 1.3] {
            let frame = try scene.renderFrame(at: t)
            let snapshot = try scene.snapshot(at: t).sublayers[0]
            XCTAssertEqual(snapshot.sublayers.count, 12)
            for i in 0..<12 {
                let local = t - Double(i) / 12
                let expected = local < 0 ? 1 : 1 - 0.85 * (local - local.rounded(.down))
                XCTAssertEqual(Double(snapshot.sublayers[i].opacity), expected, accuracy: 1e-6, "t \(t) instance \(i)")
                // The bar's centre (60, 21) turned i·30° clockwise about (60, 60), in the frame.
                let a = Double(i) * .pi / 6
                let x = 80 + 39 * sin(a), y = 80 - 39 * cos(a)
                let px = frame.pixel(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
                let want = bg * (1 - expected) + bar * expected
                for (c, w) in zip([px.r, px.g, px.b], [want.x, want.y, want.z]) {
                    XCTAssertEqual(Double(c), w * 255, accuracy: 2.5, "t \(t) instance \(i) at (\(x), \(y))")
                }
            }
        }
    }

    /// The ring's instance k is white times (1, 1 − 0.1k, 1 − 0.1k): the centre of each square.
    func testRingInstanceColoursMultiplyTheSquare() throws {
        let frame = try LayerClassFixtures.ring().renderFrame(at: 0)
        // Instance k: the square's centre (55, 55) in replicator space through R^k, where
        // R = T(−c)·Rz(36°)·T(0, 10)·T(c), c = (120, 120) (CATransform3DRotate(t, …) rotates
        // before t; row vectors).
        var p = SIMD2<Double>(55, 55)
        for k in 0..<10 {
            let px = frame.pixel(x: Int(p.x.rounded(.down)), y: Int(p.y.rounded(.down)))
            XCTAssertEqual(Double(px.r), 255, accuracy: 1, "instance \(k)")
            XCTAssertEqual(Double(px.g), 255 * (1 - 0.1 * Double(k)), accuracy: 1.5, "instance \(k)")
            XCTAssertEqual(Double(px.b), 255 * (1 - 0.1 * Double(k)), accuracy: 1.5, "instance \(k)")
            let q = SIMD2(p.x - 120, p.y - 120), a = Double.pi / 5
            p = SIMD2(q.x * cos(a) - q.y * sin(a) + 120, q.x * sin(a) + q.y * cos(a) + 10 + 120)
        }
    }

    /// 1 or 2 workers, tiles of 16, 64 or 97 pixels, frames in any order: the same bytes.
    func testFramesAreIdenticalAcrossWorkersTileSizesAndOrder() throws {
        let makers: [(String, () -> Scene)] = [("spinner", { LayerClassFixtures.spinner().0 }),
                                               ("grid", LayerClassFixtures.grid), ("reflection", LayerClassFixtures.reflection)]
        for (name, make) in makers {
            let ordered = make()
            let reference = try [0.2, 0.9, 1.4].map { try ordered.renderFrame(at: $0, options: RenderOptions(workers: 1, tileSize: 64)) }
            for (workers, tile) in [(2, 64), (1, 16), (2, 97)] {
                let scene = make()
                for (i, t) in [0.2, 0.9, 1.4].enumerated().reversed() {
                    XCTAssertEqual(try scene.renderFrame(at: t, options: RenderOptions(workers: workers, tileSize: tile).verifyingTiles), reference[i],
                                   "\(name) at \(t) s, \(workers) workers, tiles of \(tile)")
                }
            }
        }
    }
}
