// The Transform effect (`ADBE Geometry2`) and expression controls / pseudo effects.
//
// Transform: pixels of Fixtures/effect-transform.json at chosen frames against values worked
// out from its matrix (−anchor, scale, skew along the skew axis, rotation, position: a layer
// transform's, as Skia's Skottie draws the effect and as After Effects documents its settings;
// lottie-web's TransformEffect turns before it skews and about the skew axis + 90°, a vertical
// shear at axis 0, and ThorVG 1.1.3 and rlottie ignore the effect, drawing the layers where their
// own transforms put them — so the references disagree and the layer transform's formula decides), a reference
// PNG, the matrix's values, expressions reading a pseudo effect, the same bytes at any worker
// count, and notes. Controls: what is listed as a control rather than reported, and expressions
// reading sliders, points, pseudo effects' named and indexed values and layer controls at
// chosen frames (fr 10: frame f is f / 10 s).
import Foundation
import XCTest
@testable import Strata
@testable import StrataLottie
@testable import StrataCLI
import StrataTestSupport

final class LottieTransformEffectTests: XCTestCase {
    private let white = (255.0, 255.0, 255.0)

    /// "moved": a 10 × 10 square at (20, 20) (15…25), anchor (20, 20), scale width 200 (uniform
    /// off), position (20, 20) → (70, 20) over frames 0…10, then filled black by a Fill after
    /// the Transform: 20 wide, 10 high, centred on x 20, 45, 70 at frames 0, 5, 10.
    /// "sheared": a 20 × 20 square at (25, 70), skew 45 about axis 0: a horizontal shear, as a
    /// layer's skew, x − (y − 70) about the anchor, so row 62 (centre 62.5) spans x 22.5…42.5
    /// and row 77 7.5…27.5. (lottie-web's axis + 90° would shear it vertically: (40, 62) white.)
    /// "turned": a 20 × 20 square at (75, 70), uniform scale on with height 50 (its width of 100
    /// unused), turned 45°: a diamond of half-diagonal 5√2 ≈ 7.07, blue at opacity 50 over
    /// white, (127.5, 127.5, 255); (75, 64) inside it, outside the unturned square; (79, 74) the
    /// other way round; (80, 75) inside a 20 × 10 rectangle turned 45° (uniform scale ignored).
    /// "controlled": a 6 × 6 square at (50, 45) placed by a pseudo effect's point (50, 35) →
    /// (50, 55) and scaled by its slider 100 → 200 %, through expressions.
    func testTransformEffectPixels() throws {
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("effect-transform")).unsupported, [])
        for (frame, centre) in [(0.0, 20), (5, 45), (10, 70)] {
            let b = try LottieFixtures.frame("effect-transform", frame)
            for x in [centre - 9, centre, centre + 9] {
                assertPixel(b, x, 20, (0, 0, 0), "moved at frame \(frame)")
                assertPixel(b, x, 14, white, "above the moved square at frame \(frame)")
                assertPixel(b, x, 25, white, "below the moved square at frame \(frame)")
            }
            assertPixel(b, centre - 11, 20, white, "left of the moved square at frame \(frame)")
            assertPixel(b, centre + 10, 20, white, "right of the moved square at frame \(frame)")

            assertPixel(b, 40, 62, (0, 255, 0), "sheared, top row, right")
            assertPixel(b, 23, 62, (0, 255, 0), "sheared, top row, left")
            assertPixel(b, 20, 62, white, "left of the sheared top row")
            assertPixel(b, 10, 77, (0, 255, 0), "sheared, bottom row, left")
            assertPixel(b, 26, 77, (0, 255, 0), "sheared, bottom row, right")
            assertPixel(b, 29, 77, white, "right of the sheared bottom row")

            let half = (127.5, 127.5, 255.0)
            for (x, y) in [(75, 70), (75, 64), (69, 70), (80, 70), (75, 75)] { assertPixel(b, x, y, half, "turned") }
            for (x, y) in [(79, 74), (80, 75), (70, 65), (83, 70)] { assertPixel(b, x, y, white, "beside the turned square") }

            let y = 35 + Int(frame) * 2, r = 3 * (1 + frame / 10)
            // Rows wholly inside and wholly outside the square's edges y ∓ r.
            let edges = (Double(y) - r, Double(y) + r)
            let top = Int(edges.0.rounded(.up)), bottom = Int(edges.1.rounded(.down)) - 1
            assertPixel(b, 50, y, (255, 255, 0), "controlled at frame \(frame)")
            assertPixel(b, 50, top, (255, 255, 0), "controlled, top row, at frame \(frame)")
            assertPixel(b, 50, bottom, (255, 255, 0), "controlled, bottom row, at frame \(frame)")
            assertPixel(b, 50, Int(edges.0.rounded(.down)) - 1, white, "above the controlled square at frame \(frame)")
            assertPixel(b, 50, Int(edges.1.rounded(.up)), white, "below the controlled square at frame \(frame)")
        }
        assertPixel(try LottieFixtures.frame("effect-transform", 10), 20, 20, white, "where the moved square was")
        // A reference at frame 5, edges included (within 2 levels).
        assertReferenceImage(try LottieFixtures.frame("effect-transform", 5), named: "effect-transform-5")
    }

    /// The matrix's values: the anchor to the position, width and height scaled apart unless the
    /// scale is uniform (then both the height), rotation clockwise (y down), the skew's shear
    /// horizontal about axis 0 and vertical about axis 90, as a layer's, skewed before turned.
    func testTransformEffectMatrix() {
        func map(_ p: CGPoint, anchor: [Double] = [0, 0], position: [Double] = [0, 0], uniform: Double = 0, height: Double = 100,
                 width: Double = 100, skew: Double = 0, axis: Double = 0, rotation: Double = 0) -> [Double] {
            let values: [[Double]] = [anchor, position, [uniform], [height], [width], [skew], [axis], [rotation], [100]]
            let q = p.applying(LottieCompiler.transformEffectMatrix { values[$0] })
            return [Double(q.x), Double(q.y)]
        }
        XCTAssertEqual(map(CGPoint(x: 15, y: 15), anchor: [20, 20], position: [70, 20], width: 200), [60.0, 15], accuracy: 1e-9)
        XCTAssertEqual(map(CGPoint(x: 25, y: 25), anchor: [20, 20], position: [70, 20], width: 200), [80.0, 25], accuracy: 1e-9)
        XCTAssertEqual(map(CGPoint(x: 2, y: 2), uniform: 1, height: 50, width: 300), [1.0, 1], accuracy: 1e-9)
        XCTAssertEqual(map(CGPoint(x: 10, y: 0), rotation: 90), [0.0, 10], accuracy: 1e-9)
        XCTAssertEqual(map(CGPoint(x: 0, y: 10), skew: 45), [-10.0, 10], accuracy: 1e-9)
        XCTAssertEqual(map(CGPoint(x: 10, y: 0), skew: 45), [10.0, 0], accuracy: 1e-9)
        XCTAssertEqual(map(CGPoint(x: 10, y: 0), skew: 45, axis: 90), [10.0, 10], accuracy: 1e-9)
        // Skewed before it is turned: (0, 10) sheared to (−10, 10), then turned 90° to (−10, −10).
        XCTAssertEqual(map(CGPoint(x: 0, y: 10), skew: 45, rotation: 90), [-10.0, -10], accuracy: 1e-9)
        // The same matrix as a layer transform's of those values.
        var t = LottieTransform()
        t.anchor = .fixed([3, 4]); t.position = .fixed([50, 60]); t.scale = .fixed([150, 80])
        t.skew = .fixed([20]); t.skewAxis = .fixed([30]); t.rotation = .fixed([40])
        let layer = CGPoint(x: 7, y: -2).applying(LottieCompiler.matrix(t, at: 0) { p, _ in p.value(at: 0) })
        XCTAssertEqual(map(CGPoint(x: 7, y: -2), anchor: [3, 4], position: [50, 60], height: 80, width: 150, skew: 20, axis: 30, rotation: 40),
                       [Double(layer.x), Double(layer.y)], accuracy: 1e-9)
    }

    /// The Transform's position and scale height read the pseudo effect "Mover": its point by
    /// name (50, 35) → (50, 55), its slider by match name, by effect and value index, and by name.
    func testTransformEffectFollowsExpressions() throws {
        let a = try LottieAnimation(contentsOf: LottieFixtures.url("effect-transform"))
        for (frame, y, size) in [(0.0, 35.0, 100.0), (2.5, 40, 125), (10, 55, 200)] {
            let position = "layers[3].ef[1].ef[1].v", height = "layers[3].ef[1].ef[3].v"
            let p = try XCTUnwrap(a.expressions.scripts[position]), h = try XCTUnwrap(a.expressions.scripts[height])
            XCTAssertEqual(try a.expressions.evaluate(position, p.property, at: frame), [50, y], accuracy: 1e-9)
            XCTAssertEqual(try a.expressions.evaluate(height, h.property, at: frame), [size], accuracy: 1e-9)
        }
    }

    /// What the Transform moves off a solid is cut at the solid's bounds, as After Effects draws
    /// a layer's effects into a buffer of its size: a red 40 × 40 solid at (30, 30) moved 20 right
    /// by the effect shows at x 50…70 only (its left 20 columns empty, the rest cut), where a
    /// shape layer's square is moved whole (50…90); after a blur, which grows the buffer, not cut.
    /// (lottie-web and Skottie do not cut; ThorVG and rlottie do not draw the effect.)
    func testTransformEffectIsCutAtASolidsBounds() throws {
        func fx(_ blur: Bool) -> String {
            let items = ["[0,0]", "[20,0]", "1", "100", "100", "0", "0", "0", "100"].enumerated()
                .map { #"{"ty":0,"nm":"p\#($0.offset)","v":{"a":0,"k":\#($0.element)}}"# }
            let transform = #"{"ty":5,"nm":"T","mn":"ADBE Geometry2","en":1,"ef":[\#(items.joined(separator: ","))]}"#
            return blur ? #"{"ty":29,"nm":"B","en":1,"ef":[{"ty":0,"v":{"a":0,"k":0}},{"ty":7,"v":{"a":0,"k":1}}]},"# + transform : transform
        }
        let solid = ##"{"ty":1,"ind":1,"ip":0,"op":10,"st":0,"sc":"#ff0000","sw":40,"sh":40,"ks":{"p":{"a":0,"k":[30,30]}},"ef":[\##(fx(false))]}"##
        let shape = #"{"ty":4,"ind":2,"ip":0,"op":10,"st":0,"ks":{"p":{"a":0,"k":[30,75]}},"ef":[\#(fx(false))],"shapes":[{"ty":"gr","it":[{"ty":"rc","p":{"a":0,"k":[20,5]},"s":{"a":0,"k":[40,10]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[0,0,1]},"o":{"a":0,"k":100}},{"ty":"tr"}]}]}"#
        let blurred = ##"{"ty":1,"ind":3,"ip":0,"op":10,"st":0,"sc":"#00ff00","sw":40,"sh":5,"ks":{"p":{"a":0,"k":[30,90]}},"ef":[\##(fx(true))]}"##
        let background = ##"{"ty":1,"ind":4,"ip":0,"op":10,"st":0,"sc":"#ffffff","sw":100,"sh":100,"ks":{}}"##
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":100,"h":100,"layers":[\#(solid),\#(shape),\#(blurred),\#(background)]}"#
        let lottie = try LottieLayer(data: Data(json.utf8))
        XCTAssertEqual(lottie.unsupported, [])
        let b = try LottieFixtures.scene(showing: lottie, width: 100, height: 100).renderFrame(at: lottie.time(ofFrame: 0))
        for x in [35, 45, 72, 85] { assertPixel(b, x, 50, white, "solid moved and cut, x \(x)") }
        for x in [52, 60, 68] { assertPixel(b, x, 50, (255, 0, 0), "solid moved, x \(x)") }
        for x in [52, 70, 88] { assertPixel(b, x, 75, (0, 0, 255), "shape moved whole, x \(x)") }
        for x in [35, 45] { assertPixel(b, x, 75, white, "where the shape was, x \(x)") }
        for x in [52, 80, 88] { assertPixel(b, x, 92, (0, 255, 0), "solid moved after a blur, uncut, x \(x)") }
    }

    /// The same bytes at 1 and 2 workers (and other tile sizes) at chosen frames.
    func testTransformEffectSameBytesAnyWorkers() throws {
        let (scene, layer) = try LottieFixtures.scene("effect-transform")
        for frame in [3.0, 7.5] {
            let t = layer.time(ofFrame: frame)
            var one = RenderOptions()
            one.workers = 1
            let want = try scene.renderFrame(at: t, options: one)
            for (workers, tile) in [(2, 64), (2, 16), (3, 24)] {
                let got = try scene.renderFrame(at: t, options: RenderOptions(workers: workers, tileSize: tile))
                XCTAssertTrue(got.pixels == want.pixels, "frame \(frame): \(workers) workers, tiles of \(tile)")
            }
        }
    }

    /// Motion blur of the Transform effect is reported where the layer's motion blur is on (After
    /// Effects blurs only then): at the composition's shutter angle, or at its own above 0;
    /// a Transform missing a parameter is reported and not drawn; a disabled one is neither.
    func testTransformEffectNotes() throws {
        func notes(_ extra: [Int: String], mb: Int = 0, en: Int = 1, count: Int = 12) throws -> [String] {
            var values = ["[0,0]", "[0,0]", "1", "100", "100", "0", "0", "0", "100", "1", "0", "1"]
            for (i, v) in extra { values[i] = v }
            let items = values.prefix(count).enumerated().map { #"{"ty":0,"nm":"p\#($0.offset)","v":{"a":0,"k":\#($0.element)}}"# }
            let fx = #"{"ty":5,"nm":"T","mn":"ADBE Geometry2","en":\#(en),"ef":[\#(items.joined(separator: ","))]}"#
            let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":100,"h":100,"layers":[{"ty":4,"ind":1,"ip":0,"op":10,"st":0,"mb":\#(mb),"ks":{},"shapes":[],"ef":[\#(fx)]}]}"#
            return try LottieLayer(data: Data(json.utf8)).unsupported.map(\.description)
        }
        XCTAssertEqual(try notes([:]), [])
        XCTAssertEqual(try notes([:], mb: 1), ["layers[0].ef[0]: Transform effect 'T' motion blur (drawn without)"])
        XCTAssertEqual(try notes([9: "0", 10: "180"], mb: 1), ["layers[0].ef[0]: Transform effect 'T' motion blur (drawn without)"])
        XCTAssertEqual(try notes([9: "0", 10: "180"]), [])
        XCTAssertEqual(try notes([9: "0", 10: "0"], mb: 1), [])
        XCTAssertEqual(try notes([:], count: 8), ["layers[0].ef[0]: Transform effect 'T' without a readable parameter 9 (not rendered)"])
        XCTAssertEqual(try notes([:], mb: 1, en: 0), [])
    }
}

final class LottieEffectControlTests: XCTestCase {
    /// A layer "C" (index 1) with: a Slider Control; a Fill (drawn); a pseudo effect "Rig" of a
    /// group, a point "Spot" and a slider "Gain" (places 1, 2, 3); After Effects' "Wiggle -
    /// position" preset (`ADBE CM WigglePosition`); a Layer Control naming layer 2; an old
    /// unnamed custom effect of one slider. Layer 2 "Target" sits at (30, 40).
    static let controlsJSON = #"""
    {"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[
     {"ty":3,"ind":1,"nm":"C","ip":0,"op":20,"st":0,"ks":{"r":{"a":0,"k":0,"x":"XR"},"p":{"a":0,"k":[0,0],"x":"XP"}},"ef":[
      {"ty":5,"nm":"Speed","mn":"ADBE Slider Control","en":1,"ef":[{"ty":0,"nm":"Slider","mn":"ADBE Slider Control-0001","v":{"a":1,"k":[{"t":0,"s":[0],"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}},{"t":10,"s":[100]}]}}]},
      {"ty":21,"nm":"Fill","en":1,"ef":[{"ty":10,"v":{"a":0,"k":0}},{"ty":7,"v":{"a":0,"k":0}},{"ty":2,"v":{"a":0,"k":[1,0,0,1]}},{"ty":7,"v":{"a":0,"k":0}},{"ty":0,"v":{"a":0,"k":0}},{"ty":0,"v":{"a":0,"k":0}},{"ty":0,"v":{"a":0,"k":1}}]},
      {"ty":5,"nm":"Rig","mn":"Pseudo/abc/Rig","en":1,"ef":[{"ty":6,"nm":"Group","mn":"Pseudo/abc/Rig-0001","v":0},{"ty":3,"nm":"Spot","mn":"Pseudo/abc/Rig-0002","v":{"a":1,"k":[{"t":0,"s":[10,20],"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}},{"t":10,"s":[30,60]}]}},{"ty":0,"nm":"Gain","mn":"Pseudo/abc/Rig-0003","v":{"a":0,"k":7}},{"ty":6,"nm":"","mn":"Pseudo/abc/Rig-0004","v":0}]},
      {"ty":5,"nm":"Wiggle - position","mn":"ADBE CM WigglePosition","en":1,"ef":[{"ty":0,"nm":"Wiggle Speed (wigs/sec)","mn":"ADBE CM WigglePosition-0001","v":{"a":0,"k":1}},{"ty":0,"nm":"Wiggle Amount (pixels)","mn":"ADBE CM WigglePosition-0002","v":{"a":0,"k":3}}]},
      {"ty":5,"nm":"Who","mn":"ADBE Layer Control","en":1,"ef":[{"ty":10,"nm":"Layer","mn":"ADBE Layer Control-0001","v":{"a":0,"k":2}}]},
      {"ty":5,"nm":"Old","en":1,"ef":[{"ty":0,"nm":"Slider","v":{"a":0,"k":4}}]},
      {"ty":5,"nm":"Four","mn":"ADBE 4ColorGradient","en":1,"ef":[{"ty":3,"nm":"Point 1","v":{"a":0,"k":[0,0]}}]}
     ]},
     {"ty":3,"ind":2,"nm":"Target","ip":0,"op":20,"st":0,"ks":{"p":{"a":0,"k":[30,40]}}}
    ]}
    """#

    /// The file with `rotation` and `position` as the expressions of layer C's rotation and position.
    private func animation(rotation: String = "0", position: String = "[0, 0]") throws -> LottieAnimation {
        func quoted(_ s: String) throws -> String {
            String(String(data: try JSONSerialization.data(withJSONObject: [s]), encoding: .utf8)!.dropFirst().dropLast())
        }
        let json = Self.controlsJSON.replacingOccurrences(of: #""XR""#, with: try quoted(rotation))
            .replacingOccurrences(of: #""XP""#, with: try quoted(position))
        return try LottieAnimation(data: Data(json.utf8))
    }

    private func value(_ a: LottieAnimation, _ key: String, at frame: Double) throws -> [Double] {
        let path = "layers[0].ks." + key
        let entry = try XCTUnwrap(a.expressions.scripts[path], "no expression at \(path): \(a.unsupported)")
        return try a.expressions.evaluate(path, entry.property, at: frame)
    }

    /// The controls and pseudo effects are listed as controls, in order, and not reported; the
    /// Fill is drawn; the 4-Color Gradient (an effect that draws, not drawn by Strata) is reported.
    func testControlsAreListedNotReported() throws {
        let a = try animation()
        XCTAssertEqual(a.expressionControls.map(\.description), [
            "layers[0].ef[0]: 'Speed' (ADBE Slider Control)",
            "layers[0].ef[2]: 'Rig' (Pseudo/abc/Rig)",
            "layers[0].ef[3]: 'Wiggle - position' (ADBE CM WigglePosition)",
            "layers[0].ef[4]: 'Who' (ADBE Layer Control)",
            "layers[0].ef[5]: 'Old'",
        ])
        XCTAssertEqual(a.unsupported.map(\.description), ["layers[0].ef[6]: layer effect 'Four' (ADBE 4ColorGradient) (not rendered)"])
        XCTAssertEqual(a.layers[0].drawnEffects.map(\.kind), [.fill])
    }

    /// Expressions read the controls at chosen frames: a slider by name and by its value's match
    /// name (0 → 100 over frames 0…10), a pseudo effect's point by name and its slider by place
    /// (the group marker is place 1), effects by their place among all the layer's (the Fill
    /// is effect 2, and its values are read too), the preset's values, and a layer control's layer.
    func testExpressionsReadControls() throws {
        let cases: [(String, [(Double, Double)])] = [
            ("effect('Speed')('Slider')", [(0, 0), (2.5, 25), (10, 100)]),
            ("effect('Speed')('ADBE Slider Control-0001') * 2", [(5, 100)]),
            ("thisLayer.effect('ADBE Slider Control')(1)", [(7, 70)]),
            ("effect(1)(1) + effect(3)(3)", [(5, 57)]),
            // The Fill (effect 2, drawn) read as a control: its opacity, its colour's red.
            ("effect(2)(7) * 10 + effect('Fill')(3)[0]", [(0, 11)]),
            ("effect('Rig')('Gain') * 10 + effect('Rig')('Pseudo/abc/Rig-0003')", [(0, 77)]),
            ("effect('Wiggle - position')('Wiggle Amount (pixels)') * 10 + effect('Old')('Slider')", [(0, 34)]),
            ("effect('Who')('Layer').transform.position[1]", [(0, 40)]),
            ("effect('Who')(1).name == 'Target' ? 1 : 0", [(0, 1)]),
        ]
        for (source, values) in cases {
            let a = try animation(rotation: source)
            XCTAssertEqual(a.unsupported.filter { $0.path.hasPrefix("layers[0].ks") }, [], source)
            for (frame, want) in values {
                XCTAssertEqual(try value(a, "r", at: frame), [want], accuracy: 1e-9, "\(source) at frame \(frame)")
            }
        }
        let a = try animation(position: "effect('Rig')('Spot') + [effect(3)(2)[0], 0]")
        for (frame, want) in [(0.0, [20.0, 20.0]), (5, [40, 40]), (10, [60, 60])] {
            XCTAssertEqual(try value(a, "p", at: frame), want, accuracy: 1e-9, "the pseudo effect's point at frame \(frame)")
        }
    }

    /// What cannot be read is reported with why (the keyframes used instead): an effect Strata
    /// does not draw (by name and by place), a group marker, a value the effect lacks.
    func testControlReadingErrors() throws {
        for (source, message) in [
            ("effect('Four')(1)", "no effect named 'Four' (effects Strata does not draw are not read)"),
            ("effect(7)(1)", "no effect 7 (effects Strata does not draw are not read)"),
            ("effect('Rig')(1)", "the effect 'Rig' has no such value"),
            ("effect('Rig')('Nothing')", "the effect 'Rig' has no such value"),
        ] {
            let a = try animation(rotation: source)
            XCTAssertTrue(a.unsupported.map(\.description).contains("layers[0].ks.r.x: expression: \(message) (the keyframes are used instead)"),
                          "\(source): \(a.unsupported)")
        }
    }

    /// `strata probe` lists the controls grouped by match name (at most three paths each) apart
    /// from what is not rendered.
    func testProbeListsControls() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("controls-\(UUID().uuidString).json")
        try Data(Self.controlsJSON.replacingOccurrences(of: #""XR""#, with: "\"0\"").replacingOccurrences(of: #""XP""#, with: "\"[0,0]\"").utf8)
            .write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let text = try LottieInput.probe(url.path)
        XCTAssertTrue(text.contains("""
              expression controls (5, values expressions read; nothing to draw):
                ADBE Slider Control ×1: layers[0].ef[0] 'Speed'
                Pseudo/abc/Rig ×1: layers[0].ef[2] 'Rig'
                ADBE CM WigglePosition ×1: layers[0].ef[3] 'Wiggle - position'
                ADBE Layer Control ×1: layers[0].ef[4] 'Who'
                (no match name) ×1: layers[0].ef[5] 'Old'
              not rendered (1):
                layers[0].ef[6]: layer effect 'Four' (ADBE 4ColorGradient) (not rendered)
            """), text)
    }
}

/// Arrays equal element by element within `accuracy`.
private func XCTAssertEqual(_ a: [Double], _ b: [Double], accuracy: Double, _ message: String = "",
                            file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, "\(a) vs \(b) \(message)", file: file, line: line)
    for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, "\(a) vs \(b) \(message)", file: file, line: line) }
}
