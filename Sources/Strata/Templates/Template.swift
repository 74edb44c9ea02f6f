// A template: a JSON or YAML document of the declarative model with typed parameters. Filling it
// in takes parameter values (`--set key=value`, a JSON object, a CSV row), checks them, evaluates
// the document's expressions, checks the result against the JSON Schema and compiles it to a
// scene. Every error names the file, the line where the document has one, the JSON path and
// what was expected:  hero.yaml:14 layers[2].animations[0].duration: expected a number ≥ 0 …
import Foundation
import StrataRender

/// An error in a template or its parameter values.
public struct TemplateError: Error, CustomStringConvertible, Sendable {
    /// The template or data file, as the user named it.
    public let file: String
    /// The line in that file (1-based), when the document has one for the value.
    public let line: Int?
    /// The JSON path of the value (`layers[2].animations[0].duration`), or empty for the whole file.
    public let path: String
    /// What is wrong, and what was expected.
    public let message: String

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if !path.isEmpty { s += " \(path)" }
        return s + ": " + message
    }
}

/// Several errors, one a line.
public struct TemplateErrors: Error, CustomStringConvertible, Sendable {
    /// The errors, in the order found.
    public let errors: [TemplateError]
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// Parameter values for a template.
public struct TemplateArguments: Sendable {
    /// Values as text (from the command line or a CSV row), converted by each parameter's type.
    public var text: [String: String] = [:]
    /// Values as JSON (from `--data row.json` or a JSON Lines row).
    var json: [String: TemplateValue] = [:]
    /// Whether names that are not parameters are passed over rather than refused (a batch row's
    /// extra columns, used in output names).
    var ignoresUnknownNames = false

    /// Parameter values given as text, by name (`["title": "Hello"]`, as `--set title=Hello`).
    public init(text: [String: String] = [:]) { self.text = text }

    /// Adds the fields of a JSON object file's content (text overrides them); a value longer
    /// than `limits.dataValueBytes` is refused.
    public mutating func addJSON(_ data: Data, file: String, limits: SceneLimits = SceneLimits()) throws {
        guard let any = try? JSONSerialization.jsonObject(with: data), let object = any as? [String: Any] else {
            throw TemplateError(file: file, line: nil, path: "", message: "expected a JSON object of parameter values")
        }
        if let repeated = JSONDuplicateKeys.first(in: data) {
            throw TemplateError(file: file, line: nil, path: repeated.path,
                                message: "the key \"\(repeated.key)\" appears twice (each key once)")
        }
        for (k, v) in object {
            do { json[k] = try DataFiles.value(v, limits: limits, path: Echo.text(k)) } catch let e as DataFiles.ValueTooLong {
                throw TemplateError(file: file, line: nil, path: "", message: e.message)
            }
        }
    }

    /// Adds the fields of the JSON object file at `url` (`--data`): a regular file of at most
    /// `limits.dataFileBytes`, each value at most `limits.dataValueBytes`.
    public mutating func addJSON(contentsOf url: URL, limits: SceneLimits = SceneLimits()) throws {
        let text: String
        do { text = try DataFiles.text(of: url, limits: limits) } catch let e as DataFileError {
            throw TemplateError(file: e.file, line: e.line, path: "", message: e.message)
        }
        try addJSON(Data(text.utf8), file: url.path, limits: limits)
    }
}

/// A JSON or YAML template.
public final class Template: Sendable {
    /// The file.
    public let url: URL
    /// The template's name: its `name:` field, else the file's name without its extension.
    public let name: String
    /// The template's description (its `description:` field), if any.
    public let summary: String?
    /// The parameters the template takes, in the order written.
    public let parameters: [TemplateParameter]
    /// The document's `export:` block: defaults for the export flags (the command line wins;
    /// a default that does not apply to the output chosen is left out).
    public let exportDefaults: ExportSettings
    let document: TemplateNode
    private var fileName: String { url.lastPathComponent }

    /// Reads the template at `url`; throws a syntax or declaration error naming the file and line.
    public init(contentsOf url: URL) throws {
        self.url = url
        let text: String
        do { text = try DataFiles.text(of: url, limit: 16 << 20) } catch let e as DataFileError {
            throw TemplateError(file: url.path, line: nil, path: "", message: e.message)
        }
        document = try TemplateReader.parse(text, file: url.lastPathComponent)
        guard case .object = document.value else {
            throw TemplateError(file: url.lastPathComponent, line: document.line, path: "", message: "expected an object with size, duration and layers")
        }
        name = document["name"]?.string ?? url.deletingPathExtension().lastPathComponent
        summary = document["description"]?.string
        var list: [TemplateParameter] = []
        if let p = document["parameters"] {
            guard case .array(let items) = p.value else {
                throw TemplateError(file: url.lastPathComponent, line: p.line, path: "parameters", message: "expected a list of parameters")
            }
            for (i, item) in items.enumerated() {
                let parameter = try TemplateParameter(item, path: "parameters[\(i)]", file: url.lastPathComponent)
                if list.contains(where: { $0.name == parameter.name }) {
                    throw TemplateError(file: url.lastPathComponent, line: item.line, path: "parameters[\(i)]", message: "the parameter \"\(parameter.name)\" is declared twice")
                }
                list.append(parameter)
            }
        }
        parameters = list
        exportDefaults = try Self.exportSettings(document["export"], file: url.lastPathComponent)
    }

    /// The settings of an `export:` block: keys as `ExportSettings.Field.templateKey`, values as
    /// the flags take them (numbers, true/false, text such as "2MB" or "forever").
    static func exportSettings(_ node: TemplateNode?, file: String) throws -> ExportSettings {
        var settings = ExportSettings()
        guard let node else { return settings }
        guard case .object(let members) = node.value else {
            throw TemplateError(file: file, line: node.line, path: "export", message: "expected an object of export settings (codec, alpha, crf, colors …)")
        }
        let fields = Dictionary(uniqueKeysWithValues: ExportSettings.Field.allCases.map { ($0.templateKey, $0) })
        for member in members {
            let path = "export.\(member.key)"
            guard let field = fields[member.key] else {
                let known = ExportSettings.Field.allCases.map(\.templateKey)
                throw TemplateError(file: file, line: member.node.line ?? node.line, path: path,
                                    message: "unknown export setting (expected one of \(known.joined(separator: ", ")))")
            }
            let text: String
            switch member.node.value {
            case .bool(let b): text = b ? "true" : "false"
            case .number(let n): text = n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
            case .string(let s): text = s
            default:
                throw TemplateError(file: file, line: member.node.line ?? node.line, path: path, message: "expected a number, true/false or text")
            }
            if text.contains("{{") {
                throw TemplateError(file: file, line: member.node.line ?? node.line, path: path,
                                    message: "export settings are fixed values (no {{expressions}}); the command line overrides them")
            }
            do { try settings.set(field, text: text) } catch let e as ExportSettingsError {
                let message = e.message.replacingOccurrences(of: field.flag, with: member.key)
                throw TemplateError(file: file, line: member.node.line ?? node.line, path: path, message: message)
            }
        }
        return settings
    }

    /// The folder the template's assets are in.
    public var folder: URL { url.deletingLastPathComponent() }

    /// Checked parameter values (defaults where none is given).
    func values(_ arguments: TemplateArguments, files: AssetResolver) throws -> [String: TemplateValue] {
        var errors: [TemplateError] = []
        let known = Set(parameters.map(\.name))
        for key in Set(arguments.text.keys).union(arguments.json.keys).sorted() where !known.contains(key) && !arguments.ignoresUnknownNames {
            errors.append(TemplateError(file: fileName, line: nil, path: "parameters",
                                        message: "unknown parameter \"\(key)\" (parameters: \(parameters.map(\.name).joined(separator: ", ")))"))
        }
        var values: [String: TemplateValue] = [:]
        for p in parameters {
            let raw: TemplateValue?, fromText: Bool
            if let t = arguments.text[p.name] { raw = .string(t); fromText = true }
            else if let j = arguments.json[p.name] { raw = j; fromText = false }
            else { raw = p.defaultValue; fromText = false }
            guard let raw else {
                errors.append(TemplateError(file: fileName, line: nil, path: "parameters.\(p.name)", message: "a value is required (\(p.summary))"))
                continue
            }
            do {
                values[p.name] = try p.check(raw, fromText: fromText, files: files)
            } catch {
                let e = error as? DataFileError
                errors.append(TemplateError(file: fileName, line: nil, path: "parameters.\(p.name)",
                                            message: e.map(\.description) ?? "\(error)"))
            }
        }
        if !errors.isEmpty { throw TemplateErrors(errors: errors) }
        return values
    }

    /// The composition the template makes with `arguments`, and how to find its assets.
    public func composition(_ arguments: TemplateArguments = TemplateArguments(), allowAssets: [URL] = [],
                            limits: SceneLimits = SceneLimits()) throws -> (Composition, CompositionOptions) {
        let filled = try fill(arguments, allowAssets: allowAssets, limits: limits)
        return (filled.composition, filled.options)
    }

    /// The scene the template makes with `arguments`, under `limits` (filling in, compiling and
    /// rendering); `adjust` may change the composition first (the command line's --size, --fps
    /// and --duration). `media`: the context its images and videos decode under (nil: one made
    /// from `limits`; scenes given one context share its image cache).
    public func makeScene(_ arguments: TemplateArguments = TemplateArguments(), allowAssets: [URL] = [],
                          limits: SceneLimits = SceneLimits(), media: MediaContext? = nil,
                          adjust: ((inout Composition) -> Void)? = nil) throws -> Scene {
        let filled = try fill(arguments, allowAssets: allowAssets, limits: limits)
        var composition = filled.composition
        adjust?(&composition)
        var options = filled.options
        if let media { options.media = media }
        do {
            return try Scene(composition: composition, options: options)
        } catch let e as CompositionError {
            throw TemplateErrors(errors: e.issues.map {
                TemplateError(file: fileName, line: filled.line($0.path), path: $0.path, message: $0.message)
            })
        }
    }

    /// A filled-in template: its composition, assets and the lines of its values.
    private struct Filled {
        let composition: Composition
        let options: CompositionOptions
        let lines: [String: Int]
        let rootLine: Int?

        /// The line of the value at `path`, or of its nearest ancestor with one.
        func line(_ path: String) -> Int? {
            var p = path
            while !p.isEmpty {
                if let l = lines[p] { return l }
                guard let cut = p.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
                p = String(p[..<cut])
            }
            return rootLine
        }
    }

    /// The document with `arguments` filled in: every expression evaluated, repetitions and
    /// conditions applied, before it is checked against the schema (`strata validate --expanded`).
    public func expandedJSON(_ arguments: TemplateArguments = TemplateArguments(), allowAssets: [URL] = [],
                             limits: SceneLimits = SceneLimits()) throws -> String {
        let expanded = try expand(arguments, files: AssetResolver(folder: folder, allowed: allowAssets, limits: limits))
        let data = try JSONSerialization.data(withJSONObject: expanded.foundationValue,
                                              options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    private func expand(_ arguments: TemplateArguments, files: AssetResolver) throws -> TemplateNode {
        let scope = try values(arguments, files: files)
        var body = document
        if case .object(let members) = body.value {
            body.value = .object(members.filter { !["parameters", "name", "description", "export"].contains($0.key) })
        }
        var expansion = TemplateExpansion(file: fileName, limits: files.limits)
        let expanded = expansion.expand(body, path: "", scope: scope)
        if !expansion.errors.isEmpty { throw TemplateErrors(errors: expansion.errors) }
        guard let expanded else { throw TemplateError(file: fileName, line: nil, path: "", message: "the template is empty") }
        return expanded
    }

    private func fill(_ arguments: TemplateArguments, allowAssets: [URL], limits: SceneLimits) throws -> Filled {
        let files = AssetResolver(folder: folder, allowed: allowAssets, limits: limits)
        let expanded = try expand(arguments, files: files)
        var lines: [String: Int] = [:]
        expanded.lines(into: &lines)
        let options = CompositionOptions(assetFolder: folder, resolveAsset: { path, _ in try files.resolve(path) }, limits: limits)
        let placeholder = Filled(composition: Composition(size: .zero, frameRate: 1, duration: 1), options: options,
                                 lines: lines, rootLine: expanded.line)
        var nonFinite: [(path: String, value: Double)] = []
        expanded.nonFiniteNumbers(into: &nonFinite)
        let problems = nonFinite.map { (path: $0.path, message: "expected a finite number, got \(TemplateValue.number($0.value).text)") }
            + TemplateSchema.validate(expanded).filter { p in !nonFinite.contains { $0.path == p.path } }
            + Self.missingFonts(in: expanded)
        if !problems.isEmpty {
            throw TemplateErrors(errors: problems.map {
                TemplateError(file: fileName, line: placeholder.line($0.path), path: $0.path, message: $0.message)
            })
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: expanded.foundationValue)
            let composition = try JSONDecoder().decode(Composition.self, from: data)
            return Filled(composition: composition, options: options, lines: lines, rootLine: expanded.line)
        } catch let e as DecodingError {
            let (path, message) = Self.describe(e)
            throw TemplateError(file: fileName, line: placeholder.line(path), path: path, message: message)
        }
    }

    /// Fonts (`font`, `fontFamily`) whose family is not installed: a template names fonts it
    /// means, so a fallback would be a silent surprise (the DSL warns instead).
    static func missingFonts(in node: TemplateNode, path: String = "") -> [(path: String, message: String)] {
        var found: [(path: String, message: String)] = []
        switch node.value {
        case .object(let members):
            for m in members {
                let p = path.isEmpty ? m.key : "\(path).\(m.key)"
                if ["font", "fontFamily"].contains(m.key), let name = m.node.string, let family = FontAvailability.missingFamily(inFontName: name) {
                    let closest = FontAvailability.closestInstalledFamilies(to: family)
                    found.append((p, "the font family \"\(family)\" is not installed"
                                  + (closest.isEmpty ? "" : " (closest installed: \(closest.joined(separator: ", ")))")
                                  + "; `fc-list : family` lists them all"))
                } else {
                    found += missingFonts(in: m.node, path: p)
                }
            }
        case .array(let items):
            for (i, item) in items.enumerated() { found += missingFonts(in: item, path: "\(path)[\(i)]") }
        default: break
        }
        return found
    }

    /// A JSON path and message for a decoding error.
    static func describe(_ e: DecodingError) -> (String, String) {
        func path(_ keys: [CodingKey]) -> String {
            var s = ""
            for k in keys {
                if let i = k.intValue { s += "[\(i)]" } else { s += s.isEmpty ? k.stringValue : ".\(k.stringValue)" }
            }
            return s
        }
        switch e {
        case .typeMismatch(let type, let c): return (path(c.codingPath), "expected \(typeName(type))")
        case .valueNotFound(let type, let c): return (path(c.codingPath), "expected \(typeName(type))")
        case .keyNotFound(let key, let c): return (path(c.codingPath), "missing \"\(key.stringValue)\"")
        case .dataCorrupted(let c): return (path(c.codingPath), c.debugDescription)
        @unknown default: return ("", "\(e)")
        }
    }

    private static func typeName(_ t: Any.Type) -> String {
        switch t {
        case is Double.Type, is Int.Type: "a number"
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        default: "\(t)"
        }
    }
}
