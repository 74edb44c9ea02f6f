// Layer blend modes (`CALayer.compositingFilter`): pixels worked out by hand from the W3C
// Compositing and Blending Level 1 formulas (premultiplied: co = cs·(1 − αb) + cb·(1 − αs) +
// αs·αb·B(Cb, Cs), αo = αs + αb·(1 − αs)). Tolerance: 1 level a channel (the expected values are
// exact; the frame's bytes round them). `render` also checks every kernel instantiation and the
// Swift pixel path against each other (CompositorTests.swift).
import XCTest
import StrataCore
@testable import StrataRender

final class LayerBlendTests: XCTestCase {
    /// The backdrop of most cases: (0.8, 0.4, 0.2), opaque.
    private let backdrop = color(0.8, 0.4, 0.2)

    /// `layer` drawn with `filter` over a 12×12 canvas of `backdrop`; the pixel at its centre.
    private func blended(_ source: CGColor, _ filter: Any?, over bg: CGColor? = nil, opacity: Float = 1,
                         file: StaticString = #filePath, line: UInt = #line) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let root = canvas(12, 12, bg ?? backdrop)
        let layer = box(CGRect(x: 2, y: 2, width: 8, height: 8), source)
        layer.compositingFilter = filter
        layer.opacity = opacity
        root.addSublayer(layer)
        return render(root, width: 12, height: 12, file: file, line: line).pixel(x: 6, y: 6)
    }

    /// Asserts that `p` is `expected` (0…1 values, alpha 1 unless given) × 255 within one level.
    private func assertPixel(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ expected: (Double, Double, Double), alpha: Double = 1,
                             _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Double(p.r), expected.0 * 255, accuracy: 1, "\(what): red", file: file, line: line)
        XCTAssertEqual(Double(p.g), expected.1 * 255, accuracy: 1, "\(what): green", file: file, line: line)
        XCTAssertEqual(Double(p.b), expected.2 * 255, accuracy: 1, "\(what): blue", file: file, line: line)
        XCTAssertEqual(Double(p.a), alpha * 255, accuracy: 1, "\(what): alpha", file: file, line: line)
    }

    func testMultiplyAndScreen() {
        // Multiply: (0.5, 0.5, 0.5) · (0.8, 0.4, 0.2) = (0.4, 0.2, 0.1).
        assertPixel(blended(color(0.5, 0.5, 0.5), "multiplyBlendMode"), (0.4, 0.2, 0.1), "multiply")
        // Screen: b + s − b·s = (0.9, 0.7, 0.6).
        assertPixel(blended(color(0.5, 0.5, 0.5), "screenBlendMode"), (0.9, 0.7, 0.6), "screen")
        // Core Image's own filter name with its prefix.
        assertPixel(blended(color(0.5, 0.5, 0.5), "CIMultiplyBlendMode"), (0.4, 0.2, 0.1), "CIMultiplyBlendMode")
        // Without a filter (and with source-over named): the source covers the backdrop.
        assertPixel(blended(color(0.5, 0.5, 0.5), nil), (0.5, 0.5, 0.5), "no filter")
        assertPixel(blended(color(0.5, 0.5, 0.5), "sourceOverCompositing"), (0.5, 0.5, 0.5), "sourceOverCompositing")
    }

    func testHalfTransparentSource() {
        // αs = 0.5, cs = 0.25: co = cb·0.5 + 0.5·(Cb·0.5) = 0.75·cb = (0.6, 0.3, 0.15), αo = 1.
        assertPixel(blended(color(0.5, 0.5, 0.5, 0.5), "multiplyBlendMode"), (0.6, 0.3, 0.15), "alpha 0.5")
        // The layer's opacity scales the source the same way.
        assertPixel(blended(color(0.5, 0.5, 0.5), "multiplyBlendMode", opacity: 0.5), (0.6, 0.3, 0.15), "opacity 0.5")
        // An opacity over 1 (a spring's overshoot) counts as 1.
        assertPixel(blended(color(0.5, 0.5, 0.5), "multiplyBlendMode", opacity: 1.5), (0.4, 0.2, 0.1), "opacity 1.5")
        // Over a transparent backdrop the source is drawn as it is: (0.5, 0.5, 0.5) at α 1.
        assertPixel(blended(color(0.5, 0.5, 0.5), "multiplyBlendMode", over: color(0, 0, 0, 0)), (0.5, 0.5, 0.5), "no backdrop")
        // A half-transparent backdrop (0.8, 0.4, 0.2) at αb = 0.5, source grey 0.5 opaque:
        // co = cb·0 + cs·0.5 + 0.5·(Cb·Cs) = 0.25 + 0.5·(0.4, 0.2, 0.1) = (0.45, 0.35, 0.3), αo = 1.
        assertPixel(blended(color(0.5, 0.5, 0.5), "multiplyBlendMode", over: color(0.8, 0.4, 0.2, 0.5)), (0.45, 0.35, 0.3),
                    "backdrop alpha 0.5")
    }

    /// Linear dodge (After Effects' and Lottie's "add") against the premultiplied sum: a grey 0.5
    /// at opacity 0.5 over (0.8, 0.3, 0.1). Linear dodge: 0.5·min(1, Cb + 0.5) + cb·0.5 =
    /// (0.9, 0.55, 0.35) — ThorVG draws Lottie's add exactly so, (229, 139, 89); the sum: 0.25 + cb
    /// clamped = (1, 0.55, 0.35). Opaque, both are the clamped sum.
    func testLinearDodgeAndAddition() {
        let bg = color(0.8, 0.3, 0.1)
        assertPixel(blended(color(0.5, 0.5, 0.5), "linearDodgeBlendMode", over: bg, opacity: 0.5), (0.9, 0.55, 0.35), "linear dodge")
        assertPixel(blended(color(0.5, 0.5, 0.5), "CILinearDodgeBlendMode", over: bg, opacity: 0.5), (0.9, 0.55, 0.35), "CI prefix")
        assertPixel(blended(color(0.5, 0.5, 0.5), "additionCompositing", over: bg, opacity: 0.5), (1, 0.55, 0.35), "addition")
        assertPixel(blended(color(0.5, 0.5, 0.5), "linearDodgeBlendMode", over: bg), (1, 0.8, 0.6), "linear dodge, opaque")
        assertPixel(blended(color(0.5, 0.5, 0.5), "additionCompositing", over: bg), (1, 0.8, 0.6), "addition, opaque")
    }

    /// Hard mix (After Effects', Lottie's `bm` 17; no Core Image name: a LayerBlendModeFilter):
    /// B = 1 where Cb + Cs ≥ 1, else 0. Grey 0.5 over (0.8, 0.3, 0.1), opaque: (1, 0, 0). Source
    /// (0.5, 0.75, 0.05) at opacity 0.5: B = (1, 1, 0), so 0.5·B + 0.5·cb = (0.9, 0.65, 0.05).
    /// A backdrop of 0 and a source of 0.9 stay under 1: black.
    func testHardMix() {
        let bg = color(0.8, 0.3, 0.1), mix = LayerBlendModeFilter(.hardMix)
        assertPixel(blended(color(0.5, 0.5, 0.5), mix, over: bg), (1, 0, 0), "hard mix, opaque")
        assertPixel(blended(color(0.5, 0.75, 0.05), mix, over: bg, opacity: 0.5), (0.9, 0.65, 0.05), "hard mix, opacity 0.5")
        assertPixel(blended(color(0.9, 0.9, 0.9), mix, over: color(0, 0, 0)), (0, 0, 0), "hard mix over black")
        assertPixel(blended(color(0.25, 0.25, 0.25), mix, over: color(0.75, 0.7, 1)), (1, 0, 1), "hard mix at the threshold")
        XCTAssertNil(CALayer.compositingFilterNames.values.first { $0 == .hardMix }, "no Core Image name draws hard mix")
    }

    func testSeparableModes() {
        // Source Cs = (0.25, 0.75, 0.5) over Cb = (0.8, 0.4, 0.2), both opaque: the result is B(Cb, Cs).
        let source = color(0.25, 0.75, 0.5)
        let cases: [(String, (Double, Double, Double))] = [
            ("darkenBlendMode", (0.25, 0.4, 0.2)),
            ("lightenBlendMode", (0.8, 0.75, 0.5)),
            ("differenceBlendMode", (0.55, 0.35, 0.3)),
            // b + s − 2bs
            ("exclusionBlendMode", (0.65, 0.55, 0.5)),
            // s ≤ 0.5: b·2s; else screen(b, 2s − 1): (0.8·0.5, 0.4 + 0.5 − 0.2, 0.2·1)
            ("hardLightBlendMode", (0.4, 0.7, 0.2)),
            // hard light with the roles swapped: (screen(0.25, 0.6), 0.75·0.8, 0.5·0.4)
            ("overlayBlendMode", (0.7, 0.6, 0.2)),
            // min(1, b / (1 − s)): (1.07 → 1, 1.6 → 1, 0.4)
            ("colorDodgeBlendMode", (1, 1, 0.4)),
            // 1 − min(1, (1 − b) / s): (1 − 0.8, 1 − 0.8, 1 − 1)
            ("colorBurnBlendMode", (0.2, 0.2, 0)),
            // s ≤ 0.5: b − (1 − 2s)·b·(1 − b) = (0.8 − 0.08, …, 0.2); G: b + (2s − 1)(√b − b) = 0.4 + 0.5·(0.632456 − 0.4)
            ("softLightBlendMode", (0.72, 0.516228, 0.2)),
            // The sum, clamped: (1.05 → 1, 1.15 → 1, 0.7)
            ("additionCompositing", (1, 1, 0.7)),
        ]
        for (name, expected) in cases { assertPixel(blended(source, name), expected, name) }
        // Soft light's other branch for a dark backdrop (b ≤ 0.25, s > 0.5): D = ((16b − 12)b + 4)b
        // = 0.448 for b = 0.2, and b + (2s − 1)(D − b) = 0.2 + 0.5·0.248 = 0.324 for s = 0.75.
        assertPixel(blended(color(0.75, 0.75, 0.75), "softLightBlendMode", over: color(0.2, 0.2, 0.2)), (0.324, 0.324, 0.324),
                    "soft light, dark backdrop")
    }

    func testNonSeparableModes() {
        // Source red (1, 0, 0) over Cb = (0.2, 0.6, 0.4): Lum(Cb) = 0.458, Sat(Cb) = 0.4, Lum(red) = 0.3.
        let red = color(1, 0, 0), teal = color(0.2, 0.6, 0.4)
        // Hue: SetLum(SetSat(red, 0.4), 0.458) = (0.4, 0, 0) + 0.338.
        assertPixel(blended(red, "hueBlendMode", over: teal), (0.738, 0.338, 0.338), "hue")
        // Luminosity: SetLum(Cb, 0.3) = Cb − 0.158.
        assertPixel(blended(red, "luminosityBlendMode", over: teal), (0.042, 0.442, 0.242), "luminosity")
        // Color: SetLum(red, 0.458) = (1.158, 0.158, 0.158), clipped above (l = 0.458, max 1.158):
        // l + (c − l)·(1 − l)/(max − l) = (1, 0.458 − 0.3·0.542/0.7, …) = (1, 0.225714, 0.225714).
        assertPixel(blended(red, "colorBlendMode", over: teal), (1, 0.225714, 0.225714), "color")
        // Saturation: SetSat(Cb, 1) = (0, 1, 0.5), Lum 0.645; SetLum(…, 0.458) = (−0.187, 0.813, 0.313),
        // clipped below (min −0.187): l + (c − l)·l/(l − min) = (0, 0.710078, 0.355039).
        assertPixel(blended(red, "saturationBlendMode", over: teal), (0, 0.710078, 0.355039), "saturation")
    }

    /// The layer and its sublayers are composited as one: the front sublayer covers the back one
    /// inside the group, and only the result is multiplied with the backdrop.
    func testSublayersBlendAsOneGroup() {
        let root = canvas(20, 12, backdrop)
        let group = CALayer()
        group.frame = CGRect(x: 0, y: 0, width: 20, height: 12)
        group.compositingFilter = "multiplyBlendMode"
        group.addSublayer(box(CGRect(x: 0, y: 0, width: 14, height: 12), color(0.5, 0.5, 0.5)))
        group.addSublayer(box(CGRect(x: 8, y: 0, width: 12, height: 12), color(0.25, 0.25, 0.25)))
        root.addSublayer(group)
        let img = render(root, width: 20, height: 12)
        assertPixel(img.pixel(x: 3, y: 6), (0.4, 0.2, 0.1), "back sublayer alone")
        // 0.25 · (0.8, 0.4, 0.2); blending each sublayer on its own would give half that.
        assertPixel(img.pixel(x: 10, y: 6), (0.2, 0.1, 0.05), "front sublayer over the back one")
        assertPixel(img.pixel(x: 17, y: 6), (0.2, 0.1, 0.05), "front sublayer alone")
    }

    /// The backdrop is what is beneath inside the superlayer's group: a multiplied layer in a
    /// half-opaque container blends with the container's (transparent) content, not the frame.
    func testBackdropIsTheSuperlayersGroup() {
        let root = canvas(12, 12, backdrop)
        let container = CALayer()
        container.frame = CGRect(x: 0, y: 0, width: 12, height: 12)
        container.opacity = 0.5
        let layer = box(CGRect(x: 0, y: 0, width: 12, height: 12), color(0.5, 0.5, 0.5))
        layer.compositingFilter = "multiplyBlendMode"
        container.addSublayer(layer)
        root.addSublayer(container)
        // Grey 0.5 (nothing beneath it in the group) at half opacity over the backdrop:
        // 0.25 + 0.5·(0.8, 0.4, 0.2) = (0.65, 0.45, 0.35). Against the frame it would be (0.6, 0.3, 0.15).
        assertPixel(render(root, width: 12, height: 12).pixel(x: 6, y: 6), (0.65, 0.45, 0.35), "inside a group")
    }

    /// A value Strata does not know is drawn source-over and noted in the snapshot's report,
    /// naming the layer; a known one is not noted.
    func testUnknownFilterIsDrawnSourceOverAndReported() {
        for value: Any in ["gaussianBlur", 42] {
            let root = canvas(12, 12, backdrop)
            let layer = box(CGRect(x: 2, y: 2, width: 8, height: 8), color(0.5, 0.5, 0.5))
            layer.name = "shade"
            layer.compositingFilter = value
            root.addSublayer(layer)
            let report = SnapshotReport()
            let snap = PresentationBuilder(time: 0, report: report).snapshotTree(of: root)
            XCTAssertEqual(snap.sublayers[0].blendMode, .normal)
            XCTAssertEqual(report.notes.count, 1, "\(value)")
            XCTAssertTrue(report.notes.first?.contains("CALayer 'shade'") == true, report.notes.first ?? "no note")
            XCTAssertTrue(report.notes.first?.contains("compositingFilter") == true, report.notes.first ?? "no note")
            XCTAssertTrue(report.issues.isEmpty)
            assertPixel(render(root, width: 12, height: 12).pixel(x: 6, y: 6), (0.5, 0.5, 0.5), "\(value)")
        }
        let root = canvas(12, 12, backdrop)
        let layer = box(CGRect(x: 2, y: 2, width: 8, height: 8), color(0.5, 0.5, 0.5))
        layer.compositingFilter = "screenBlendMode"
        root.addSublayer(layer)
        let report = SnapshotReport()
        XCTAssertEqual(PresentationBuilder(time: 0, report: report).snapshotTree(of: root).sublayers[0].blendMode, .screen)
        XCTAssertEqual(report.notes, [])
    }

    /// Blended groups in tiles of any size, drawn by any number of workers, give the same bytes:
    /// rotated, overlapping layers of every mode crossing tile edges.
    func testSameBytesWhateverTheTiling() {
        let root = canvas(150, 90, backdrop)
        let names = CALayer.compositingFilterNames.keys.sorted()
        for (i, name) in names.enumerated() {
            let layer = box(CGRect(x: 4 + (i % 6) * 24, y: 6 + (i / 6) * 28, width: 30, height: 24),
                            color(CGFloat(i % 3) * 0.4 + 0.1, CGFloat(i % 4) * 0.25, 0.9 - CGFloat(i) * 0.05, 0.4 + CGFloat(i % 3) * 0.3))
            layer.setAffineTransform(CGAffineTransform(rotationAngle: CGFloat(i) * 0.2))
            layer.compositingFilter = name
            layer.cornerRadius = 5
            layer.addSublayer(box(CGRect(x: 10, y: 6, width: 16, height: 10), color(0.9, 0.8, 0.1)))
            root.addSublayer(layer)
        }
        let reference = render(root, width: 150, height: 90)
        XCTAssertEqual(render(root, width: 150, height: 90, workers: 1, tileSize: 16).pixels, reference.pixels)
        XCTAssertEqual(render(root, width: 150, height: 90, workers: 3, tileSize: 23).pixels, reference.pixels)
        XCTAssertEqual(render(root, width: 150, height: 90, workers: 4, tileSize: 128).pixels, reference.pixels)
        // Not vacuous: the modes changed the frame (source-over everywhere gives other bytes).
        for layer in root.sublayers ?? [] { layer.compositingFilter = nil }
        XCTAssertNotEqual(render(root, width: 150, height: 90).pixels, reference.pixels)
    }

    /// A mask limits the blend: where the mask is opaque the layer is multiplied, where it is
    /// empty the backdrop stays; a luminance matte of grey 0.6 blends 60 % of the source:
    /// co = cb·0.4 + 0.6·(Cb·0.5) = 0.7·cb = (0.56, 0.28, 0.14).
    func testMaskedBlend() {
        let root = canvas(24, 12, backdrop)
        let layer = box(CGRect(x: 0, y: 0, width: 24, height: 12), color(0.5, 0.5, 0.5))
        layer.compositingFilter = "multiplyBlendMode"
        layer.mask = box(CGRect(x: 0, y: 0, width: 12, height: 12), color(0, 0, 0))
        root.addSublayer(layer)
        let img = render(root, width: 24, height: 12)
        assertPixel(img.pixel(x: 5, y: 6), (0.4, 0.2, 0.1), "under the mask")
        assertPixel(img.pixel(x: 18, y: 6), (0.8, 0.4, 0.2), "outside the mask")

        let matte = MatteLayer()
        matte.frame = layer.bounds
        matte.maskMode = .luminance
        matte.addSublayer(box(layer.bounds, color(0.6, 0.6, 0.6)))
        layer.mask = matte
        assertPixel(render(root, width: 24, height: 12).pixel(x: 18, y: 6), (0.56, 0.28, 0.14), "luminance matte 0.6")
    }

    /// A rasterized layer (`shouldRasterize`) keeps its blend mode: its bitmap is multiplied.
    func testRasterizedLayerBlends() {
        let root = canvas(12, 12, backdrop)
        let layer = box(CGRect(x: 2, y: 2, width: 8, height: 8), color(0.5, 0.5, 0.5))
        layer.compositingFilter = "multiplyBlendMode"
        layer.shouldRasterize = true
        root.addSublayer(layer)
        assertPixel(render(root, width: 12, height: 12).pixel(x: 6, y: 6), (0.4, 0.2, 0.1), "rasterized")
    }
}
