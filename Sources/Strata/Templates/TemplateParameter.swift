// A template's parameters: typed (string, number, integer, boolean, colour, enum, image, video,
// audio, file, list, csv, json, captions), with defaults, descriptions and limits. Values come as
// text (`--set key=value`, CSV fields) or JSON (`--data row.json`, JSON Lines rows) and are
// checked against the type: a bad value names the parameter and what was expected. Paths are
// files in the template's folder — never outside it (no absolute paths, no `..`, no symbolic
// links that lead out) unless a folder is explicitly allowed.
import Foundation
import StrataCore

/// One parameter a template takes.
public struct TemplateParameter: Sendable, CustomStringConvertible {
    /// The type of a parameter, as a template's `type:` names it.
    public enum Kind: String, Sendable, CaseIterable {
        /// Text, within `minLength`…`maxLength` characters when given.
        case string
        /// A finite number, within `min`…`max` when given.
        case number
        /// A whole number, within `min`…`max` when given.
        case integer
        /// `true` or `false` (as text also `yes`/`no`, `1`/`0`).
        case boolean
        /// A colour in any form a colour property takes (`"#FF8800"`, a name, `[r, g, b, a]`);
        /// an empty value means "not set".
        case color
        /// One of the strings listed in `values`.
        case `enum`
        /// The path of an image file in the template's folder.
        case image
        /// The path of a video file in the template's folder.
        case video
        /// The path of an audio file in the template's folder.
        case audio
        /// The path of any file in the template's folder.
        case file
        /// A list of `items` (strings by default): a JSON array, or as text comma-separated
        /// values; `minLength`/`maxLength` count items.
        case list
        /// The path of a CSV file in the template's folder, read as a table whose first row names
        /// the columns.
        case csv
        /// The path of a JSON file in the template's folder, read as its value.
        case json
        /// The path of a SubRip (`.srt`) or WebVTT (`.vtt`) file in the template's folder, read as
        /// timed cues.
        case captions

        var isPath: Bool { [.image, .video, .audio, .file, .csv, .json, .captions].contains(self) }
    }

    /// The parameter's name: the key of `--set NAME=value`, a CSV column, a JSON field, and
    /// the variable of `{{NAME}}` expressions in the template.
    public let name: String
    /// The parameter's type, which decides how values are read and checked.
    public let kind: Kind
    /// What the parameter is for.
    public let help: String?
    /// The default, as written in the template (nil: the parameter is required).
    let defaultValue: TemplateValue?
    /// The smallest value a number or integer may take (`min:`), or, for a list, the smallest
    /// value its numeric items may take.
    public let minimum: Double?
    /// The largest value a number or integer may take (`max:`), or, for a list, of its numeric items.
    public let maximum: Double?
    /// The fewest characters of a string, or items of a list (`minLength:`).
    public let minLength: Int?
    /// The most characters of a string, or items of a list (`maxLength:`).
    public let maxLength: Int?
    /// The allowed values of an enum.
    public let values: [String]?
    /// The kind of a list's items (default: string).
    public let items: Kind?

    /// "name (string, default "x"): description".
    public var summary: String {
        var s = "\(name) (\(kind.rawValue)"
        if let values { s += ": " + values.joined(separator: "|") }
        if let text = defaultText { s += ", default \(text.isEmpty ? "\"\"" : text)" } else { s += ", required" }
        if let minimum { s += ", ≥ \(TemplateValue.number(minimum).text)" }
        if let maximum { s += ", ≤ \(TemplateValue.number(maximum).text)" }
        // A list's lengths count its items, a text's its characters.
        let unit = kind == .list ? "items" : "characters"
        if let minLength, minLength > 0 { s += ", at least \(minLength) \(unit)" }
        if let maxLength { s += ", at most \(maxLength) \(unit)" }
        return s + ")" + (help.map { ": " + $0 } ?? "")
    }

    public var description: String { summary }

    /// Reads the declaration at `path` of a template.
    init(_ node: TemplateNode, path: String, file: String) throws {
        func fail(_ message: String, _ n: TemplateNode? = nil) -> TemplateError {
            TemplateError(file: file, line: (n ?? node).line, path: path, message: message)
        }
        guard case .object(let members) = node.value else { throw fail("expected a parameter {name, type, default, description}") }
        let known: Set<String> = ["name", "type", "default", "description", "min", "max", "minLength", "maxLength", "values", "items"]
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw fail("unknown key \"\(unknown.key)\"\(NearestName.didYouMean(unknown.key, among: known))(expected \(known.sorted().joined(separator: ", ")))", unknown.node)
        }
        guard let name = node["name"]?.string, !name.isEmpty,
              name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !(name.first?.isNumber ?? true) else {
            throw fail("a parameter needs a \"name\" made of letters, digits and _ (not starting with a digit)")
        }
        self.name = name
        let typeName = node["type"]?.string ?? "string"
        guard let kind = Kind(rawValue: typeName) else {
            throw fail("unknown parameter type \"\(typeName)\" (expected \(Kind.allCases.map(\.rawValue).joined(separator: ", ")))", node["type"])
        }
        self.kind = kind
        help = node["description"]?.string
        func number(_ key: String) throws -> Double? {
            guard let n = node[key] else { return nil }
            guard case .number(let v) = n.value else { throw fail("\"\(key)\" must be a number", n) }
            return v
        }
        minimum = try number("min")
        maximum = try number("max")
        // A length is a whole number ≥ 0, read as a double first (Int(1e300) would trap); one
        // past 1e15 limits nothing more, so it is kept at 1e15.
        func length(_ key: String) throws -> Int? {
            guard let v = try number(key) else { return nil }
            guard v == v.rounded(), v >= 0 else { throw fail("\"\(key)\" must be a whole number ≥ 0", node[key]) }
            return Int(min(v, 1e15))
        }
        minLength = try length("minLength")
        maxLength = try length("maxLength")
        if let v = node["values"] {
            guard case .array(let a) = v.value, !a.isEmpty, a.allSatisfy({ $0.string != nil }) else {
                throw fail("\"values\" must be a list of strings", v)
            }
            values = a.compactMap(\.string)
        } else {
            values = nil
        }
        if kind == .enum && values == nil { throw fail("an enum parameter needs \"values\"") }
        if let i = node["items"] {
            guard let k = i.string.flatMap(Kind.init), !k.isPath, k != .list else {
                throw fail("\"items\" must be a simple type (string, number, integer, boolean, color, enum)", i)
            }
            items = k
        } else {
            items = nil
        }
        defaultValue = node["default"].map(TemplateValue.init)
    }

    /// Checks a JSON-shaped value (or text from the command line / a CSV field, when `text`) and
    /// returns it as an expression value; paths are resolved and data files read.
    func check(_ raw: TemplateValue, fromText: Bool, files: AssetResolver) throws -> TemplateValue {
        func fail(_ expected: String) -> ExpressionError {
            ExpressionError(message: "expected \(expected), got \(raw == .null ? "nothing" : "\"\(Echo.text(raw.text))\"")")
        }
        switch kind {
        case .string:
            // Text converts: a number or boolean of a list written as JSON (`--set tags='[1, 2]'`)
            // is its text.
            let s: String
            switch raw {
            case .string(let t): s = t
            case .number, .bool:
                guard fromText else { throw fail("text") }
                s = raw.text
            default: throw fail("text")
            }
            // A character holds at most `characterScalars` scalars, so that maxLength bounds
            // what the text costs (a letter and 100 000 accents is one character).
            let cost = TextCost(s)
            if cost.longestCharacter > files.limits.characterScalars {
                throw ExpressionError(message: files.limits.exceededMessage(
                    "a character of \(cost.longestCharacter) Unicode scalars (a letter with \(cost.longestCharacter - 1) accents or joined marks)",
                    name: "character-scalars"))
            }
            if let minLength, s.count < minLength { throw fail("at least \(minLength) characters") }
            if let maxLength, s.count > maxLength { throw fail("at most \(maxLength) characters") }
            return .string(s)
        case .number, .integer:
            let n: Double
            switch raw {
            case .number(let v): n = v
            case .string(let s) where fromText: guard let v = Double(s.trimmingCharacters(in: .whitespaces)) else { throw fail(numberExpectation) }; n = v
            default: throw fail(numberExpectation)
            }
            guard n.isFinite else { throw fail(numberExpectation) }
            if kind == .integer, n != n.rounded() { throw fail(numberExpectation) }
            if let minimum, n < minimum { throw fail(numberExpectation) }
            if let maximum, n > maximum { throw fail(numberExpectation) }
            return .number(n)
        case .boolean:
            if case .bool = raw { return raw }
            if fromText, case .string(let s) = raw {
                switch s.lowercased() {
                case "true", "yes", "1": return .bool(true)
                case "false", "no", "0": return .bool(false)
                default: break
                }
            }
            throw fail("true or false")
        case .color:
            let value: PropertyValue
            switch raw {
            case .string(let s): value = .string(s)
            case .list(let l): value = .array(l.map { if case .number(let n) = $0 { return .number(n) }; return .string($0.text) })
            default: throw fail("a colour")
            }
            // An empty colour is "not set" (a terminal node's theme colours then stay the theme's).
            if value == .string("") { return raw }
            guard (try? PropertyDecoding.color(value)) != nil else { throw fail(ValueKind.color.expectation) }
            return raw
        case .enum:
            guard case .string(let s) = raw, values?.contains(s) == true else {
                throw fail("one of " + (values ?? []).map { "\"\($0)\"" }.joined(separator: ", "))
            }
            return raw
        case .list:
            var list: [TemplateValue]
            switch raw {
            case .list(let l): list = l
            case .string(let s) where fromText:
                if s.hasPrefix("["), let data = s.data(using: .utf8), let any = try? JSONSerialization.jsonObject(with: data), any is [Any] {
                    guard case .list(let l) = try DataFiles.value(any, limits: files.limits) else { throw fail("a list") }
                    list = l
                } else {
                    list = s.isEmpty ? [] : s.components(separatedBy: ",").map { .string($0.trimmingCharacters(in: .whitespaces)) }
                }
            default: throw fail("a list")
            }
            let itemParameter = TemplateParameter(itemOf: self)
            list = try list.map { try itemParameter.check($0, fromText: fromText, files: files) }
            if let minLength, list.count < minLength { throw fail("at least \(minLength) items") }
            if let maxLength, list.count > maxLength { throw fail("at most \(maxLength) items") }
            return .list(list)
        case .image, .video, .audio, .file, .csv, .json, .captions:
            guard case .string(let path) = raw else { throw fail("the path of a file in the template's folder") }
            // An empty path is "no file" (an optional asset).
            if path.isEmpty { return [.csv, .json, .captions].contains(kind) ? .null : .string("") }
            let url = try files.resolve(path)
            switch kind {
            case .csv: return try DataFiles.csvTable(try DataFiles.text(of: url, limits: files.limits), file: path, limits: files.limits)
            case .captions: return try DataFiles.captions(try DataFiles.text(of: url, limits: files.limits), file: path)
            case .json:
                let text = try DataFiles.text(of: url, limits: files.limits)
                guard let any = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
                    throw DataFileError(file: path, line: nil, message: "not valid JSON")
                }
                do { return try DataFiles.value(any, limits: files.limits) } catch let e as DataFiles.ValueTooLong {
                    throw DataFileError(file: path, line: nil, message: e.message)
                }
            default:
                return .string(path)
            }
        }
    }

    private var numberExpectation: String {
        var s = kind == .integer ? "a whole number" : "a number"
        if let minimum { s += " ≥ \(TemplateValue.number(minimum).text)" }
        if let maximum { s += (minimum == nil ? " ≤ " : " and ≤ ") + TemplateValue.number(maximum).text }
        return s
    }

    private init(itemOf list: TemplateParameter) {
        name = list.name + "[]"
        kind = list.items ?? .string
        help = nil
        defaultValue = nil
        minimum = list.minimum
        maximum = list.maximum
        minLength = nil
        maxLength = nil
        values = list.values
        items = nil
    }
}

/// Resolves file paths of a template: relative to its folder, never outside it (or the folders
/// allowed), following symbolic links before deciding.
public struct AssetResolver: Sendable {
    /// The template's folder: relative paths are resolved against it.
    public let folder: URL
    /// Further folders that paths may lead into (`--allow-assets`), besides the template's.
    public let allowed: [URL]
    /// The limits files are read under (data file sizes, text).
    public let limits: SceneLimits

    /// A resolver for the template in `folder`, also allowing `allowed`, reading files under `limits`.
    public init(folder: URL, allowed: [URL] = [], limits: SceneLimits = SceneLimits()) {
        self.folder = folder
        self.allowed = allowed
        self.limits = limits
    }

    /// The file `path` names; throws when it is absolute, climbs out with `..`, leads out
    /// through a link, or does not exist.
    public func resolve(_ path: String) throws -> URL {
        let roots = ([folder] + allowed).map { $0.resolvingSymlinksInPath().standardizedFileURL.path }
        let candidate: URL
        if path.hasPrefix("/") {
            guard !allowed.isEmpty else {
                throw ExpressionError(message: "\"\(path)\" is an absolute path: assets are files in the template's folder (allow another folder with --allow-assets)")
            }
            candidate = URL(fileURLWithPath: path)
        } else {
            if path.split(separator: "/").contains("..") && allowed.isEmpty {
                throw ExpressionError(message: "\"\(path)\" leaves the template's folder (\"..\"); assets are files in the template's folder (allow another folder with --allow-assets)")
            }
            candidate = folder.appendingPathComponent(path)
        }
        let real = candidate.resolvingSymlinksInPath().standardizedFileURL.path
        guard roots.contains(where: { real == $0 || real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            throw ExpressionError(message: "\"\(path)\" leads outside the template's folder (through a link or ..); allow its folder with --allow-assets")
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDir), !isDir.boolValue else {
            throw ExpressionError(message: "\"\(path)\" does not exist in \(folder.path)")
        }
        if let refusal = InputFile.refusal(at: real) { throw ExpressionError(message: "\"\(path)\": \(refusal)") }
        return URL(fileURLWithPath: real)
    }
}

extension TemplateParameter {
    /// The default as it would be written with --set (nil: required). A list whose items hold a
    /// comma (or that could be read as JSON) is written as a JSON array, which `--set` reads back
    /// item for item; other lists as `a, b, c`.
    public var defaultText: String? {
        guard let value = defaultValue else { return nil }
        if case .list(let items) = value,
           items.contains(where: { $0.text.contains(",") }) || value.text.hasPrefix("["),
           let data = try? JSONSerialization.data(withJSONObject: items.map(\.foundationValue), options: [.withoutEscapingSlashes]) {
            return String(decoding: data, as: UTF8.self)
        }
        return value.text
    }

    /// A JSON Schema (draft 2020-12) of the parameter's JSON value, as in `--data row.json`.
    var jsonSchema: [String: Any] {
        var s: [String: Any] = [:]
        switch kind {
        case .string: s["type"] = "string"
        case .number: s["type"] = "number"
        case .integer: s["type"] = "integer"
        case .boolean: s["type"] = "boolean"
        case .color:
            s["anyOf"] = [["type": "string"], ["type": "array", "items": ["type": "number"], "minItems": 3, "maxItems": 4]]
        case .enum: s["enum"] = values ?? []
        case .list:
            var item = TemplateParameter(itemOf: self).jsonSchema
            item.removeValue(forKey: "description")
            s["type"] = "array"
            s["items"] = item
        case .image, .video, .audio, .file, .csv, .json, .captions:
            s["type"] = "string"
            s["x-kind"] = kind.rawValue
        }
        if kind == .list {
            if let minLength { s["minItems"] = minLength }
            if let maxLength { s["maxItems"] = maxLength }
        } else {
            if let minimum { s["minimum"] = minimum }
            if let maximum { s["maximum"] = maximum }
            if let minLength { s["minLength"] = minLength }
            if let maxLength { s["maxLength"] = maxLength }
        }
        if let help { s["description"] = help }
        if let d = defaultValue { s["default"] = d.foundationValue }
        return s
    }
}

extension Template {
    /// A JSON Schema of the object of this template's parameter values (`--data row.json`, a
    /// JSON Lines row), for other tools that make rows.
    public var parametersSchema: String {
        var properties: [String: Any] = [:]
        for p in parameters { properties[p.name] = p.jsonSchema }
        let schema: [String: Any] = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Parameters of the template \(name)",
            "type": "object",
            "additionalProperties": false,
            "required": parameters.filter { $0.defaultText == nil }.map(\.name),
            "properties": properties,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: schema, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

extension TemplateValue {
    /// The value as Foundation JSON objects.
    var foundationValue: Any {
        switch self {
        case .null: NSNull()
        case .bool(let b): b
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? NSNumber(value: Int64(n)) : NSNumber(value: n)
        case .string(let s): s
        case .list(let l): l.map(\.foundationValue)
        case .object(let o): o.mapValues(\.foundationValue)
        }
    }
}
