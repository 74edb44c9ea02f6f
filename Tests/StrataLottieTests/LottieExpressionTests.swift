// The expression language: values of Fixtures/expression-language.json's expressions at chosen
// frames, worked out by hand from After Effects' definitions (fr 10: frame f is f / 10 s), and
// hostile input — unbalanced or deeply nested parentheses, huge numbers, unknown names, loops,
// reference cycles, step and depth limits — reported with the expression's JSON path, never a
// crash or a hang.
import Foundation
import Synchronization
import XCTest
import Strata
@testable import StrataLottie
import StrataTestSupport

final class LottieExpressionTests: XCTestCase {
    var language: LottieAnimation?

    /// The value of the expression on `layers[layer].ks.key` at a frame.
    func value(_ layer: Int, _ key: String, _ frame: Double, file: StaticString = #filePath, line: UInt = #line) throws -> [Double] {
        if language == nil { language = try LottieAnimation(contentsOf: LottieFixtures.url("expression-language")) }
        let a = language!
        let path = "layers[\(layer)].ks.\(key)"
        guard let entry = a.expressions.scripts[path] else {
            XCTFail("no expression evaluated at \(path)", file: file, line: line)
            return []
        }
        return try a.expressions.evaluate(path, entry.property, at: frame)
    }

    /// An animation of one layer (index 1, named "L") whose rotation (value 5; with `position`,
    /// its position (10, 20)) has the expression `source`.
    static func animation(_ source: String, position: Bool = false, extraLayers: String = "") throws -> LottieAnimation {
        let text = String(data: try JSONSerialization.data(withJSONObject: [source], options: [.fragmentsAllowed]), encoding: .utf8)!
        let quoted = String(text.dropFirst().dropLast())
        let key = position ? #""p":{"a":0,"k":[10,20],"x":\#(quoted)}"# : #""r":{"a":0,"k":5,"x":\#(quoted)}"#
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":3,"ind":1,"nm":"L","ip":0,"op":20,"st":0,"sr":1,"ks":{\#(key)}}\#(extraLayers)]}"#
        return try LottieAnimation(data: Data(json.utf8))
    }

    func animation(_ source: String, position: Bool = false, extraLayers: String = "") throws -> LottieAnimation {
        try Self.animation(source, position: position, extraLayers: extraLayers)
    }

    /// The expression's value at a frame, or what is reported about it.
    func outcome(_ source: String, frame: Double = 0, position: Bool = false) throws -> String {
        let a = try animation(source, position: position)
        let path = position ? "layers[0].ks.p" : "layers[0].ks.r"
        if let note = a.unsupported.first(where: { $0.path == path + ".x" }) { return note.feature }
        guard let entry = a.expressions.scripts[path] else { return "not evaluated" }
        do {
            return "\(try a.expressions.evaluate(path, entry.property, at: frame))"
        } catch {
            return (error as? LottieScriptError)?.message ?? "\(error)"
        }
    }

    // MARK: The fixture

    func testReferencesToAnotherLayer() throws {
        // thisComp.layer("Ctrl").transform.rotation * 2: Ctrl turns 0 → 90 over frames 0…10.
        XCTAssertEqual(try value(1, "r", 7), [126], accuracy: 1e-9)
        XCTAssertEqual(try value(1, "r", 0), [0], accuracy: 1e-9)
        XCTAssertEqual(try value(1, "r", 15), [180], accuracy: 1e-9)
        // [length([3, 4]), scale[1] + position[0] + opacity] of thisComp.layer(1).transform.
        XCTAssertEqual(try value(18, "p", 3), [5, 200 + 20 + 80], accuracy: 1e-9)
        // effect("Slider Control")("Slider"): the slider goes 0 → 100 over frames 0…10.
        XCTAssertEqual(try value(12, "o", 5), [50], accuracy: 1e-9)
        XCTAssertEqual(try value(12, "o", 10), [100], accuracy: 1e-9)
    }

    /// toComp: Ctrl's point (10, 10) scaled (50 %, 200 %), turned by its rotation, moved to
    /// (20, 30): (25, 50) at frame 0; turned 90° at frame 10, (−20, 5) + (20, 30) = (0, 35).
    /// fromComp takes it back.
    func testToComp() throws {
        let ctrl = #",{"ty":3,"ind":2,"nm":"Ctrl","ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":0,"k":[20,30]},"s":{"a":0,"k":[50,200]},"#
            + #""r":{"a":1,"k":[{"t":0,"s":[0]},{"t":10,"s":[90]}]}}}"#
        let a = try animation("thisComp.layer('Ctrl').toComp([10, 10])", position: true, extraLayers: ctrl)
        let entry = try XCTUnwrap(a.expressions.scripts["layers[0].ks.p"])
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.p", entry.property, at: 0), [25, 50], accuracy: 1e-9)
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.p", entry.property, at: 10), [0, 35], accuracy: 1e-9)
        let back = try animation("thisComp.layer('Ctrl').fromComp(thisComp.layer('Ctrl').toComp([10, 10]))", position: true, extraLayers: ctrl)
        let entry2 = try XCTUnwrap(back.expressions.scripts["layers[0].ks.p"])
        XCTAssertEqual(try back.expressions.evaluate("layers[0].ks.p", entry2.property, at: 7), [10, 10], accuracy: 1e-9)
        // A child of Ctrl: its own position (5, 0) then Ctrl's transform.
        let child = #",{"ty":3,"ind":3,"nm":"Child","parent":2,"ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":0,"k":[5,0]}}}"#
        let chained = try animation("thisComp.layer('Child').toWorld([0, 0])", position: true, extraLayers: ctrl + child)
        let entry3 = try XCTUnwrap(chained.expressions.scripts["layers[0].ks.p"])
        XCTAssertEqual(try chained.expressions.evaluate("layers[0].ks.p", entry3.property, at: 0), [22.5, 30], accuracy: 1e-9)
    }

    func testVariablesTimeValueAndIndex() throws {
        XCTAssertEqual(try value(2, "r", 5), [10], accuracy: 1e-9)     // var a = time*10; a + value[0]: 5 + 5
        XCTAssertEqual(try value(2, "r", 12), [17], accuracy: 1e-9)
        XCTAssertEqual(try value(4, "o", 3), [50], accuracy: 1e-9)     // index * 10, layer index 5
        XCTAssertEqual(try value(16, "r", 5), [6], accuracy: 1e-9)     // $bm_sum($bm_mul(time, 10), value): 5 + 1
        // timeToFrames(framesToTime(7)) * 2 + thisComp.frameDuration * 100 = 14 + 10.
        XCTAssertEqual(try value(17, "r", 0), [24], accuracy: 1e-9)
    }

    func testInterpolation() throws {
        XCTAssertEqual(try value(5, "o", 2.5), [25], accuracy: 1e-9)   // linear(time, 0, 1, 0, 100) at 0.25 s
        XCTAssertEqual(try value(5, "o", 0), [0], accuracy: 1e-9)
        XCTAssertEqual(try value(5, "o", 15), [100], accuracy: 1e-9)   // clamped after tMax
        // ease(time, 0, 2, 0, 100): 0 at the start, about half way at 1 s, slower than linear early on.
        XCTAssertEqual(try value(19, "o", 0), [0], accuracy: 1e-9)
        XCTAssertEqual(try value(19, "o", 10)[0], 50, accuracy: 1)
        XCTAssertLessThan(try value(19, "o", 5)[0], 20)
        XCTAssertEqual(try value(6, "p", 8), [10, 70], accuracy: 1e-9) // valueAtTime(0) holds the first value
    }

    func testLoops() throws {
        // loopOut('continue'): x 10 → 30 over frames 0…4 goes on at 5 a frame.
        XCTAssertEqual(try value(3, "p", 20), [110, 50], accuracy: 1e-6)
        XCTAssertEqual(try value(3, "p", 6), [40, 50], accuracy: 1e-6)
        XCTAssertEqual(try value(3, "p", 2), [20, 50], accuracy: 1e-6)
        // loopOut('cycle', 1) of x 0@0, 40@4, 20@8: the last two keyframes (frames 4…8) repeat.
        XCTAssertEqual(try value(7, "p", 11), [25, 0], accuracy: 1e-9)  // frame 7
        XCTAssertEqual(try value(7, "p", 9), [35, 0], accuracy: 1e-9)   // frame 5
        XCTAssertEqual(try value(7, "p", 2), [20, 0], accuracy: 1e-9)   // inside the keyframes
        // loopOutDuration('pingpong', 0.4): frames 4…8 back and forth.
        XCTAssertEqual(try value(20, "p", 10), [30, 0], accuracy: 1e-9) // back at frame 6
        XCTAssertEqual(try value(20, "p", 13), [35, 0], accuracy: 1e-9) // forward at frame 5
        // loopIn of x 10 → 30 over frames 10…14.
        XCTAssertEqual(try value(8, "p", 8), [20, 0], accuracy: 1e-9)   // pingpong: frame 12
        XCTAssertEqual(try value(8, "p", 5), [25, 0], accuracy: 1e-9)   // frame 13
        XCTAssertEqual(try value(9, "p", 8), [0, 0], accuracy: 1e-9)    // offset: frame 12's 20 − 20
        XCTAssertEqual(try value(9, "p", 5), [-15, 0], accuracy: 1e-9)  // frame 13's 25 − 40
        XCTAssertEqual(try value(10, "p", 8), [0, 0], accuracy: 1e-6)   // continue: 10 − 5 × 2
        XCTAssertEqual(try value(10, "p", 5), [-15, 0], accuracy: 1e-6)
        XCTAssertEqual(try value(10, "p", 12), [20, 0], accuracy: 1e-9)
    }

    /// The inertial bounce: at 1.0625 s, 0.0625 s after the last key, x = 50 + 40 × 0.05 ×
    /// sin(4 × 0.0625 × 2π) / e^(8 × 0.0625) = 50 + 2 / √e; during the keys the velocity before
    /// the first key (0) adds nothing.
    func testKeysAndVelocity() throws {
        XCTAssertEqual(try value(28, "p", 10.625), [50 + 2 / M_E.squareRoot(), 40], accuracy: 1e-3)
        XCTAssertEqual(try value(28, "p", 5), [30, 40], accuracy: 1e-9)
        XCTAssertEqual(try value(28, "p", 12.5), [50, 40], accuracy: 1e-3)    // sin(2π) = 0
        XCTAssertEqual(try outcome("[numKeys, key(1).time, key(2).value[0], nearestKey(0.3).index]", position: true),
                       "expression: no key 1.0 (the property has 0) (the keyframes are used instead)")
        XCTAssertEqual(try outcome("velocity + speed + speedAtTime(0.3) + thisProperty.velocity"), "[0.0]")
        // x 10 → 50 over frames 0…10 (linear, no easing): 40 a second.
        let moving = LottieAnimated<[Double]>.keyframes([LottieKeyframe(time: 0, value: [10, 40], hold: false),
                                                          LottieKeyframe(time: 10, value: [50, 40], hold: false)])
        let host = LottieExpressions(scripts: [:], loops: [:], layers: [], precomps: [:], frameRate: 10)
        func evaluate(_ source: String, at frame: Double) throws -> [Double] {
            var h = host
            h.add("p", try LottieScript.parse(source, seed: "p"), moving)
            return try h.evaluate("p", moving, at: frame)
        }
        XCTAssertEqual(try evaluate("[numKeys, key(2).time]", at: 5), [2, 1])
        XCTAssertEqual(try evaluate("[key(1).value[0], nearestKey(0.3).index * 10 + key(2).index]", at: 5), [10, 12])
        XCTAssertEqual(try evaluate("[velocity[0], speed]", at: 5), [40, 40], accuracy: 1e-6)
        XCTAssertEqual(try evaluate("[velocityAtTime(2)[0], speedAtTime(0.5)]", at: 5), [0, 40], accuracy: 1e-6)
        XCTAssertEqual(try evaluate("[thisProperty.key(1).time, thisProperty.numKeys]", at: 5), [0, 2])
        XCTAssertThrowsError(try evaluate("key(3)", at: 5)) { XCTAssertEqual(($0 as? LottieScriptError)?.message, "no key 3.0 (the property has 2)") }
    }

    func testConditionals() throws {
        XCTAssertEqual(try value(11, "r", 5), [10])
        XCTAssertEqual(try value(11, "r", 10), [20])
        XCTAssertEqual(try value(11, "r", 15), [20])   // !(1.5 > 1.5)
        XCTAssertEqual(try value(11, "r", 16), [30])
        XCTAssertEqual(try value(11, "r", 19), [40])
    }

    func testSeededRandomIsTheSameEveryTime() throws {
        let first = try value(15, "r", 0)[0]
        XCTAssertGreaterThanOrEqual(first, 10)
        XCTAssertLessThan(first, 20)
        XCTAssertEqual(try value(15, "r", 13), [first])   // timeless
        XCTAssertEqual(try LottieAnimation(contentsOf: LottieFixtures.url("expression-language")).expressions
            .evaluate("layers[15].ks.r", .fixed([0]), at: 7), [first])
        // Without `timeless`, each frame draws anew, the same on every evaluation.
        let a = try animation("random()")
        let entry = try XCTUnwrap(a.expressions.scripts["layers[0].ks.r"])
        let at3 = try a.expressions.evaluate("layers[0].ks.r", entry.property, at: 3)
        XCTAssertNotEqual(at3, try a.expressions.evaluate("layers[0].ks.r", entry.property, at: 4))
        XCTAssertEqual(at3, try a.expressions.evaluate("layers[0].ks.r", entry.property, at: 3))
    }

    /// What is reported: a branch that gives a string at some frames (the keyframes there).
    /// A cycle is not: where the evaluation comes back to a property, that property gives its
    /// value before its expression, as lottie-web does — A (`B.rotation`, keyframe 0) and B
    /// (`A.rotation + 1`, keyframe 0) are both 1.
    func testReports() throws {
        let layer = try LottieLayer(contentsOf: LottieFixtures.url("expression-language"))
        XCTAssertEqual(layer.unsupported.map(\.description), [
            "layers[21].ks.r.x: expression: a string or an object where a number is needed (the keyframes are used where it fails)",
        ])
        XCTAssertEqual(try value(13, "r", 4), [1])
        XCTAssertEqual(try value(14, "r", 4), [1])
    }

    /// An expression that reads a property whose own expression is not run (not read, or
    /// failing) fails too: that property's keyframes are not what After Effects gives it. In a
    /// `try` block the catch block runs instead. And a layer with an expression that is not
    /// run runs none of its others (its parts keep their keyframes together).
    func testReadingAPropertyWhoseExpressionIsNotRun() throws {
        func layer(_ i: Int, _ source: String) -> String {
            let t = String(data: try! JSONSerialization.data(withJSONObject: [source]), encoding: .utf8)!
            return #",{"ty":3,"ind":\#(i),"nm":"L\#(i)","ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":0,"k":1,"x":\#(t.dropFirst().dropLast())}}}"#
        }
        let a = try animation("thisComp.layer(2).rotation + 1", extraLayers: layer(2, "new Date()"))
        XCTAssertEqual(a.unsupported.map(\.description), [
            "layers[1].ks.r.x: expression: 'new Date' is not supported (only new Array) (the keyframes are used instead)",
            "layers[0].ks.r.x: expression: it reads layers[1].ks.r, whose expression is not run (the keyframes are used instead)",
        ])
        // A chain: 0 reads 1, which reads 2, which fails when evaluated: all three use their keyframes.
        let b = try animation("thisComp.layer(2).rotation + 1", extraLayers: layer(2, "thisComp.layer(3).rotation * 2") + layer(3, "thisComp.layer('none').rotation"))
        XCTAssertNil(b.expressions.scripts["layers[0].ks.r"])
        XCTAssertNil(b.expressions.scripts["layers[1].ks.r"])
        XCTAssertEqual(b.unsupported.count, 3)
        let c = try animation("var r; try { r = thisComp.layer(2).rotation + 1 } catch (e) { r = value * 2 } r", extraLayers: layer(2, "new Date()"))
        let entry = try XCTUnwrap(c.expressions.scripts["layers[0].ks.r"])
        XCTAssertEqual(try c.expressions.evaluate("layers[0].ks.r", entry.property, at: 0), [10])
        // A layer with an expression that is not run runs none of its others.
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":3,"ind":1,"nm":"L","ip":0,"op":20,"st":0,"sr":1,"ks":{"#
            + #""p":{"a":0,"k":[10,20],"x":"value + [time, 0]"},"r":{"a":0,"k":5,"x":"for (;;) {}"}}},"#
            + #"{"ty":3,"ind":2,"nm":"M","ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":0,"k":[10,20],"x":"value + [time, 0]"}}}]}"#
        let d = try LottieAnimation(data: Data(json.utf8))
        XCTAssertEqual(d.expressions.paths, ["layers[1].ks.p"])
        // A failure reaching through a long chain (each layer's rotation reads the next layer's
        // position, which its layer's failing rotation stops): bounded passes, the rest noted.
        let chain = (2...20).map { i in
            #",{"ty":3,"ind":\#(i),"nm":"L\#(i)","ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":0,"k":[0,0],"x":"value + [1, 0]"},"#
                + #""r":{"a":0,"k":1,"x":"\#(i == 20 ? "new Date()" : "thisComp.layer(\(i + 1)).position[0]")"}}}"#
        }.joined()
        let e = try animation("thisComp.layer(2).position[0]", extraLayers: chain)
        XCTAssertTrue(e.expressions.paths.isEmpty)
        XCTAssertTrue(e.unsupported.contains { $0.feature.contains("through more than 8 others") })
        XCTAssertEqual(d.unsupported.map(\.description), [
            "layers[0].ks.r.x: expression: more than 20000 steps (the keyframes are used instead)",
            "layers[0].ks.p.x: expression: not run, as another expression of its layer is not (the keyframes are used instead)",
        ])
    }

    /// A slot's expression runs for each property that uses the slot, under that property's path.
    func testSlotExpression() throws {
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"slots":{"spin":{"p":{"a":0,"k":5,"x":"value + time * 90"}}},"#
            + #""layers":[{"ty":4,"ind":1,"ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"sid":"spin"}},"shapes":[]}]}"#
        let a = try LottieAnimation(data: Data(json.utf8))
        let entry = try XCTUnwrap(a.expressions.scripts["layers[0].ks.r"])
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.r", entry.property, at: 5), [50])
        XCTAssertEqual(try LottieLayer(animation: a).unsupported, [])
    }

    /// A 3D layer's rotation written "rz", and x rotation, skew and skew axis follow their
    /// expressions, and so does a dash length (nothing is reported).
    func testRotationZAndExpressionsNotApplied() throws {
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"ddd":1,"layers":[{"ty":4,"ind":1,"ddd":1,"ip":0,"op":20,"st":0,"sr":1,"#
            + #""ks":{"p":{"a":0,"k":[50,50]},"rz":{"a":0,"k":0,"x":"time * 90"}},"shapes":[{"ty":"gr","it":["#
            + #"{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[40,4]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1,0,0]},"o":{"a":0,"k":100}},"#
            + #"{"ty":"st","c":{"a":0,"k":[0,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":1},"lc":1,"lj":1,"ml":4,"d":[{"n":"d","v":{"a":0,"k":5,"x":"time * 10"}}]},"#
            + #"{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]},"#
            + #"{"ty":4,"ind":2,"ddd":1,"ip":0,"op":20,"st":0,"sr":1,"ks":{"rx":{"a":0,"k":0,"x":"time * 30"},"#
            + #""sk":{"a":0,"k":0,"x":"time * 10"},"sa":{"a":0,"k":0,"x":"45"}},"shapes":[]}]}"#
        let layer = try LottieLayer(animation: try LottieAnimation(data: Data(json.utf8)))
        XCTAssertEqual(layer.unsupported.map(\.description), [])
        // At 1 s the 40 × 4 bar has turned 90°: it covers (50, 35), not (65, 50).
        let frame = try LottieFixtures.scene(showing: layer, width: 100, height: 100)
            .renderFrame(at: layer.time(ofFrame: 10), options: RenderOptions())
        XCTAssertEqual(frame.at(50, 35)[3], 255)
        XCTAssertEqual(frame.at(65, 50)[3], 0)
    }

    /// Rendered: the square with loopOut('continue') at x 40 at frame 6 (its centre; the square
    /// is 4 wide), the group moved by its transform's expression, a trim path's end, a looped
    /// time remap, a repeater's copies and step and a nested group's transform under an outer
    /// group's fill a gradient's colours and an auto-oriented layer
    /// following theirs, and the same bytes with 1 and 4 workers, whatever frame came before.
    func testRenderedFollowsTheExpressions() throws {
        let f6 = try LottieFixtures.frame("expression-language", 6)
        XCTAssertEqual(f6.at(40, 50), [255, 0, 0, 255])
        XCTAssertEqual(f6.at(36, 50), [0, 0, 0, 0])
        XCTAssertEqual(f6.at(10, 70), [255, 0, 0, 255])   // valueAtTime(0): (10, 70)
        XCTAssertEqual(f6.at(64, 70), [0, 0, 0, 0])
        XCTAssertEqual(f6.at(86, 30), [0, 255, 0, 255])   // the group's position: (80 + 0.6 × 10, 30)
        XCTAssertEqual(f6.at(81, 30), [0, 0, 0, 0])
        XCTAssertEqual(f6.at(20, 95), [0, 0, 255, 255])   // trim end time × 50: 30 % of the line
        XCTAssertEqual(f6.at(40, 95), [0, 0, 0, 0])
        XCTAssertEqual(f6.at(20, 85), [0, 0, 255, 255])   // the looped time remap: frame 6 shows frame 2
        XCTAssertEqual(f6.at(40, 85), [0, 0, 0, 0])
        XCTAssertEqual(f6.at(10, 60), [0, 255, 0, 255])   // the repeater's copies: 1 before 1 s…
        XCTAssertEqual(f6.at(30, 60), [0, 0, 0, 0])
        let f10 = try LottieFixtures.frame("expression-language", 10)
        XCTAssertEqual(f10.at(67, 33), [255, 0, 0, 255])  // auto-oriented along its expression: −45° at (60, 40)
        XCTAssertEqual(f10.at(53, 47), [255, 0, 0, 255])
        XCTAssertEqual(f10.at(67, 40), [0, 0, 0, 0])
        let f12 = try LottieFixtures.frame("expression-language", 12)
        XCTAssertEqual(f12.at(30, 60), [0, 255, 0, 255])  // …3 after
        XCTAssertEqual(f12.at(50, 60), [0, 255, 0, 255])
        XCTAssertEqual(f12.at(70, 60), [0, 0, 0, 0])
        XCTAssertEqual(f6.at(60, 56), [0, 0, 255, 255])   // a nested group's transform under an outer fill
        XCTAssertEqual(f6.at(60, 51), [0, 0, 0, 0])
        XCTAssertEqual(f6.at(87, 90), [0, 0, 255, 255])   // gradient colours by their expression: blue to blue
        XCTAssertEqual(f6.at(93, 90), [0, 0, 255, 255])
        let one = try LottieFixtures.frame("expression-language", 7, workers: 1)
        let four = try LottieFixtures.frame("expression-language", 7, workers: 4)
        XCTAssertEqual(one.pixels, four.pixels)
        let (scene, lottie) = try LottieFixtures.scene("expression-language")
        _ = try scene.renderFrame(at: lottie.time(ofFrame: 15), options: RenderOptions())
        XCTAssertEqual(try scene.renderFrame(at: lottie.time(ofFrame: 7), options: RenderOptions()).pixels, one.pixels)
    }

    /// Fixtures/expression-rig.json drawn: a square placed by a function with a loop (x = 1 + … +
    /// n at frame n), a square riding a path (`pointOnPath(time / 2)` of (10, 60) → (90, 60)), a
    /// square placed by an `eval` walk up its parents (x = 10 + 3 × (5 + 6)); the same bytes at
    /// 1 and 4 workers.
    func testRigExpressionsAreDrawn() throws {
        let f4 = try LottieFixtures.frame("expression-rig", 4)
        XCTAssertEqual(f4.at(10, 20), [255, 0, 0, 255])    // 1 + 2 + 3 + 4
        XCTAssertEqual(f4.at(14, 20), [0, 0, 0, 0])
        XCTAssertEqual(f4.at(26, 58), [0, 255, 0, 255])    // 0.2 of the line: (26, 60)
        XCTAssertEqual(f4.at(30, 58), [0, 0, 0, 0])
        XCTAssertEqual(f4.at(43, 80), [255, 0, 0, 255])    // 10 + 3 × 11
        XCTAssertEqual(f4.at(39, 80), [0, 0, 0, 0])
        let f6 = try LottieFixtures.frame("expression-rig", 6)
        XCTAssertEqual(f6.at(21, 20), [255, 0, 0, 255])    // 21
        XCTAssertEqual(f6.at(17, 20), [0, 0, 0, 0])
        let f10 = try LottieFixtures.frame("expression-rig", 10, workers: 1)
        XCTAssertEqual(f10.at(50, 58), [0, 255, 0, 255])   // halfway: (50, 60), under the line
        XCTAssertEqual(f10.at(50, 60), [0, 0, 255, 255])
        XCTAssertEqual(f10.at(45, 58), [0, 0, 0, 0])
        XCTAssertEqual(try LottieFixtures.frame("expression-rig", 10, workers: 4).pixels, f10.pixels)
    }

    // MARK: Hostile and unsupported input

    func testBadInputIsReportedNotCrashed() throws {
        XCTAssertEqual(try outcome("(1 + 2"), "expression: expected ')' at the end (the keyframes are used instead)")
        XCTAssertEqual(try outcome("1 + 2)"), "expression: unexpected ')' (the keyframes are used instead)")
        XCTAssertEqual(try outcome("[1, 2"), "expression: expected ']' at the end (the keyframes are used instead)")
        let nested = String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        XCTAssertEqual(try outcome(nested), "expression: nested more than 40 deep (the keyframes are used instead)")
        XCTAssertEqual(try outcome(String(repeating: "- ", count: 10_000) + "1"), "expression: nested more than 40 deep (the keyframes are used instead)")
        XCTAssertEqual(try outcome(String(repeating: "[", count: 10_000)), "expression: nested more than 40 deep (the keyframes are used instead)")
        XCTAssertEqual(try outcome(String(repeating: "{", count: 10_000)), "expression: nested more than 40 deep (the keyframes are used instead)")
        XCTAssertEqual(try outcome(String(repeating: "if (1) ", count: 5_000) + "1"), "expression: nested more than 40 deep (the keyframes are used instead)")
        XCTAssertEqual(try outcome(Array(repeating: "1", count: 500).joined(separator: " + ")),
                       "expression: nested more than 100 deep (the keyframes are used instead)")
        XCTAssertEqual(try outcome(String(repeating: "1;", count: 5_000)), "expression: more than 3000 nodes (the keyframes are used instead)")
        XCTAssertEqual(try outcome(String(repeating: ";", count: 60_000)), "expression: longer than 50000 characters (the keyframes are used instead)")
        // Huge numbers: infinite results are not used.
        XCTAssertEqual(try outcome("1e400"), "expression: the value is not a finite number (the keyframes are used instead)")
        XCTAssertEqual(try outcome(String(repeating: "9", count: 400)), "expression: the value is not a finite number (the keyframes are used instead)")
        XCTAssertEqual(try outcome("1e308 * 10"), "expression: the value is not a finite number (the keyframes are used instead)")
        XCTAssertEqual(try outcome("1 / 0"), "expression: the value is not a finite number (the keyframes are used instead)")
        XCTAssertEqual(try outcome("value[1e300]"), "expression: index 1e+300 is not a whole number ≥ 0 (the keyframes are used instead)")
        // Unknown names and members, and what is not run.
        XCTAssertEqual(try outcome("foo + 1"), "expression: unknown name 'foo' (the keyframes are used instead)")
        XCTAssertEqual(try outcome("Math.foo(1)"), "expression: no 'Math.foo' (the keyframes are used instead)")
        XCTAssertEqual(try outcome("thisComp.layer('x').transform.rotation"), "expression: no layer named 'x' (the keyframes are used instead)")
        XCTAssertEqual(try outcome("thisComp.layer(7)"), "expression: no layer with index 7.0 (the keyframes are used instead)")
        XCTAssertEqual(try outcome("transform.foo"), "expression: no 'transform.foo' (the keyframes are used instead)")
        XCTAssertEqual(try outcome("effect('Slider')('Slider')"),
                       "expression: no effect named 'Slider' (effects Strata does not draw are not read) (the keyframes are used instead)")
        // Loops that do not end stop at the step limit; so does a function calling itself forever
        // (at the recursion limit first).
        XCTAssertEqual(try outcome("while (true) {}"), "expression: more than 20000 steps (the keyframes are used instead)")
        XCTAssertEqual(try outcome("for (;;) {}"), "expression: more than 20000 steps (the keyframes are used instead)")
        XCTAssertEqual(try outcome("do { } while (1)"), "expression: more than 20000 steps (the keyframes are used instead)")
        XCTAssertEqual(try outcome("function f() { return f() } f()"),
                       "expression: nested more than 250 deep across references (the keyframes are used instead)")
        XCTAssertEqual(try outcome("var a = []; while (true) { a.push(1) }"), "expression: more than 20000 steps (the keyframes are used instead)")
        XCTAssertEqual(try outcome("var s = 'ab'; for (var i = 0; i < 30; i++) { s = s + s } s.length"),
                       "expression: a string of more than 1 000 000 bytes (the keyframes are used instead)")
        // Strings and arrays cost steps as they are copied, and text given to eval as it is read,
        // so growing a long string or reading a long text in a loop ends soon too.
        XCTAssertEqual(try outcome("var s = 'x'; for (var i = 0; i < 19; i++) { s = s + s } for (;;) { s = s + 'y' }"),
                       "expression: more than 20000 steps (the keyframes are used instead)")
        XCTAssertEqual(try outcome("var t = '1+'; for (var i = 0; i < 14; i++) { t = t + t } for (;;) { try { eval(t + '1') } catch (e) {} }"),
                       "expression: more than 20000 steps (the keyframes are used instead)")
        XCTAssertEqual(try outcome("var a = [1]; for (var i = 0; i < 16; i++) { a = a.concat(a) } for (;;) { a.push(1) }"),
                       "expression: more than 20000 steps (the keyframes are used instead)")
        XCTAssertEqual(try outcome("return 1"), "expression: 'return' outside a function (the keyframes are used instead)")
        XCTAssertEqual(try outcome("break"), "expression: 'break' outside a loop or a switch (the keyframes are used instead)")
        XCTAssertEqual(try outcome("function f() { break } 1"), "expression: 'break' outside a loop or a switch (the keyframes are used instead)")
        XCTAssertEqual(try outcome("for (var k in value) {}"), "expression: 'for … in' loops are not supported (the keyframes are used instead)")
        XCTAssertEqual(try outcome("throw 'no'"), "expression: it throws 'no' (the keyframes are used instead)")
        XCTAssertEqual(try outcome("eval('1 +')"), "expression: unexpected end (the keyframes are used instead)")
        XCTAssertEqual(try outcome("[1, 'a'] * 2"), "expression: '*' of an array of other than numbers (the keyframes are used instead)")
        XCTAssertEqual(try outcome("3 = 4"), "expression: '=' after something that is not a variable or an element of one (the keyframes are used instead)")
        XCTAssertEqual(try outcome("'abc"), "expression: a string that does not end (the keyframes are used instead)")
        XCTAssertEqual(try outcome("/* 1"), "expression: a comment that does not end (the keyframes are used instead)")
        XCTAssertEqual(try outcome(""), "expression: no value (nothing is computed last) (the keyframes are used instead)")
        XCTAssertEqual(try outcome("1 # 2"), "expression: unexpected character '#' (the keyframes are used instead)")
        XCTAssertEqual(try outcome("if (time > 1) { x = 1 } x"), "expression: 'x' has no value yet where it is read (the keyframes are used instead)")
        XCTAssertEqual(try outcome("var y; y + 1"), "expression: a variable without a value (the keyframes are used instead)")
        XCTAssertEqual(try outcome("clamp(5, [], [])"), "expression: clamp between empty arrays (the keyframes are used instead)")
        XCTAssertEqual(try outcome("random([], [1])"), "expression: random between empty arrays (the keyframes are used instead)")
        XCTAssertEqual(try outcome("[] + []", position: true), "expression: the value is an empty array (the keyframes are used instead)")
        XCTAssertEqual(try outcome("[1, 2] * [3, 4]"), "expression: '*' between two arrays (the keyframes are used instead)")
        XCTAssertEqual(try outcome("3", position: true), "expression: a number where the property has 2 values (the keyframes are used instead)")
        // The property named in its own expression is its value before the expression.
        XCTAssertEqual(try outcome("thisProperty.valueAtTime(0) + rotation + thisLayer.transform.rotation"), "[15.0]")
    }

    /// Functions declared in the expression (called before their declaration, nested, calling
    /// themselves, seeing the variables around them), loops with `break` and `continue`,
    /// arrays of anything (grown with `push`, elements assigned), `null`, `instanceof`,
    /// `throw`, `eval` of a chain of names, and the string and array methods rigs use — each
    /// value worked out by hand.
    func testFunctionsLoopsAndArrays() throws {
        // Declared after the call (hoisted); a parameter not given is undefined.
        XCTAssertEqual(try outcome("var r = twice(4) + (f() === undefined ? 1 : 0); function twice(x) { return x * 2 } function f(a) { return a } r"), "[9.0]")
        // Recursion, and a function's own variables apart from the program's.
        XCTAssertEqual(try outcome("var n = 100; function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } fib(10) + n"), "[155.0]")
        // Nested functions see the variables of the function around them; a function
        // expression held in a variable; assignment to an undeclared name makes it the program's.
        XCTAssertEqual(try outcome("function outer(k) { function inner(x) { return x + k } total = inner(1); return inner(2) } var total; var g = function (a, b) { return a * b }; outer(10) + total + g(2, 3)"), "[29.0]")
        // Loops: the sum of odd numbers below 10 but 7, stopped past 8; while and do.
        XCTAssertEqual(try outcome("var s = 0; for (var i = 0; i < 100; i++) { if (i % 2 == 0) continue; if (i > 8) break; if (i == 7) { continue } s += i } s"), "[9.0]")
        XCTAssertEqual(try outcome("var i = 0, j = 10; while (i < j) { i += 2; j-- } do { j += 100 } while (false); [i, j]", position: true), "[8.0, 106.0]")
        // Arrays: push and pop, elements assigned (compound too), length, lists of strings.
        XCTAssertEqual(try outcome("var a = []; for (var i = 0; i < 4; i++) { a.push(i * i) } a.pop(); a[0] = 5; a[1] += 10; a[4] = 1; a.length * 1000 + a[0] * 100 + a[1] * 10 + a[2]"), "[5614.0]")
        XCTAssertEqual(try outcome("var p = 'Arm::Hand'.split('::'); var l = [p[1], 2, null]; (p[0] == 'Arm' && l[0] == 'Hand' && l.length == 3 && l[2] === null) ? l.indexOf(2) : 0"), "[1.0]")
        XCTAssertEqual(try outcome("[1, 2, 3].slice(1).concat([7]).join('-') == '2-3-7' && 'abc'.toUpperCase() == 'ABC' && (5).toFixed(2) == '5.00' ? 1 : 0"), "[1.0]")
        // instanceof, null, isNaN and parseInt as JavaScript has them.
        XCTAssertEqual(try outcome("var u; ([1] instanceof Array ? 1 : 0) + (3 instanceof Array ? 10 : 0) + (null == u ? 100 : 0) + (null === u ? 1000 : 0) + (isNaN('x') ? 2 : 0) + (isNaN(null) ? 20 : 0) + parseInt('42px')"), "[145.0]")
        XCTAssertEqual(try outcome("var m = 370; m %= 360; m"), "[10.0]")
        // throw: the catch block gets the value thrown (and probe says the try block fails).
        let thrown = try animation("var r; try { if (time >= 0) { throw 'inactive' } r = 1 } catch (err) { r = err == 'inactive' ? 2 : 3 } r")
        XCTAssertEqual(thrown.unsupported.map(\.feature), ["expression: its try block fails ('inactive'), so its catch block is used, as a player's is when the block fails"])
        XCTAssertEqual(try thrown.expressions.evaluate("layers[0].ks.r", try XCTUnwrap(thrown.expressions.scripts["layers[0].ks.r"]).property, at: 0), [2])
        // pumped_up.json's helpers: unArray and moClamp on an array.
        XCTAssertEqual(try outcome("""
            function unArray(inKey) { if (inKey instanceof Array && inKey.length === 1) { return inKey[0] } else { return inKey } }
            function moClamp(a, b, c) { if (!(a instanceof Array)) { return Math.max(b, Math.min(c, a)) } else {
                var aryHold = []; for (var x = 0; x < a.length; x++) { aryHold.push(Math.max(b, Math.min(c, a[x]))) } return aryHold } }
            add(moClamp([unArray([150]), -20], -100, 100), [moClamp(unArray(-300), -100, 100), 0])
            """, position: true), "[0.0, -20.0]")

        // RubberHose's parentTotal: the rotations of the layer's parents, found by evaluating
        // the text 'thisLayer.parent.parent…' in a loop. L (rotation 5) is the child of P
        // (rotation 30), the child of Q (rotation 12): 42.
        let rig = """
            var r = 0; if (thisLayer.hasParent) { r = parentTotal() } r
            function parentTotal() {
                var parentVal = 0;
                var layerChain = 'thisLayer';
                while (eval([layerChain][0]).hasParent) {
                    layerChain += '.parent';
                    parentVal += eval([layerChain][0]).rotation;
                }
                return parentVal;
            }
            """
        let text = String(data: try JSONSerialization.data(withJSONObject: [rig]), encoding: .utf8)!.dropFirst().dropLast()
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":["#
            + #"{"ty":3,"ind":1,"nm":"L","parent":2,"ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":0,"k":5,"x":\#(text)}}},"#
            + #"{"ty":3,"ind":2,"nm":"P","parent":3,"ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":0,"k":30}}},"#
            + #"{"ty":3,"ind":3,"nm":"Q","ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":0,"k":12}}}]}"#
        let a = try LottieAnimation(data: Data(json.utf8))
        XCTAssertEqual(a.unsupported.map(\.description), [])
        let entry = try XCTUnwrap(a.expressions.scripts["layers[0].ks.r"])
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.r", entry.property, at: 3), [42])
    }

    /// `switch` as a Dropdown control's rigs write it (strict matches, fall-through to the next
    /// `break`, `default` wherever it stands, `continue` of a loop around it, `return` from
    /// inside), and `typeof` — each value worked out by hand.
    func testSwitchAndTypeof() throws {
        func pick(_ v: String) throws -> String {
            try outcome("var r = 0; switch (\(v)) { case 1: r = 10; break; case 2: case 3: r = 20; case 4: r += 5; break; default: r = -1; case '5': r = 50 } r")
        }
        XCTAssertEqual(try pick("1"), "[10.0]")
        XCTAssertEqual(try pick("2"), "[25.0]")      // falls through case 3 into case 4, to its break
        XCTAssertEqual(try pick("4"), "[5.0]")
        XCTAssertEqual(try pick("'1'"), "[50.0]")    // strict: '1' is not 1; the default falls through into case '5'
        XCTAssertEqual(try pick("7"), "[50.0]")
        XCTAssertEqual(try pick("'5'"), "[50.0]")
        // continue and break inside a switch inside a loop; return from a function's switch.
        XCTAssertEqual(try outcome("var s = 0; for (var i = 0; i < 6; i++) { switch (i % 3) { case 0: continue; case 1: s += 1; break; default: s += 100 } s += 1000 } s"), "[4202.0]")
        XCTAssertEqual(try outcome("function f(k) { switch (k) { case 'a': return 1; default: return 2 } } f('a') * 10 + f('b')"), "[12.0]")
        XCTAssertEqual(try outcome("var r = 3; switch (r) { } r"), "[3.0]")
        XCTAssertEqual(try outcome("(typeof 1 == 'number' ? 1 : 0) + (typeof 'a' == 'string' ? 2 : 0) + (typeof [1, 2] == 'object' ? 4 : 0) + (typeof null == 'object' ? 8 : 0) + (typeof Math.sin == 'function' ? 16 : 0) + (typeof true == 'boolean' ? 32 : 0)"), "[63.0]")
        XCTAssertEqual(try outcome("var u; typeof u === 'undefined' ? 1 : 0"), "[1.0]")
        // new Array: n empty places, or the elements given (as Array(…) without new).
        XCTAssertEqual(try outcome("var a = new Array(3); a[1] = 5; [a.length, a[1]]", position: true), "[3.0, 5.0]")
        XCTAssertEqual(try outcome("var a = new Array(2, 7); var b = new Array; b.push(4); [a[0] * a[1], b[0] + Array('x').length]", position: true), "[14.0, 5.0]")
        XCTAssertEqual(try outcome("new Array(-1)"), "expression: Array(-1.0): a length must be a whole number from 0 to 100000 (the keyframes are used instead)")
        XCTAssertEqual(try outcome("new Date()"), "expression: 'new Date' is not supported (only new Array) (the keyframes are used instead)")
        // Read as errors: a break outside a loop or a switch, two defaults, a stray case.
        XCTAssertEqual(try outcome("break; 1"), "expression: 'break' outside a loop or a switch (the keyframes are used instead)")
        XCTAssertEqual(try outcome("switch (1) { default: 1; default: 2 }"), "expression: a switch with two defaults (the keyframes are used instead)")
        XCTAssertEqual(try outcome("switch (1) { 1 }"), "expression: expected 'case', 'default' or '}' in a switch before 1.0 (the keyframes are used instead)")
        XCTAssertEqual(try outcome("switch (1) { case 1: continue }"), "expression: 'continue' outside a loop (the keyframes are used instead)")
    }

    /// A path's points, tangents and closedness, and the point, tangent and normal a fraction
    /// of its length along it (lottie-web's normal: the tangent turned to (−y, x)), on a square
    /// of side 100 (perimeter 400) and a quarter circle of radius 100 drawn as one cubic.
    func testPathPointsAndPointOnPath() throws {
        let square = #"{"c":true,"v":[[0,0],[100,0],[100,100],[0,100]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}"#
        let arc = #"{"c":false,"v":[[100,0],[0,100]],"i":[[0,0],[55.23,0]],"o":[[0,55.23],[0,0]]}"#
        let shapes = #",{"ty":4,"ind":2,"nm":"S","ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":0,"k":[10,20]}},"shapes":["#
            + #"{"ty":"sh","nm":"Path 1","ks":{"a":0,"k":\#(square)}},{"ty":"sh","nm":"Arc","ks":{"a":0,"k":\#(arc)}}]}"#
        func path(_ name: String) -> String { "thisComp.layer('S').content('\(name)').path" }
        func run(_ source: String) throws -> [Double] {
            let a = try animation(source, position: true, extraLayers: shapes)
            XCTAssertEqual(a.unsupported.map(\.description), [], source)
            return try a.expressions.evaluate("layers[0].ks.p", try XCTUnwrap(a.expressions.scripts["layers[0].ks.p"]).property, at: 0)
        }
        XCTAssertEqual(try run("var p = \(path("Path 1")).points(); p.length == 4 && \(path("Path 1")).isClosed() ? p[2] : [0, 0]"), [100, 100])
        XCTAssertEqual(try run("\(path("Arc")).inTangents()[1] + \(path("Arc")).outTangents()[0]"), [55.23, 55.23])
        XCTAssertEqual(try run("\(path("Path 1")).pointOnPath(0.5)"), [100, 100])
        XCTAssertEqual(try run("\(path("Path 1")).pointOnPath(0.125)"), [50, 0])
        XCTAssertEqual(try run("\(path("Path 1")).tangentOnPath(0.375)"), [0, 1])
        XCTAssertEqual(try run("\(path("Path 1")).normalOnPath(0.375)"), [-1, 0])
        XCTAssertEqual(try run("\(path("Path 1")).pointOnPath(7)"), [0, 0])               // clamped to 1: back at the start
        // The cubic's own midpoint, B(½) = (p0 + 3 p1 + 3 p2 + p3) / 8, by symmetry half its length.
        XCTAssertEqual(try run("\(path("Arc")).pointOnPath(0.5)"), [70.71125, 70.71125], accuracy: 1e-6)
        // Through the layer to the composition (the layer is at (10, 20)), and back.
        XCTAssertEqual(try run("thisComp.layer('S').toComp(\(path("Path 1")).points()[1])"), [110, 20])
        XCTAssertEqual(try run("thisComp.layer('S').fromCompToSurface([110, 20])"), [100, 0])
        let bad = try animation("\(path("Path 1")).area()", position: true, extraLayers: shapes)
        XCTAssertEqual(bad.unsupported.map(\.feature), ["expression: no 'path.area' (the keyframes are used instead)"])
        let badFraction = try animation("\(path("Path 1")).pointOnPath('half')", position: true, extraLayers: shapes)
        XCTAssertEqual(badFraction.unsupported.map(\.feature), ["expression: pointOnPath needs a fraction that is a finite number (the keyframes are used instead)"])
    }

    /// `comp(name)`: the composition of the precomposition layer of that name, as lottie-web
    /// finds it (a Lottie file keeps no other names of compositions), with its layers.
    func testCompositionByName() throws {
        let text = String(data: try JSONSerialization.data(withJSONObject: ["comp('Palette').layer('Swatch').rotation + comp('Palette').numLayers * 100"]), encoding: .utf8)!.dropFirst().dropLast()
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"assets":[{"id":"comp_1","layers":["#
            + #"{"ty":3,"ind":1,"nm":"Swatch","ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":0,"k":7}}},"#
            + #"{"ty":3,"ind":2,"nm":"Other","ip":0,"op":20,"st":0,"sr":1,"ks":{}}]}],"layers":["#
            + #"{"ty":3,"ind":1,"nm":"L","ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":0,"k":5,"x":\#(text)}}},"#
            + #"{"ty":0,"ind":2,"nm":"Palette","refId":"comp_1","w":100,"h":100,"ip":0,"op":20,"st":0,"sr":1,"ks":{}}]}"#
        let a = try LottieAnimation(data: Data(json.utf8))
        XCTAssertEqual(a.unsupported.map(\.description), [])
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.r", try XCTUnwrap(a.expressions.scripts["layers[0].ks.r"]).property, at: 2), [207])
        XCTAssertEqual(try outcome("comp(3)"), "expression: comp() needs a composition's name (the keyframes are used instead)")
    }

    /// The composition's markers (Lottie's `markers`: `cm` its comment, `tm` its frame, `dr` its
    /// length): `thisComp.marker.numKeys`, `.key(n)` in time order, `.key(name)`,
    /// `.nearestKey(t)` with `.time`, `.index`, `.comment`, `.duration`. Layers keep no markers.
    func testCompositionMarkers() throws {
        func value(_ source: String, frame: Double = 0) throws -> String {
            let text = String(data: try JSONSerialization.data(withJSONObject: [source]), encoding: .utf8)!.dropFirst().dropLast()
            let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":40,"w":100,"h":100,"markers":[{"cm":"out","tm":30,"dr":5},{"cm":"in","tm":10,"dr":0}],"#
                + #""layers":[{"ty":3,"ind":1,"nm":"L","ip":0,"op":40,"st":0,"sr":1,"ks":{"r":{"a":0,"k":5,"x":\#(text)}}}]}"#
            let a = try LottieAnimation(data: Data(json.utf8))
            if let note = a.unsupported.first { return note.feature }
            return "\(try a.expressions.evaluate("layers[0].ks.r", try XCTUnwrap(a.expressions.scripts["layers[0].ks.r"]).property, at: frame))"
        }
        XCTAssertEqual(try value("var m = thisComp.marker; m.numKeys * 100 + m.key(1).time * 10 + m.key(2).index"), "[212.0]")
        XCTAssertEqual(try value("var k = thisComp.marker.key('out'); k.time + k.duration"), "[3.5]")
        XCTAssertEqual(try value("thisComp.marker.nearestKey(time).comment == 'out' ? 1 : 2", frame: 25), "[1.0]")
        XCTAssertEqual(try value("thisComp.marker.nearestKey(time).comment == 'out' ? 1 : 2", frame: 15), "[2.0]")
        XCTAssertEqual(try value("thisComp.marker.key(3)"), "expression: no marker 3.0 (the composition has 2) (the keyframes are used instead)")
        XCTAssertEqual(try value("marker.numKeys"), "expression: a layer's markers (a Lottie file keeps the composition's only) (the keyframes are used instead)")
    }

    func testSmallPrograms() throws {
        XCTAssertEqual(try outcome("var x = 1, y; y = x + 2; y *= 3; x++; [x, y]", position: true), "[2.0, 9.0]")
        XCTAssertEqual(try outcome("value + 5", position: true), "[15.0, 20.0]")        // a number adds to the first value
        XCTAssertEqual(try outcome("value * 2 - [1, 1]", position: true), "[19.0, 39.0]")
        XCTAssertEqual(try outcome("-value / 2", position: true), "[-5.0, -10.0]")
        XCTAssertEqual(try outcome("add(value, [1, 2]) + sub([5, 5], mul([1, 1], 2)) + div([4, 8], 4)", position: true), "[15.0, 27.0]")
        XCTAssertEqual(try outcome("$bm_mod(7, 3) + $bm_div(1, 4) + $bm_sub(2, $bm_neg(1))"), "[4.25]")
        XCTAssertEqual(try outcome("clamp(value + 100, 0, 50)"), "[50.0]")
        XCTAssertEqual(try outcome("Math.max(1, 7, 3) + Math.round(2.5) + Math.floor(-0.5) + Math.abs(-2) + Math.pow(2, 3)"), "[19.0]")
        XCTAssertEqual(try outcome("1 && 0 || 'x' ? (2 == 2.0 && 'a' < 'b' && !false ? 1 : 2) : 3"), "[1.0]")
        XCTAssertEqual(try outcome("var s = 'a' + 1; s == 'a1' ? 1 : 0"), "[1.0]")
        XCTAssertEqual(try outcome("// a comment\nvar a = 2 /* and another */\na * index"), "[2.0]")
        XCTAssertEqual(try outcome("if (time > 1) 1; else if (time > 0.5) 2; else 3", frame: 7), "[2.0]")
        XCTAssertEqual(try outcome("length([1, 1], [4, 5]) + normalize([0, 3])[1] + dot([1, 2], [3, 4])"), "[17.0]")
        XCTAssertEqual(try outcome("Math.abs(degreesToRadians(180) - Math.PI) < 1e-12 ? Math.round(radiansToDegrees(Math.PI / 2)) : 0"), "[90.0]")
        XCTAssertEqual(try outcome("thisLayer.index + thisComp.numLayers + thisLayer.name.length + inPoint + outPoint"), "[5.0]")
        XCTAssertEqual(try outcome("value.length", position: true), "expression: a number where the property has 2 values (the keyframes are used instead)")
        XCTAssertEqual(try outcome("[value.length, value[1]]", position: true), "[2.0, 20.0]")
        XCTAssertEqual(try outcome("thisProperty.valueAtTime(1)"), "[5.0]")
        XCTAssertEqual(try outcome("posterizeTime(4); time * 100", frame: 7), "[50.0]")   // 0.7 s in steps of 0.25 s
        XCTAssertEqual(try outcome("posterizeTime(0); time * 100", frame: 7), "[70.0]")
        XCTAssertEqual(try outcome("wiggle(0, 10) - value"), try outcome("wiggle(0, 10) - value", frame: 9))   // no frequency: a fixed offset
    }

    /// Minified and rig expressions: assignments inside expressions (right to left, their value
    /// the value assigned), `++`/`--` before and after a name, the comma operator (each in order,
    /// the last one's value), as Bodymovin writes the "inertial bounce" expressions.
    func testAssignmentsInsideExpressionsAndTheCommaOperator() throws {
        XCTAssertEqual(try outcome("var n, t; $bm_rt = t = n = 2; [n, t, $bm_rt]", position: true), "expression: a number where the property has 2 values (the keyframes are used instead)")
        XCTAssertEqual(try outcome("var n, t; t = n = 2; n * 10 + t"), "[22.0]")
        XCTAssertEqual(try outcome("var n = 3; var a = n--; var b = --n; [a * 10 + b, n]", position: true), "[31.0, 1.0]")
        XCTAssertEqual(try outcome("var n = 3; var a = n++ + ++n; [a, n]", position: true), "[8.0, 5.0]")
        XCTAssertEqual(try outcome("var a = (1, 2, 3); a"), "[3.0]")
        XCTAssertEqual(try outcome("var a, b, c; a = 1, b = a + 1, c = b * 10; c"), "[20.0]")
        XCTAssertEqual(try outcome("var x = 2; x += 3, x *= 2; x"), "[10.0]")
        // 0 < numKeys && (…): the right side runs only when the left holds (no keys here).
        XCTAssertEqual(try outcome("var n = 0; 0 < numKeys && (n = 5, n--); n"), "[0.0]")
        XCTAssertEqual(try outcome("var n = 0; 0 == numKeys && (n = 5, n--); n"), "[4.0]")
        XCTAssertEqual(try outcome("var v; 1 > 0 ? (v = 4, v * 2) : v"), "[8.0]")
        XCTAssertEqual(try outcome("var n = 7; value[n = 0]", position: true), "expression: a number where the property has 2 values (the keyframes are used instead)")
        XCTAssertEqual(try outcome("var n = 7; [value[n = 0], n]", position: true), "[10.0, 0.0]")
        // Bodymovin's inertial bounce on a keyframed rotation (0 → 90 over frames 0…10, 9 a
        // frame): after the last key (frame 10), value + v · amp · sin(2π f t) / e^(d t), v the
        // velocity a tenth of a frame before the key (90 °/s).
        let bounce = "var $bm_rt;\\nvar amp, freq, decay, n, time_max, t, v;\\namp = 0.05;\\nfreq = 2;\\ndecay = 2;\\nn = 0;\\n"
            + "$bm_rt = time_max = 2;\\nif (numKeys > 0) {\\n    $bm_rt = n = nearestKey(time).index;\\n    if (key(n).time > time) {\\n        n--;\\n    }\\n}\\n"
            + "if (n == 0) {\\n    $bm_rt = t = 0;\\n} else {\\n    $bm_rt = t = sub(time, key(n).time);\\n}\\n"
            + "if (n > 0 && t < time_max) {\\n    v = velocityAtTime(sub(key(n).time, div(thisComp.frameDuration, 10)));\\n"
            + "    $bm_rt = sum(value, div(mul(mul(v, amp), Math.sin(mul(mul(mul(freq, t), 2), Math.PI))), Math.exp(mul(decay, t))));\\n"
            + "} else {\\n    $bm_rt = value;\\n}"
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":40,"w":100,"h":100,"layers":[{"ty":3,"ind":1,"nm":"L","ip":0,"op":40,"st":0,"sr":1,"#
            + #""ks":{"r":{"a":1,"k":[{"t":0,"s":[0],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":10,"s":[90]}],"x":"\#(bounce)"}}}]}"#
        let a = try LottieAnimation(data: Data(json.utf8))
        let entry = try XCTUnwrap(a.expressions.scripts["layers[0].ks.r"])
        XCTAssertEqual(try LottieLayer(animation: a).unsupported, [])
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.r", entry.property, at: 5), [45], accuracy: 1e-6)
        // Frame 11.25: t = 0.125 s, sin(2π · 2 · 0.125) = 1, e^(−0.25).
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.r", entry.property, at: 11.25), [90 + 90 * 0.05 / exp(0.25)], accuracy: 1e-3)
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.r", entry.property, at: 35), [90], accuracy: 1e-9)   // past time_max
    }

    /// `try`/`catch`/`finally`: the catch block runs when the try block fails — an unknown name
    /// (also one Strata does not know, such as `comp`, said in the report), a missing layer or
    /// member — with the reason in its variable; a limit is not caught.
    func testTryAndCatch() throws {
        XCTAssertEqual(try outcome("var r; try { r = comp('Palette').layer(1)(4)(2)(1); } catch (e) { r = value * 2; } r"), "expression: its try block fails (no composition named 'Palette' (a precomposition layer of that name)), so its catch block is used, as a player's is when the block fails")
        let a = try animation("var r; try { r = comp('Palette').layer(1); } catch (e) { r = value * 2; } r")
        let entry = try XCTUnwrap(a.expressions.scripts["layers[0].ks.r"])
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.r", entry.property, at: 3), [10])
        XCTAssertEqual(try outcome("var $bm_rt; try { $bm_rt = thisComp.layer('L').transform.rotation + 1; } catch (err) { $bm_rt = value; }"), "[6.0]")
        XCTAssertEqual(try outcome("var r = 1; try { r = 2; thisComp.layer('missing'); r = 3; } catch (e) { r *= 10; } finally { r += 1; } r"), "expression: its try block fails (no layer named 'missing'), so its catch block is used, as a player's is when the block fails")
        XCTAssertEqual(try outcome("var r = 1; try { r = 2; } finally { r += 1; } r"), "[3.0]")
        XCTAssertEqual(try outcome("var ok = false; try { ok = true; } catch (e) {} ok ? 7 : 8"), "[7.0]")
        XCTAssertEqual(try outcome("try { 1 }"), "expression: expected 'catch' or 'finally' at the end (the keyframes are used instead)")
        XCTAssertEqual(try outcome("try 1; catch (e) {}"), "expression: expected '{' before 1.0 (the keyframes are used instead)")
        XCTAssertEqual(try outcome("unknownOutside; try { 1 } catch (e) { 2 }"), "expression: unknown name 'unknownOutside' (the keyframes are used instead)")
        // Limits pass through the catch; a cycle is no failure (the property reached again is its
        // value before its expression: layer 1's 5, plus 1).
        func layer(_ i: Int, _ source: String) -> String {
            #",{"ty":3,"ind":\#(i),"nm":"L\#(i)","ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":0,"k":1,"x":"\#(source)"}}}"#
        }
        let cycle = try animation("try { thisComp.layer(2).rotation } catch (e) { 3 }", extraLayers: layer(2, "thisComp.layer(1).rotation + 1"))
        XCTAssertEqual(cycle.unsupported.map(\.description), [])
        XCTAssertEqual(try cycle.expressions.evaluate("layers[0].ks.r", try XCTUnwrap(cycle.expressions.scripts["layers[0].ks.r"]).property, at: 0), [6])
        let blowUp = try animation("try { while (true) {} } catch (e) { 3 }")
        XCTAssertEqual(blowUp.unsupported.first?.description, "layers[0].ks.r.x: expression: more than 20000 steps (the keyframes are used instead)")
    }

    /// After Effects' property groups called by name or index, as rigs write them: a layer's
    /// transform (1, 6, "ADBE Transform Group"), effects (4, "ADBE Effect Parade"), a transform's
    /// properties by match name or index; a null layer has no contents (2).
    func testPropertyGroupsCalledByNameOrIndex() throws {
        let ctrl = #",{"ty":3,"ind":2,"nm":"Ctrl","ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":0,"k":[20,30]},"r":{"a":1,"k":[{"t":0,"s":[0]},{"t":10,"s":[90]}]}},"#
            + #""ef":[{"ty":5,"nm":"S","mn":"ADBE Slider Control","ef":[{"ty":0,"nm":"Slider","mn":"ADBE Slider Control-0001","v":{"a":0,"k":3}}]}]}"#
        func at(_ source: String, _ frame: Double) throws -> [Double] {
            let a = try animation(source, extraLayers: ctrl)
            let entry = try XCTUnwrap(a.expressions.scripts["layers[0].ks.r"], a.unsupported.map(\.description).joined())
            return try a.expressions.evaluate("layers[0].ks.r", entry.property, at: frame)
        }
        XCTAssertEqual(try at("thisComp.layer('Ctrl')(4)('S')('ADBE Slider Control-0001')", 0), [3])
        XCTAssertEqual(try at("thisComp.layer('Ctrl')('ADBE Effect Parade')(1)(1) * 2", 0), [6])
        XCTAssertEqual(try at("thisComp.layer('Ctrl')('ADBE Transform Group')('ADBE Rotate Z')", 5), [45], accuracy: 1e-9)
        XCTAssertEqual(try at("thisComp.layer(2)(1)(10) + thisComp.layer(2)(6)(2)[1]", 10), [120], accuracy: 1e-9)
        XCTAssertEqual(try at("thisComp.layer('Ctrl')('Transform')('ADBE Position_1')", 0), [30])
        XCTAssertEqual(try outcome("thisLayer(2)('Admin')"), "expression: the layer 'L' has no shape contents (the keyframes are used instead)")
        XCTAssertEqual(try outcome("thisLayer(1)('Skew')"), "expression: the transform has no property 'Skew' (the keyframes are used instead)")
        // A name After Effects gives a value, assigned in a catch block: read as After Effects' until then.
        XCTAssertEqual(try outcome("var $bm_rt; try { $bm_rt = thisLayer(2)(1); } catch (e) { $bm_rt = value = value * 3; }"),
                       "expression: its try block fails (the layer 'L' has no shape contents), so its catch block is used, as a player's is when the block fails")
        XCTAssertEqual(try at("var $bm_rt; try { $bm_rt = thisLayer(2)(1); } catch (e) { $bm_rt = value = value * 3; }", 4), [15])
    }

    /// A shape layer's contents as expressions reach them: `content("name")` on the layer and on
    /// groups, a group's `transform`, shapes' properties by name or by their "ix", a group's
    /// contents (2) and transform (3), and `thisProperty.propertyGroup(n)` climbing from a
    /// property to its shape, the shape's contents list, the group holding it.
    func testShapeContents() throws {
        func animation(_ rotation: String, position: String = "value") throws -> LottieAnimation {
            func quoted(_ s: String) -> String {
                let t = String(data: try! JSONSerialization.data(withJSONObject: [s]), encoding: .utf8)!
                return String(t.dropFirst().dropLast())
            }
            let rect = #"{"ty":"rc","nm":"R","ix":1,"s":{"a":0,"k":[40,20],"ix":2},"p":{"a":0,"k":[3,4],"ix":3,"x":\#(quoted(position))},"r":{"a":0,"k":0,"ix":4}}"#
            let fill = #"{"ty":"fl","nm":"F","ix":2,"c":{"a":0,"k":[1,0,0,1],"ix":4},"o":{"a":0,"k":60,"ix":5}}"#
            let tr = #"{"ty":"tr","p":{"a":0,"k":[10,10],"ix":2},"a":{"a":0,"k":[0,0],"ix":1},"s":{"a":0,"k":[100,100],"ix":3},"#
                + #""r":{"a":1,"k":[{"t":0,"s":[0]},{"t":10,"s":[90]}],"ix":6},"o":{"a":0,"k":100,"ix":7}}"#
            let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":4,"ind":1,"nm":"S","ip":0,"op":20,"st":0,"sr":1,"#
                + #""ks":{"r":{"a":0,"k":5,"x":\#(quoted(rotation))}},"shapes":[{"ty":"gr","nm":"G","ix":1,"it":[\#(rect),\#(fill),\#(tr)]}]}]}"#
            return try LottieAnimation(data: Data(json.utf8))
        }
        func rotation(_ source: String, at frame: Double) throws -> [Double] {
            let a = try animation(source)
            let entry = try XCTUnwrap(a.expressions.scripts["layers[0].ks.r"], a.unsupported.map(\.description).joined())
            return try a.expressions.evaluate("layers[0].ks.r", entry.property, at: frame)
        }
        func reported(_ source: String) throws -> String { try animation(source).unsupported.first?.feature ?? "nothing reported" }
        XCTAssertEqual(try rotation("content('G').transform.rotation", at: 5), [45], accuracy: 1e-9)
        XCTAssertEqual(try rotation("thisLayer(2)('G')(2)('R')(2)[0]", at: 0), [40])
        XCTAssertEqual(try rotation("content('G').content('R').size[1] + content(1)(3)(6)", at: 10), [110], accuracy: 1e-9)
        XCTAssertEqual(try rotation("content('G').content('F').opacity + thisComp.layer('S').content('G')('ADBE Vectors Group')(2)(5)", at: 0), [120])
        XCTAssertEqual(try rotation("content('G').content('R').propertyIndex * 10 + content('G').numProperties", at: 0), [12])
        XCTAssertEqual(try reported("content('Nope')"), "expression: no shape named 'Nope' in the contents (the keyframes are used instead)")
        XCTAssertEqual(try reported("content('G').content('R').path"), "expression: no 'rc.path' (the keyframes are used instead)")
        XCTAssertEqual(try reported("thisProperty.propertyGroup(1)"), "expression: no 'property.propertyGroup' (the property is not in a shape) (the keyframes are used instead)")
        // On the rectangle's position: half its size (the property of index 2 of its shape) added.
        let a = try animation("value", position: "div(thisProperty.propertyGroup(1)(2), 2) + value")
        let p = "layers[0].shapes[0].it[0].p"
        XCTAssertEqual(try a.expressions.evaluate(p, try XCTUnwrap(a.expressions.scripts[p]).property, at: 0), [23, 14])
        let b = try animation("value", position: "[thisProperty.propertyGroup(3).transform.rotation, thisProperty.propertyGroup(2).numProperties]")
        XCTAssertEqual(try b.expressions.evaluate(p, try XCTUnwrap(b.expressions.scripts[p]).property, at: 10), [90, 2])
        XCTAssertEqual(try animation("value", position: "thisProperty.propertyGroup(5)").unsupported.first?.feature,
                       "expression: no 'propertyGroup' above a layer's contents (the keyframes are used instead)")
    }

    /// Expressions on paths: one that names a path (`content("Shape 1").content("Path 1").path`)
    /// takes that path's keyframes — its own path's (nothing changes, nothing reported), or
    /// another's, shape or mask, followed through chains; anything else is reported.
    func testPathExpressionsThatNameAPath() throws {
        func quoted(_ s: String) -> String {
            let t = String(data: try! JSONSerialization.data(withJSONObject: [s]), encoding: .utf8)!
            return String(t.dropFirst().dropLast())
        }
        func path(_ x: Double, _ expression: String?) -> String {
            let ks = #"{"a":1,"k":[{"t":0,"s":[{"c":true,"v":[[0,0],[\#(x),0],[\#(x),\#(x)]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}]},"#
                + #"{"t":10,"s":[{"c":true,"v":[[0,0],[\#(x * 2),0],[\#(x * 2),\#(x)]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}]}]"#
                + (expression.map { #","x":\#(quoted($0))"# } ?? "") + "}"
            return ks
        }
        func group(_ name: String, _ pathName: String, _ ks: String) -> String {
            #"{"ty":"gr","nm":"\#(name)","it":[{"ty":"sh","nm":"\#(pathName)","ix":1,"ks":\#(ks)},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}},"#
                + #"{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}"#
        }
        let shapes = [group("Shape 1", "Path 1", path(10, "content('Shape 1').content('Path 1').path")),
                      group("Copy", "Path 2", path(50, "content('Shape 1').content('Path 1').path")),
                      group("Chain", "Path 3", path(70, "content('Copy')(2)('Path 2')('ADBE Vector Shape')")),
                      group("Odd", "Path 4", path(90, "value + 1")),
                      group("A", "Path A", path(1, "content('B').content('Path B').path")),
                      group("B", "Path B", path(2, "content('A').content('Path A').path"))].joined(separator: ",")
        let masked = #"{"ty":3,"ind":2,"nm":"M","ip":0,"op":20,"st":0,"sr":1,"ks":{},"masksProperties":[{"mode":"a","o":{"a":0,"k":100},"#
            + #""pt":\#(path(30, "thisComp.layer('S').content('Shape 1').content('Path 1').path"))}]}"#
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":4,"ind":1,"nm":"S","ip":0,"op":20,"st":0,"sr":1,"ks":{},"#
            + #""shapes":[\#(shapes)]},\#(masked)]}"#
        let a = try LottieAnimation(data: Data(json.utf8))
        guard case .shapes(let items) = a.layers[0].content else { return XCTFail("not a shape layer") }
        func bezier(_ k: Int) -> LottieAnimated<LottieBezier>? {
            guard case .group(let inner, _) = items[k], case .path(let b, _) = inner[0] else { return nil }
            return b
        }
        func width(_ b: LottieAnimated<LottieBezier>?, at frame: Double) -> Double { Double(b?.value(at: frame).vertices[1].x ?? -1) }
        XCTAssertEqual(width(bezier(0), at: 0), 10)       // its own: unchanged
        XCTAssertEqual(width(bezier(1), at: 0), 10)       // Path 1's keyframes
        XCTAssertEqual(width(bezier(1), at: 10), 20)
        XCTAssertEqual(width(bezier(2), at: 10), 20)      // through Path 2 to Path 1
        XCTAssertEqual(width(bezier(3), at: 0), 90)       // reported, its own keyframes
        XCTAssertEqual(width(bezier(4), at: 0), 1)        // a cycle: reported
        XCTAssertEqual(Double(a.layers[1].masks[0].shape.value(at: 10).vertices[1].x), 20)
        XCTAssertEqual(a.unsupported.map(\.description), [
            "layers[0].shapes[3].it[0].ks.x: expression on a path: a string or an object where a number is needed (the keyframes are used instead)",
            "layers[0].shapes[4].it[0].ks.x: expression on a path: paths name each other in a cycle or more than 16 deep (through layers[0].shapes[4].it[0].ks) (the keyframes are used instead)",
            "layers[0].shapes[5].it[0].ks.x: expression on a path: paths name each other in a cycle or more than 16 deep (through layers[0].shapes[5].it[0].ks) (the keyframes are used instead)",
        ])
    }

    /// `parent` and `hasParent`: the layer's parent (by "parent" → "ind"), whose members read as
    /// any layer's; `active`.
    func testParent() throws {
        let ctrl = #",{"ty":3,"ind":2,"nm":"Ctrl","ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":1,"k":[{"t":0,"s":[0]},{"t":10,"s":[90]}]}}}"#
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":3,"ind":1,"nm":"L","parent":2,"ip":0,"op":20,"st":0,"sr":1,"#
            + #""ks":{"r":{"a":0,"k":5,"x":"hasParent ? parent.transform.rotation * 2 + thisLayer.parent.index : 0"}}}\#(ctrl)]}"#
        let a = try LottieAnimation(data: Data(json.utf8))
        let entry = try XCTUnwrap(a.expressions.scripts["layers[0].ks.r"])
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.r", entry.property, at: 5), [92], accuracy: 1e-9)
        XCTAssertEqual(try outcome("hasParent ? 1 : 2"), "[2.0]")
        // `active`: shown now (frames 0…20 here).
        XCTAssertEqual(try outcome("thisLayer.active ? 1 : 2", frame: 19), "[1.0]")
        XCTAssertEqual(try outcome("thisLayer.active ? 1 : 2", frame: 20), "[2.0]")
        XCTAssertEqual(try outcome("parent.rotation"), "expression: the layer 'L' has no parent (the keyframes are used instead)")
    }

    /// The deepest evaluation the limits allow — expression trees 100 deep, each reaching the
    /// next layer's at its deepest node — stops with a report on a thread with a
    /// 512 KiB stack (what Dispatch's workers have), without overflowing it.
    func testDeepestEvaluationFitsASmallStack() throws {
        @Sendable func nested(_ inner: String) -> String { inner + String(repeating: " + 0", count: 94) }
        let layers = (2...18).map { i in
            #",{"ty":3,"ind":\#(i),"nm":"L\#(i)","ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":0,"k":1,"x":"\#(nested("thisComp.layer(\(i + 1)).rotation"))"}}}"#
        }.joined()
        final class Outcome: Sendable { let text = Mutex("not run") }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            do {
                let a = try LottieExpressionTests.animation(nested("thisComp.layer(2).rotation"), extraLayers: layers)
                // Parsing near the nesting limit (37 of 40: parsed, then refused for its nested
                // arrays when evaluated), and past it, on the same stack.
                let deepest = String(repeating: "-[(", count: 9) + "1" + String(repeating: ")]", count: 9)
                let b = try LottieExpressionTests.animation(deepest + " + " + String(repeating: "(", count: 10_000))
                let c = try LottieExpressionTests.animation(String(repeating: "-[(", count: 9) + "1" + String(repeating: ")]", count: 9) + "[0]")
                // A function calling itself from inside loops and blocks nested as deep as
                // parsing allows, and arrays nested as deep as they may be.
                let blocks = String(repeating: "for (var i = 0; i < 1; i++) { if (n > 0) { ", count: 9)
                let recursive = "function f(n) { " + blocks + "return f(n - 1) + 1 " + String(repeating: "} }", count: 9) + " return 0 } f(1000)"
                let d = try LottieExpressionTests.animation(recursive)
                let e = try LottieExpressionTests.animation("var a = 'x'; for (var i = 0; i < 100; i++) { a = [a, a] } 1")
                let notes = [a, b, c, d, e].map { $0.unsupported.first?.description ?? "nothing reported" }
                outcome.text.withLock { $0 = notes.joined(separator: "\n") }
            } catch {
                outcome.text.withLock { $0 = "\(error)" }
            }
        }
        thread.stackSize = 512 * 1024
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(outcome.text.withLock { $0 }, """
            layers[0].ks.r.x: expression: nested more than 250 deep across references (the keyframes are used instead)
            layers[0].ks.r.x: expression: nested more than 40 deep (the keyframes are used instead)
            layers[0].ks.r.x: expression: an array where a number is needed (the keyframes are used instead)
            layers[0].ks.r.x: expression: nested more than 250 deep across references (the keyframes are used instead)
            layers[0].ks.r.x: expression: arrays inside one another more than 16 deep (the keyframes are used instead)
            """)
    }

    /// Random programs (a fixed seed), from the language's words in any order and from a small
    /// grammar: each is parsed and evaluated at three frames, and either gives numbers or
    /// throws a LottieScriptError — never traps.
    func testRandomProgramsNeverTrap() throws {
        let words = ["(", ")", "[", "]", "{", "}", ",", ";", ".", "+", "-", "*", "/", "%", "<", ">=", "==", "!", "&&", "||", "?", ":",
                     "=", "+=", "++", "var", "if", "else", "0", "1", "2.5", "-1", "1e308", "1e-308", "NaN", "Infinity", "'s'", "\"Ctrl\"",
                     "time", "value", "index", "x", "y", "thisComp", "thisLayer", "thisProperty", "transform", "layer", "effect",
                     "position", "rotation", "scale", "opacity", "Math", "sin", "floor", "max", "PI", "length", "key", "nearestKey",
                     "numKeys", "velocity", "valueAtTime", "loopOut", "loopIn", "'cycle'", "'continue'", "'pingpong'", "linear",
                     "ease", "clamp", "wiggle", "random", "seedRandom", "posterizeTime", "timeToFrames", "add", "mul", "div",
                     "$bm_sum", "$bm_rt", "$bm_mod", "normalize", "dot", "inPoint", "numLayers", "frameDuration", "param", "time",
                     "try", "catch", "finally", "(e)", "--", "-=", "parent", "hasParent", "comp",
                     "for", "while", "do", "break", "continue", "function", "f", "return", "throw", "null", "instanceof", "Array",
                     ".push", ".split", "eval", "'thisLayer'", "%=", "isNaN", "[x]", "x[0] =", "switch", "case", "default",
                     "typeof", "sourceRectAtTime", "width", "top", "new"]
        let ctrl = #",{"ty":3,"ind":2,"nm":"Ctrl","ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":1,"k":[{"t":0,"s":[0]},{"t":10,"s":[90]}]}},"#
            + #""ef":[{"ty":5,"nm":"S","mn":"ADBE Slider Control","ef":[{"ty":0,"nm":"Slider","v":{"a":0,"k":3}}]}]}"#
        var state: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        // Well-formed expressions too, from a small grammar, so that the evaluator sees many.
        let atoms = ["time", "value", "index", "0", "1", "-2.5", "1e308", "NaN", "'s'", "[1, 2]", "[]", "value[0]", "numKeys",
                     "thisComp.layer('Ctrl').transform.rotation", "thisComp.layer(2).rotation.velocity", "velocity",
                     "thisComp.layer('Ctrl').effect('S')('Slider')", "thisProperty.key(1).value", "thisComp.frameDuration",
                     "thisComp.layer(2).transform.rotation.valueAtTime(time - 1)", "transform.position", "inPoint",
                     "thisComp.layer('Ctrl').toComp([1, 2])", "fromWorld(value)", "toComp([])", "posterizeTime(8)"]
        let functions = ["Math.sin", "Math.floor", "Math.max", "clamp", "linear", "ease", "length", "normalize", "add", "mul",
                         "div", "$bm_sum", "$bm_mod", "wiggle", "random", "loopOut", "loopIn", "valueAtTime", "timeToFrames",
                         "nearestKey(time).index + key", "seedRandom"]
        func expression(_ depth: Int) -> String {
            if depth == 0 { return atoms[next(atoms.count)] }
            switch next(7) {
            case 0: return "(" + expression(depth - 1) + ")"
            case 1: return ["-", "!", "+"][next(3)] + expression(depth - 1)
            case 2: return expression(depth - 1) + [" + ", " - ", " * ", " / ", " % ", " < ", " == ", " && ", " || "][next(9)] + expression(depth - 1)
            case 3: return expression(depth - 1) + " ? " + expression(depth - 1) + " : " + expression(depth - 1)
            case 4: return functions[next(functions.count)] + "(" + (0..<next(6)).map { _ in expression(depth - 1) }.joined(separator: ", ") + ")"
            case 5: return "[" + expression(depth - 1) + ", " + expression(depth - 1) + "]"
            case 6 where next(2) == 0: return "(x = " + expression(depth - 1) + ", x++, " + expression(depth - 1) + ")"
            case 6 where next(2) == 0: return ["f", "g", "eval"][next(3)] + "(" + (next(2) == 0 ? "'" + expression(depth - 1) + "'" : expression(depth - 1)) + ")"
            default: return expression(depth - 1) + "[" + ["0", "1", "2", "-1", "1e9"][next(5)] + "]"
            }
        }
        var evaluated = 0
        for round in 0..<3_000 {
            var source = ""
            if round % 2 == 0 {
                for _ in 0..<(1 + next(14)) { source += words[next(words.count)] + (next(3) == 0 ? "" : " ") }
            } else {
                source = (next(2) == 0 ? "var x = " + expression(2) + "; " : "") + (next(2) == 0 ? "if (" + expression(1) + ") x = 1; " : "")
                    + (next(3) == 0 ? "try { x = " + expression(2) + "; } catch (e) { x = " + expression(1) + "; } " : "")
                    + (next(3) == 0 ? "function f(a) { var l = [a]; for (var i = 0; i < " + expression(1) + "; i++) { if (i > 3) break; l.push(" + expression(1) + ") } return l } " : "")
                    + (next(3) == 0 ? "function g(n) { while (n > 0) { n -= 1; if (" + expression(1) + ") continue; throw n } return " + expression(1) + " } " : "")
                    + expression(1 + next(3))
            }
            let a = try Self.animation(source, position: next(2) == 0, extraLayers: ctrl)
            for path in a.expressions.paths {
                guard let entry = a.expressions.scripts[path] else { continue }
                for frame in [0.0, 7.5, -3] {
                    do { _ = try a.expressions.evaluate(path, entry.property, at: frame); evaluated += 1 } catch is LottieScriptError {}
                }
            }
        }
        XCTAssertGreaterThan(evaluated, 500, "many random programs are valid")
    }

    /// Values kept across evaluations give what evaluating anew gives, cycles included: A
    /// (`B + 1`, keyframe 2) and B (`A × 10`, keyframe 3) read each other, C reads both. Alone,
    /// A is 2 × 10 + 1 = 21 and B is (3 + 1) × 10 = 40. Inside C's evaluation, A is first
    /// evaluated inside B's (where B is cut: 4), a value that must not stand for A when C reads
    /// A itself: C = B + 1000 A = 40 + 21 000.
    func testKeptValuesWithCycles() throws {
        func layer(_ i: Int, _ name: String, _ k: Double, _ source: String) -> String {
            #",{"ty":3,"ind":\#(i),"nm":"\#(name)","ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":0,"k":\#(k),"x":"\#(source)"}}}"#
        }
        let a = try animation("thisComp.layer('B').rotation + thisComp.layer('A').rotation * 1000",
                              extraLayers: layer(2, "A", 2, "thisComp.layer('B').rotation + 1") + layer(3, "B", 3, "thisComp.layer('A').rotation * 10"))
        XCTAssertEqual(a.unsupported.map(\.description), [])
        func entry(_ i: Int) throws -> LottieAnimated<[Double]> { try XCTUnwrap(a.expressions.scripts["layers[\(i)].ks.r"]).property }
        let shared = LottieExpressionCache()
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.r", try entry(0), at: 1, cache: shared), [21040])
        XCTAssertEqual(try a.expressions.evaluate("layers[1].ks.r", try entry(1), at: 1, cache: shared), [21])
        XCTAssertEqual(try a.expressions.evaluate("layers[2].ks.r", try entry(2), at: 1, cache: shared), [40])
        XCTAssertEqual(try a.expressions.evaluate("layers[1].ks.r", try entry(1), at: 1), [21])
        XCTAssertEqual(try a.expressions.evaluate("layers[0].ks.r", try entry(0), at: 1, cache: shared), [21040])
    }

    /// A property's expression is evaluated once a run at a frame, however many times it is
    /// read: a chain where each layer reads the next one 20 times (20³ evaluations without
    /// that) gives 8 000 × time within the step limit; a chain of references stops 16 deep.
    func testStepAndReferenceLimits() throws {
        func layer(_ i: Int, _ source: String) -> String {
            #",{"ty":3,"ind":\#(i),"nm":"L\#(i)","ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":0,"k":1,"x":"\#(source)"}}}"#
        }
        let sum = { (i: Int) in Array(repeating: "thisComp.layer(\(i)).transform.rotation", count: 20).joined(separator: " + ") }
        let wide = try animation(sum(2), extraLayers: layer(2, sum(3)) + layer(3, sum(4)) + layer(4, "time"))
        XCTAssertEqual(wide.unsupported.map(\.description), [])
        XCTAssertEqual(try wide.expressions.evaluate("layers[0].ks.r", try XCTUnwrap(wide.expressions.scripts["layers[0].ks.r"]).property, at: 5), [4000], accuracy: 1e-9)
        // Without the cache the steps grow with the reads: a loop reading a reference 30 000 times.
        let loop = try animation("var s = 0; for (var i = 0; i < 30000; i++) { s += thisComp.layer(2).rotation } s", extraLayers: layer(2, "time"))
        XCTAssertEqual(loop.unsupported.first?.description, "layers[0].ks.r.x: expression: more than 20000 steps (the keyframes are used instead)")
        let chain = try animation("thisComp.layer(2).rotation", extraLayers: (2...30).map { layer($0, "thisComp.layer(\($0 + 1)).rotation + 1") }.joined())
        XCTAssertEqual(chain.unsupported.first?.description, "layers[0].ks.r.x: expression: references more than 16 deep (the keyframes are used instead)")
    }
}

private func XCTAssertEqual(_ a: [Double], _ b: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, "\(a) vs \(b)", file: file, line: line)
    for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, "\(a) vs \(b)", file: file, line: line) }
}
