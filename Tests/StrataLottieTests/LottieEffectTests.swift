// Layer effects (`ef`): Fill, Tint, Tritone, Drop Shadow and Gaussian Blur, pixels at chosen
// points against values worked out by hand from the formulas (LayerEffect.swift, the fixtures'
// comments in make-fixtures.py), over a white solid; animated parameters at chosen frames; the
// same bytes at any worker count, tile size and with the SIMD kernels off; notes for what is not
// drawn. Where ThorVG (thorvg-python 1.1.3) draws otherwise, the formula decides (said at each test).
import XCTest
import Foundation
@testable import Strata
@testable import StrataLottie

final class LottieEffectTests: XCTestCase {
    /// Fill: C + (blue − C) · opacity over a red square, the opacity keyframed 0 → 1 over frames
    /// 0…10: red, (127.5, 0, 127.5), blue. (ThorVG multiplies the layer's alpha by the opacity
    /// instead, as lottie-web's colour matrix does: (128, 128, 255) at frame 5, blue at half
    /// alpha over white; After Effects' Fill mixes the colours, the layer staying opaque.)
    /// Tint of grey 0.4 (L = 0.4), black → black, white → (1, 0.6, 0), 50 %: T = (0.4, 0.24, 0),
    /// half way from the grey: (0.4, 0.32, 0.2) = (102, 81.6, 51); ThorVG (101, 81, 51).
    /// Tritone (highlights yellow, midtones red, shadows blue, no blend) of grey 0.2: L < ½,
    /// blue + (red − blue) · 0.4 = (102, 0, 153); of grey 0.8: red + (yellow − red) · 0.6 =
    /// (255, 153, 0); ThorVG (100, 0, 155) and (255, 150, 0), its luminance in 8-bit steps.
    /// Drop Shadow (blue, opacity 153/255, 135°, distance 10√2, no softness) of a red square at
    /// 60…80: 10 right and 10 down, white · 0.4 + blue · 0.6 = (102, 102, 255) at 70…90 outside
    /// the square, white beyond; ThorVG the same.
    func testColourEffectsAndDropShadow() throws {
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("effects")).unsupported, [])
        for (frame, fill) in [(0.0, (255.0, 0.0, 0.0)), (5, (127.5, 0, 127.5)), (10, (0, 0, 255))] {
            let b = try LottieFixtures.frame("effects", frame)
            assertPixel(b, 25, 25, fill, "fill at frame \(frame)")
            assertPixel(b, 5, 25, (255, 255, 255), "outside the filled square")
            assertPixel(b, 75, 25, (102, 81.6, 51), "tint")
            assertPixel(b, 15, 75, (102, 0, 153), "tritone of a dark grey")
            assertPixel(b, 35, 75, (255, 153, 0), "tritone of a light grey")
            assertPixel(b, 70, 70, (255, 0, 0), "the shadowed square")
            for (x, y) in [(85, 85), (89, 72), (72, 89)] { assertPixel(b, x, y, (102, 102, 255), "shadow") }
            for (x, y) in [(91, 91), (85, 65), (65, 85)] { assertPixel(b, x, y, (255, 255, 255), "beside the shadow") }
        }
    }

    /// An effect's parameter driven by an expression: Tint's amount `time * 100` (seconds, 10
    /// frames a second) over grey 0.4, black → black, white → (1, 0.6, 0): at frame 0 the grey,
    /// at 5 half way to T = (0.4, 0.24, 0), at 10 T itself.
    func testEffectParameterExpression() throws {
        let tint = #"{"ty":20,"nm":"Tint","en":1,"ef":[{"ty":2,"nm":"Map Black To","v":{"a":0,"k":[0,0,0,1]}},{"ty":2,"nm":"Map White To","v":{"a":0,"k":[1,0.6,0,1]}},{"ty":0,"nm":"Amount to Tint","v":{"a":0,"k":0,"x":"var $bm_rt;\n$bm_rt = time * 100;"}}]}"#
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":4,"ind":1,"ip":0,"op":20,"st":0,"ks":{},"ef":[\#(tint)],"shapes":[{"ty":"gr","it":[{"ty":"rc","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[0.4,0.4,0.4]},"o":{"a":0,"k":100}},{"ty":"tr"}]}]}]}"#
        let lottie = try LottieLayer(data: Data(json.utf8))
        XCTAssertEqual(lottie.unsupported, [])
        let scene = LottieFixtures.scene(showing: lottie, width: 100, height: 100)
        for (frame, want) in [(0.0, (102.0, 102.0, 102.0)), (5, (102, 81.6, 51)), (10, (102, 61.2, 0))] {
            assertPixel(try scene.renderFrame(at: lottie.time(ofFrame: frame)), 50, 50, want, "tint at frame \(frame)")
        }
    }

    /// The step of a square's edge at `edge` (pixels `edge`… inside) blurred with the discrete
    /// Gaussian of σ: the coverage at pixel `x`, Σ over the inside of the normalised weights
    /// exp(−d²/2σ²), d = x' − x, |d| ≤ ⌈3σ⌉ (the square is wider than the kernel).
    private func blurredStep(at x: Int, edge: Int, sigma: Double) -> Double {
        let r = Int((3 * sigma).rounded(.up))
        let k = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = k.reduce(0, +)
        return (-r...r).filter { x + $0 >= edge }.map { k[$0 + r] / sum }.reduce(0, +)
    }

    /// The coverage at pixel `x` of the interval `from..<to` blurred with the discrete Gaussian of σ.
    private func blurredInterval(at x: Int, from a: Int, to b: Int, sigma: Double) -> Double {
        blurredStep(at: x, edge: a, sigma: sigma) - blurredStep(at: x, edge: b, sigma: sigma)
    }

    /// At frame 19 the blurriness is 100: σ 30 px, wider than the square, drawn by box passes
    /// (the shadows' blur, within 0.35 % of the Gaussian): along row 50 the coverage is the
    /// product of the square's blurred extents across and down, within 2 levels.
    func testWideGaussianBlur() throws {
        let b = try LottieFixtures.frame("effect-blur", 19)
        let down = blurredInterval(at: 50, from: 30, to: 70, sigma: 30)
        for x in stride(from: 0, through: 100, by: 10) {
            let g = 255 * (1 - down * blurredInterval(at: x, from: 30, to: 70, sigma: 30))
            assertPixel(b, x, 50, (255, g, g), accuracy: 2, "wide blur")
        }
    }

    /// Gaussian Blur of a red 40 × 40 square (30…70) over white, blurriness keyframed 0 → 20 over
    /// frames 0…10, σ = 0.3 × blurriness: along row 50, 255 · (1 − coverage) in green and blue,
    /// the coverage the discrete Gaussian's step (σ 3 at frame 5, 6 at frame 10; sharp at 0).
    /// Blurred horizontally only (dimensions 2), the square's top edge stays sharp. (ThorVG
    /// draws the Gaussian as two box passes at its default quality, narrower: σ ≈ 4.7 at
    /// blurriness 20; lottie-web's 0.3 × blurriness is a true Gaussian.)
    /// Drop Shadow of a third square (black, opacity 255, distance 0, softness 20: σ = 5)
    /// shows around it: right of its edge at x 270, 255 · (1 − coverage of σ 5), within 2
    /// levels (Strata's shadows blur by box passes within 0.35 % of the Gaussian); ThorVG's
    /// box passes are within a few levels of it.
    func testGaussianBlurAndSoftShadow() throws {
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("effect-blur")).unsupported, [])
        for (frame, sigma) in [(5.0, 3.0), (10, 6)] {
            let b = try LottieFixtures.frame("effect-blur", frame)
            for x in stride(from: 20, through: 40, by: 2) {
                let g = 255 * (1 - blurredStep(at: x, edge: 30, sigma: sigma))
                assertPixel(b, x, 50, (255, g, g), "blur σ \(sigma)")
            }
            if frame == 10 {
                for x in stride(from: 120, through: 140, by: 4) {
                    let g = 255 * (1 - blurredStep(at: x, edge: 130, sigma: sigma))
                    assertPixel(b, x, 50, (255, g, g), "horizontal blur")
                }
                assertPixel(b, 150, 29, (255, 255, 255), "above the horizontally blurred square")
                assertPixel(b, 150, 30, (255, 0, 0), "the horizontally blurred square's top row")
            }
            for x in stride(from: 270, through: 286, by: 2) {
                let g = 255 * (1 - blurredStep(at: 539 - x, edge: 270, sigma: 5))
                assertPixel(b, x, 50, (g, g, g), accuracy: 2, "soft shadow")
            }
        }
        let sharp = try LottieFixtures.frame("effect-blur", 0)
        assertPixel(sharp, 29, 50, (255, 255, 255), "unblurred at frame 0")
        assertPixel(sharp, 30, 50, (255, 0, 0), "unblurred at frame 0")
    }

    /// Stroke: the first mask (mode none, the square 20…80 from its top left, clockwise) stroked
    /// 4 wide in red over the layer (a blue square 30…70), its end keyframed 0 → 100 % over
    /// frames 0…10: nothing at frame 0, the top and right sides (half the perimeter) at frame 5,
    /// all four at 10, as lottie-web draws it (the mask path stroked, trimmed from start to end).
    /// (ThorVG instead shows the layer only where the stroke is, its shapes recoloured and
    /// widened by the brush: nothing of this layer, whose square the stroke does not reach.)
    func testStrokeEffect() throws {
        let layer = try LottieLayer(contentsOf: LottieFixtures.url("effect-stroke"))
        XCTAssertEqual(layer.unsupported, [])
        let sides = [(50, 20), (80, 50), (50, 80), (20, 50)]
        for (frame, drawn) in [(0.0, 0), (5, 2), (10, 4)] {
            let b = try LottieFixtures.frame("effect-stroke", frame)
            for (i, (x, y)) in sides.enumerated() {
                assertPixel(b, x, y, i < drawn ? (255, 0, 0) : (255, 255, 255), "side \(i) at frame \(frame)")
            }
            assertPixel(b, 50, 50, (0, 0, 255), "the layer under the stroke")
            assertPixel(b, 50, 25, (255, 255, 255), "beside the stroke")
        }
    }

    /// The blurred and coloured frames are the same bytes at any worker count and tile size, and
    /// with the SIMD span kernels off (a blur reads across the tiles' edges).
    func testEffectsDrawTheSameBytesAnyWay() throws {
        for name in ["effect-blur", "effects", "effect-stroke"] {
            let (scene, layer) = try LottieFixtures.scene(name)
            for frame in [7.0, 19] {
            let t = layer.time(ofFrame: frame)
            var reference = RenderOptions()
            reference.workers = 1
            let want = try scene.renderFrame(at: t, options: reference)
            for (workers, tile, simd) in [(3, 16, true), (2, 64, false), (4, 24, true)] {
                var o = RenderOptions(workers: workers, tileSize: tile)
                o.simd = simd
                let got = try scene.renderFrame(at: t, options: o)
                let differing = zip(got.pixels, want.pixels).filter { $0 != $1 }.count
                XCTAssertTrue(got.pixels == want.pixels, "\(name) frame \(frame): \(workers) workers, tiles of \(tile), simd \(simd): \(differing) bytes differ")
            }
            }
        }
    }

    /// Effects not drawn, and parameters not drawn, are noted with their JSON paths; a disabled
    /// effect (`en` 0) draws nothing and is not noted; an effect missing a drawn parameter is
    /// noted and not drawn.
    func testEffectNotes() throws {
        func fx(_ ty: Int, _ values: [String], en: Int = 1, name: String = "E") -> String {
            let items = values.enumerated().map { #"{"ty":0,"nm":"p\#($0.offset)","v":{"a":0,"k":\#($0.element)}}"# }
            return #"{"ty":\#(ty),"nm":"\#(name)","en":\#(en),"ef":[\#(items.joined(separator: ","))]}"#
        }
        let fill = fx(21, ["1", "0", "[0,0,1,1]", "1", "0", "0", "1"], name: "Masked fill")
        let shadowOnly = fx(25, ["[0,0,0,1]", "255", "90", "4", "0", "1"])
        let repeatEdges = fx(29, ["10", "1", "1"])
        let ramp = #"{"ty":5,"nm":"Four","mn":"ADBE 4ColorGradient","ef":[{"ty":3,"nm":"Start","v":{"a":0,"k":[0,0]}}]}"#
        let disabled = fx(20, ["[0,0,0,1]", "[1,1,1,1]", "100"], en: 0)
        let short = fx(23, ["[0,0,0,1]", "[1,1,1,1]"])
        let stroke = fx(22, ["1", "0", "0", "[1,0,0,1]", "2", "75", "1", "0", "100", "150", "1"])
        let effects = [fill, shadowOnly, repeatEdges, ramp, disabled, short, stroke].joined(separator: ",")
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":100,"h":100,"layers":[{"ty":4,"ind":1,"ip":0,"op":10,"st":0,"ks":{},"shapes":[],"ef":[\#(effects)]}]}"#
        let layer = try LottieLayer(data: Data(json.utf8))
        XCTAssertEqual(layer.unsupported.map(\.description), [
            "layers[0].ef[0]: Fill effect 'Masked fill' limited to masks (the whole layer is filled)",
            "layers[0].ef[0]: Fill effect 'Masked fill' inverted (drawn not inverted)",
            "layers[0].ef[1]: Drop Shadow effect 'E' 'shadow only' (the layer is drawn too)",
            "layers[0].ef[2]: Gaussian Blur effect 'E' 'repeat edge pixels' (the blur fades at the edges)",
            "layers[0].ef[3]: layer effect 'Four' (ADBE 4ColorGradient) (not rendered)",
            "layers[0].ef[5]: Tritone effect 'E' without a readable parameter 3 (not rendered)",
            "layers[0].ef[6]: Stroke effect 'E' brush hardness below 100 % (drawn hard)",
            "layers[0].ef[6]: Stroke effect 'E' brush spacing of 100 % or more (drawn solid)",
        ])
        XCTAssertEqual(layer.animation?.layers.first?.drawnEffects.map(\.kind), [.fill, .dropShadow, .gaussianBlur, .stroke])
    }
}
