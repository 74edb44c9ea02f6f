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

    /// What is reported: the cycle (its first property; the other then reads its keyframes), and a
    /// branch that gives a string at some frames (the keyframes there).
    func testReports() throws {
        let layer = try LottieLayer(contentsOf: LottieFixtures.url("expression-language"))
        XCTAssertEqual(layer.unsupported.map(\.description), [
            "layers[13].ks.r.x: expression: expressions refer to each other in a cycle (layers[13].ks.r → layers[14].ks.r → layers[13].ks.r) (the keyframes are used instead)",
            "layers[21].ks.r.x: expression: a string or an object where a number is needed (the keyframes are used where it fails)",
        ])
        XCTAssertEqual(try value(14, "r", 3), [1])   // B = A's keyframes (0) + 1
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
        XCTAssertEqual(try outcome("while (true) {}"), "expression: loops ('while') are not run (the keyframes are used instead)")
        XCTAssertEqual(try outcome("for (;;) {}"), "expression: loops ('for') are not run (the keyframes are used instead)")
        XCTAssertEqual(try outcome("function f() { return 1 } f()"),
                       "expression: functions defined in an expression are not run (the keyframes are used instead)")
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
                let notes = [a, b, c].map { $0.unsupported.first?.description ?? "nothing reported" }
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
            layers[0].ks.r.x: expression: an array inside an array, or of other than numbers (the keyframes are used instead)
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
                     "$bm_sum", "$bm_rt", "$bm_mod", "normalize", "dot", "inPoint", "numLayers", "frameDuration", "param", "time"]
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

    /// References cost steps: a chain where each layer reads the next one 20 times would take
    /// 20³ evaluations, and stops at the step limit; a chain of references stops 16 deep.
    func testStepAndReferenceLimits() throws {
        func layer(_ i: Int, _ source: String) -> String {
            #",{"ty":3,"ind":\#(i),"nm":"L\#(i)","ip":0,"op":20,"st":0,"sr":1,"ks":{"r":{"a":0,"k":1,"x":"\#(source)"}}}"#
        }
        let sum = { (i: Int) in Array(repeating: "thisComp.layer(\(i)).transform.rotation", count: 20).joined(separator: " + ") }
        let blowUp = try animation(sum(2), extraLayers: layer(2, sum(3)) + layer(3, sum(4)) + layer(4, "time"))
        XCTAssertEqual(blowUp.unsupported.first?.description, "layers[0].ks.r.x: expression: more than 20000 steps (the keyframes are used instead)")
        let chain = try animation("thisComp.layer(2).rotation", extraLayers: (2...30).map { layer($0, "thisComp.layer(\($0 + 1)).rotation + 1") }.joined())
        XCTAssertEqual(chain.unsupported.first?.description, "layers[0].ks.r.x: expression: references more than 16 deep (the keyframes are used instead)")
    }
}

private func XCTAssertEqual(_ a: [Double], _ b: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, "\(a) vs \(b)", file: file, line: line)
    for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, "\(a) vs \(b)", file: file, line: line) }
}
