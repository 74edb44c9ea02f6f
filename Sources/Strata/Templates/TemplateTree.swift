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

    /// The value written as JSON (short, for messages).
    var jsonText: String {
        switch value {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return jsonString(s)
        case .array(let a): return "[" + a.map(\.jsonText).joined(separator: ", ") + "]"
        case .object(let m): return "{" + m.map { "\(jsonString($0.key)): \($0.node.jsonText)" }.joined(separator: ", ") + "}"
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
    /// Reads YAML or JSON text into a tree; `file` names it in errors.
    static func parse(_ text: String, file: String) throws -> TemplateNode {
        let root: Yams.Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let e as YamlError {
            throw TemplateSyntaxError(file: file, line: line(of: e), message: "not valid YAML or JSON: \(problem(of: e))")
        }
        guard let root else { throw TemplateSyntaxError(file: file, line: nil, message: "the file is empty") }
        return try convert(root, file: file)
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

    private static func convert(_ node: Yams.Node, file: String) throws -> TemplateNode {
        switch node {
        case .scalar(let s):
            let line = s.mark?.line
            guard s.style == .plain || s.style == .any else { return TemplateNode(.string(s.string), line: line) }
            return TemplateNode(scalar(s.string), line: line)
        case .sequence(let seq):
            return TemplateNode(.array(try seq.map { try convert($0, file: file) }), line: seq.mark?.line)
        case .mapping(let map):
            var members: [TemplateNode.Member] = []
            for (k, v) in map {
                guard case .scalar(let ks) = k else {
                    throw TemplateSyntaxError(file: file, line: k.mark?.line, message: "keys must be plain strings")
                }
                if members.contains(where: { $0.key == ks.string }) {
                    throw TemplateSyntaxError(file: file, line: k.mark?.line, message: "the key \"\(ks.string)\" appears twice")
                }
                members.append(TemplateNode.Member(key: ks.string, node: try convert(v, file: file)))
            }
            return TemplateNode(.object(members), line: map.mark?.line)
        case .alias(let a):
            throw TemplateSyntaxError(file: file, line: a.mark?.line, message: "YAML aliases (*\(a.anchor.rawValue)) are not supported in templates")
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
