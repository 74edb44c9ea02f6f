// Filling a template in: every string holding `{{ … }}` is evaluated — a string that is one
// expression keeps the value's type (`"{{rows}}"` is a list, `"{{size * 2}}"` a number), text
// around expressions makes a string — and list entries with `forEach` repeat once per item (the
// item under `as`, default `item`, and its position under `index`), entries with `if` are kept
// only when it holds. Lines are kept, so errors later still point into the file.
import Foundation

struct TemplateExpansion {
    let file: String
    private(set) var errors: [TemplateError] = []
    private var produced = 0
    /// The largest number of values a filled-in template may have (a guard against runaway
    /// `forEach`).
    static let maximumValues = 2_000_000

    init(file: String) { self.file = file }

    private mutating func fail(_ node: TemplateNode, _ path: String, _ message: String) {
        errors.append(TemplateError(file: file, line: node.line, path: path, message: message))
    }

    /// The node with every expression evaluated in `scope`; nil when an `if` drops it.
    mutating func expand(_ node: TemplateNode, path: String, scope: [String: TemplateValue]) -> TemplateNode? {
        produced += 1
        guard produced <= Self.maximumValues else {
            if produced == Self.maximumValues + 1 {
                fail(node, path, "the filled-in template has more than \(Self.maximumValues) values (a forEach over too many items?)")
            }
            return nil
        }
        switch node.value {
        case .string(let s) where s.contains("{{"):
            return substitute(s, node: node, path: path, scope: scope)
        case .array(let items):
            var out: [TemplateNode] = []
            for (i, item) in items.enumerated() {
                let p = "\(path)[\(i)]"
                if let each = item["forEach"] {
                    let name = item["as"]?.string ?? "item"
                    guard let list = evaluate(each, path: "\(p).forEach", scope: scope) else { continue }
                    guard case .list(let values) = list else {
                        fail(each, "\(p).forEach", "expected a list to repeat over, got \(list.typeName)")
                        continue
                    }
                    let body = removing(["forEach", "as"], from: item)
                    for (k, v) in values.enumerated() {
                        var inner = scope
                        inner[name] = v
                        inner["index"] = .number(Double(k))
                        if let e = expandEntry(body, path: p, scope: inner) { out.append(e) }
                    }
                } else if let e = expandEntry(item, path: p, scope: scope) {
                    out.append(e)
                }
            }
            return TemplateNode(.array(out), line: node.line)
        case .object(let members):
            var out: [TemplateNode.Member] = []
            for m in members {
                let p = path.isEmpty ? m.key : "\(path).\(m.key)"
                if let e = expandEntry(m.node, path: p, scope: scope) { out.append(TemplateNode.Member(key: m.key, node: e)) }
            }
            return TemplateNode(.object(out), line: node.line)
        default:
            return node
        }
    }

    /// An entry of a list or object: dropped when its `if` is false.
    private mutating func expandEntry(_ node: TemplateNode, path: String, scope: [String: TemplateValue]) -> TemplateNode? {
        if let condition = node["if"] {
            guard let v = evaluate(condition, path: "\(path).if", scope: scope), v.truthy else { return nil }
            return expand(removing(["if"], from: node), path: path, scope: scope)
        }
        return expand(node, path: path, scope: scope)
    }

    private func removing(_ keys: Set<String>, from node: TemplateNode) -> TemplateNode {
        guard case .object(let members) = node.value else { return node }
        return TemplateNode(.object(members.filter { !keys.contains($0.key) }), line: node.line)
    }

    /// A condition or list: `{{expr}}`, or a literal value.
    private mutating func evaluate(_ node: TemplateNode, path: String, scope: [String: TemplateValue]) -> TemplateValue? {
        if let s = node.string, s.contains("{{") {
            return substitute(s, node: node, path: path, scope: scope).map(TemplateValue.init)
        }
        return TemplateValue(node)
    }

    private mutating func substitute(_ s: String, node: TemplateNode, path: String, scope: [String: TemplateValue]) -> TemplateNode? {
        let trimmed = s.trimmingCharacters(in: .whitespaces)
        do {
            if trimmed.hasPrefix("{{"), trimmed.hasSuffix("}}"), trimmed.components(separatedBy: "{{").count == 2 {
                let value = try TemplateExpression.parse(String(trimmed.dropFirst(2).dropLast(2))).evaluate(scope)
                var n = value.node
                n.line = node.line
                return n
            }
            var out = ""
            var rest = Substring(s)
            while let open = rest.range(of: "{{") {
                out += rest[..<open.lowerBound]
                guard let close = rest[open.upperBound...].range(of: "}}") else {
                    throw ExpressionError(message: "\"{{\" without \"}}\" in \"\(s)\"")
                }
                let value = try TemplateExpression.parse(String(rest[open.upperBound..<close.lowerBound])).evaluate(scope)
                out += value.text
                rest = rest[close.upperBound...]
            }
            out += rest
            return TemplateNode(.string(out), line: node.line)
        } catch {
            fail(node, path, "\(error)")
            return nil
        }
    }
}
