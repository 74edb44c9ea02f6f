// Templates, part 2: typed parameters (every type accepted and refused, from text as `--set`
// and CSV rows give it and from JSON as `--data` and JSON Lines give it; limits, required and
// unknown names; declarations), the asset sandbox (`..`, absolute paths, links that lead out,
// allowed folders), and the data files (CSV, JSON Lines, SubRip, WebVTT) with their errors.
import XCTest
@testable import Strata

extension TemplateTests {
    // MARK: Helpers

    /// A folder holding `p.yaml` with one parameter of each kind.
    func parameterTemplate() throws -> (Template, URL) {
        let dir = try temporaryFolder()
        let yaml = """
        size: [64, 36]
        duration: 1
        parameters:
          - {name: title, type: string, default: Hello, minLength: 2, maxLength: 5}
          - {name: count, type: integer, default: 3, min: 1, max: 10}
          - {name: ratio, type: number, default: 0.5, min: 0, max: 1}
          - {name: free, type: number, default: 0}
          - {name: flag, type: boolean, default: false}
          - {name: tint, type: color, default: "#FF0000"}
          - {name: align, type: enum, values: [left, center, right], default: left}
          - {name: tags, type: list, default: []}
          - {name: nums, type: list, items: number, default: [1], min: 0, max: 100, maxLength: 3}
          - {name: picture, type: image, default: ""}
          - {name: table, type: csv, default: ""}
          - {name: needed, type: string, description: Must be given}
        layers: []
        """
        try yaml.write(to: dir.appendingPathComponent("p.yaml"), atomically: true, encoding: .utf8)
        return (try Template(contentsOf: dir.appendingPathComponent("p.yaml")), dir)
    }

    /// The checked values for `text` (as --set gives them) and `json` (as --data gives it).
    func parameterValues(_ template: Template, text: [String: String] = [:], json: String? = nil) throws -> [String: TemplateValue] {
        var arguments = TemplateArguments(text: text)
        if let json { try arguments.addJSON(Data(json.utf8), file: "row.json") }
        return try template.values(arguments, files: AssetResolver(folder: template.folder))
    }

    /// The value of `name` given as text.
    func fromText(_ template: Template, _ name: String, _ value: String) throws -> TemplateValue? {
        try parameterValues(template, text: [name: value, "needed": "x"])[name]
    }

    /// The value of `name` given as JSON.
    func fromJSON(_ template: Template, _ name: String, _ json: String) throws -> TemplateValue? {
        try parameterValues(template, text: ["needed": "x"], json: "{\"\(name)\": \(json)}")[name]
    }

    /// The error lines of giving `text` and `json`.
    func parameterErrors(_ template: Template, text: [String: String] = ["needed": "x"], json: String? = nil,
                         file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do {
            _ = try parameterValues(template, text: text, json: json)
            XCTFail("no error for \(text) \(json ?? "")", file: file, line: line)
            return []
        } catch {
            return "\(error)".components(separatedBy: "\n")
        }
    }

    // MARK: Parameters

    func testStringIntegerAndNumberParameters() throws {
        let (t, dir) = try parameterTemplate()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Defaults, as written in the template.
        let defaults = try parameterValues(t, text: ["needed": "x"])
        XCTAssertEqual(defaults["title"], .string("Hello"))
        XCTAssertEqual(defaults["count"], .number(3))
        XCTAssertEqual(defaults["nums"], list([1]))
        XCTAssertEqual(defaults["picture"], .string(""))                    // an empty path: no asset
        XCTAssertEqual(defaults["table"], .null)                             // no data file
        XCTAssertEqual(try fromText(t, "title", "Hi"), .string("Hi"))
        XCTAssertEqual(try fromText(t, "title", "12"), .string("12"))      // text stays text
        XCTAssertEqual(try fromJSON(t, "title", "\"Yo\""), .string("Yo"))
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "title": "Greetings"]),
                       ["p.yaml parameters.title: expected at most 5 characters, got \"Greetings\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "title": "H"]),
                       ["p.yaml parameters.title: expected at least 2 characters, got \"H\""])
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"title\": 5}"),
                       ["p.yaml parameters.title: expected text, got \"5\""])
        XCTAssertEqual(try fromText(t, "count", "7"), .number(7))
        XCTAssertEqual(try fromText(t, "count", " 10 "), .number(10))
        XCTAssertEqual(try fromJSON(t, "count", "4"), .number(4))
        XCTAssertEqual(try fromText(t, "ratio", "0.25"), .number(0.25))
        XCTAssertEqual(try fromText(t, "free", "-1e3"), .number(-1000))
        XCTAssertEqual(try fromJSON(t, "free", "2.5"), .number(2.5))
        let count = "p.yaml parameters.count: expected a whole number ≥ 1 and ≤ 10, got "
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "count": "3.5"]), [count + "\"3.5\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "count": "11"]), [count + "\"11\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "count": "0"]), [count + "\"0\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "count": "three"]), [count + "\"three\""])
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"count\": \"4\"}"), [count + "\"4\""])  // JSON text is not a number
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "ratio": "1.5"]),
                       ["p.yaml parameters.ratio: expected a number ≥ 0 and ≤ 1, got \"1.5\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "free": "abc"]), ["p.yaml parameters.free: expected a number, got \"abc\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "free": "nan"]), ["p.yaml parameters.free: expected a number, got \"nan\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "free": "inf"]), ["p.yaml parameters.free: expected a number, got \"inf\""])
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"free\": true}"), ["p.yaml parameters.free: expected a number, got \"true\""])
    }

    func testBooleanEnumAndColourParameters() throws {
        let (t, dir) = try parameterTemplate()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (text, value) in [("true", true), ("YES", true), ("1", true), ("False", false), ("no", false), ("0", false)] {
            XCTAssertEqual(try fromText(t, "flag", text), .bool(value), text)
        }
        XCTAssertEqual(try fromJSON(t, "flag", "true"), .bool(true))
        let flag = "p.yaml parameters.flag: expected true or false, got "
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "flag": "maybe"]), [flag + "\"maybe\""])
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"flag\": \"true\"}"), [flag + "\"true\""])
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"flag\": 1}"), [flag + "\"1\""])

        XCTAssertEqual(try fromText(t, "align", "center"), .string("center"))
        XCTAssertEqual(try fromJSON(t, "align", "\"right\""), .string("right"))
        let align = "p.yaml parameters.align: expected one of \"left\", \"center\", \"right\", got "
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "align": "Center"]), [align + "\"Center\""])
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"align\": 1}"), [align + "\"1\""])

        for text in ["#FF0000", "#f00", "#FF000080", "red", "RED", "gold", "oklch(0.7 0.1 200)", "oklch(0.7, 0.1, 200, 0.5)"] {
            XCTAssertEqual(try fromText(t, "tint", text), .string(text), text)   // kept as written
        }
        XCTAssertEqual(try fromJSON(t, "tint", "[1, 0, 0]"), list([1, 0, 0]))
        XCTAssertEqual(try fromJSON(t, "tint", "[1, 0, 0, 0.5]"), list([1, 0, 0, 0.5]))
        let colour = "p.yaml parameters.tint: expected a colour (\"#RRGGBB\", \"#RRGGBBAA\", a name, \"oklch(l c h)\" or [r, g, b, a] in 0…1), got "
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "tint": "nope"]), [colour + "\"nope\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "tint": "#GG0000"]), [colour + "\"#GG0000\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "tint": "#12345"]), [colour + "\"#12345\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "tint": "1, 0, 0"]), [colour + "\"1, 0, 0\""])
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"tint\": [1, 0]}"), [colour + "\"1, 0\""])
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"tint\": [\"a\", 0, 0]}"), [colour + "\"a, 0, 0\""])
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"tint\": 5}"), ["p.yaml parameters.tint: expected a colour, got \"5\""])
    }

    func testListParameters() throws {
        let (t, dir) = try parameterTemplate()
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertEqual(try fromText(t, "tags", "a, b"), strings(["a", "b"]))
        XCTAssertEqual(try fromText(t, "tags", "solo"), strings(["solo"]))
        XCTAssertEqual(try fromText(t, "tags", ""), strings([]))
        XCTAssertEqual(try fromText(t, "tags", "[\"x, y\", \"z\"]"), strings(["x, y", "z"]))  // JSON text keeps commas
        XCTAssertEqual(try fromText(t, "tags", "[1, true, \"b\"]"), strings(["1", "true", "b"]))
        XCTAssertEqual(try fromJSON(t, "tags", "[\"p\", \"q\"]"), strings(["p", "q"]))
        XCTAssertEqual(try fromText(t, "nums", "[1,2]"), list([1, 2]))
        XCTAssertEqual(try fromText(t, "nums", "1, 2.5"), list([1, 2.5]))
        XCTAssertEqual(try fromText(t, "nums", "[\"3\"]"), list([3]))       // text items convert, as from --set
        XCTAssertEqual(try fromJSON(t, "nums", "[1, 2]"), list([1, 2]))
        let nums = "p.yaml parameters.nums: expected "
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "nums": "1, x"]), [nums + "a number ≥ 0 and ≤ 100, got \"x\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "nums": "5, 200"]), [nums + "a number ≥ 0 and ≤ 100, got \"200\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "nums": "[1,2,3,4]"]), [nums + "at most 3 items, got \"[1,2,3,4]\""])
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "nums": "[1, 2"]), [nums + "a number ≥ 0 and ≤ 100, got \"[1\""])  // not JSON: split at commas
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"nums\": [\"1\"]}"), [nums + "a number ≥ 0 and ≤ 100, got \"1\""])
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"nums\": \"1,2\"}"), [nums + "a list, got \"1,2\""])
        XCTAssertEqual(parameterErrors(t, json: "{\"needed\": \"x\", \"tags\": {\"a\": 1}}"), ["p.yaml parameters.tags: expected a list, got \"[object]\""])
    }

    func testRequiredUnknownAndSeveralErrors() throws {
        let (t, dir) = try parameterTemplate()
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertEqual(parameterErrors(t, text: [:]),
                       ["p.yaml parameters.needed: a value is required (needed (string, required): Must be given)"])
        let names = "title, count, ratio, free, flag, tint, align, tags, nums, picture, table, needed"
        XCTAssertEqual(parameterErrors(t, text: ["needed": "x", "colour": "red"]),
                       ["p.yaml parameters: unknown parameter \"colour\" (parameters: \(names))"])
        // Every problem at once, unknown names first, then in declaration order; text over JSON.
        XCTAssertEqual(parameterErrors(t, text: ["zeta": "1", "count": "99", "flag": "true"], json: "{\"alpha\": 1, \"flag\": \"bad\", \"ratio\": -1}"), [
            "p.yaml parameters: unknown parameter \"alpha\" (parameters: \(names))",
            "p.yaml parameters: unknown parameter \"zeta\" (parameters: \(names))",
            "p.yaml parameters.count: expected a whole number ≥ 1 and ≤ 10, got \"99\"",
            "p.yaml parameters.ratio: expected a number ≥ 0 and ≤ 1, got \"-1\"",
            "p.yaml parameters.needed: a value is required (needed (string, required): Must be given)",
        ])
        var arguments = TemplateArguments()
        XCTAssertThrowsError(try arguments.addJSON(Data("[1]".utf8), file: "row.json")) {
            XCTAssertEqual("\($0)", "row.json: expected a JSON object of parameter values")
        }
        XCTAssertEqual(t.parameters.map(\.summary)[0...2], [
            "title (string, default Hello, at least 2 characters, at most 5 characters)",
            "count (integer, default 3, ≥ 1, ≤ 10)",
            "ratio (number, default 0.5, ≥ 0, ≤ 1)",
        ])
    }

    func testParameterDeclarationErrors() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        func error(_ parameters: String) -> String {
            let url = dir.appendingPathComponent("d.yaml")
            try? "size: [64, 36]\nduration: 1\nparameters:\n\(parameters)\n".write(to: url, atomically: true, encoding: .utf8)
            do { _ = try Template(contentsOf: url); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(error("  - {name: x, type: text}"),
                       "d.yaml:4 parameters[0]: unknown parameter type \"text\" (expected string, number, integer, boolean, color, enum, image, video, audio, file, list, csv, json, captions)")
        XCTAssertEqual(error("  - name: x\n    maximum: 3"),
                       "d.yaml:5 parameters[0]: unknown key \"maximum\" (expected default, description, items, max, maxLength, min, minLength, name, type, values)")
        XCTAssertEqual(error("  - {name: 2x}"), "d.yaml:4 parameters[0]: a parameter needs a \"name\" made of letters, digits and _ (not starting with a digit)")
        XCTAssertEqual(error("  - {type: number}"), "d.yaml:4 parameters[0]: a parameter needs a \"name\" made of letters, digits and _ (not starting with a digit)")
        XCTAssertEqual(error("  - {name: e, type: enum}"), "d.yaml:4 parameters[0]: an enum parameter needs \"values\"")
        XCTAssertEqual(error("  - {name: e, type: enum, values: []}"), "d.yaml:4 parameters[0]: \"values\" must be a list of strings")
        XCTAssertEqual(error("  - {name: l, type: list, items: image}"),
                       "d.yaml:4 parameters[0]: \"items\" must be a simple type (string, number, integer, boolean, color, enum)")
        XCTAssertEqual(error("  - {name: m, type: number, min: low}"), "d.yaml:4 parameters[0]: \"min\" must be a number")
        XCTAssertEqual(error("  - {name: x}\n  - {name: y}\n  - {name: x}"), "d.yaml:6 parameters[2]: the parameter \"x\" is declared twice")
        XCTAssertEqual(error("  name: x"), "d.yaml:4 parameters: expected a list of parameters")
    }

    // MARK: Assets

    func testAssetSandbox() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        let folder = root.appendingPathComponent("tpl"), outside = root.appendingPathComponent("outside")
        let sibling = root.appendingPathComponent("tpl2")
        for d in [folder.appendingPathComponent("sub"), outside, sibling] { try fm.createDirectory(at: d, withIntermediateDirectories: true) }
        for f in [folder.appendingPathComponent("a.png"), folder.appendingPathComponent("sub/b.png"),
                  outside.appendingPathComponent("secret.png"), sibling.appendingPathComponent("c.png")] {
            try Data("x".utf8).write(to: f)
        }
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("link-out.png").path, withDestinationPath: "../outside/secret.png")
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("link-in.png").path, withDestinationPath: "sub/b.png")
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("dir-out").path, withDestinationPath: outside.path)

        let sandbox = AssetResolver(folder: folder)
        func refusal(_ r: AssetResolver, _ path: String) -> String {
            do { return "resolved to \(try r.resolve(path).path)" } catch { return "\(error)" }
        }
        XCTAssertEqual(try sandbox.resolve("a.png").path, folder.appendingPathComponent("a.png").path)
        XCTAssertEqual(try sandbox.resolve("sub/b.png").path, folder.appendingPathComponent("sub/b.png").path)
        XCTAssertEqual(try sandbox.resolve("./sub/b.png").path, folder.appendingPathComponent("sub/b.png").path)
        XCTAssertEqual(try sandbox.resolve("link-in.png").path, folder.appendingPathComponent("sub/b.png").path)  // a link that stays in
        let dots = "leaves the template's folder (\"..\"); assets are files in the template's folder (allow another folder with --allow-assets)"
        XCTAssertEqual(refusal(sandbox, "../outside/secret.png"), "\"../outside/secret.png\" \(dots)")
        XCTAssertEqual(refusal(sandbox, "sub/../a.png"), "\"sub/../a.png\" \(dots)")       // even when it comes back
        XCTAssertEqual(refusal(sandbox, outside.appendingPathComponent("secret.png").path),
                       "\"\(outside.path)/secret.png\" is an absolute path: assets are files in the template's folder (allow another folder with --allow-assets)")
        let link = "leads outside the template's folder (through a link or ..); allow its folder with --allow-assets"
        XCTAssertEqual(refusal(sandbox, "link-out.png"), "\"link-out.png\" \(link)")
        XCTAssertEqual(refusal(sandbox, "dir-out/secret.png"), "\"dir-out/secret.png\" \(link)")
        XCTAssertEqual(refusal(sandbox, "missing.png"), "\"missing.png\" does not exist in \(folder.path)")
        XCTAssertEqual(refusal(sandbox, "sub"), "\"sub\" does not exist in \(folder.path)")  // a folder is not a file

        // An allowed folder admits its files, by any route; other places stay closed.
        let allowed = AssetResolver(folder: folder, allowed: [outside])
        let secret = outside.appendingPathComponent("secret.png").path
        XCTAssertEqual(try allowed.resolve("link-out.png").path, secret)
        XCTAssertEqual(try allowed.resolve("dir-out/secret.png").path, secret)
        XCTAssertEqual(try allowed.resolve("../outside/secret.png").path, secret)
        XCTAssertEqual(try allowed.resolve(secret).path, secret)
        XCTAssertEqual(try allowed.resolve("a.png").path, folder.appendingPathComponent("a.png").path)
        XCTAssertEqual(refusal(allowed, "../tpl2/c.png"), "\"../tpl2/c.png\" \(link)")     // "tpl2" is not inside "tpl"
        XCTAssertEqual(refusal(allowed, sibling.appendingPathComponent("c.png").path), "\"\(sibling.path)/c.png\" \(link)")

        // Through a template's parameters: the error names the parameter; an empty path is no asset.
        let yaml = "size: [64, 36]\nduration: 1\nparameters:\n  - {name: logo, type: image, default: \"\"}\nlayers: []\n"
        try yaml.write(to: folder.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        let t = try Template(contentsOf: folder.appendingPathComponent("t.yaml"))
        XCTAssertEqual(try t.values(TemplateArguments(), files: sandbox)["logo"], .string(""))
        XCTAssertEqual(try t.values(TemplateArguments(text: ["logo": "sub/b.png"]), files: sandbox)["logo"], .string("sub/b.png"))
        XCTAssertThrowsError(try t.values(TemplateArguments(text: ["logo": "link-out.png"]), files: sandbox)) {
            XCTAssertEqual("\($0)", "t.yaml parameters.logo: \"link-out.png\" \(link)")
        }
        XCTAssertEqual(try t.values(TemplateArguments(text: ["logo": "link-out.png"]), files: allowed)["logo"], .string("link-out.png"))
        // makeScene's allowAssets reaches the same resolver.
        XCTAssertThrowsError(try t.makeScene(TemplateArguments(text: ["logo": "../outside/secret.png"]))) {
            XCTAssertEqual("\($0)", "t.yaml parameters.logo: \"../outside/secret.png\" \(dots)")
        }
        XCTAssertNoThrow(try t.makeScene(TemplateArguments(text: ["logo": "../outside/secret.png"]), allowAssets: [outside]))
    }

    // MARK: Data files

    func testCSV() throws {
        let text = "name,quote,n\r\n\"Smith, J.\",\"He said \"\"hi\"\"\nthen left\",3\r\n\r\nplain,,4\r\nlast,\"\", 5 "
        let rows = try DataFiles.csv(text, file: "f.csv")
        XCTAssertEqual(rows.map(\.line), [2, 5, 6])                         // the quoted line break counts
        XCTAssertEqual(rows[0].fields, ["name": "Smith, J.", "quote": "He said \"hi\"\nthen left", "n": "3"])
        XCTAssertEqual(rows[1].fields, ["name": "plain", "quote": "", "n": "4"])
        XCTAssertEqual(rows[2].fields, ["name": "last", "quote": "", "n": " 5 "])  // no final line break needed
        // A line break inside quotes is kept as written (CR LF too), and counted.
        let kept = try DataFiles.csv("a\r\n\"x\r\ny\"\r\nz\r\n", file: "f.csv")
        XCTAssertEqual(kept.map(\.fields), [["a": "x\r\ny"], ["a": "z"]])
        XCTAssertEqual(kept.map(\.line), [2, 4])
        // As a table parameter: decimal fields become numbers; identifiers that only parse as
        // numbers (leading zeros, hex, inf) stay text.
        XCTAssertEqual(try DataFiles.csvTable("id,v,w,h,i,z\n007,1e3, 2 ,0x10,inf,0.5\n", file: "f.csv"),
                       .list([.object(["id": .string("007"), "v": .number(1000), "w": .number(2), "h": .string("0x10"),
                                       "i": .string("inf"), "z": .number(0.5)])]))
        // A byte order mark and CRLF line ends are read as the same file.
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("bom.csv")
        try Data(([0xEF, 0xBB, 0xBF] as [UInt8]) + Array("id,v\r\na,1\r\n".utf8)).write(to: url)
        let read = try DataFiles.csv(try DataFiles.text(of: url), file: "bom.csv")
        XCTAssertEqual(read.map(\.fields), [["id": "a", "v": "1"]])
        let batchRows = try BatchRenderer.rows(contentsOf: url)
        XCTAssertEqual(batchRows.map(\.fields), [["id": .string("a"), "v": .string("1")]])

        func error(_ text: String) -> String {
            do { return "no error: \(try DataFiles.csv(text, file: "f.csv"))" } catch { return "\(error)" }
        }
        XCTAssertEqual(error("a,b\n1,2\n3\n"), "f.csv:3: expected 2 fields (a, b), found 1")
        XCTAssertEqual(error("a,b\n1,2,3\n"), "f.csv:2: expected 2 fields (a, b), found 3")
        XCTAssertEqual(error("a,b\n1,x\"y\n"), "f.csv:2: a quote inside an unquoted field (quote the whole field and double the quote)")
        XCTAssertEqual(error("a,b\n\"1\"x,2\n"), "f.csv:2: text after a closing quote (expected a comma or a line break)")
        XCTAssertEqual(error("a,b\n1,2\n\"open,3\n4,5\n"), "f.csv:3: a quoted field is not closed")
        XCTAssertEqual(error("a,b,a\n"), "f.csv:1: the column \"a\" appears twice")
        XCTAssertEqual(error(""), "f.csv: no header row")
        // A batch keeps a ragged row with its problem and reads the rest.
        let ragged = dir.appendingPathComponent("rows.csv")
        try "id,v\na,1\nb\nc,3\n".write(to: ragged, atomically: true, encoding: .utf8)
        let mixed = try BatchRenderer.rows(contentsOf: ragged)
        XCTAssertEqual(mixed.map(\.line), [2, 3, 4])
        XCTAssertEqual(mixed.map(\.problem), [nil, "rows.csv:3: expected 2 fields (id, v), found 1", nil])
    }

    func testJSONLines() throws {
        let text = "{\"id\": \"a\", \"v\": 1}\n\n  {\"id\": \"b\", \"v\": [1, 2], \"ok\": true}\r\n"
        let rows = try DataFiles.jsonLines(text, file: "r.jsonl")
        XCTAssertEqual(rows.map(\.line), [1, 3])
        XCTAssertEqual(rows.map(\.value), [.object(["id": .string("a"), "v": .number(1)]),
                                            .object(["id": .string("b"), "v": list([1, 2]), "ok": .bool(true)])])
        func error(_ text: String) -> String {
            do { return "no error: \(try DataFiles.jsonLines(text, file: "r.jsonl"))" } catch { return "\(error)" }
        }
        XCTAssertEqual(error("{\"a\": 1}\n{\"a\": \n{\"a\": 3}\n"), "r.jsonl:2: expected a JSON object on the line")
        XCTAssertEqual(error("{\"a\": 1}\n\n[1, 2]\n"), "r.jsonl:3: expected a JSON object on the line")
        // A batch keeps the bad line as a failed row.
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("rows.jsonl")
        try "{\"id\": \"a\"}\nnot json\n{\"id\": \"c\"}\n".write(to: url, atomically: true, encoding: .utf8)
        let batch = try BatchRenderer.rows(contentsOf: url)
        XCTAssertEqual(batch.map(\.number), [1, 2, 3])
        XCTAssertEqual(batch.map(\.problem), [nil, "rows.jsonl:2: expected a JSON object on the line", nil])
        XCTAssertEqual(batch[2].fields, ["id": .string("c")])
    }

    func testCaptions() throws {
        let srt = """
        1
        00:00:01,000 --> 00:00:02,500
        Hello <b>world</b>

        2
        01:02:03,250 --> 01:02:04,000
        Two
        lines

        """
        XCTAssertEqual(try DataFiles.captions(srt.replacingOccurrences(of: "\n", with: "\r\n"), file: "c.srt"), .list([
            .object(["start": .number(1), "end": .number(2.5), "text": .string("Hello world")]),
            .object(["start": .number(3723.25), "end": .number(3724), "text": .string("Two\nlines")]),
        ]))
        let vtt = """
        WEBVTT

        00:01.500 --> 00:02.000 align:start position:10%
        First

        cue-id
        00:00:03.000 --> 00:00:04.250
        <v Ada>Second</v>
        """
        XCTAssertEqual(try DataFiles.captions(vtt, file: "c.vtt"), .list([
            .object(["start": .number(1.5), "end": .number(2), "text": .string("First")]),
            .object(["start": .number(3), "end": .number(4.25), "text": .string("Second")]),
        ]))
        XCTAssertEqual(DataFiles.timecode("10:00:00.125"), 36000.125)
        XCTAssertEqual(DataFiles.timecode("00:00:01,5"), 1.5)
        XCTAssertNil(DataFiles.timecode("1:2:3:4"))
        XCTAssertNil(DataFiles.timecode("5"))
        func error(_ text: String) -> String {
            do { return "no error: \(try DataFiles.captions(text, file: "c.srt"))" } catch { return "\(error)" }
        }
        XCTAssertEqual(error("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03,000 --> soon\nbad\n"),
                       "c.srt:6: expected a cue time \"00:00:01,000 --> 00:00:02,500\"")
        XCTAssertEqual(error("1\n00:00:01,000 --> 00:00:02,000 --> 00:00:03,000\nx\n"),
                       "c.srt:2: expected a cue time \"00:00:01,000 --> 00:00:02,500\"")
        XCTAssertEqual(error("1\n00:00:05,000 --> 00:00:02,000\nbackwards\n"), "c.srt:2: the cue ends before it starts")
        XCTAssertEqual(error("just text\n"), "c.srt: no captions found (expected SubRip or WebVTT cues)")
        // As a parameter: a file in the template's folder, read into cues.
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try vtt.write(to: dir.appendingPathComponent("subs.vtt"), atomically: true, encoding: .utf8)
        try "size: [64, 36]\nduration: 1\nparameters: [{name: subs, type: captions}]\nlayers: []\n"
            .write(to: dir.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        let t = try Template(contentsOf: dir.appendingPathComponent("t.yaml"))
        let cues = try t.values(TemplateArguments(text: ["subs": "subs.vtt"]), files: AssetResolver(folder: dir))["subs"]
        XCTAssertEqual(cues, try DataFiles.captions(vtt, file: "subs.vtt"))
        try "WEBVTT\n\n00:01.000 --> 00:xx.000\nx\n".write(to: dir.appendingPathComponent("bad.vtt"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try t.values(TemplateArguments(text: ["subs": "bad.vtt"]), files: AssetResolver(folder: dir))) {
            XCTAssertEqual("\($0)", "t.yaml parameters.subs: bad.vtt:3: expected a cue time \"00:00:01,000 --> 00:00:02,500\"")
        }
    }
}
