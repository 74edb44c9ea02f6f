// Hostile templates: every numeric property a template accepts — enumerated from the property
// table (PropertyTable) and the schema's numeric keys, not picked by hand — at 0, −1, 1e300, NaN
// and ∞ (as an expression makes them: sqrt(-1), 1e308 * 10), every count at 1e9, every string
// one past its limit, and the reproducers of the crashes found (format patterns, shadowRadius,
// a layer 1e300 wide, fontSize 1e308). Each case runs in this process and must end with either
// one error naming the property's path, or a 320×180 frame in which a marker layer drawn above
// the hostile one has its exact colour.
import XCTest
@testable import Strata

final class HostileTemplateTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// What a case ended with.
    enum Outcome {
        case rendered(Bitmap)
        case refused(String)
    }

    /// The values every numeric property is tried with (YAML text), and whether the value must be
    /// refused (NaN and ∞ have no place in a frame).
    static let values: [(text: String, mustRefuse: Bool)] = [
        ("0", false), ("-1", false), ("1e300", false), ("\"{{sqrt(-1)}}\"", true), ("\"{{1e308 * 10}}\"", true),
    ]

    /// A 320×180 template with `layer` (YAML flow mapping fields, after `type`) as layers[0],
    /// a green marker square above it as layers[1], and `extra` top-level text.
    func document(type: String, _ fields: String, extra: String = "") -> String {
        """
        size: [320, 180]
        fps: 10
        duration: 1
        background: black
        layers:
          - {type: \(type), \(fields)}
          - {type: layer, frame: [4, 4, 8, 8], backgroundColor: "#00FF00"}
        \(extra)
        """
    }

    /// Reads `yaml` as a template, makes its scene and renders the frame at 0.5 s.
    func run(_ yaml: String, arguments: TemplateArguments = TemplateArguments()) -> Outcome {
        let url = folder.appendingPathComponent("hostile.yaml")
        do {
            try yaml.write(to: url, atomically: true, encoding: .utf8)
            return .rendered(try Template(contentsOf: url).makeScene(arguments).renderFrame(at: 0.5))
        } catch {
            return .refused("\(error)")
        }
    }

    /// The case ends with an error naming `path`, or (unless `mustRefuse`) a frame whose marker
    /// is exactly green.
    func assertEndsCleanly(_ yaml: String, path: String, mustRefuse: Bool, _ what: String,
                           file: StaticString = #filePath, line: UInt = #line) {
        switch run(yaml) {
        case .refused(let message) where path == "size" && message.hasPrefix("size "):
            // The document's size is checked by the scene when it renders (the scale and the
            // pixel-size limit may change): its message names the size, not the file.
            XCTAssertTrue(message.contains("exceeds the maximum of 16384 px per side") || message.contains("must be positive"), "\(what): \(message)",
                          file: file, line: line)
        case .refused(let message):
            XCTAssertTrue(message.contains("hostile.yaml"), "\(what): \(message)", file: file, line: line)
            XCTAssertTrue(message.contains(" \(path)"), "\(what): the error does not name \(path): \(message)", file: file, line: line)
        case .rendered(let frame):
            XCTAssertFalse(mustRefuse, "\(what) rendered", file: file, line: line)
            XCTAssertEqual(frame.width, 320, what, file: file, line: line)
            XCTAssertEqual(frame.height, 180, what, file: file, line: line)
            let p = frame.pixel(x: 8, y: 8)
            XCTAssertTrue(p == (0, 255, 0, 255), "\(what): the marker is \(p)", file: file, line: line)
        }
    }

    /// The error of `yaml` (fails when it renders).
    func refusal(_ yaml: String, arguments: TemplateArguments = TemplateArguments(),
                 file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .refused(let message) = run(yaml, arguments: arguments) else {
            XCTFail("rendered", file: file, line: line)
            return ""
        }
        return message
    }

    // MARK: Every numeric property

    /// Values of `kind` made of `v` (one per way the kind holds numbers), with the path suffix an
    /// error names; nil for kinds without numbers.
    static func samples(_ kind: ValueKind, _ v: String) -> [(yaml: String, subpath: String)]? {
        switch kind {
        case .number, .time: [(v, "")]
        case .point, .size: [("[\(v), \(v)]", "")]
        case .rect: [("[\(v), \(v), \(v), \(v)]", "")]
        case .numberList: [("[\(v), 2]", "")]
        case .color: [("[\(v), \(v), \(v)]", "")]
        case .colorList: [("[[\(v), 0, 0], white]", "")]
        case .transform:
            ["scale", "rotation", "rotationX", "rotationY", "perspective"].map { ("{\($0): \(v)}", "") }
                + [("{translation: [\(v), \(v)]}", ""), ("{rotation3D: {angle: \(v), axis: [\(v), 1, 0]}}", ""),
                   ("{matrix: [\(v), 0, 0, 0, 0, \(v), 0, 0, 0, 0, 1, 0, \(v), \(v), 0, 1]}", "")]
        case .path:
            [("{rect: [0, 0, \(v), \(v)], cornerRadius: \(v)}", ""), ("{circle: [\(v), \(v), \(v)]}", ""),
             ("{ellipse: [\(v), \(v), \(v), \(v)]}", ""), ("{polygon: [[0, 0], [\(v), \(v)], [0, 10]]}", "")]
        case .bool, .string, .choice: nil
        }
    }

    func testEveryNumericLayerPropertyAtHostileValues() throws {
        // Every kind of node with its own numeric properties (image and video nodes need a file
        // and have only the common ones besides it; `start` is a video's).
        let kinds: [(NodeType, [String])] = [
            (.layer, ["size: [100, 60]", "backgroundColor: red", "shadowOpacity: 1"]),
            (.shape, ["path: {rect: [0, 0, 100, 60]}", "fillColor: red", "strokeColor: blue"]),
            (.text, ["string: Hello", "foregroundColor: white"]),
            (.gradient, ["size: [100, 60]", "colors: [red, blue]"]),
            (.hstack, ["children: [{type: layer, size: [10, 10], backgroundColor: red}, {type: layer, size: [10, 10], backgroundColor: blue}]"]),
        ]
        var cases = 0
        for (type, base) in kinds {
            for (key, info) in PropertyTable.properties(of: type).sorted(by: { $0.key < $1.key }) {
                for (v, mustRefuse) in Self.values {
                    guard let samples = Self.samples(info.kind, v) else { continue }
                    for (value, _) in samples {
                        // The base's own field of that name gives way.
                        var fields = ["\(key): \(value)"] + base.filter { !$0.hasPrefix("\(key):") }
                        if key != "position" { fields.append("position: [160, 90]") }
                        assertEndsCleanly(document(type: type.rawValue, fields.joined(separator: ", ")), path: "layers[0].\(key)",
                                          mustRefuse: mustRefuse, "\(type.rawValue).\(key) = \(value)")
                        cases += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(cases, 300, "the property table was enumerated")
    }

    /// The schema's numeric keys outside the layer properties: the document's, a layout's, an
    /// animation's, a timeline step's. Each is listed here with a document that uses it; a key
    /// the schema gains without a case fails the test.
    func testEveryNumericSchemaKeyAtHostileValues() throws {
        let cases: [String: (String) -> (yaml: String, path: String)] = [
            "size": { v in (self.document(type: "layer", "size: [10, 10]").replacingOccurrences(of: "size: [320, 180]", with: "size: [\(v), \(v)]"), "size") },
            "frameRate": { v in (self.document(type: "layer", "size: [10, 10]").replacingOccurrences(of: "fps: 10", with: "frameRate: \(v)"), "frameRate") },
            "fps": { v in (self.document(type: "layer", "size: [10, 10]").replacingOccurrences(of: "fps: 10", with: "fps: \(v)"), "fps") },
            "duration": { v in (self.document(type: "layer", "size: [10, 10]").replacingOccurrences(of: "duration: 1", with: "duration: \(v)"), "duration") },
            "layout.inset": { v in (self.document(type: "layer", "size: [10, 10], layout: {pin: top, inset: \(v)}"), "layers[0].layout") },
            "layout.aspectRatio": { v in (self.document(type: "layer", "layout: {aspectRatio: \(v)}"), "layers[0].layout") },
            "layout.width": { v in (self.document(type: "layer", "layout: {width: \(v), height: \(v), padding: \(v)}"), "layers[0].layout") },
            "section.duration": { v in (self.document(type: "sections", "children: [{type: section, duration: \(v)}, {type: section, duration: 1, transition: {type: cube, duration: \(v), perspective: \(v)}}]"), "layers[0]") },
            "layout.offset": { v in (self.document(type: "layer", "size: [10, 10], layout: {center: true, offset: [\(v), \(v)]}"), "layers[0].layout") },
            "animation.keyTimes": { v in (self.document(type: "layer", "size: [10, 10], animations: [{property: opacity, values: [0, 1], keyTimes: [0, \(v)]}]"), "layers[0].animations[0]") },
            "animation.duration": { v in (self.document(type: "layer", "size: [10, 10], animations: [{property: opacity, from: 0, to: 1, duration: \(v)}]"), "layers[0].animations[0]") },
            "animation.delay": { v in (self.document(type: "layer", "size: [10, 10], animations: [{property: opacity, from: 0, to: 1, delay: \(v)}]"), "layers[0].animations[0]") },
            "animation.repeat": { v in (self.document(type: "layer", "size: [10, 10], animations: [{property: opacity, from: 0, to: 1, duration: 0.1, repeat: \(v)}]"), "layers[0].animations[0]") },
            "animation.to": { v in (self.document(type: "layer", "size: [10, 10], animations: [{property: shadowRadius, from: 0, to: \(v)}, {property: position.x, to: \(v)}]"), "layers[0].animations[") },
            "step.duration": { v in self.step("{type: animate, target: a, property: opacity, to: 0.5, duration: \(v)}") },
            "step.delay": { v in self.step("{type: animate, target: a, property: opacity, to: 0.5, delay: \(v)}") },
            "step.interval": { v in self.step("{type: stagger, interval: \(v), steps: [{type: set, target: a, properties: {opacity: 0.5}}, {type: wait, duration: 0.1}]}") },
            "step.time": { v in self.step("{type: at, time: \(v), steps: [{type: set, target: a, properties: {opacity: 0.5}}]}") },
            "step.count": { v in self.step("{type: loop, count: \(v), steps: [{type: animate, target: a, property: opacity, to: 0.5, duration: 0.1}]}") },
        ]
        // The schema's numeric keys (type number or integer, or a time) of the document, layout,
        // animation and step objects.
        let defs = try XCTUnwrap(TemplateSchema.root["$defs"])
        var schemaKeys: Set<String> = []
        func numeric(_ s: TemplateNode) -> Bool {
            let text = s.jsonText
            return text.contains("\"number\"") || text.contains("\"integer\"") || text.contains("#/$defs/time")
        }
        func collect(_ object: TemplateNode?, _ prefix: String) {
            guard case .object(let members)? = object?["properties"]?.value else { return }
            for m in members where numeric(m.node) { schemaKeys.insert(prefix + m.key) }
        }
        collect(TemplateSchema.root, "")
        collect(defs["layout"], "layout.")
        collect(defs["animation"], "animation.")
        collect(defs["step"], "step.")
        schemaKeys.remove("animation.from"); schemaKeys.remove("animation.by")  // any value: "to" stands for them
        schemaKeys.insert("animation.to")
        XCTAssertEqual(schemaKeys.subtracting(cases.keys).sorted(), [], "numeric schema keys without a hostile case")
        for key in cases.keys.sorted() {
            for (v, mustRefuse) in Self.values {
                let (yaml, path) = cases[key]!(v)
                assertEndsCleanly(yaml, path: path, mustRefuse: mustRefuse, "\(key) = \(v)")
            }
        }
    }

    /// A document whose layer a (a 10×10 square) runs `step` as its timeline, and the step's path.
    func step(_ step: String) -> (yaml: String, path: String) {
        (document(type: "layer", "id: a, size: [10, 10], backgroundColor: red", extra: "timeline:\n  - \(step)"), "timeline[0]")
    }

    // MARK: Counts and strings

    func testCountsAtOneBillion() throws {
        // A loop of 1e9 iterations: those after the scene's end are not scheduled.
        guard case .rendered(let frame) = run(step("{type: loop, count: 1e9, steps: [{type: animate, target: a, property: opacity, from: 0, to: 1, duration: 0.25}]}").yaml) else {
            return XCTFail("the loop was refused")
        }
        XCTAssertTrue(frame.pixel(x: 8, y: 8) == (0, 255, 0, 255))
        // One of 1e9 steps that take no time schedules one of them.
        guard case .rendered = run(step("{type: loop, count: 1e9, steps: [{type: set, target: a, properties: {opacity: 0.5}}]}").yaml) else {
            return XCTFail("the loop was refused")
        }
        // One of 1e9 steps of a microsecond stops at the limit of timeline steps.
        XCTAssertEqual(refusal(step("{type: loop, count: 1e9, steps: [{type: animate, target: a, property: opacity, to: 1, duration: 1e-6}]}").yaml),
                       "hostile.yaml:9 timeline[0]: the loop runs until the scene ends, 999999 more times, 1 step a pass (1000001 timeline steps in all): "
                       + "over the limit of 1000000 (raise it with --limit timeline-steps=N)")
        XCTAssertEqual(refusal(step("{type: loop, count: forever, steps: [{type: animate, target: a, property: opacity, to: 1, duration: 1e-6}]}").yaml),
                       "hostile.yaml:9 timeline[0]: the loop runs until the scene ends, 999999 more times, 1 step a pass (1000001 timeline steps in all): "
                       + "over the limit of 1000000 (raise it with --limit timeline-steps=N)")
        // Repeats, steps of a timing curve, expression counts.
        XCTAssertEqual(refusal(document(type: "layer", "size: [10, 10], animations: [{property: opacity, from: 0, to: 1, timing: {steps: 1e9}}]")),
                       "hostile.yaml:6 layers[0].animations[0].timing.steps: expected a whole number of steps in 1…1000000, got 1000000000")
        guard case .rendered = run(document(type: "layer", "size: [10, 10], animations: [{property: opacity, from: 0, to: 1, duration: 0.5, repeat: 1e9}]")) else {
            return XCTFail("repeat 1e9 was refused")
        }
        XCTAssertEqual(refusal(document(type: "text", "string: \"{{len(range(1e9))}}\"")),
                       "hostile.yaml:6 layers[0].string: range(count) or range(start, end, step): range of 1000000000 items is too long (at most 100000)")
        XCTAssertEqual(refusal(document(type: "text", "string: \"{{pad('x', 1e9)}}\"")),
                       "hostile.yaml:6 layers[0].string: pad(value, width, fill): width 1000000000 is too large (at most 100000)")
        XCTAssertEqual(refusal(document(type: "text", "string: \"{{len(repeatEach([1], 1e9))}}\"")),
                       "hostile.yaml:6 layers[0].string: repeatEach(list, times): times must be 0…100000, got 1000000000")
    }

    func testStringsOnePastTheirLimit() throws {
        // A parameter's maxLength.
        let doc = "parameters:\n  - {name: title, type: string, maxLength: 10}\n" + document(type: "text", "string: \"{{title}}\"")
        XCTAssertEqual(refusal(doc, arguments: TemplateArguments(text: ["title": String(repeating: "x", count: 11)])),
                       "hostile.yaml parameters.title: expected at most 10 characters, got \"xxxxxxxxxxx\"")
        // A text layer's string, one past the text-length limit.
        let limit = SceneLimits().textLength
        let long = "parameters:\n  - {name: title, type: string}\n" + document(type: "text", "string: \"{{title}}\", fontSize: 4")
        let message = refusal(long, arguments: TemplateArguments(text: ["title": String(repeating: "x", count: limit + 1)]))
        XCTAssertTrue(message.contains("layers[0].string") && message.contains("over the limit of \(limit)"), message)
        // maxLength itself at 1e300 is a limit, not a crash; at -1 or 1.5 an error.
        guard case .rendered = run("parameters:\n  - {name: title, type: string, maxLength: 1e300, default: hi}\n" + document(type: "text", "string: \"{{title}}\"")) else {
            return XCTFail("maxLength 1e300 was refused")
        }
        XCTAssertEqual(refusal("parameters:\n  - {name: title, type: string, maxLength: 1.5}\n" + document(type: "text", "string: a")),
                       "hostile.yaml:2 parameters[0]: \"maxLength\" must be a whole number ≥ 0")
    }

    // MARK: The reproducers

    func testFormatPatternsAreParsedAndBounded() throws {
        let usage = "format(number, pattern): "
        for (pattern, message) in [
            ("%.2147483647f", "the precision 2147483647 in \"%.2147483647f\" is too large (at most 100)"),
            ("%2147483648.0f", "the width 2147483648 in \"%2147483648.0f\" is too large (at most 100)"),
            ("%999999999.0f", "the width 999999999 in \"%999999999.0f\" is too large (at most 100)"),
            ("%101d", "the width 101 in \"%101d\" is too large (at most 100)"),
            ("%n", "format needs one number pattern such as \"%.1f\" or \"%05d\", got \"%n\""),
            ("%s", "format needs one number pattern such as \"%.1f\" or \"%05d\", got \"%s\""),
        ] {
            XCTAssertEqual(refusal(document(type: "text", "string: \"{{format(3, '\(pattern)')}}\"")),
                           "hostile.yaml:6 layers[0].string: " + usage + message)
        }
        // The widest allowed, and text around the conversion copied as written (no % in it).
        XCTAssertEqual(try NumberFormatPattern("%100.100f").format(1).count, 102)
        XCTAssertEqual(try NumberFormatPattern("[%+08.2f] pts").format(-3.14159), "[-0003.14] pts")
        XCTAssertEqual(try NumberFormatPattern("%x").format(whole: 1 << 40), "10000000000")  // 64-bit, not cut to 32
        XCTAssertEqual(try NumberFormatPattern("%.f").conversionSpecification, "%.0f")
        XCTAssertEqual(try NumberFormatPattern("%05d").conversionSpecification, "%05ld")
    }

    func testFormatPatternFromABatchNameIsRefused() throws {
        let template = folder.appendingPathComponent("card.yaml")
        try document(type: "layer", "size: [10, 10]").write(to: template, atomically: true, encoding: .utf8)
        let rows = folder.appendingPathComponent("rows.csv")
        try "n\n3\n".write(to: rows, atomically: true, encoding: .utf8)
        let r = try runProcess(strataExecutable, ["batch", template.path, "--data", rows.path, "--out", folder.appendingPathComponent("out").path,
                                                  "--name", "{{format(n, '%.2147483647f')}}.png"], timeout: 60)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue((r.text + r.stderr).contains("the precision 2147483647 in \"%.2147483647f\" is too large (at most 100)"), r.text + r.stderr)
    }

    func testShadowRadiusIsBoundedAndNeverTraps() throws {
        // 200 (61 s for one frame before), 1e4 (57 GB), 1e19 (a trap): each ends at once.
        var frames: [Bitmap] = []
        for radius in ["200", "1e4", "1e19", "1e300"] {
            let start = Date()
            guard case .rendered(let frame) = run(document(type: "layer", "frame: [110, 60, 100, 60], backgroundColor: white, shadowOpacity: 1, shadowColor: white, shadowRadius: \(radius)")) else {
                return XCTFail("shadowRadius \(radius) was refused")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 20, "shadowRadius \(radius)")
            frames.append(frame)
        }
        // At 200 the wash is faint but there: 2 px left of the layer, alpha ≈ 6000 / (2π·200²) · ½.
        let near = frames[0].pixel(x: 107, y: 90)
        XCTAssertTrue(near.r > 0 && near.r < 40, "\(near)")
        // Past the bound (2166 px at 320×180) no shadow is drawn: only the layer.
        for frame in frames.dropFirst() {
            XCTAssertTrue(frame.pixel(x: 107, y: 90) == (0, 0, 0, 255))
            XCTAssertTrue(frame.pixel(x: 150, y: 90) == (255, 255, 255, 255))
        }
        XCTAssertEqual(ShadowPaint.invisibleSigma(frameWidth: 320, frameHeight: 180).rounded(), 2166)
        // A paint made without the bound clamps rather than trapping.
        XCTAssertEqual(ShadowPaint(source: DisplayList(), color: .zero, dx: .nan, dy: 1e300, sigma: .infinity).sigma, ShadowPaint.maximumSigma)
        XCTAssertEqual(ShadowPaint(source: DisplayList(), color: .zero, dx: 0, dy: 0, sigma: .nan).kernel, [1])
    }

    func testHugeLayersAndOffsetsAreDrawnWithoutTrapping() throws {
        // size [1e300, 1e300] (ScreenQuad.span trapped): the layer covers the frame.
        guard case .rendered(let frame) = run(document(type: "layer", "position: [160, 90], size: [1e300, 1e300], backgroundColor: white")) else {
            return XCTFail("refused")
        }
        XCTAssertTrue(frame.pixel(x: 300, y: 170) == (255, 255, 255, 255))
        // A shadow 1e300 away is off the frame.
        guard case .rendered(let offset) = run(document(type: "layer", "frame: [110, 60, 100, 60], backgroundColor: white, shadowOpacity: 1, shadowOffset: [1e300, 0]")) else {
            return XCTFail("refused")
        }
        XCTAssertTrue(offset.pixel(x: 250, y: 90) == (0, 0, 0, 255))
        // The whole document at 1e300 points: one error naming the size (from the scene's check).
        XCTAssertEqual(refusal(document(type: "layer", "size: [10, 10]").replacingOccurrences(of: "size: [320, 180]", with: "size: [1e300, 1e300]")),
                       "size 1e+300×1e+300 px exceeds the maximum of 16384 px per side (raise it with --limit pixel-size=N, or Scene.limits)")
    }

    func testFontSizeIsLimited() throws {
        XCTAssertEqual(refusal(document(type: "text", "string: Hi, fontSize: 1e308")),
                       "hostile.yaml:6 layers[0].fontSize: expected a font size in points > 0 and ≤ 10000, got 1e+308")
        // An animation to 1e300 is drawn at the largest size (the renderer clamps), not handed to Pango.
        guard case .rendered(let frame) = run(document(type: "text", "string: Hi, foregroundColor: white, animations: [{property: fontSize, from: 10, to: 1e300, duration: 1}]")) else {
            return XCTFail("refused")
        }
        XCTAssertTrue(frame.pixel(x: 8, y: 8) == (0, 255, 0, 255))
    }
}
