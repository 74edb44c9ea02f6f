// A template document as a tree of JSON-shaped values that remember the line they came from, read
// from YAML (Yams) or JSON (JSON is read by the same YAML parser, so both give line numbers).
// Scalars follow YAML 1.2's core schema: true/false, null, numbers; anything else, and anything
// quoted, is a string ("NO" stays a string). Aliases (`*name`) are refused: they can expand a
// small file into a huge one.
import Foundation
internal import Yams

/// One value of a template document, with the line it starts on (nil for values made by
/// substitution).
struct TemplateNode: Hashable, Sendable {
    indirect enum Value: Hashable, Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([TemplateNode])
        /// Keys in document order.
        case object([Member])
    }

    struct Member: Hashable, Sendable {
        var key: String
        var node: TemplateNode
    }

    var value: Value
    var line: Int?

    init(_ value: Value, line: Int? = nil) {
        self.value = value
        self.line = line
    }

    subscript(key: String) -> TemplateNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.node
    }

    var string: String? { if case .string(let s) = value { return s }; return nil }

    /// The value as Foundation JSON objects (for JSONSerialization).
    var foundationValue: Any {
        switch value {
        case .null: return NSNull()
        case .bool(let b): return b
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? NSNumber(value: Int64(n)) : NSNumber(value: n)
        case .string(let s): return s
        case .array(let a): return a.map(\.foundationValue)
        case .object(let m):
            var d: [String: Any] = [:]
            for member in m { d[member.key] = member.node.foundationValue }
            return d
        }
    }

    /// The UTF-8 bytes of the strings and keys in this tree; the count stops once it passes
    /// `limit` (what is left need not be counted to refuse it).
    func textBytes(stoppingAfter limit: Int = .max) -> Int {
        switch value {
        case .string(let s): return s.utf8.count
        case .array(let a):
            var n = 0
            for item in a where n <= limit { n += item.textBytes(stoppingAfter: limit - n) }
            return n
        case .object(let m):
            var n = 0
            for member in m where n <= limit { n += member.key.utf8.count + member.node.textBytes(stoppingAfter: limit - n) }
            return n
        default: return 0
        }
    }

    /// The JSON path → line of every value in this tree (paths like `layers[2].duration`).
    func lines(prefix: String = "", into map: inout [String: Int]) {
        if let line { map[prefix] = line }
        switch value {
        case .array(let a):
            for (i, n) in a.enumerated() { n.lines(prefix: "\(prefix)[\(i)]", into: &map) }
        case .object(let m):
            for member in m { member.node.lines(prefix: prefix.isEmpty ? member.key : "\(prefix).\(member.key)", into: &map) }
        default: break
        }
    }

    /// The paths of numbers that are not finite (an expression such as `sqrt(-1)` or `1e308 * 10`
    /// makes them; JSON has no words for them), with the number.
    func nonFiniteNumbers(prefix: String = "", into found: inout [(path: String, value: Double)]) {
        switch value {
        case .number(let n) where !n.isFinite: found.append((prefix, n))
        case .array(let a):
            for (i, n) in a.enumerated() { n.nonFiniteNumbers(prefix: "\(prefix)[\(i)]", into: &found) }
        case .object(let m):
            for member in m { member.node.nonFiniteNumbers(prefix: prefix.isEmpty ? member.key : "\(prefix).\(member.key)", into: &found) }
        default: break
        }
    }

    /// The value written as JSON (short, for messages: long texts and lists cut short).
    var jsonText: String {
        switch value {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return jsonString(Echo.text(s))
        case .array(let a): return "[" + Echo.list(a, \.jsonText) + "]"
        case .object(let m): return "{" + Echo.list(m) { "\(jsonString(Echo.text($0.key))): \($0.node.jsonText)" } + "}"
        }
    }
}

/// Problems reading a template file.
struct TemplateSyntaxError: Error, CustomStringConvertible {
    let file: String
    let line: Int?
    let message: String
    var description: String { line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}

enum TemplateReader {
    /// How deep lists and objects may nest in a template.
    static let maximumDepth = 128

    /// Reads YAML or JSON text into a tree; `file` names it in errors.
    static func parse(_ text: String, file: String) throws -> TemplateNode {
        // Yams resolves an alias to the node its anchor names, and a node holds its anchor
        // weakly: the parser (which owns the anchors) must live while the tree is converted, for
        // a repeated anchor to show where an alias was.
        let parser: Yams.Parser
        let root: Yams.Node?
        do {
            parser = try Yams.Parser(yaml: text)
            root = try parser.singleRoot()
        } catch let YamlError.duplicatedKeysInMapping(duplicates, context) {
            // (Yams checks before we see the mapping; its mark is the first duplicate key's first use.)
            let keys = duplicates.map { "\"\($0)\"" }
            throw TemplateSyntaxError(file: file, line: context.mark.line, message: keys.count == 1
                ? "the key \(keys[0]) appears twice (first on this line)"
                : "the keys \(keys.joined(separator: ", ")) appear twice (\(keys[0]) first on this line)")
        } catch let e as YamlError {
            throw TemplateSyntaxError(file: file, line: line(of: e), message: "not valid YAML or JSON: \(problem(of: e))")
        }
        guard let root else { throw TemplateSyntaxError(file: file, line: nil, message: "the file is empty") }
        var converter = Converter(file: file)
        return try withExtendedLifetime(parser) { try converter.convert(root, line: nil) }
    }

    private static func line(of e: YamlError) -> Int? {
        switch e {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: nil
        }
    }

    private static func problem(of e: YamlError) -> String {
        switch e {
        case .scanner(_, let p, _, _), .parser(_, let p, _, _), .composer(_, let p, _, _): p
        case .reader(let p, _, _, _): p
        default: "\(e)"
        }
    }

    /// Yams nodes → template nodes, refusing aliases.
    private struct Converter {
        let file: String
        /// The anchors met so far: meeting one again is an alias.
        var anchors = Set<ObjectIdentifier>()

        /// `line`: where the node is written (an alias's own line: the line of its key); `depth`:
        /// the lists and objects it is inside.
        mutating func convert(_ node: Yams.Node, line: Int?, depth: Int = 0) throws -> TemplateNode {
            // Everything after reading (expansion, the schema check, JSON) recurses per level.
            guard depth < TemplateReader.maximumDepth else {
                throw TemplateSyntaxError(file: file, line: line ?? node.mark?.line,
                                          message: "the document nests more than \(TemplateReader.maximumDepth) levels deep")
            }
            if let anchor = node.anchor, !anchors.insert(ObjectIdentifier(anchor)).inserted {
                throw TemplateSyntaxError(file: file, line: line ?? node.mark?.line,
                                          message: "YAML aliases (*\(anchor.rawValue)) are not supported in templates")
            }
            switch node {
            case .scalar(let s):
                let line = s.mark?.line
                guard s.style == .plain || s.style == .any else { return TemplateNode(.string(s.string), line: line) }
                return TemplateNode(TemplateReader.scalar(s.string), line: line)
            case .sequence(let seq):
                var items: [TemplateNode] = []
                for item in seq { items.append(try convert(item, line: nil, depth: depth + 1)) }
                return TemplateNode(.array(items), line: seq.mark?.line)
            case .mapping(let map):
                var members: [TemplateNode.Member] = []
                for (k, v) in map {
                    guard case .scalar(let ks) = k else {
                        throw TemplateSyntaxError(file: file, line: k.mark?.line, message: "keys must be plain strings")
                    }
                    if members.contains(where: { $0.key == ks.string }) {
                        throw TemplateSyntaxError(file: file, line: k.mark?.line, message: "the key \"\(ks.string)\" appears twice")
                    }
                    members.append(TemplateNode.Member(key: ks.string, node: try convert(v, line: k.mark?.line, depth: depth + 1)))
                }
                return TemplateNode(.object(members), line: map.mark?.line)
            case .alias(let a):
                throw TemplateSyntaxError(file: file, line: a.mark?.line, message: "YAML aliases (*\(a.anchor.rawValue)) are not supported in templates")
            }
        }
    }

    /// A plain scalar under YAML 1.2's core schema.
    static func scalar(_ s: String) -> TemplateNode.Value {
        switch s {
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case "null", "Null", "NULL", "~", "": return .null
        default: break
        }
        if let n = number(s) { return .number(n) }
        return .string(s)
    }

    private static func number(_ s: String) -> Double? {
        guard let first = s.first, first.isNumber || first == "-" || first == "+" || first == "." else { return nil }
        let body = s.hasPrefix("+") ? String(s.dropFirst()) : s
        if body.hasPrefix("0x"), let v = Int(body.dropFirst(2), radix: 16) { return Double(v) }
        guard body.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }), let d = Double(body), d.isFinite else { return nil }
        return d
    }
}

/// A JSON string literal.
func jsonString(_ s: String) -> String {
    let data = (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8)
    return String(decoding: data, as: UTF8.self)
}
