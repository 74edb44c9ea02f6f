// Counters and text reveals (Declarative/Builders/Counter.swift, CompositionCompiler+TextDrivers):
// they compile to one discrete CAKeyframeAnimation of a CATextLayer's `string`, with a key at each
// frame where the text changes; the text the presentation layer shows at a frame is the number the
// timing curve gives there, computed here by hand, written in the format. Formats (decimals,
// grouping, percent, currency, duration, locales, rounding), reveals (characters, words, lines, a
// seeded scramble), stagger and timelines, sizing, errors with their paths, and the same pixels at
// any worker count and in any frame order.
import XCTest
@testable import Strata
import StrataTestSupport

final class CounterTests: XCTestCase {
    /// The text a layer's presentation shows at scene time `t`.
    private func shown(_ scene: Scene, _ id: String, at t: Double) throws -> String? {
        let layer = try XCTUnwrap(scene.layer(named: id))
        return try XCTUnwrap(scene.presentation(of: layer, at: t) as? CATextLayer).string as? String
    }

    /// Core Animation's easeOut, (0, 0, 0.58, 1), solved for x by bisection: y at x.
    private func easeOut(_ x: Double) -> Double {
        let (x1, y1, x2, y2) = (0.0, 0.0, 0.58, 1.0)
        func bez(_ s: Double, _ a: Double, _ b: Double) -> Double { 3 * a * s * (1 - s) * (1 - s) + 3 * b * s * s * (1 - s) + s * s * s }
        var lo = 0.0, hi = 1.0
        for _ in 0..<100 { let mid = (lo + hi) / 2; if bez(mid, x1, x2) < x { lo = mid } else { hi = mid } }
        return bez((lo + hi) / 2, y1, y2)
    }

    func testACounterIsADiscreteKeyframeAnimationOfStringWithTheCurvesValues() throws {
        let scene = Scene(size: CGSize(width: 400, height: 200), frameRate: 30, duration: 3) {
            Counter(from: 0, to: 1234, format: .number(prefix: "$"), duration: 2, timing: .easeOut, delay: 0.5)
                .font("DejaVu Sans Bold", size: 40).id("n").center()
        }
        let layer = try XCTUnwrap(scene.layer(named: "n") as? CATextLayer)
        let animations = (layer.animationKeys() ?? []).compactMap { layer.animation(forKey: $0) as? CAKeyframeAnimation }
        XCTAssertEqual(animations.count, 1)
        let k = try XCTUnwrap(animations.first)
        XCTAssertEqual(k.keyPath, "string")
        XCTAssertEqual(k.calculationMode, .discrete)
        let values = try XCTUnwrap(k.values as? [String])
        XCTAssertEqual(values.first, "$0")
        XCTAssertEqual(values.last, "$1,234")
        XCTAssertEqual(Set(values).count, values.count, "one key per change")
        XCTAssertLessThanOrEqual(values.count, 61, "at most one key per frame of the count")
        // Each frame shows the value of the curve there, rounded to the nearest.
        for frame in [0, 15, 16, 20, 30, 45, 60, 74, 75, 89] {
            let t = Double(frame) / 30
            let progress = min(max((t - 0.5) / 2, 0), 1)
            let v = (1234 * easeOut(progress)).rounded(.toNearestOrAwayFromZero)
            let expected = "$" + (v >= 1000 ? "\(Int(v) / 1000),\(String(format: "%03d", Int(v) % 1000))" : "\(Int(v))")
            XCTAssertEqual(try shown(scene, "n", at: t), expected, "frame \(frame)")
        }
        // Sized to its widest text, tabular digits on by default.
        XCTAssertEqual((layer.font as? UIFont)?.fontFeatures, ["tnum"])
        let widest = TextMetrics.size(of: "$1,234", font: "DejaVu Sans Bold", fontSize: 40)
        XCTAssertEqual(layer.bounds.width, widest.width.rounded(.up))
        XCTAssertEqual(layer.position, CGPoint(x: 200, y: 100))
    }

    func testFormats() {
        func text(_ f: NumberFormat, _ v: Double) -> String { NumberWriter(f).text(v) }
        XCTAssertEqual(text(.number(), 1234.4), "1,234")
        XCTAssertEqual(text(.number(), 1234.5), "1,235")
        XCTAssertEqual(text(.number(decimals: 2), 1234.5), "1,234.50")
        XCTAssertEqual(text(.number(grouping: false), 1234567), "1234567")
        XCTAssertEqual(text(.number(prefix: "+", suffix: " users"), 42), "+42 users")
        XCTAssertEqual(text(.number(), -0.2), "0", "no negative zero")
        XCTAssertEqual(text(.number(), -1234), "-1,234")
        XCTAssertEqual(text(.number(decimals: 1, locale: "de_DE"), 1234.5), "1.234,5")
        XCTAssertEqual(text(.percent(), 0.425), "43%")
        XCTAssertEqual(text(.percent(decimals: 1), 0.4251), "42.5%")
        XCTAssertEqual(text(.currency("USD"), 1234.5), "$1,234.50")
        XCTAssertEqual(text(.currency("JPY", locale: "ja_JP"), 1234.4), "¥1,234")
        XCTAssertEqual(text(.currency("EUR", locale: "de_DE"), 1234.5), "1.234,50\u{A0}€")
        XCTAssertEqual(text(.duration(), 75), "01:15")
        XCTAssertEqual(text(.duration(), 59.6), "01:00")
        XCTAssertEqual(text(.duration(decimals: 1), 3725.55), "1:02:05.6")
        XCTAssertEqual(text(.duration(rounding: .up), 4.2), "00:05")
        XCTAssertEqual(text(.number(rounding: .up), 4.2), "5")
        XCTAssertEqual(text(.number(rounding: .up), 4.0), "4")
        XCTAssertEqual(text(.number(rounding: .down), 4.8), "4")
        XCTAssertEqual(text(.number(rounding: .down), 41.9999999999), "42", "an end evaluated a hair short")
        XCTAssertEqual(text(.number(rounding: .towardZero), -4.8), "-4")
        // Out of range: no crash, a text of bounded length.
        let long = text(.duration(), 1e300)
        XCTAssertTrue(long.count < 400 && long.split(separator: ":").count == 3, long)
        XCTAssertEqual(text(.duration(), 1e308 * 10), "∞")
        XCTAssertEqual(text(.duration(decimals: 10), -1e308), "-∞", "rounding to 10 places overflows")
        XCTAssertEqual(text(.number(decimals: 10), .nan), "NaN")
        XCTAssertLessThan(text(.number(decimals: 10), 1e308).count, 1000)
        XCTAssertLessThan(text(.currency("EUR", decimals: 10, locale: "de_DE"), -1e308).count, 1000)
    }

    func testRevealsByCharactersWordsLinesAndAScrambleWithASeed() {
        let s = "Hello big world"
        XCTAssertEqual(TextReveal(.characters).text(s, at: 0), "")
        XCTAssertEqual(TextReveal(.characters).text(s, at: 5.0 / 15), "Hello")
        XCTAssertEqual(TextReveal(.characters).text(s, at: 1), s)
        XCTAssertEqual(TextReveal(.words).text(s, at: 0.34), "Hello")
        XCTAssertEqual(TextReveal(.words).text(s, at: 0.67), "Hello big")
        XCTAssertEqual(TextReveal(.words).text(s, at: 1), s)
        XCTAssertEqual(TextReveal(.lines).text("one\ntwo\nthree", at: 0.7), "one\ntwo")
        let scramble = TextReveal(.scramble, seed: 7)
        XCTAssertEqual(scramble.text(s, at: 0), "")
        XCTAssertEqual(scramble.text(s, at: 1), s)
        let half = scramble.text(s, at: 0.5)
        XCTAssertEqual(half.count, s.count)
        XCTAssertTrue(half.hasPrefix("Hello b"), half)
        XCTAssertEqual(Array(half)[9], " ", "spaces stay spaces")
        XCTAssertEqual(half, TextReveal(.scramble, seed: 7).text(s, at: 0.5), "the same for the same seed")
        XCTAssertNotEqual(half, TextReveal(.scramble, seed: 8).text(s, at: 0.5))
        XCTAssertTrue(Array(half)[7...].allSatisfy { $0 == " " || TextReveal.defaultScrambleCharacters.contains($0) })
    }

    func testRevealsStaggerAndTimelinesAnimateValueAndRevealed() throws {
        let scene = Scene(size: CGSize(width: 600, height: 300), frameRate: 30, duration: 4) {
            VStack(alignment: .leading) {
                Text("First line").id("a")
                Text("Second line").id("b")
            }
            .stagger(1) { $0.typewriter(duration: 1) }
            Counter(7, format: .number(suffix: "%")).id("c").fontSize(30)
            Text("DECODED").scramble(seed: 3, duration: 1, delay: 2).id("s")
            Text("2020").keyframes(.string, ["2021", "2022", "2023"], duration: 3, delay: 1).id("k")
            Text("one two three").revealable(TextReveal(.words)).id("w1")
            Text("four five six").revealable(TextReveal(.words)).id("w2")
            Timeline {
                Animate("c", .value, to: 97, duration: 1, timing: .linear)
                Stagger(0.5) {
                    Animate("w1", .revealed, to: 1, duration: 1.5, timing: .linear)
                    Animate("w2", .revealed, to: 1, duration: 1.5, timing: .linear)
                }
            }
        }
        XCTAssertEqual(try shown(scene, "a", at: 0), "")
        XCTAssertEqual(try shown(scene, "a", at: 0.5), "First")               // 5 of 10 characters at frame 15
        XCTAssertEqual(try shown(scene, "a", at: 1.5), "First line")
        XCTAssertEqual(try shown(scene, "b", at: 0.9), "", "staggered by a second")
        XCTAssertEqual(try shown(scene, "b", at: 1.5), "Secon")               // ⌊0.5·11⌋ = 5
        XCTAssertEqual(try shown(scene, "c", at: 0), "7%")
        XCTAssertEqual(try shown(scene, "c", at: 0.5), "52%")                  // 7 + 90·0.5
        XCTAssertEqual(try shown(scene, "c", at: 2), "97%")
        XCTAssertEqual(try shown(scene, "s", at: 1.9), "")
        XCTAssertEqual(try shown(scene, "s", at: 2.5)?.count, 7)
        XCTAssertEqual(try shown(scene, "s", at: 3.5), "DECODED")
        // Discrete keyframes of a string: a second each from 1 s (the first held before).
        XCTAssertEqual(try shown(scene, "k", at: 0.5), "2021")
        XCTAssertEqual(try shown(scene, "k", at: 2.5), "2022")
        XCTAssertEqual(try shown(scene, "k", at: 3.5), "2023")
        // The timeline's stagger starts after the counter's step (1 s): w1 at 1 s, w2 at 1.5 s,
        // three words in 1.5 s each.
        XCTAssertEqual(try shown(scene, "w1", at: 0.9), "")
        XCTAssertEqual(try shown(scene, "w1", at: 2.1), "one two")            // ⌊3 · 1.1/1.5⌋ = 2
        XCTAssertEqual(try shown(scene, "w2", at: 1.4), "")
        XCTAssertEqual(try shown(scene, "w2", at: 2.1), "four")               // ⌊3 · 0.6/1.5⌋ = 1
        XCTAssertEqual(try shown(scene, "w2", at: 3.1), "four five six")
        // The stack is laid out with the full texts' sizes.
        let b = try XCTUnwrap(scene.layer(named: "b"))
        XCTAssertEqual(b.bounds.width, TextMetrics.size(of: "Second line", font: "Helvetica", fontSize: 36).width.rounded(.up))
    }

    func testSamePixelsAtAnyWorkerCountAndInAnyFrameOrder() throws {
        func make() -> Scene {
            Scene(size: CGSize(width: 320, height: 120), frameRate: 30, duration: 2, background: .hex("#101820")) {
                Counter(from: 0, to: 98765, duration: 1.5).font("DejaVu Sans Bold", size: 40).foreground(.white).center()
                Text("scrambled").scramble(seed: 11, duration: 1.5).foreground(.white).pin(.bottom, inset: 4)
            }
        }
        let frames = [0, 9, 23, 44, 31, 2, 59]
        let reference = make()
        var one = RenderOptions(); one.workers = 1
        let expected = try frames.map { try reference.renderFrame(at: reference.time(ofFrame: $0), options: one).pixels }
        var three = RenderOptions(); three.workers = 3; three.tileSize = 32
        let other = make()
        for (i, f) in frames.enumerated().reversed() {
            XCTAssertTrue(try other.renderFrame(at: other.time(ofFrame: f), options: three).pixels == expected[i], "frame \(f)")
        }
        XCTAssertFalse(expected[1] == expected[2], "the counter changes between frames 9 and 23")
    }

    func testTheStringOfATextLayerIsDiscretelyAnimatable() throws {
        let layer = CATextLayer()
        XCTAssertEqual(layer.animatableKind(forKey: "string"), .discrete)
        XCTAssertFalse(CATextLayer.implicitlyAnimates(key: "string"))
        let k = CAKeyframeAnimation(keyPath: "string")
        k.values = ["a", "b", "c"]
        k.keyTimes = [0, 0.5, 0.75]
        k.calculationMode = .discrete
        k.duration = 2
        k.fillMode = .both
        k.isRemovedOnCompletion = false
        layer.string = "model"
        layer.add(k, forKey: "t")
        let scene = Scene(rootLayer: layer, size: CGSize(width: 10, height: 10), frameRate: 10, duration: 3)
        func at(_ t: Double) throws -> String? { (try scene.presentation(of: layer, at: t) as? CATextLayer)?.string as? String }
        XCTAssertEqual(try at(0.9), "a")
        XCTAssertEqual(try at(1.2), "b")
        XCTAssertEqual(try at(1.6), "c")
        XCTAssertEqual(try at(2.5), "c")
        XCTAssertEqual(layer.string as? String, "model")
    }

    func testACounterReadAtTooManyFramesIsRefusedBeforeItIsRead() throws {
        let long = Composition(size: CGSize(width: 64, height: 36), frameRate: 1000, duration: 86_400, layers: [
            Node(.text, id: "n", properties: ["value": .number(0)],
                 animations: [AnimationSpec(property: "value", to: .number(1e9), duration: .seconds(86_400))]),
        ])
        let start = Date()
        XCTAssertThrowsError(try Scene(composition: long)) { error in
            XCTAssertTrue("\(error)".contains("layers[0]: the changing texts are read at 86400001 frames each"), "\(error)")
            XCTAssertTrue("\(error)".contains("timeline-steps"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "refused, not read")
    }

    func testTheKeyframesTextIsBoundedAsATemplatesTextIs() throws {
        // A 10 000-character typewriter over 300 frames would hold about 1.5 MB of keyframe text.
        let text = String(repeating: "abcdefghij", count: 1000)
        let composition = Composition(size: CGSize(width: 64, height: 36), frameRate: 30, duration: 10, layers: [
            Node(.text, properties: ["string": .string(text), "reveal": .string("characters")],
                 animations: [AnimationSpec(property: "revealed", from: .number(0), to: .number(1), duration: .seconds(10))]),
        ])
        var limits = SceneLimits()
        limits.expansionBytes = 100_000
        XCTAssertThrowsError(try Scene(composition: composition, options: CompositionOptions(limits: limits))) { error in
            XCTAssertTrue("\(error)".contains("layers[0]: the changing texts' keyframes hold more text: over the limit"), "\(error)")
            XCTAssertTrue("\(error)".contains("--limit expansion-mb="), "\(error)")
        }
        // Under the default limit (64 MiB) it compiles, and frame 150 shows half the text.
        let scene = try Scene(composition: composition)
        let layer = try XCTUnwrap(scene.rootLayer.sublayers?.first)
        XCTAssertEqual(((try scene.presentation(of: layer, at: 5)) as? CATextLayer)?.string as? String, String(text.prefix(5000)))
    }

    func testBadCounterAndRevealKeysNameTheirPaths() throws {
        let json = #"""
        {"size": [200, 100], "duration": 1, "layers": [
          {"type": "text", "value": 1, "format": {"style": "currency", "decimal": 2}},
          {"type": "text", "value": 1, "format": {"locale": "xx_NOPE"}},
          {"type": "text", "value": 1, "string": "also"},
          {"type": "text", "string": "a", "reveal": "letters"},
          {"type": "text", "string": "a", "reveal": {"by": "scramble", "seed": 1.5}},
          {"type": "text", "string": "a", "animations": [{"property": "value", "to": 3}]},
          {"type": "layer", "value": 3},
          {"type": "text", "string": "a", "animations": [{"property": "font", "to": "DejaVu Sans"}]}
        ]}
        """#
        let composition = try JSONDecoder().decode(Composition.self, from: Data(json.utf8))
        XCTAssertThrowsError(try Scene(composition: composition)) { error in
            let text = "\(error)"
            for expected in ["layers[0].format.decimal: unknown format key; did you mean \"decimals\"?",
                             "layers[1].format.locale: unknown locale \"xx_NOPE\"",
                             "layers[2].string: a counter shows its value",
                             "layers[3].reveal: expected one of \"characters\", \"words\", \"lines\", \"scramble\", got \"letters\"",
                             "layers[4].reveal.seed: expected a whole number, got 1.5",
                             "layers[5].animations[0].property: \"value\" animates a counter: give the text layer a \"value\"",
                             "layers[6].value: unknown property for a layer layer",
                             "layers[7].animations[0]: \"font\" cannot be animated"] {
                XCTAssertTrue(text.contains(expected), "missing «\(expected)» in:\n\(text)")
            }
        }
    }

    /// A template's counters and reveals: the same keys, from YAML, with errors naming file and key.
    func testTemplatesCountAndRevealAndNameBadKeys() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-counter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.yaml")
        try """
        size: [400, 200]
        fps: 10
        duration: 3
        parameters:
          - {name: total, type: number, default: 1250, description: The amount}
        layers:
          - type: text
            id: money
            value: 0
            format: {style: currency, currency: EUR, locale: de_DE}
            animations: [{property: value, to: "{{total}}", duration: 2, timing: linear}]
          - {type: text, id: words, string: one two three four, reveal: words, animations: [{property: revealed, to: 1, duration: 2}]}
          - {type: text, id: year, string: "2020", animations: [{property: string, values: [2021, 2022], duration: 2, delay: 1}]}
        """.write(to: good, atomically: true, encoding: .utf8)
        let scene = try Template(contentsOf: good).makeScene()
        XCTAssertEqual(try shown(scene, "money", at: 0), "0,00\u{A0}€")
        XCTAssertEqual(try shown(scene, "money", at: 1), "625,00\u{A0}€")
        XCTAssertEqual(try shown(scene, "money", at: 2.5), "1.250,00\u{A0}€")
        XCTAssertEqual(try shown(scene, "words", at: 1), "one two")
        XCTAssertEqual(try shown(scene, "year", at: 0.5), "2021", "the first keyframe holds before it begins")
        XCTAssertEqual(try shown(scene, "year", at: 2.5), "2022")
        let bad = dir.appendingPathComponent("bad.yaml")
        try """
        size: [400, 200]
        duration: 1
        layers:
          - {type: text, value: 1, format: {style: money}}
        """.write(to: bad, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Template(contentsOf: bad).makeScene()) { error in
            XCTAssertTrue("\(error)".contains("layers[0].format"), "\(error)")
            XCTAssertTrue("\(error)".contains("bad.yaml"), "\(error)")
        }
    }

    /// The counting chart template rendered by the command line: the same frame digests with one
    /// worker, two workers, and a chunk of its frames alone.
    func testTheCommandLineRendersCountersTheSameAtAnyWorkerCount() throws {
        let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/counting-chart/counting-chart.yaml").path
        let args = ["render", template, "--scale", "0.25", "--hash-frames", "--frames", "24..40"]
        let one = try runProcess(strataExecutable, args + ["--workers", "1"])
        XCTAssertEqual(one.status, 0, one.stderr)
        let two = try runProcess(strataExecutable, args + ["--workers", "2"])
        XCTAssertEqual(two.text, one.text)
        let lines = one.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 17)
        XCTAssertGreaterThan(Set(lines.map { $0.split(separator: " ")[1] }).count, 10, "the bars and counters move")
        let chunk = try runProcess(strataExecutable, ["render", template, "--scale", "0.25", "--hash-frames", "--frames", "33..35"])
        XCTAssertEqual(chunk.text.split(separator: "\n").map(String.init), Array(lines[9...11]))
    }
}
