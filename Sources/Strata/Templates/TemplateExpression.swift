// The small expression language inside `{{ … }}` in templates: parameters and loop variables by
// name (`row.value`, `items[2]`), arithmetic (+ − × ÷ %), comparisons, `&&` `||` `!`, `a ? b : c`,
// list literals, and a few functions for text and data (`upper`, `format`, `round`, `range`,
// `column`, `rank`, …). It is evaluated once, when the template is filled in; there are no
// loops or side effects, and every error names the expression.
import Foundation

/// A value of the expression language (what parameters and data rows are).
enum TemplateValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case list([TemplateValue])
    case object([String: TemplateValue])

    var truthy: Bool {
        switch self {
        case .null: false
        case .bool(let b): b
        case .number(let n): n != 0
        case .string(let s): !s.isEmpty
        case .list(let l): !l.isEmpty
        case .object(let o): !o.isEmpty
        }
    }

    var isString: Bool { if case .string = self { true } else { false } }

    /// The value as text in a string (numbers in their shortest form, whole numbers without ".0").
    var text: String {
        switch self {
        case .null: ""
        case .bool(let b): String(b)
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): s
        case .list(let l): l.map(\.text).joined(separator: ", ")
        case .object: "[object]"
        }
    }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .list: "a list"
        case .object: "an object"
        }
    }

    /// As a template tree value (what substitution puts in the document).
    var node: TemplateNode {
        switch self {
        case .null: TemplateNode(.null)
        case .bool(let b): TemplateNode(.bool(b))
        case .number(let n): TemplateNode(.number(n))
        case .string(let s): TemplateNode(.string(s))
        case .list(let l): TemplateNode(.array(l.map(\.node)))
        case .object(let o): TemplateNode(.object(o.keys.sorted().map { TemplateNode.Member(key: $0, node: o[$0]!.node) }))
        }
    }

    /// A template tree value as an expression value.
    init(_ node: TemplateNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let a): self = .list(a.map(TemplateValue.init))
        case .object(let m): self = .object(Dictionary(m.map { ($0.key, TemplateValue($0.node)) }, uniquingKeysWith: { a, _ in a }))
        }
    }
}

/// An error in an expression.
struct ExpressionError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A parsed expression.
indirect enum TemplateExpression {
    case literal(TemplateValue)
    case name(String)
    case member(TemplateExpression, String)
    case index(TemplateExpression, TemplateExpression)
    case list([TemplateExpression])
    case unary(String, TemplateExpression)
    case binary(String, TemplateExpression, TemplateExpression)
    case conditional(TemplateExpression, TemplateExpression, TemplateExpression)
    case call(String, [TemplateExpression])

    // MARK: Parsing

    /// The most tokens an expression may have, how deep brackets, calls and conditions may nest,
    /// and how tall its tree may be (a chain of 150 additions is 150 tall): parsing and
    /// evaluating recurse, and a hostile template must not exhaust the stack (with room for
    /// the larger frames of sanitizer builds).
    static let maximumTokens = 1000, maximumDepth = 64, maximumHeight = 200

    /// The longest text one expression may make, in UTF-8 bytes (as a template file): joining,
    /// replacing or adding texts past it is an error before the text is made. The whole filled-in
    /// template is bounded too (`SceneLimits.expansionBytes`).
    static let maximumTextBytes = 16 << 20

    /// The error for a text of `bytes` bytes.
    static func tooLong(_ bytes: Int) -> ExpressionError {
        ExpressionError(message: "the text would be \(bytes) bytes long; one expression makes at most \(maximumTextBytes >> 20) MiB")
    }

    /// Checks that a text of `bytes` bytes may be made.
    static func checkLength(_ bytes: Int) throws {
        if bytes > maximumTextBytes { throw tooLong(bytes) }
    }

    /// The height of the tree (1 for a name or literal).
    var height: Int {
        switch self {
        case .literal, .name: 1
        case .member(let e, _), .unary(_, let e): 1 + e.height
        case .index(let a, let b), .binary(_, let a, let b): 1 + max(a.height, b.height)
        case .conditional(let a, let b, let c): 1 + max(a.height, b.height, c.height)
        case .list(let items), .call(_, let items): 1 + (items.map(\.height).max() ?? 0)
        }
    }

    /// The expression as errors quote it (cut after 40 characters).
    static func shown(_ source: String) -> String {
        source.count <= 40 ? "{{\(source)}}" : "{{\(source.prefix(40))…}}"
    }

    static func parse(_ source: String) throws -> TemplateExpression {
        let tokens = try tokenize(source)
        guard tokens.count <= maximumTokens else {
            throw ExpressionError(message: "\(shown(source)) is too long: \(tokens.count) tokens, at most \(maximumTokens)")
        }
        var p = Parser(tokens: tokens, source: source)
        let e = try p.expression()
        guard p.at >= p.tokens.count else { throw ExpressionError(message: "unexpected \"\(p.tokens[p.at].text)\" in {{\(source)}}") }
        let height = e.height
        guard height <= maximumHeight else {
            throw ExpressionError(message: "\(shown(source)) chains \(height) levels of operators, at most \(maximumHeight)")
        }
        return e
    }

    private struct Token { enum Kind { case number, string, name, symbol }; let kind: Kind; let text: String }

    private static func tokenize(_ s: String) throws -> [Token] {
        var tokens: [Token] = []
        let chars = Array(s)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            if c.isNumber || (c == "." && i + 1 < chars.count && chars[i + 1].isNumber) {
                var j = i
                while j < chars.count, chars[j].isNumber || chars[j] == "." { j += 1 }
                // An exponent: 1e3, 2.5E-4.
                if j < chars.count, chars[j] == "e" || chars[j] == "E" {
                    var k = j + 1
                    if k < chars.count, chars[k] == "+" || chars[k] == "-" { k += 1 }
                    if k < chars.count, chars[k].isNumber {
                        while k < chars.count, chars[k].isNumber { k += 1 }
                        j = k
                    }
                }
                tokens.append(Token(kind: .number, text: String(chars[i..<j]))); i = j; continue
            }
            if c.isLetter || c == "_" {
                var j = i
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
                tokens.append(Token(kind: .name, text: String(chars[i..<j]))); i = j; continue
            }
            if c == "\"" || c == "'" {
                var j = i + 1, text = ""
                while j < chars.count, chars[j] != c {
                    if chars[j] == "\\", j + 1 < chars.count { j += 1 }
                    text.append(chars[j]); j += 1
                }
                guard j < chars.count else { throw ExpressionError(message: "unterminated string in {{\(s)}}") }
                tokens.append(Token(kind: .string, text: text)); i = j + 1; continue
            }
            let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
            if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
                tokens.append(Token(kind: .symbol, text: two)); i += 2; continue
            }
            guard "+-*/%<>!?:()[],.".contains(c) else { throw ExpressionError(message: "unexpected \"\(c)\" in {{\(s)}}") }
            tokens.append(Token(kind: .symbol, text: String(c))); i += 1
        }
        return tokens
    }

    private struct Parser {
        let tokens: [Token]
        let source: String
        var at = 0
        /// Brackets, calls and conditions open around the current position (the whole
        /// expression's own `expression()` call makes it 0).
        var depth = -1

        func peek(_ text: String) -> Bool { at < tokens.count && tokens[at].kind == .symbol && tokens[at].text == text }
        mutating func eat(_ text: String) -> Bool { if peek(text) { at += 1; return true }; return false }
        mutating func expect(_ text: String) throws {
            guard eat(text) else { throw ExpressionError(message: "expected \"\(text)\" in {{\(source)}}") }
        }

        mutating func expression() throws -> TemplateExpression {
            depth += 1
            defer { depth -= 1 }
            guard depth <= TemplateExpression.maximumDepth else {
                throw ExpressionError(message: "\(TemplateExpression.shown(source)) nests brackets, calls and conditions "
                                      + "more than \(TemplateExpression.maximumDepth) deep")
            }
            let c = try binary(0)
            if eat("?") {
                let a = try expression()
                try expect(":")
                return .conditional(c, a, try expression())
            }
            return c
        }

        static let precedence: [String: Int] = ["||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, ">": 4, "<=": 4, ">=": 4,
                                                "+": 5, "-": 5, "*": 6, "/": 6, "%": 6]

        mutating func binary(_ minimum: Int) throws -> TemplateExpression {
            var left = try unary()
            while at < tokens.count, tokens[at].kind == .symbol, let p = Parser.precedence[tokens[at].text], p > minimum {
                let op = tokens[at].text
                at += 1
                left = .binary(op, left, try binary(p))
            }
            return left
        }

        mutating func unary() throws -> TemplateExpression {
            // Prefix operators in a loop rather than by recursion (`--!-x`).
            var operators: [String] = []
            while true {
                if eat("-") { operators.append("-") } else if eat("!") { operators.append("!") } else { break }
            }
            var e = try postfix(try primary())
            for op in operators.reversed() { e = .unary(op, e) }
            return e
        }

        mutating func postfix(_ base: TemplateExpression) throws -> TemplateExpression {
            var e = base
            while true {
                if eat(".") {
                    guard at < tokens.count, tokens[at].kind == .name else { throw ExpressionError(message: "expected a name after \".\" in {{\(source)}}") }
                    e = .member(e, tokens[at].text); at += 1
                } else if eat("[") {
                    let i = try expression()
                    try expect("]")
                    e = .index(e, i)
                } else {
                    return e
                }
            }
        }

        mutating func primary() throws -> TemplateExpression {
            guard at < tokens.count else { throw ExpressionError(message: "{{\(source)}} ends too early") }
            let t = tokens[at]
            at += 1
            switch t.kind {
            case .number:
                guard let n = Double(t.text) else { throw ExpressionError(message: "bad number \"\(t.text)\" in {{\(source)}}") }
                return .literal(.number(n))
            case .string:
                return .literal(.string(t.text))
            case .name:
                switch t.text {
                case "true": return .literal(.bool(true))
                case "false": return .literal(.bool(false))
                case "null": return .literal(.null)
                default: break
                }
                if eat("(") {
                    var args: [TemplateExpression] = []
                    if !eat(")") {
                        repeat { args.append(try expression()) } while eat(",")
                        try expect(")")
                    }
                    return .call(t.text, args)
                }
                return .name(t.text)
            case .symbol:
                if t.text == "(" {
                    let e = try expression()
                    try expect(")")
                    return e
                }
                if t.text == "[" {
                    var items: [TemplateExpression] = []
                    if !eat("]") {
                        repeat { items.append(try expression()) } while eat(",")
                        try expect("]")
                    }
                    return .list(items)
                }
                throw ExpressionError(message: "unexpected \"\(t.text)\" in {{\(source)}}")
            }
        }
    }

    // MARK: Evaluation

    func evaluate(_ scope: [String: TemplateValue]) throws -> TemplateValue {
        switch self {
        case .literal(let v): return v
        case .name(let n):
            guard let v = scope[n] else {
                throw ExpressionError(message: "unknown name \"\(n)\"\(NearestName.didYouMean(n, among: scope.keys))(known: \(scope.keys.sorted().joined(separator: ", ")))")
            }
            return v
        case .member(let base, let key):
            let b = try base.evaluate(scope)
            guard case .object(let o) = b else { throw ExpressionError(message: "\".\(key)\" needs an object, got \(b.typeName)") }
            guard let v = o[key] else { throw ExpressionError(message: "no field \"\(key)\" (fields: \(o.keys.sorted().joined(separator: ", ")))") }
            return v
        case .index(let base, let index):
            let b = try base.evaluate(scope), i = try index.evaluate(scope)
            switch (b, i) {
            case (.list(let l), .number(let n)):
                // (Int(n) traps beyond Int's range: check the double first.)
                let k = n.isFinite && abs(n) < 1e15 ? Int(n) : -1
                guard Double(k) == n, k >= 0, k < l.count else { throw ExpressionError(message: "index \(i.text) is outside the list of \(l.count)") }
                return l[k]
            case (.object(let o), .string(let s)):
                guard let v = o[s] else { throw ExpressionError(message: "no field \"\(s)\"") }
                return v
            case (.string(let s), .number(let n)):
                let chars = Array(s), k = n.isFinite && abs(n) < 1e15 ? Int(n) : -1
                guard k >= 0, k < chars.count else { throw ExpressionError(message: "index \(i.text) is outside the text of \(chars.count) characters") }
                return .string(String(chars[k]))
            default:
                throw ExpressionError(message: "cannot index \(b.typeName) with \(i.typeName)")
            }
        case .list(let items):
            return .list(try items.map { try $0.evaluate(scope) })
        case .unary(let op, let e):
            let v = try e.evaluate(scope)
            if op == "!" { return .bool(!v.truthy) }
            return .number(-(try Self.number(v, "-")))
        case .binary(let op, let l, let r):
            // Like JavaScript's and Python's: the operand that decides, so `title || 'Untitled'`
            // gives a default (conditions only look at its truth).
            if op == "&&" { let a = try l.evaluate(scope); return a.truthy ? try r.evaluate(scope) : a }
            if op == "||" { let a = try l.evaluate(scope); return a.truthy ? a : try r.evaluate(scope) }
            let a = try l.evaluate(scope), b = try r.evaluate(scope)
            switch op {
            case "==": return .bool(a == b)
            case "!=": return .bool(a != b)
            case "+":
                if a.isString || b.isString {
                    let x = a.text, y = b.text
                    try Self.checkLength(x.utf8.count + y.utf8.count)
                    return .string(x + y)
                }
                if case .list(let x) = a, case .list(let y) = b { return .list(x + y) }
                return .number(try Self.number(a, op) + Self.number(b, op))
            case "<", ">", "<=", ">=":
                let c: Bool
                if case .string(let x) = a, case .string(let y) = b {
                    c = op == "<" ? x < y : op == ">" ? x > y : op == "<=" ? x <= y : x >= y
                } else {
                    let x = try Self.number(a, op), y = try Self.number(b, op)
                    c = op == "<" ? x < y : op == ">" ? x > y : op == "<=" ? x <= y : x >= y
                }
                return .bool(c)
            default:
                let x = try Self.number(a, op), y = try Self.number(b, op)
                switch op {
                case "-": return .number(x - y)
                case "*": return .number(x * y)
                case "/":
                    guard y != 0 else { throw ExpressionError(message: "division by zero") }
                    return .number(x / y)
                default:
                    guard y != 0 else { throw ExpressionError(message: "remainder by zero") }
                    return .number(x.truncatingRemainder(dividingBy: y))
                }
            }
        case .conditional(let c, let a, let b):
            return try c.evaluate(scope).truthy ? a.evaluate(scope) : b.evaluate(scope)
        case .call(let name, let args):
            return try TemplateFunctions.call(name, try args.map { try $0.evaluate(scope) })
        }
    }

    static func number(_ v: TemplateValue, _ op: String) throws -> Double {
        switch v {
        case .number(let n): return n
        case .string(let s): if let n = Double(s) { return n }
        case .bool(let b): return b ? 1 : 0
        default: break
        }
        throw ExpressionError(message: "\"\(op)\" needs numbers, got \(v.typeName)\(v.text.isEmpty ? "" : " \"\(v.text)\"")")
    }
}
