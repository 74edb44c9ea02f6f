// Templates, part 3: whole documents — schema and compile errors with file, line, JSON path and
// what was expected; YAML aliases refused; the same template in JSON and YAML rendering the same
// bytes; a scene written with the Swift DSL, saved as a JSON and a YAML template and read back,
// rendering the same bytes; and BatchRenderer on a 50-row CSV with malformed rows, shards and
// resume.
import XCTest
import Yams
@testable import Strata

extension TemplateTests {
    // MARK: Helpers

    /// Writes `text` as `name` in `folder` and reads it as a template.
    func template(_ text: String, _ name: String, in folder: URL) throws -> Template {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return try Template(contentsOf: url)
    }

    /// The error lines of reading `text` as `name` and making its scene.
    func documentErrors(_ text: String, _ name: String = "bad.yaml", _ arguments: TemplateArguments = TemplateArguments(),
                        file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            _ = try template(text, name, in: dir).makeScene(arguments)
            XCTFail("no error", file: file, line: line)
            return []
        } catch {
            return "\(error)".components(separatedBy: "\n")
        }
    }

    /// A template tree as block-style YAML (strings double-quoted, numbers in Swift's shortest
    /// round-trip form).
    func yamlText(_ node: TemplateNode) throws -> String {
        func convert(_ n: TemplateNode) -> Yams.Node {
            switch n.value {
            case .null: Yams.Node("null")
            case .bool(let b): Yams.Node(b ? "true" : "false")
            case .number(let x): Yams.Node("\(x)")
            case .string(let s): Yams.Node(s, .implicit, .doubleQuoted)
            case .array(let a): Yams.Node(a.map(convert), .implicit, .block)
            case .object(let m): Yams.Node(m.map { (Yams.Node($0.key), convert($0.node)) }, .implicit, .block)
            }
        }
        return try Yams.serialize(node: convert(node))
    }

    // MARK: Errors in documents

    func testSchemaErrorNamesFileLineAndPath() throws {
        let yaml = """
        name: Bad
        size: [64, 36]
        fps: 5
        duration: 1
        layers:
          - type: layer
            size: [10, 10]
            backgroundColor: red
          - type: layer
            id: box
            size: [10, 10]
            animations:
              - property: opacity
                duration: fast
                to: 0
        """
        XCTAssertEqual(try documentErrors(yaml),
                       ["bad.yaml:14 layers[1].animations[0].duration: expected a number ≥ 0 (seconds) or frames (\"12f\"), got \"fast\""])
        // The same in JSON: the parser knows its lines too.
        let json = """
        {
          "size": [64, 36],
          "fps": 5,
          "duration": "fast",
          "layers": []
        }
        """
        XCTAssertEqual(try documentErrors(json, "bad.json"), ["bad.json:4 duration: expected a number of seconds > 0, got \"fast\""])
    }

    func testEverySchemaProblemIsReported() throws {
        let yaml = """
        size: [64]
        fps: 0
        duration: 1
        layer: []
        layers:
          - type: circle
          - type: layer
            opacity: 2
            fontSize: big
            position: left
            layout: {centre: true}
            animations:
              - {property: opacity, durration: 1}
              - {property: opacity, repeat: often}
          - type: text
            string: 5
        timeline:
          - {type: jump}
        """
        XCTAssertEqual(try documentErrors(yaml), [
            "bad.yaml:1 size: expected a size [width, height] with positive numbers, got [64]",
            "bad.yaml:2 fps: expected a number of frames per second in (0, 1000], got 0",
            "bad.yaml:4 layer: unknown key; did you mean \"layers\"? (expected name, description, parameters, export, size, frameRate, fps, duration, background, layers, timeline)",
            "bad.yaml:6 layers[0].type: expected one of \"layer\", \"shape\", \"text\", \"gradient\", \"image\", \"video\", \"group\", \"transformGroup\", \"hstack\", \"vstack\", \"zstack\", \"terminal\", \"lottie\", \"sections\", \"section\", \"spacer\", got \"circle\"",
            "bad.yaml:8 layers[1].opacity: expected a number ≥ 0 and ≤ 1, got 2",
            "bad.yaml:9 layers[1].fontSize: expected a font size in points > 0 and ≤ 10000, got \"big\"",
            "bad.yaml:10 layers[1].position: expected a point [x, y], got \"left\"",
            "bad.yaml:11 layers[1].layout.centre: unknown key; did you mean \"center\"? (expected center, pin, inset, offset, width, height, minWidth, maxWidth, minHeight, maxHeight, aspectRatio, contentMode, padding)",
            "bad.yaml:13 layers[1].animations[0].durration: unknown key; did you mean \"duration\"? (expected property, from, to, by, values, keyTimes, duration, delay, timing, repeat, autoreverses, additive)",
            "bad.yaml:14 layers[1].animations[1].repeat: expected a number of cycles ≥ 0 or \"forever\", got \"often\"",
            "bad.yaml:16 layers[2].string: expected text, got 5",
            "bad.yaml:18 timeline[0].type: expected one of \"animate\", \"set\", \"transition\", \"chain\", \"parallel\", \"stagger\", \"wait\", \"loop\", \"marker\", \"at\", got \"jump\"",
        ])
        XCTAssertEqual(try documentErrors("fps: 5\nlayers: []\n"), ["bad.yaml:1: missing \"size\"", "bad.yaml:1: missing \"duration\""])
    }

    func testCompileAndDecodeErrorsNameFileLineAndPath() throws {
        let yaml = """
        size: [64, 36]
        duration: 1
        parameters:
          - {name: who, type: string, default: x}
        layers:
          - type: layer
            id: a
            size: [10, 10]
            colour: red
          - type: shape
            path: {svg: "M0 0 X 4"}
        timeline:
          - {type: animate, target: missing, property: opacity, to: 1, duration: 1}
        """
        let lines = try documentErrors(yaml)
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertTrue(lines[0].hasPrefix("bad.yaml:9 layers[0].colour: unknown property for a layer layer (known: "), lines[0])
        XCTAssertTrue(lines[0].contains(" backgroundColor, "), lines[0])
        XCTAssertEqual(lines[1], "bad.yaml:11 layers[1].path: expected path data: command 'X' is not supported (M L H V C S Q T Z), got {\"svg\": \"M0 0 X 4\"}")
        XCTAssertTrue(lines[2].hasPrefix("bad.yaml:13 timeline[0].target: no layer has the id \"missing\""), lines[2])
        // What the schema lets through and the model cannot decode: a wait without a length.
        XCTAssertEqual(try documentErrors("size: [64, 36]\nduration: 1\ntimeline:\n  - type: wait\n"),
                       ["bad.yaml:4 timeline[0]: missing \"duration\""])
        // An expression error in the document.
        XCTAssertEqual(try documentErrors("size: [64, 36]\nduration: 1\nparameters: [{name: who, default: x}]\nlayers:\n  - {type: text, string: \"Hi {{whom}}\"}\n"),
                       ["bad.yaml:5 layers[0].string: unknown name \"whom\"; did you mean \"who\"? (known: who)"])
        // A value that an expression makes is checked where it lands.
        XCTAssertEqual(try documentErrors("size: [64, 36]\nduration: \"{{0 - 1}}\"\n"),
                       ["bad.yaml:2 duration: expected a number of seconds > 0, got -1"])
    }

    func testSyntaxErrorsAliasesAndDuplicates() throws {
        // Aliases are refused where they are used (an anchor alone is harmless).
        XCTAssertEqual(try documentErrors("size: &s [64, 36]\nduration: 1\nlayers:\n  - {type: layer, size: *s}\n"),
                       ["bad.yaml:4: YAML aliases (*s) are not supported in templates"])
        XCTAssertEqual(try documentErrors("size: [64, 36]\nduration: 1\nlayers:\n  - &box {type: layer}\n  - *box\n"),
                       ["bad.yaml:4: YAML aliases (*box) are not supported in templates"])  // in a list: the anchor's line
        XCTAssertEqual(try documentErrors("size: [64, 36]\nduration: 1\nx: &base {type: layer}\nlayers:\n  - <<: *base\n    id: a\n"),
                       ["bad.yaml:5: YAML aliases (*base) are not supported in templates"])
        // A "billion laughs" document is refused at its first alias, not expanded.
        var laughs = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for i in 1...9 { laughs += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n" }
        XCTAssertEqual(try documentErrors(laughs), ["bad.yaml:1: YAML aliases (*a0) are not supported in templates"])
        XCTAssertEqual(try documentErrors("size: [64, 36]\nduration: 1\nsize: [10, 10]\n"),
                       ["bad.yaml:1: the key \"size\" appears twice (first on this line)"])
        XCTAssertEqual(try documentErrors("size: [64, 36]\nduration: 1\nlayers:\n  - type: layer\n    id: a\n    id: b\n    type: text\n"),
                       ["bad.yaml:5: the keys \"id\", \"type\" appear twice (\"id\" first on this line)"])
        XCTAssertEqual(try documentErrors("- 1\n- 2\n"), ["bad.yaml:1: expected an object with size, duration and layers"])
        XCTAssertEqual(try documentErrors(""), ["bad.yaml: the file is empty"])
        XCTAssertEqual(try documentErrors("size: [64, 36\nduration: 1\n"), ["bad.yaml:2: not valid YAML or JSON: did not find expected ',' or ']'"])
        let json = try documentErrors("{\"size\": [64, 36],\n \"duration\": 1,,\n}", "bad.json")
        XCTAssertTrue(json[0].hasPrefix("bad.json:2: not valid YAML or JSON: "), "\(json)")
    }

    // MARK: Same frames

    func testJSONAndYAMLTemplatesRenderTheSameFrames() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let yaml = """
        size: [64, 36]
        fps: 5
        duration: 1
        background: "#102030"
        parameters:
          - {name: bars, type: list, items: number, default: [3, 7, 5]}
          - {name: tint, type: color, default: "#FF5A36"}
        layers:
          - forEach: "{{bars}}"
            as: h
            type: layer
            frame: ["{{4 + index * 12}}", "{{36 - h * 4}}", 8, "{{h * 4}}"]
            backgroundColor: "{{tint}}"
            animations:
              - {property: opacity, from: 0, to: 1, duration: 0.6, delay: "{{index * 0.1}}"}
          - type: layer
            id: dot
            frame: [0, 0, 6, 6]
            cornerRadius: 3
            backgroundColor: white
        timeline:
          - {type: animate, target: dot, property: position.x, to: 60, duration: 1, timing: easeInEaseOut}
        """
        let json = """
        {"size": [64, 36], "fps": 5, "duration": 1, "background": "#102030",
         "parameters": [{"name": "bars", "type": "list", "items": "number", "default": [3, 7, 5]},
                        {"name": "tint", "type": "color", "default": "#FF5A36"}],
         "layers": [
           {"forEach": "{{bars}}", "as": "h", "type": "layer",
            "frame": ["{{4 + index * 12}}", "{{36 - h * 4}}", 8, "{{h * 4}}"], "backgroundColor": "{{tint}}",
            "animations": [{"property": "opacity", "from": 0, "to": 1, "duration": 0.6, "delay": "{{index * 0.1}}"}]},
           {"type": "layer", "id": "dot", "frame": [0, 0, 6, 6], "cornerRadius": 3, "backgroundColor": "white"}
         ],
         "timeline": [{"type": "animate", "target": "dot", "property": "position.x", "to": 60, "duration": 1, "timing": "easeInEaseOut"}]}
        """
        let fromYAML = try template(yaml, "bars.yaml", in: dir), fromJSON = try template(json, "bars.json", in: dir)
        XCTAssertEqual(try fromYAML.composition().0, try fromJSON.composition().0)
        let arguments = TemplateArguments(text: ["bars": "2, 8", "tint": "oklch(0.7 0.15 150)"])
        XCTAssertEqual(try fromYAML.composition(arguments).0.layers.count, 3)
        for args in [TemplateArguments(), arguments] {
            let a = try fromYAML.makeScene(args), b = try fromJSON.makeScene(args)
            for t in [0.0, 0.2, 0.5, 0.8] {
                XCTAssertTrue(try a.renderFrame(at: t).pixels == b.renderFrame(at: t).pixels, "t = \(t)")
            }
        }
        // The frames change: the comparison is not between empty pictures.
        let scene = try fromYAML.makeScene()
        XCTAssertTrue(try scene.renderFrame(at: 0).pixels != scene.renderFrame(at: 0.8).pixels)
        XCTAssertEqual(try scene.renderFrame(at: 0.8).pixel(x: 6, y: 30).r, 255)  // the first bar, #FF5A36, opaque by then
    }

    func testDSLSceneRoundTripsThroughJSONAndYAMLTemplates() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = Scene(size: CGSize(width: 96, height: 54), frameRate: 10, duration: 2, background: Color(oklch: 0.3, 0.05, 260)) {
            VStack(spacing: 4) {
                Text("Round trip").font("DejaVu Sans Bold", size: 11).foreground(.white).slideIn(from: .bottom)
                Shape(.svg("M0 0 L30 0 L15 12 Z")).fill(Color(red: 0.3, green: 0.9, blue: 0.5)).draw(duration: 1)
            }
            .center()
            Layer().frame(x: 4, y: 4, width: 10, height: 10).background(.yellow).cornerRadius(2.5).id("dot")
                .animate(.opacity, from: 1, to: 0.35, duration: 0.7, timing: .easeOut, delay: 0.3)
            Gradient([.red, .blue], from: .leading, to: .trailing, type: .axial).frame(x: 0, y: 48, width: 96, height: 6)
            Timeline {
                Animate("dot", .position.x, to: 84, duration: 1, timing: .named(.easeInOutSine))
                Animate("dot", .rotation, to: .degrees(45), duration: 0.5, timing: .bezier(0.2, 0, 0.2, 1))
            }
        }
        let composition = try XCTUnwrap(scene.composition)
        let json = try composition.jsonData()
        try json.write(to: dir.appendingPathComponent("round.json"))
        let yaml = try yamlText(try TemplateReader.parse(String(decoding: json, as: UTF8.self), file: "round.json"))
        XCTAssertTrue(yaml.hasPrefix("background:\n- 0.12"), String(yaml.prefix(200)))  // block style, not JSON
        XCTAssertTrue(yaml.contains("\nlayers:\n- alignment: \"center\"\n  children:\n"), String(yaml.prefix(400)))
        try yaml.write(to: dir.appendingPathComponent("round.yaml"), atomically: true, encoding: .utf8)
        for name in ["round.json", "round.yaml"] {
            let t = try Template(contentsOf: dir.appendingPathComponent(name))
            XCTAssertEqual(try t.composition().0, composition, name)        // the same model, value for value
            let again = try t.makeScene()
            for time in [0.0, 0.25, 0.7, 1.3, 1.95] {
                XCTAssertTrue(try scene.renderFrame(at: time).pixels == again.renderFrame(at: time).pixels, "\(name) t = \(time)")
            }
        }
        XCTAssertTrue(try scene.renderFrame(at: 0.25).pixels != scene.renderFrame(at: 1.3).pixels)
    }

    // MARK: Batches

    /// A folder with `batch.yaml`, an image `dot.png`, an image outside it, and a 50-row CSV
    /// whose rows 5, 12, 19, 26, 33 and 40 are malformed.
    func batchFixture() throws -> (root: URL, template: Template, rows: [BatchRow]) {
        let root = try temporaryFolder()
        let folder = root.appendingPathComponent("tpl")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var dot = Bitmap(width: 4, height: 4)
        for i in 0..<16 { dot.pixels[i * 4 + 1] = 255; dot.pixels[i * 4 + 3] = 255 }
        try dot.writePNG(to: folder.appendingPathComponent("dot.png"))
        try dot.writePNG(to: root.appendingPathComponent("escape.png"))
        let yaml = """
        size: [64, 36]
        fps: 5
        duration: 1
        parameters:
          - {name: id, type: string}
          - {name: value, type: number, default: 50, min: 0, max: 100}
          - {name: colour, type: color, default: "#3366FF"}
          - {name: label, type: string, default: "", maxLength: 10}
          - {name: image, type: image, default: ""}
        layers:
          - type: layer
            frame: [0, 0, "{{value * 0.64}}", 36]
            backgroundColor: "{{colour}}"
          - type: image
            if: "{{image != ''}}"
            image: "{{image}}"
            frame: [40, 4, 8, 8]
            animations:
              - {property: opacity, from: 0, to: 1, duration: 1}
        """
        let t = try template(yaml, "batch.yaml", in: folder)
        var csv = "id,value,colour,label,image\n"
        for i in 1...50 {
            var (id, value, colour, label, image) = (String(format: "r%02d", i), "\(i * 2)", String(format: "#%02X80C0", i * 5), "n\(i)", i % 4 == 0 ? "dot.png" : "")
            switch i {
            case 5: value = "abc"
            case 12: colour = "notacolour"
            case 19: label = "much too long"
            case 26: image = "missing.png"
            case 33: image = "../escape.png"
            case 40: id = "r03"
            default: break
            }
            csv += "\(id),\(value),\(colour),\"\(label)\",\(image)\n"
        }
        let data = root.appendingPathComponent("rows.csv")
        try csv.write(to: data, atomically: true, encoding: .utf8)
        return (root, t, try BatchRenderer.rows(contentsOf: data))
    }

    func batchOptions(_ folder: URL) throws -> BatchOptions {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var options = BatchOptions(outputFolder: folder)
        options.name = "{{id}}.gif"
        options.jobs = 2
        return options
    }

    func files(in folder: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    }

    func testBatchReportsMalformedRowsAndRendersTheRest() throws {
        let (root, template, rows) = try batchFixture()
        defer { try? FileManager.default.removeItem(at: root) }
        XCTAssertEqual(rows.count, 50)
        let out = root.appendingPathComponent("out")
        let report = BatchRenderer.run(template, rows: rows, options: try batchOptions(out), dataName: "rows.csv")
        XCTAssertEqual([report.rows, report.rendered, report.skipped, report.failed], [50, 44, 0, 6])
        XCTAssertEqual(report.items.map(\.row), Array(1...50))
        XCTAssertEqual(report.items.map(\.line), Array(2...51))
        let failed = report.items.filter { $0.status == .failed }
        XCTAssertEqual(failed.map(\.row), [5, 12, 19, 26, 33, 40])
        let folder = template.folder.path
        XCTAssertEqual(failed.map { $0.error ?? "" }, [
            "batch.yaml parameters.value: expected a number ≥ 0 and ≤ 100, got \"abc\"",
            "batch.yaml parameters.colour: expected a colour (\"#RRGGBB\", \"#RRGGBBAA\", a name, \"oklch(l c h)\" or [r, g, b, a] in 0…1), got \"notacolour\"",
            "batch.yaml parameters.label: expected at most 10 characters, got \"much too long\"",
            "batch.yaml parameters.image: \"missing.png\" does not exist in \(folder)",
            "batch.yaml parameters.image: \"../escape.png\" leaves the template's folder (\"..\"); assets are files in the template's folder (allow another folder with --allow-assets)",
            "the output name \"r03.gif\" is also row 3's",
        ])
        XCTAssertEqual(failed.map(\.output), ["r05.gif", "r12.gif", "r19.gif", "r26.gif", "r33.gif", nil])
        let rendered = report.items.filter { $0.status == .rendered }
        let names = Set(rendered.compactMap(\.output))
        XCTAssertEqual(names.count, 44)
        XCTAssertEqual(try files(in: out), names)                           // nothing else: no .partial files
        for name in names {
            let head = try FileHandle(forReadingFrom: out.appendingPathComponent(name)).readData(ofLength: 6)
            XCTAssertEqual(String(decoding: head, as: UTF8.self), "GIF89a", name)
        }
        // A row's values reach its picture: row 50 is a full-width bar of its colour.
        let row50 = try template.makeScene(TemplateArguments(text: ["id": "r50", "value": "100", "colour": "#FA80C0"]))
        XCTAssertEqual(try row50.renderFrame(at: 0).pixel(x: 63, y: 20).r, 250)

        // Resume: files that exist are skipped; missing ones are rendered; partial files of a
        // process that is gone are removed, a live process's are left alone.
        try FileManager.default.removeItem(at: out.appendingPathComponent("r07.gif"))
        try FileManager.default.removeItem(at: out.appendingPathComponent("r08.gif"))
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let deadPartial = ".r09.gif.partial-\(gone.processIdentifier)-42", livePartial = ".r10.gif.partial-\(getpid())-7"
        for p in [deadPartial, livePartial] { try Data("x".utf8).write(to: out.appendingPathComponent(p)) }
        var resume = try batchOptions(out)
        resume.resume = true
        let again = BatchRenderer.run(template, rows: rows, options: resume, dataName: "rows.csv")
        XCTAssertEqual([again.rows, again.rendered, again.skipped, again.failed], [50, 2, 42, 6])
        XCTAssertEqual(again.items.filter { $0.status == .rendered }.map(\.row), [7, 8])
        XCTAssertEqual(try files(in: out), names.union([livePartial]))
        try FileManager.default.removeItem(at: out.appendingPathComponent(livePartial))
    }

    func testJSONLinesBatchWithFixedValuesAndAdjustedSize() throws {
        let (root, template, _) = try batchFixture()
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("rows.jsonl")
        try "{\"id\": \"a\", \"value\": 10, \"note\": \"x\"}\nnot json\n{\"id\": \"b\", \"value\": 200, \"note\": \"y\"}\n"
            .write(to: data, atomically: true, encoding: .utf8)
        let rows = try BatchRenderer.rows(contentsOf: data)
        XCTAssertEqual(BatchRenderer.columnsNotParameters(template, rows: rows), ["note"])
        let out = root.appendingPathComponent("out")
        var options = try batchOptions(out)
        options.name = "{{id}}-{{note}}-{{row}}.gif"                        // any column, and the row number
        options.fixed = ["value": "20"]                                      // --set: over every row's own
        options.adjust = { $0.size = [32, 18] }                              // --size
        let report = BatchRenderer.run(template, rows: rows, options: options, dataName: "rows.jsonl")
        XCTAssertEqual([report.rows, report.rendered, report.skipped, report.failed], [3, 2, 0, 1])
        XCTAssertEqual(report.items.map(\.status), [.rendered, .failed, .rendered])
        XCTAssertEqual(report.items.map(\.line), [1, 2, 3])
        XCTAssertEqual(report.items[1].error, "rows.jsonl:2: expected a JSON object on the line")
        XCTAssertEqual(try files(in: out), ["a-x-1.gif", "b-y-3.gif"])
        let head = [UInt8](try Data(contentsOf: out.appendingPathComponent("b-y-3.gif")).prefix(10))
        XCTAssertEqual(head[6...9].map { Int($0) }, [32, 0, 18, 0])         // the logical screen, 32 × 18
        // The report is the JSON `--report` writes.
        let decoded = try JSONDecoder().decode(BatchReport.self, from: try JSONEncoder().encode(report))
        XCTAssertEqual(decoded.items.map(\.output), ["a-x-1.gif", nil, "b-y-3.gif"])
        XCTAssertEqual(decoded.data, "rows.jsonl")
    }

    /// Jobs share the cores unless a number of workers is given (the CLI's --workers): N jobs
    /// must not start a full set of tile workers each.
    func testBatchJobsShareTheCores() {
        XCTAssertEqual(BatchRenderer.workers(perJob: nil, jobs: 1, cores: 8), 8)
        XCTAssertEqual(BatchRenderer.workers(perJob: nil, jobs: 2, cores: 8), 4)
        XCTAssertEqual(BatchRenderer.workers(perJob: nil, jobs: 3, cores: 8), 2)
        XCTAssertEqual(BatchRenderer.workers(perJob: nil, jobs: 2, cores: 2), 1)
        XCTAssertEqual(BatchRenderer.workers(perJob: nil, jobs: 4, cores: 2), 1, "at least one each")
        XCTAssertEqual(BatchRenderer.workers(perJob: 3, jobs: 2, cores: 2), 3, "given: kept")
    }

    /// Each row's encoder: one thread and a lookahead of at most 20 frames whatever the job
    /// count (a shorter one of the preset or the export is kept; nil keeps theirs), and the
    /// automatic job count: one per core, at most one per row, within half the memory available.
    func testBatchEncoderSettingsAndAutomaticJobs() {
        var export = ExportOptions()
        let row = BatchRenderer.rowExport(export, workers: 3, encoderThreads: 1, lookahead: 20)
        XCTAssertEqual([row.render.workers, row.video.encoderThreads, row.video.lookahead], [3, 1, 20])
        XCTAssertEqual(row.video.preset, "medium")
        XCTAssertEqual(row.video.crf, 18)
        export.video.preset = "veryfast"                                  // its own lookahead is 10
        XCTAssertEqual(BatchRenderer.rowExport(export, workers: 1, encoderThreads: 1, lookahead: 20).video.lookahead, 10)
        export.video.preset = "slow"
        XCTAssertEqual(BatchRenderer.rowExport(export, workers: 1, encoderThreads: 2, lookahead: 20).video.lookahead, 20)
        XCTAssertEqual(BatchRenderer.rowExport(export, workers: 1, encoderThreads: 2, lookahead: 20).video.encoderThreads, 2)
        XCTAssertNil(BatchRenderer.rowExport(export, workers: 1, encoderThreads: 1, lookahead: nil).video.lookahead)
        export.video.lookahead = 5
        XCTAssertEqual(BatchRenderer.rowExport(export, workers: 1, encoderThreads: 1, lookahead: 20).video.lookahead, 5)
        XCTAssertEqual(BatchRenderer.rowExport(export, workers: 1, encoderThreads: 1, lookahead: nil).video.lookahead, 5)

        let gib = 1 << 30, perJob = BatchRenderer.bytesPerJob(width: 1920, height: 1080, lookahead: 20)
        // 1080p with a lookahead of 20: measured 321 MiB for one job (Benchmarks/batch.sh).
        XCTAssertEqual(Double(perJob) / Double(1 << 20), 329.6, accuracy: 0.1)
        XCTAssertGreaterThan(BatchRenderer.bytesPerJob(width: 1920, height: 1080, lookahead: 40), perJob + 100 << 20)
        XCTAssertEqual(BatchRenderer.automaticJobs(cores: 2, rows: 4, availableBytes: 16 * gib, bytesPerJob: perJob), 2)
        XCTAssertEqual(BatchRenderer.automaticJobs(cores: 8, rows: 3, availableBytes: 16 * gib, bytesPerJob: perJob), 3, "one per row")
        XCTAssertEqual(BatchRenderer.automaticJobs(cores: 32, rows: 100, availableBytes: 4 * gib, bytesPerJob: perJob), 6, "half of 4 GiB")
        XCTAssertEqual(BatchRenderer.automaticJobs(cores: 4, rows: 100, availableBytes: 0, bytesPerJob: perJob), 1, "at least one")
        XCTAssertEqual(BatchRenderer.automaticJobs(cores: 4, rows: 100, availableBytes: nil, bytesPerJob: perJob), 4, "memory unknown")
        XCTAssertEqual(BatchRenderer.automaticJobs(cores: 4, rows: 0, availableBytes: nil, bytesPerJob: perJob), 1)
    }

    /// The encoder settings reach x264 (its option string in the file says so), and the videos
    /// are the same bytes with one job, two, or the automatic number.
    func testBatchVideosAreTheSameBytesAtAnyJobCount() throws {
        let (root, template, allRows) = try batchFixture()
        defer { try? FileManager.default.removeItem(at: root) }
        let rows = Array(allRows.prefix(3))
        var outputs: [[Data]] = []
        for jobs in [1, 2, nil] as [Int?] {
            var options = try batchOptions(root.appendingPathComponent("jobs-\(jobs.map(String.init) ?? "auto")"))
            options.name = "{{id}}.mp4"
            options.jobs = jobs
            options.adjust = { $0.frameRate = 30; $0.duration = 0.5 }       // keyframes every 60 frames: the lookahead is not cut to them
            let report = BatchRenderer.run(template, rows: rows, options: options, dataName: "rows.csv")
            XCTAssertEqual(report.rendered, 3, "\(report.items.compactMap(\.error))")
            outputs.append(try report.items.map { try Data(contentsOf: options.outputFolder.appendingPathComponent($0.output ?? "")) })
        }
        XCTAssertEqual(outputs[1], outputs[0], "--jobs 2 and --jobs 1")
        XCTAssertEqual(outputs[2], outputs[0], "automatic jobs and --jobs 1")
        let settings = String(decoding: outputs[0][0], as: UTF8.self)
        XCTAssertTrue(settings.contains(" threads=1 "), "x264 options: one thread")
        XCTAssertTrue(settings.contains(" rc_lookahead=20 "), "x264 options: a lookahead of 20")
        XCTAssertTrue(settings.contains(" crf=18.0 ") && settings.contains(" subme=7 "), "medium, CRF 18")
    }

    func testShardsSplitTheRowsAndTogetherMakeTheUnshardedSet() throws {
        let (root, template, rows) = try batchFixture()
        defer { try? FileManager.default.removeItem(at: root) }
        let whole = BatchRenderer.run(template, rows: rows, options: try batchOptions(root.appendingPathComponent("all")), dataName: "rows.csv")
        var shardRows: [[Int]] = [], union = Set<String>(), renderedInShards = 0
        for i in 0..<3 {
            let folder = root.appendingPathComponent("shard\(i)")
            var options = try batchOptions(folder)
            options.shard = (i, 3)
            let report = BatchRenderer.run(template, rows: rows, options: options, dataName: "rows.csv")
            XCTAssertEqual(report.shard, "\(i)/3")
            shardRows.append(report.items.map(\.row))
            let names = try files(in: folder)
            XCTAssertEqual(names, Set(report.items.filter { $0.status == .rendered }.compactMap(\.output)))
            union.formUnion(names)
            renderedInShards += report.rendered
        }
        // Every N-th row, each row in exactly one shard.
        XCTAssertEqual(shardRows[0], Array(stride(from: 1, through: 50, by: 3)))
        XCTAssertEqual(shardRows[1], Array(stride(from: 2, through: 50, by: 3)))
        XCTAssertEqual(shardRows[2], Array(stride(from: 3, through: 50, by: 3)))
        XCTAssertEqual(union, try files(in: root.appendingPathComponent("all")))
        XCTAssertEqual(union.count, whole.rendered)
        // Row 40 repeats row 3's output name: names are claimed over the whole table, so shard 0
        // refuses it just as the whole batch does.
        XCTAssertEqual(renderedInShards, whole.rendered)
    }
}
