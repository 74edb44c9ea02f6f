// Particles (colour-modulated images, added or blended) go through the C span kernels: every
// instantiation gives the same bytes and the Swift pixel path the same image within a level
// (the `render` helper checks both), and overlapping additive sparks saturate at 1.
import XCTest
import StrataCore
@testable import StrataRender
import StrataTestSupport

final class ParticleKernelTests: XCTestCase {
    /// A soft 16×16 dot.
    private func dot() -> CGImage {
        var b = Bitmap(width: 16, height: 16)
        for y in 0..<16 { for x in 0..<16 {
            let dx = Double(x) + 0.5 - 8, dy = Double(y) + 0.5 - 8
            let f = max(0, 1 - (dx * dx + dy * dy).squareRoot() / 8)
            let a = UInt8((f * 255).rounded())
            b.setPixel(x: x, y: y, (a, a, a, a))
        } }
        return CGImage(bitmap: b)
    }

    private func emitter(_ mode: CAEmitterLayerRenderMode, clipped: Bool) -> CALayer {
        let root = canvas(160, 96, color(0.1, 0.1, 0.2))
        let e = CAEmitterLayer()
        e.frame = CGRect(x: 10, y: 8, width: 140, height: 80)
        e.emitterShape = .rectangle
        e.emitterMode = .surface
        e.emitterPosition = CGPoint(x: 70, y: 40)
        e.emitterSize = CGSize(width: 120, height: 60)
        e.renderMode = mode
        e.masksToBounds = clipped
        e.cornerRadius = clipped ? 12 : 0
        let c = CAEmitterCell()
        c.contents = dot()
        c.birthRate = 150
        c.lifetime = 2
        c.velocity = 20
        c.emissionRange = 2 * .pi
        c.scale = 0.9
        c.scaleRange = 0.5
        c.spin = 1.5
        c.color = color(1, 0.6, 0.3, 0.7)
        c.greenRange = 0.4
        e.emitterCells = [c]
        root.addSublayer(e)
        return root
    }

    func testAdditiveAndBlendedParticlesThroughTheKernels() {
        for mode in [CAEmitterLayerRenderMode.additive, .oldestFirst] {
            for clipped in [false, true] {
                let root = emitter(mode, clipped: clipped)
                let frame = render(root, width: 160, height: 96, time: 1.5)
                XCTAssertEqual(render(root, width: 160, height: 96, workers: 1, tileSize: 37, time: 1.5).pixels, frame.pixels)
                // Something was drawn over the background.
                XCTAssertGreaterThan(frame.pixels.enumerated().filter { $0.offset % 4 == 0 && $0.element > 60 }.count, 200)
            }
        }
        // Many additive sparks on one spot saturate.
        let root = emitter(.additive, clipped: false)
        let e = root.sublayers![0] as! CAEmitterLayer
        e.emitterSize = .zero
        e.emitterCells![0].velocity = 0
        let frame = render(root, width: 160, height: 96, time: 1)
        let centre = frame.pixel(x: 80, y: 48)
        XCTAssertEqual(centre.r, 255)
        XCTAssertEqual(centre.a, 255)
    }

    /// A particle's bounds and outline come from one mapping of its corners: the same values as
    /// the general pixelBounds and screenQuad, for affine maps (every particle of a flat emitter)
    /// and projective ones, including corners behind the eye (where the general functions answer).
    func testParticleBoundsAndOutlineEqualTheGeneralFunctions() {
        let builder = DisplayListBuilder(width: 1920, height: 1080)
        let local = CGRect(x: -16, y: -16, width: 32, height: 32)
        var checked = 0
        for i in 0..<400 {
            let angle = Double(i) * 0.37, s = 0.2 + Double(i % 17) * 0.11
            let c = cos(angle) * s, n = sin(angle) * s
            let particle = Homography(c, n, 0, -n, c, 0, Double(i * 7 % 1900) + 0.3, Double(i * 13 % 1070) - 0.45, 1)
            // Perspective: mild, strong enough to push corners behind the eye, and none.
            let p = [0, 0.0004, -0.02][i % 3]
            let H = Homography(1, 0, p, 0, 1, p / 2, 3, -2, 1)
            for toScreen in [particle, particle.concatenating(H)] {
                let (bounds, outline) = builder.particleBoundsAndOutline(of: local, toScreen)
                XCTAssertEqual(bounds, builder.pixelBounds(of: local, toScreen), "#\(i)")
                let general = builder.screenQuad(of: local, toScreen)
                XCTAssertEqual(outline == nil, general == nil, "#\(i)")
                if let outline, let general {
                    for k in 0..<4 {
                        XCTAssertEqual(outline.xs[k].bitPattern, general.xs[k].bitPattern, "#\(i) corner \(k)")
                        XCTAssertEqual(outline.ys[k].bitPattern, general.ys[k].bitPattern, "#\(i) corner \(k)")
                    }
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 800)
    }
}
