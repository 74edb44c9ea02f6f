// A small, safe evaluator for the arithmetic expressions Lottie files carry: numbers, arrays,
// `time` (seconds), `value` (the property's keyframed value), + − × ÷ %, parentheses, `Math.*`
// functions and constants, `clamp`, degree/radian conversions, and `wiggle(frequency,
// amplitude)` with a deterministic noise. No JavaScript engine: no variables, loops, functions,
// objects, file or network access; a parse tree of at most 500 nodes evaluated once per sampled
// frame. Anything else is reported and the keyframes are used.
import Foundation

struct LottieScript {
    indirect enum Node {
        case number(Double)
        case array([Node])
        case time
        case value
        case unary(Character, Node)
        case binary(Character, Node, Node)
        case call(String, [Node])
    }

    let root: Node
    /// Seeds the noise of `wiggle` (the property's JSON path): the same file wiggles the same way.
    let seed: UInt64

    static let functions: Set<String> = ["Math.sin", "Math.cos", "Math.tan", "Math.abs", "Math.sqrt", "Math.min", "Math.max",
                                         "Math.floor", "Math.ceil", "Math.round", "Math.pow", "Math.atan2", "Math.exp", "Math.log",
                                         "clamp", "wiggle", "degreesToRadians", "radiansToDegrees"]

    /// The expression parsed, or nil when it uses anything outside the subset.
    static func parse(_ source: String, seed: String) -> LottieScript? {
        var text = source.replacingOccurrences(of: "var $bm_rt;", with: "")
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("$bm_rt") {
            text.removeFirst(6)
            text = text.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("=") else { return nil }
            text.removeFirst()
        }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(";") { text.removeLast(); text = text.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard text.count <= 2000, !text.contains(";") else { return nil }
        var parser = Parser(Array(text))
        guard let node = parser.expression(), parser.atEnd, parser.nodes <= 500 else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in seed.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return LottieScript(root: node, seed: hash)
    }

    /// The value at `time` seconds, the keyframed value being `value`.
    func evaluate(time: Double, value: [Double]) -> [Double] {
        let v = eval(root, time, value)
        return v.map { $0.isFinite ? $0 : 0 }
    }

    private func eval(_ n: Node, _ t: Double, _ value: [Double]) -> [Double] {
        switch n {
        case .number(let d): return [d]
        case .array(let items): return items.map { eval($0, t, value).first ?? 0 }
        case .time: return [t]
        case .value: return value
        case .unary(_, let a): return eval(a, t, value).map { -$0 }
        case .binary(let op, let a, let b):
            let x = eval(a, t, value), y = eval(b, t, value)
            let count = max(x.count, y.count)
            // Arrays combine element by element; a number applies to every element.
            func at(_ v: [Double], _ i: Int) -> Double { v.count == 1 ? v[0] : (i < v.count ? v[i] : 0) }
            return (0..<count).map { i in
                let p = at(x, i), q = at(y, i)
                switch op {
                case "+": return p + q
                case "-": return p - q
                case "*": return p * q
                case "/": return q == 0 ? 0 : p / q
                default: return q == 0 ? 0 : p.truncatingRemainder(dividingBy: q)
                }
            }
        case .call(let name, let args):
            let a = args.map { eval($0, t, value) }
            func n(_ i: Int) -> Double { i < a.count ? (a[i].first ?? 0) : 0 }
            switch name {
            case "Math.sin": return [sin(n(0))]
            case "Math.cos": return [cos(n(0))]
            case "Math.tan": return [tan(n(0))]
            case "Math.abs": return (a.first ?? [0]).map(abs)
            case "Math.sqrt": return [n(0) >= 0 ? sqrt(n(0)) : 0]
            case "Math.min": return [a.map { $0.first ?? 0 }.min() ?? 0]
            case "Math.max": return [a.map { $0.first ?? 0 }.max() ?? 0]
            case "Math.floor": return (a.first ?? [0]).map { $0.rounded(.down) }
            case "Math.ceil": return (a.first ?? [0]).map { $0.rounded(.up) }
            case "Math.round": return (a.first ?? [0]).map { $0.rounded() }
            case "Math.pow": return [pow(n(0), n(1))]
            case "Math.atan2": return [atan2(n(0), n(1))]
            case "Math.exp": return [exp(min(n(0), 700))]
            case "Math.log": return [n(0) > 0 ? log(n(0)) : 0]
            case "clamp": return (a.first ?? [0]).map { min(max($0, n(1)), n(2)) }
            case "degreesToRadians": return [n(0) * .pi / 180]
            case "radiansToDegrees": return [n(0) * 180 / .pi]
            case "wiggle": return wiggle(frequency: n(0), amplitude: n(1), t, value)
            default: return [0]
            }
        }
    }

    /// `value` plus, per dimension, a smooth noise in −amplitude…amplitude with about
    /// `frequency` wiggles a second: a sum of three sines whose phases come from the seed.
    /// (Not After Effects' own noise, which is not published: the same file and time always
    /// give the same value.)
    private func wiggle(frequency: Double, amplitude: Double, _ t: Double, _ value: [Double]) -> [Double] {
        var state = seed
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        return value.map { v in
            var noise = 0.0
            for (k, weight) in [(1.0, 0.6), (2.1, 0.3), (4.3, 0.1)] {
                noise += weight * sin(2 * .pi * (frequency * k * t + next()))
            }
            return v + amplitude * noise
        }
    }

    /// A recursive-descent parser for the subset.
    struct Parser {
        let chars: [Character]
        var i = 0
        var nodes = 0

        init(_ chars: [Character]) { self.chars = chars }

        var atEnd: Bool { mutating get { skipSpace(); return i == chars.count } }

        mutating func skipSpace() { while i < chars.count, chars[i].isWhitespace { i += 1 } }

        mutating func eat(_ c: Character) -> Bool {
            skipSpace()
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
            return true
        }

        mutating func expression() -> Node? {
            nodes += 1
            guard nodes <= 500, var left = term() else { return nil }
            while true {
                if eat("+") { guard let r = term() else { return nil }; left = .binary("+", left, r) }
                else if eat("-") { guard let r = term() else { return nil }; left = .binary("-", left, r) }
                else { return left }
            }
        }

        mutating func term() -> Node? {
            guard var left = unary() else { return nil }
            while true {
                var op: Character?
                for c in ["*", "/", "%"] as [Character] where eat(c) { op = c; break }
                guard let op else { return left }
                guard let r = unary() else { return nil }
                left = .binary(op, left, r)
            }
        }

        mutating func unary() -> Node? {
            nodes += 1
            guard nodes <= 500 else { return nil }
            if eat("-") { return unary().map { .unary("-", $0) } }
            if eat("+") { return unary() }
            return primary()
        }

        mutating func primary() -> Node? {
            skipSpace()
            guard i < chars.count else { return nil }
            if eat("(") {
                guard let e = expression(), eat(")") else { return nil }
                return e
            }
            if eat("[") {
                var items: [Node] = []
                if eat("]") { return .array(items) }
                repeat {
                    guard let e = expression() else { return nil }
                    items.append(e)
                } while eat(",")
                return eat("]") ? .array(items) : nil
            }
            let c = chars[i]
            if c.isNumber || c == "." {
                let start = i
                while i < chars.count, chars[i].isNumber || chars[i] == "." || chars[i] == "e"
                        || ((chars[i] == "-" || chars[i] == "+") && i > start && chars[i - 1] == "e") { i += 1 }
                return Double(String(chars[start..<i])).map { .number($0) }
            }
            guard c.isLetter || c == "$" || c == "_" else { return nil }
            let start = i
            while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "." || chars[i] == "_" || chars[i] == "$" { i += 1 }
            let name = String(chars[start..<i])
            switch name {
            case "time": return .time
            case "value": return .value
            case "Math.PI": return .number(.pi)
            case "Math.E": return .number(M_E)
            default: break
            }
            guard Self.known(name), eat("(") else { return nil }
            var args: [Node] = []
            if !eat(")") {
                repeat {
                    guard let e = expression() else { return nil }
                    args.append(e)
                } while eat(",")
                guard eat(")") else { return nil }
            }
            return .call(name, args)
        }

        static func known(_ name: String) -> Bool { LottieScript.functions.contains(name) }
    }
}
