// A small, safe evaluator for the expressions After Effects exports carry in Lottie files (a
// property's "x"): statements (`var`, `if`/`else`, `try`/`catch`/`throw`, blocks, `for`,
// `while` and `do` loops with `break` and `continue`, functions declared in the expression and
// function expressions, `return`), the result being the last statement's value or `$bm_rt`;
// numbers, strings, arrays, `null`, the operators of JavaScript (assignments, to array elements
// too, `++`/`--` and the comma operator inside expressions, as minified expressions have them,
// `instanceof Array`), `eval` of a string in this same language, and After Effects' objects and
// functions (see LottieScriptEvaluator and LottieScriptLibrary). No JavaScript engine, no file or
// network access. Everything is bounded: the source's length, its tokens, nodes, nesting (so
// parsing recurses at most `maxNesting` deep), its tree's depth, the nodes and statement blocks
// evaluated inside one another across calls and references (`maxRecursion`, so evaluation's
// recursion fits a 512 KiB stack) and the steps of one evaluation (loop passes, calls and
// references to other layers' properties included); past a limit the expression is reported and
// the keyframes are used.
import Foundation

/// Why an expression cannot be read or evaluated (said in `unsupported`).
struct LottieScriptError: Error, Equatable {
    var message: String
    /// A limit: it ends the evaluation, past any `catch`.
    var isLimit: Bool
    init(_ message: String, limit: Bool = false) { self.message = message; isLimit = limit }
}

struct LottieScript {
    /// An expression node with the depth of its tree (bounded, so evaluation recursion is).
    struct Expr {
        indirect enum Kind {
            case number(Double)
            case string(String)
            case bool(Bool)
            case null
            case array([Expr])
            case name(String)
            case unary(String, Expr)
            case binary(String, Expr, Expr)
            case and(Expr, Expr)
            case or(Expr, Expr)
            case conditional(Expr, Expr, Expr)
            case member(Expr, String)
            case index(Expr, Expr)
            case call(Expr, [Expr])
            /// `a = …`, `a += …` (the operator without "=": "", "+", "-", "*", "/", "%"); its value
            /// is the value assigned.
            case assign(String, String, Expr)
            /// `a[i] = …`, `a[i] += …`: an element of the array a variable holds.
            case assignElement(String, Expr, String, Expr)
            /// `function (a, b) { … }`: a function made where it is evaluated.
            case function(Function)
            /// `a++`, `--a` ("+" or "-"; `prefix`: the value after the change, else before).
            case update(String, String, prefix: Bool)
            /// `a, b, c`: each in order, the last one's value.
            case sequence([Expr])
        }
        var kind: Kind
        var depth: Int
    }

    indirect enum Statement {
        /// `var a = 1, b;`
        case declare([(String, Expr?)])
        case expression(Expr)
        case conditional(Expr, [Statement], [Statement])
        case block([Statement])
        /// `try { … } catch (name) { … } finally { … }`: the catch block runs when the try block
        /// fails (anything but a limit), with `name` holding the reason.
        case attempt([Statement], String?, [Statement], [Statement])
        /// `for (start; condition; step) body`, `while (condition) body` (no start or step) and
        /// `do body while (condition)` (`testFirst` false).
        case loop(start: [Statement], condition: Expr?, step: Expr?, body: [Statement], testFirst: Bool)
        /// `switch (value) { case a: …; default: … }`: the statements from the first case whose
        /// value is strictly equal (else from `default`, nil below) run on until a `break`.
        case choose(Expr, [(value: Expr?, body: [Statement])])
        case breakLoop
        case continueLoop
        case returns(Expr?)
        case raise(Expr)
    }

    /// A function declared in the expression (`function name(a, b) { … }`, its declaration made
    /// before the statements around it run, as JavaScript hoists it) or made by a function
    /// expression.
    final class Function {
        let name: String?
        let parameters: [String]
        let body: [Statement]
        /// The functions declared directly in its body (hoisted when it is called).
        let functions: [Function]
        init(name: String?, parameters: [String], body: [Statement], functions: [Function]) {
            self.name = name
            self.parameters = parameters
            self.body = body
            self.functions = functions
        }
    }

    static let maxCharacters = 50_000
    static let maxTokens = 30_000
    static let maxNodes = 3_000
    /// Parentheses, brackets, calls, unary operators and blocks inside one another.
    static let maxNesting = 40
    /// The depth of an expression tree (chains like a + b + c count too).
    static let maxDepth = 100
    /// Nodes evaluated inside one another, through references to other properties' expressions
    /// too (so evaluation's recursion stays a few hundred frames deep on any thread's stack).
    static let maxRecursion = 250
    /// Nodes evaluated in one evaluation, those of referenced properties' expressions included.
    static let maxSteps = 20_000

    let statements: [Statement]
    /// The functions declared at the top level (hoisted: callable from the first statement).
    let functions: [Function]
    /// The names the expression gives values to (`var`, assignments, functions and their
    /// parameters).
    let variables: Set<String>
    /// Seeds `wiggle` and `random` (from the property's JSON path): the same file always draws the same.
    let seed: UInt64

    /// The expression parsed; throws what it uses outside the subset.
    static func parse(_ source: String, seed: String) throws -> LottieScript {
        try parse(source, seed: seed, checkingNames: true)
    }

    /// `checkingNames` false: names are looked up when they are read (the text `eval` is given,
    /// read where the names around it are known only as it runs).
    static func parse(_ source: String, seed: String, checkingNames: Bool) throws -> LottieScript {
        guard source.count <= maxCharacters else {
            throw LottieScriptError("longer than \(maxCharacters) characters")
        }
        var parser = Parser(tokens: try LottieScriptTokenizer.tokens(source))
        let statements = try parser.program()
        // Names read inside a `try` block may be unknown: reading one fails there, and the catch
        // block runs (as a ReferenceError does in JavaScript).
        for name in parser.used where checkingNames && !parser.declared.contains(name) && !LottieScriptEvaluator.globals.contains(name) {
            throw LottieScriptError("unknown name '\(name)'")
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in seed.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return LottieScript(statements: statements, functions: parser.functions[0], variables: parser.declared, seed: hash)
    }
}

// MARK: Tokens

enum LottieScriptToken: Equatable {
    case number(Double)
    case string(String)
    case name(String)
    case punct(String)
    case end
}

enum LottieScriptTokenizer {
    /// Longest first, so that "===" is not read as "==" and "=".
    static let punctuation = ["===", "!==", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "++", "--",
                              "+", "-", "*", "/", "%", "<", ">", "!", "?", ":", "(", ")", "[", "]", "{", "}", ",", ";", ".", "="]
    static let punctuationScalars = punctuation.map { Array($0.unicodeScalars) }

    static func tokens(_ source: String) throws -> [LottieScriptToken] {
        let c = Array(source.unicodeScalars)
        var out: [LottieScriptToken] = []
        var i = 0
        func isNameStart(_ s: Unicode.Scalar) -> Bool { s == "_" || s == "$" || s.properties.isAlphabetic }
        func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 48 && s.value <= 57 }
        while i < c.count {
            let s = c[i]
            if s.properties.isWhitespace { i += 1; continue }
            if s == "/", i + 1 < c.count, c[i + 1] == "/" {
                while i < c.count, c[i] != "\n" { i += 1 }
                continue
            }
            if s == "/", i + 1 < c.count, c[i + 1] == "*" {
                i += 2
                while i < c.count, !(c[i] == "*" && i + 1 < c.count && c[i + 1] == "/") { i += 1 }
                guard i < c.count else { throw LottieScriptError("a comment that does not end") }
                i += 2
                continue
            }
            guard out.count < LottieScript.maxTokens else { throw LottieScriptError("more than \(LottieScript.maxTokens) tokens") }
            if isDigit(s) || (s == "." && i + 1 < c.count && isDigit(c[i + 1])) {
                let start = i
                while i < c.count, isDigit(c[i]) || c[i] == "." { i += 1 }
                if i < c.count, c[i] == "e" || c[i] == "E" {
                    i += 1
                    if i < c.count, c[i] == "+" || c[i] == "-" { i += 1 }
                    while i < c.count, isDigit(c[i]) { i += 1 }
                }
                let text = String(String.UnicodeScalarView(c[start..<i]))
                guard let d = Double(text) else { throw LottieScriptError("'\(text.prefix(20))' is not a number") }
                out.append(.number(d))
                continue
            }
            if isNameStart(s) {
                let start = i
                while i < c.count, isNameStart(c[i]) || isDigit(c[i]) { i += 1 }
                out.append(.name(String(String.UnicodeScalarView(c[start..<i]))))
                continue
            }
            if s == "'" || s == "\"" {
                i += 1
                var text = String.UnicodeScalarView()
                while i < c.count, c[i] != s, c[i] != "\n" {
                    if c[i] == "\\", i + 1 < c.count { i += 1 }
                    text.append(c[i])
                    i += 1
                }
                guard i < c.count, c[i] == s else { throw LottieScriptError("a string that does not end") }
                i += 1
                out.append(.string(String(text)))
                continue
            }
            guard let k = punctuationScalars.firstIndex(where: { u in
                i + u.count <= c.count && u.indices.allSatisfy { c[i + $0] == u[$0] }
            }) else {
                throw LottieScriptError("unexpected character '\(s)'")
            }
            out.append(.punct(punctuation[k]))
            i += punctuationScalars[k].count
        }
        out.append(.end)
        return out
    }
}

// MARK: Parsing

extension LottieScript {
    /// A recursive-descent parser (precedence climbing for binary operators), bounded in
    /// nodes, nesting and depth.
    struct Parser {
        let tokens: [LottieScriptToken]
        var i = 0
        var nodes = 0
        var nesting = 0
        /// Names given a value in the expression (`var`, assignments).
        var declared: Set<String> = ["$bm_rt"]
        /// Names read outside `try` blocks, in order.
        var used: [String] = []
        /// `try` blocks the parser is inside.
        var tries = 0
        /// The functions declared in the program (first) and in each function being read.
        var functions: [[Function]] = [[]]
        /// Loops the parser is inside, in the function being read (`break` and `continue` need one).
        var loops = 0
        /// `switch` statements the parser is inside, in the function being read (`break` may end one).
        var switches = 0

        init(tokens: [LottieScriptToken]) { self.tokens = tokens }

        var token: LottieScriptToken { tokens[i] }

        mutating func eat(_ p: String) -> Bool {
            guard token == .punct(p) else { return false }
            i += 1
            return true
        }

        mutating func expect(_ p: String) throws {
            guard eat(p) else { throw LottieScriptError("expected '\(p)' \(where_)") }
        }

        /// The current token, as a message says it.
        var current: String {
            switch token {
            case .end: return "end"
            case .number(let d): return "\(d)"
            case .string(let s): return "'\(s.prefix(20))'"
            case .name(let n): return "'\(n)'"
            case .punct(let p): return "'\(p)'"
            }
        }

        var where_: String { token == .end ? "at the end" : "before \(current)" }

        mutating func make(_ kind: Expr.Kind, _ children: Expr...) throws -> Expr { try make(kind, children) }

        mutating func nest<T>(_ body: (inout Parser) throws -> T) throws -> T {
            nesting += 1
            guard nesting <= LottieScript.maxNesting else { throw LottieScriptError("nested more than \(LottieScript.maxNesting) deep") }
            defer { nesting -= 1 }
            return try body(&self)
        }

        mutating func program() throws -> [Statement] {
            var out: [Statement] = []
            while token != .end {
                if let s = try statement() { out.append(s) }
            }
            return out
        }

        mutating func statement() throws -> Statement? {
            if eat(";") { return nil }
            if token == .punct("{") { return .block(try block()) }
            if case .name(let word) = token {
                switch word {
                case "var", "let", "const":
                    i += 1
                    var names: [(String, Expr?)] = []
                    repeat {
                        guard case .name(let n) = token else { throw LottieScriptError("expected a variable name \(where_)") }
                        i += 1
                        declared.insert(n)
                        names.append((n, eat("=") ? try expression() : nil))
                    } while eat(",")
                    _ = eat(";")
                    return .declare(names)
                case "try":
                    i += 1
                    tries += 1
                    let body = try block()
                    tries -= 1
                    var name: String?
                    var handler: [Statement] = [], final: [Statement] = []
                    var handled = false
                    if case .name("catch") = token {
                        i += 1
                        handled = true
                        if eat("(") {
                            guard case .name(let n) = token else { throw LottieScriptError("expected a name after 'catch (' \(where_)") }
                            i += 1
                            name = n
                            declared.insert(n)
                            try expect(")")
                        }
                        handler = try block()
                    }
                    if case .name("finally") = token {
                        i += 1
                        handled = true
                        final = try block()
                    }
                    guard handled else { throw LottieScriptError("expected 'catch' or 'finally' \(where_)") }
                    return .attempt(body, name, handler, final)
                case "if":
                    i += 1
                    return try nest { p in
                        try p.expect("(")
                        let condition = try p.sequence()
                        try p.expect(")")
                        let then = try p.statement().map { [$0] } ?? []
                        var otherwise: [Statement] = []
                        if case .name("else") = p.token {
                            p.i += 1
                            otherwise = try p.statement().map { [$0] } ?? []
                        }
                        return .conditional(condition, then, otherwise)
                    }
                case "for", "while", "do":
                    i += 1
                    return try loop(word)
                case "break", "continue":
                    i += 1
                    guard loops > 0 || (word == "break" && switches > 0) else {
                        throw LottieScriptError(word == "break" ? "'break' outside a loop or a switch" : "'continue' outside a loop")
                    }
                    _ = eat(";")
                    return word == "break" ? .breakLoop : .continueLoop
                case "function":
                    i += 1
                    guard case .name(let name) = token else { throw LottieScriptError("expected a function's name \(where_)") }
                    i += 1
                    declared.insert(name)
                    let f = try function(named: name)
                    functions[functions.count - 1].append(f)
                    return nil
                case "return":
                    i += 1
                    guard functions.count > 1 else { throw LottieScriptError("'return' outside a function") }
                    if eat(";") || token == .punct("}") || token == .end { return .returns(nil) }
                    let e = try sequence()
                    _ = eat(";")
                    return .returns(e)
                case "throw":
                    i += 1
                    let e = try sequence()
                    _ = eat(";")
                    return .raise(e)
                case "switch":
                    i += 1
                    return try choice()
                case "this", "delete", "class", "else", "catch", "finally", "case", "default":
                    throw LottieScriptError("'\(word)' is not supported")
                default:
                    break
                }
            }
            let e = try sequence()
            _ = eat(";")
            return .expression(e)
        }

        /// A loop, past its first word.
        mutating func loop(_ word: String) throws -> Statement {
            try nest { p in
                p.loops += 1
                defer { p.loops -= 1 }
                switch word {
                case "do":
                    let body = try p.statement().map { [$0] } ?? []
                    guard case .name("while") = p.token else { throw LottieScriptError("expected 'while' \(p.where_)") }
                    p.i += 1
                    try p.expect("(")
                    let condition = try p.sequence()
                    try p.expect(")")
                    _ = p.eat(";")
                    return .loop(start: [], condition: condition, step: nil, body: body, testFirst: false)
                case "while":
                    try p.expect("(")
                    let condition = try p.sequence()
                    try p.expect(")")
                    let body = try p.statement().map { [$0] } ?? []
                    return .loop(start: [], condition: condition, step: nil, body: body, testFirst: true)
                default:
                    try p.expect("(")
                    var start: [Statement] = []
                    if !p.eat(";") {
                        // `var i = 0;` reads its own semicolon; an expression does not.
                        guard let s = try p.statement() else { throw LottieScriptError("expected a loop's start \(p.where_)") }
                        if case .declare = s {} else if case .expression = s {} else {
                            throw LottieScriptError("a loop's start must be a declaration or an expression")
                        }
                        if case .name("in") = p.token { throw LottieScriptError("'for … in' loops are not supported") }
                        start = [s]
                        if p.tokens[p.i - 1] != .punct(";") { try p.expect(";") }
                    }
                    let condition = p.token == .punct(";") ? nil : try p.sequence()
                    try p.expect(";")
                    let step = p.token == .punct(")") ? nil : try p.sequence()
                    try p.expect(")")
                    let body = try p.statement().map { [$0] } ?? []
                    return .loop(start: start, condition: condition, step: step, body: body, testFirst: true)
                }
            }
        }

        /// A `switch` statement, past its first word.
        mutating func choice() throws -> Statement {
            try nest { p in
                try p.expect("(")
                let value = try p.sequence()
                try p.expect(")")
                try p.expect("{")
                p.switches += 1
                defer { p.switches -= 1 }
                var cases: [(value: Expr?, body: [Statement])] = []
                var sawDefault = false
                while !p.eat("}") {
                    guard case .name(let word) = p.token, word == "case" || word == "default" else {
                        throw LottieScriptError("expected 'case', 'default' or '}' in a switch \(p.where_)")
                    }
                    p.i += 1
                    var test: Expr?
                    if word == "case" {
                        test = try p.sequence()
                    } else {
                        guard !sawDefault else { throw LottieScriptError("a switch with two defaults") }
                        sawDefault = true
                    }
                    try p.expect(":")
                    var body: [Statement] = []
                    while true {
                        if case .name(let next) = p.token, next == "case" || next == "default" { break }
                        if p.token == .punct("}") { break }
                        guard p.token != .end else { throw LottieScriptError("expected '}' at the end") }
                        if let s = try p.statement() { body.append(s) }
                    }
                    cases.append((test, body))
                }
                return .choose(value, cases)
            }
        }

        /// A function's parameters and body, past its name (if any).
        mutating func function(named name: String?) throws -> Function {
            try expect("(")
            var parameters: [String] = []
            if !eat(")") {
                repeat {
                    guard case .name(let n) = token else { throw LottieScriptError("expected a parameter's name \(where_)") }
                    i += 1
                    declared.insert(n)
                    parameters.append(n)
                } while eat(",")
                try expect(")")
            }
            functions.append([])
            let outerLoops = loops, outerSwitches = switches
            loops = 0
            switches = 0
            defer { loops = outerLoops; switches = outerSwitches }
            let body = try block()
            let inner = functions.removeLast()
            return Function(name: name, parameters: parameters, body: body, functions: inner)
        }

        /// `{ statements }`, the brace next.
        mutating func block() throws -> [Statement] {
            try expect("{")
            return try nest { p in
                var body: [Statement] = []
                while !p.eat("}") {
                    guard p.token != .end else { throw LottieScriptError("expected '}' at the end") }
                    if let s = try p.statement() { body.append(s) }
                }
                return body
            }
        }

        /// A name read: checked when the parse ends, unless inside a `try` block.
        mutating func read(_ name: String) {
            if tries == 0 { used.append(name) }
        }

        /// `a, b, c` (the comma operator): where JavaScript allows it — a statement, parentheses,
        /// a condition, an index.
        mutating func sequence() throws -> Expr {
            let first = try expression()
            guard token == .punct(",") else { return first }
            var items = [first]
            while eat(",") { items.append(try expression()) }
            return try make(.sequence(items), items)
        }

        static let assignments: Set<String> = ["=", "+=", "-=", "*=", "/=", "%="]

        /// An assignment (`a = b = 1`, right to left; `a[i] = 1`) or a conditional expression:
        /// one item of a list, an initial value, a branch.
        mutating func expression() throws -> Expr {
            if case .name(let word) = token, case .punct(let op) = tokens[i + 1], Self.assignments.contains(op),
               !["true", "false", "this", "null"].contains(word) {
                i += 2
                return try nest { p in
                    p.declared.insert(word)
                    let kind = String(op.dropLast())
                    if kind != "" { p.read(word) }
                    let value = try p.expression()
                    return try p.make(.assign(word, kind, value), value)
                }
            }
            let left = try conditional()
            guard case .punct(let op) = token, Self.assignments.contains(op) else { return left }
            guard case .index(let base, let index) = left.kind, case .name(let word) = base.kind else {
                throw LottieScriptError("'\(op)' after something that is not a variable or an element of one")
            }
            i += 1
            return try nest { p in
                let value = try p.expression()
                return try p.make(.assignElement(word, index, String(op.dropLast()), value), index, value)
            }
        }

        /// A conditional expression (`a ? b : c`).
        mutating func conditional() throws -> Expr {
            try nest { p in
                let condition = try p.binary(0)
                guard p.eat("?") else { return condition }
                let a = try p.expression()
                try p.expect(":")
                let b = try p.expression()
                return try p.make(.conditional(condition, a, b), condition, a, b)
            }
        }

        static let precedence: [String: Int] = ["||": 1, "&&": 2, "==": 3, "!=": 3, "===": 3, "!==": 3,
                                                "<": 4, ">": 4, "<=": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6]

        mutating func binary(_ minimum: Int) throws -> Expr {
            var left = try unary()
            while true {
                // `a instanceof Array`: whether a is an array (the one class an expression can name).
                if case .name("instanceof") = token, 4 > minimum {
                    i += 1
                    guard case .name(let kind) = token else { throw LottieScriptError("expected a name after 'instanceof' \(where_)") }
                    i += 1
                    guard kind == "Array" || kind == "Object" else { throw LottieScriptError("'instanceof \(kind)' is not supported") }
                    left = try make(.unary("instanceof " + kind, left), left)
                    continue
                }
                guard case .punct(let op) = token, let level = Self.precedence[op], level > minimum else { break }
                i += 1
                let right = try binary(level)
                switch op {
                case "&&": left = try make(.and(left, right), left, right)
                case "||": left = try make(.or(left, right), left, right)
                default: left = try make(.binary(op, left, right), left, right)
                }
            }
            return left
        }

        mutating func unary() throws -> Expr {
            if case .punct(let op) = token, op == "++" || op == "--" {
                guard case .name(let word) = tokens[i + 1] else { throw LottieScriptError("'\(op)' before something that is not a name") }
                i += 2
                declared.insert(word)
                read(word)
                return try make(.update(word, String(op.prefix(1)), prefix: true))
            }
            if let op = prefixOperator() {
                i += 1
                return try nest { p in
                    let operand = try p.unary()
                    return try p.make(.unary(op, operand), operand)
                }
            }
            return try postfix()
        }

        /// The prefix operator at the current token (`-`, `+`, `!`, `typeof`), if it is one.
        @inline(never)
        func prefixOperator() -> String? {
            switch token {
            case .punct(let op) where op == "-" || op == "+" || op == "!": return op
            case .name("typeof"): return "typeof"
            default: return nil
            }
        }

        mutating func postfix() throws -> Expr {
            var e = try primary()
            if case .name(let word) = e.kind, case .punct(let op) = token, op == "++" || op == "--" {
                i += 1
                declared.insert(word)
                return try make(.update(word, String(op.prefix(1)), prefix: false))
            }
            while true {
                if eat(".") {
                    guard case .name(let n) = token else { throw LottieScriptError("expected a name after '.' \(where_)") }
                    i += 1
                    e = try make(.member(e, n), e)
                } else if eat("[") {
                    let index = try sequence()
                    try expect("]")
                    e = try make(.index(e, index), e, index)
                } else if eat("(") {
                    let args = try list(closing: ")")
                    e = try make(.call(e, args), [e] + args)
                } else {
                    return e
                }
            }
        }

        mutating func make(_ kind: Expr.Kind, _ children: [Expr]) throws -> Expr {
            nodes += 1
            guard nodes <= LottieScript.maxNodes else { throw LottieScriptError("more than \(LottieScript.maxNodes) nodes") }
            let depth = (children.map(\.depth).max() ?? 0) + 1
            guard depth <= LottieScript.maxDepth else { throw LottieScriptError("nested more than \(LottieScript.maxDepth) deep") }
            return Expr(kind: kind, depth: depth)
        }

        /// Comma-separated expressions up to `closing` (already past the opening bracket).
        mutating func list(closing: String) throws -> [Expr] {
            try nest { p in
                var items: [Expr] = []
                if p.eat(closing) { return items }
                repeat { items.append(try p.expression()) } while p.eat(",")
                try p.expect(closing)
                return items
            }
        }

        /// `new Array(…)` (or `new Array`), past `new`: the call `Array(…)`, as JavaScript makes
        /// the same array either way. Other constructors are not supported (`new Date()` would
        /// not give the same frames twice).
        @inline(never)
        mutating func construction() throws -> Expr {
            guard case .name("Array") = token else {
                if case .name(let n) = token { throw LottieScriptError("'new \(n)' is not supported (only new Array)") }
                throw LottieScriptError("expected a constructor's name after 'new' \(where_)")
            }
            i += 1
            let callee = try make(.name("Array"))
            let args = eat("(") ? try list(closing: ")") : []
            return try make(.call(callee, args), [callee] + args)
        }

        mutating func primary() throws -> Expr {
            let t = token
            switch t {
            case .number(let d):
                i += 1
                return try make(.number(d))
            case .string(let s):
                i += 1
                return try make(.string(s))
            case .name(let n):
                i += 1
                switch n {
                case "true", "false": return try make(.bool(n == "true"))
                case "null": return try make(.null)
                case "function":
                    let name: String?
                    if case .name(let n) = token { i += 1; name = n } else { name = nil }
                    let f = try nest { p in try p.function(named: name) }
                    return try make(.function(f))
                case "new": return try construction()
                case "var", "let", "const", "if", "else", "for", "while", "do", "return", "this", "typeof", "break",
                     "continue", "throw", "instanceof", "switch", "case", "default":
                    throw LottieScriptError("'\(n)' is not supported here")
                default:
                    read(n)
                    return try make(.name(n))
                }
            case .punct("("):
                i += 1
                let e = try sequence()
                try expect(")")
                return e
            case .punct("["):
                i += 1
                let items = try list(closing: "]")
                return try make(.array(items), items)
            default:
                throw LottieScriptError(token == .end ? "unexpected end" : "unexpected \(current)")
            }
        }
    }
}
