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
    /// The limits: `expansionBytes` bounds the text the filled-in template holds.
    let limits: SceneLimits
    /// UTF-8 bytes of the strings (and keys) made so far, and whether they went over the limit
    /// (then nothing more is expanded).
    private(set) var bytes = 0
    private var bytesExhausted = false
    /// Parsed expressions by their text: a `forEach` body's expressions are parsed once, not once
    /// an item (parsing was a seventh of filling in 100 000 layers).
    private var parsed: [String: TemplateExpression] = [:]

    init(file: String, limits: SceneLimits = SceneLimits()) {
        self.file = file
        self.limits = limits
    }

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
        guard !bytesExhausted else { return nil }
        switch node.value {
        case .string(let s) where s.contains("{{"):
            guard let made = substitute(s, node: node, path: path, scope: scope) else { return nil }
            return charge(made, path: path) ? made : nil
        case .string(let s):
            // A literal repeated by forEach is as many copies once written out.
            return charge(s.utf8.count, node: node, path: path) ? node : nil
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
                guard charge(m.key.utf8.count, node: m.node, path: p) else { break }
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

    /// Counts `count` more bytes made at `path`; false (reported once) past the limit.
    private mutating func charge(_ count: Int, node: TemplateNode, path: String) -> Bool {
        bytes += count
        guard bytes > limits.expansionBytes else { return true }
        if !bytesExhausted {
            bytesExhausted = true
            fail(node, path, limits.exceededMessage("the text of the filled-in template (every string, with forEach's copies)",
                                                     name: "expansion-mb"))
        }
        return false
    }

    /// Counts the strings and keys of a value an expression made.
    private mutating func charge(_ made: TemplateNode, path: String) -> Bool {
        charge(made.textBytes(stoppingAfter: limits.expansionBytes - bytes), node: made, path: path)
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

    /// The parsed expression `text` (parsed once per expansion).
    private mutating func expression(_ text: String) throws -> TemplateExpression {
        if let e = parsed[text] { return e }
        let e = try TemplateExpression.parse(text)
        parsed[text] = e
        return e
    }

    private mutating func substitute(_ s: String, node: TemplateNode, path: String, scope: [String: TemplateValue]) -> TemplateNode? {
        let trimmed = s.trimmingCharacters(in: .whitespaces)
        do {
            if trimmed.hasPrefix("{{"), trimmed.hasSuffix("}}"), trimmed.components(separatedBy: "{{").count == 2 {
                let value = try expression(String(trimmed.dropFirst(2).dropLast(2))).evaluate(scope)
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
                let value = try expression(String(rest[open.upperBound..<close.lowerBound])).evaluate(scope)
                out += value.text
                guard out.utf8.count <= TemplateExpression.maximumTextBytes else { throw TemplateExpression.tooLong(out.utf8.count) }
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
