// The functions of template expressions: text (`upper`, `format`, `pad`, `chars`, …), numbers
// (`round`, `min`, `clamp`, …), lists (`range`, `len`, `slice`, `sort`, …) and data tables — a CSV
// parameter is a list of row objects — (`column`, `unique`, `where`, `rank`, `lookup`), enough to
// lay out a chart or a bar-chart race without code; `textWidth` measures text as a text layer
// lays it out.
import Foundation
import StrataRender

enum TemplateFunctions {
    /// name → (arity description, implementation).
    static let all: [String: (String, @Sendable ([TemplateValue]) throws -> TemplateValue)] = [
        "upper": ("upper(text)", { .string(try text($0, 0).uppercased()) }),
        "lower": ("lower(text)", { .string(try text($0, 0).lowercased()) }),
        "trim": ("trim(text)", { .string(try text($0, 0).trimmingCharacters(in: .whitespacesAndNewlines)) }),
        "len": ("len(list or text)", { args in
            try arity(args, 1, "len(list or text)")
            switch args[0] {
            case .list(let l): return .number(Double(l.count))
            case .string(let s): return .number(Double(s.count))
            case .object(let o): return .number(Double(o.count))
            default: throw ExpressionError(message: "len needs a list or text, got \(args[0].typeName)")
            }
        }),
        "chars": ("chars(text)", { .list(try text($0, 0).map { .string(String($0)) }) }),
        "words": ("words(text)", { .list(try text($0, 0).split(whereSeparator: \.isWhitespace).map { .string(String($0)) }) }),
        "lines": ("lines(text)", { .list(try text($0, 0).components(separatedBy: "\n").map { .string($0) }) }),
        "split": ("split(text, separator)", { args in .list(try text(args, 0).components(separatedBy: try text(args, 1)).map { .string($0) }) }),
        "join": ("join(list, separator)", { args in
            let items = try list(args, 0).map(\.text), separator = args.count > 1 ? try text(args, 1) : ""
            try TemplateExpression.checkLength(items.reduce(0) { $0 + $1.utf8.count } + max(0, items.count - 1) * separator.utf8.count)
            return .string(items.joined(separator: separator))
        }),
        "replace": ("replace(text, old, new)", { args in
            let s = try text(args, 0), old = try text(args, 1), new = try text(args, 2)
            if new.utf8.count > old.utf8.count, !old.isEmpty {
                // The longest the result can be: every byte of s starting an occurrence.
                let occurrences = s.components(separatedBy: old).count - 1
                try TemplateExpression.checkLength(s.utf8.count + occurrences * (new.utf8.count - old.utf8.count))
            }
            return .string(s.replacingOccurrences(of: old, with: new))
        }),
        "substr": ("substr(text, start, length)", { args in
            let chars = Array(try text(args, 0))
            let start = max(0, min(chars.count, try whole(args, 1)))
            let length = args.count > 2 ? max(0, try whole(args, 2)) : chars.count - start
            return .string(String(chars[start..<min(chars.count, start + length)]))
        }),
        "pad": ("pad(value, width, fill)", { args in
            let s = args.first?.text ?? ""
            let width = try whole(args, 1)
            guard width <= maximumCount else { throw ExpressionError(message: "width \(width) is too large (at most \(maximumCount))") }
            let fill = args.count > 2 ? try text(args, 2) : " "
            guard let f = fill.first, s.count < width else { return .string(s) }
            return .string(String(repeating: f, count: width - s.count) + s)
        }),
        "format": ("format(number, pattern)", { args in
            let n = try num(args, 0)
            // Parsed and rebuilt (NumberFormatPattern), never passed to String(format:) as written.
            let pattern: NumberFormatPattern
            do { pattern = try NumberFormatPattern(args.count > 1 ? try text(args, 1) : "%g") } catch let p as NumberFormatPattern.Problem {
                throw ExpressionError(message: p.message)
            }
            return .string(pattern.isWhole ? pattern.format(whole: try wholeNumber(n.rounded())) : pattern.format(n))
        }),
        "thousands": ("thousands(number)", { args in
            let n = try wholeNumber(try num(args, 0).rounded())
            let digits = String(abs(n))
            var out = ""
            for (i, c) in digits.reversed().enumerated() { if i > 0 && i % 3 == 0 { out.append(",") }; out.append(c) }
            return .string((n < 0 ? "-" : "") + String(out.reversed()))
        }),
        "string": ("string(value)", { .string($0.first?.text ?? "") }),
        "number": ("number(value)", { args in .number(try TemplateExpression.number(args.first ?? .null, "number")) }),
        "round": ("round(number, digits)", { args in
            let p = pow(10, args.count > 1 ? try num(args, 1) : 0)
            return .number((try num(args, 0) * p).rounded() / p)
        }),
        "floor": ("floor(number)", { .number(try num($0, 0).rounded(.down)) }),
        "ceil": ("ceil(number)", { .number(try num($0, 0).rounded(.up)) }),
        "abs": ("abs(number)", { .number(abs(try num($0, 0))) }),
        "sqrt": ("sqrt(number)", { .number(try num($0, 0).squareRoot()) }),
        "clamp": ("clamp(number, low, high)", { args in .number(min(max(try num(args, 0), try num(args, 1)), try num(args, 2))) }),
        "min": ("min(numbers… or list)", { .number(try numbers($0).min() ?? 0) }),
        "max": ("max(numbers… or list)", { .number(try numbers($0).max() ?? 0) }),
        "sum": ("sum(list)", { .number(try numbers($0).reduce(0, +)) }),
        "range": ("range(count) or range(start, end, step)", { args in
            let start = args.count > 1 ? try num(args, 0) : 0
            let end = args.count > 1 ? try num(args, 1) : try num(args, 0)
            let step = args.count > 2 ? try num(args, 2) : 1
            guard step != 0 else { throw ExpressionError(message: "range step must not be 0") }
            let length = ((end - start) / step).rounded(.up)
            guard !length.isNaN else { throw ExpressionError(message: "range needs finite numbers") }
            guard length <= Double(maximumCount) else {
                throw ExpressionError(message: "range of \(TemplateValue.number(length).text) items is too long (at most \(maximumCount))")
            }
            return .list((0..<Int(max(0, length))).map { .number(start + Double($0) * step) })
        }),
        "reverse": ("reverse(list)", { .list(try list($0, 0).reversed()) }),
        "slice": ("slice(list, start, end)", { args in
            let l = try list(args, 0)
            let a = max(0, min(l.count, try whole(args, 1)))
            let b = args.count > 2 ? max(a, min(l.count, try whole(args, 2))) : l.count
            return .list(Array(l[a..<b]))
        }),
        "sort": ("sort(list) or sort(rows, field, descending)", { args in
            let l = try list(args, 0)
            let descending = args.count > 2 ? args[2].truthy : false
            let keyed: [(TemplateValue, TemplateValue)] = try l.map { item in
                guard args.count > 1 else { return (item, item) }
                return (try field(item, try text(args, 1)), item)
            }
            let sorted = keyed.enumerated().sorted { a, b in
                let c = compare(a.element.0, b.element.0)
                return c == 0 ? a.offset < b.offset : (descending ? c > 0 : c < 0)
            }
            return .list(sorted.map(\.element.1))
        }),
        "column": ("column(rows, field)", { args in .list(try list(args, 0).map { try field($0, try text(args, 1)) }) }),
        "unique": ("unique(list)", { args in
            var seen = Set<TemplateValue>(), out: [TemplateValue] = []
            for v in try list(args, 0) where seen.insert(v).inserted { out.append(v) }
            return .list(out)
        }),
        "where": ("where(rows, field, value)", { args in
            let key = try text(args, 1), value = try arg(args, 2)
            return .list(try list(args, 0).filter { try field($0, key).text == value.text })
        }),
        "lookup": ("lookup(rows, field, value, result field)", { args in
            let key = try text(args, 1), value = try arg(args, 2), result = try text(args, 3)
            guard let row = try list(args, 0).first(where: { try field($0, key).text == value.text }) else { return .null }
            return try field(row, result)
        }),
        "rank": ("rank(list of numbers, value)", { args in
            let values = try numbers([try arg(args, 0)])
            let v = try num(args, 1)
            return .number(Double(values.filter { $0 > v }.count))
        }),
        "series": ("series(rows, keyField, key, stepField, valueField)", { args in
            // The values of `key`'s rows, one per distinct step (in the steps' first order); 0
            // where a step has no row for the key.
            let rows = try list(args, 0)
            let (kf, sf, vf) = (try text(args, 1), try text(args, 3), try text(args, 4))
            let steps = try uniqueValues(rows.map { try field($0, sf) })
            return .list(try steps.map { step in
                let row = try rows.first { try field($0, kf).text == args[2].text && field($0, sf) == step }
                return .number(try row.map { try TemplateExpression.number(try field($0, vf), "series") } ?? 0)
            })
        }),
        "ranks": ("ranks(rows, keyField, key, stepField, valueField)", { args in
            // `key`'s place at each step among all keys ordered by value, largest first (0 = top;
            // ties in the keys' first order).
            let rows = try list(args, 0)
            let (kf, sf, vf) = (try text(args, 1), try text(args, 3), try text(args, 4))
            let steps = try uniqueValues(rows.map { try field($0, sf) })
            let keys = try uniqueValues(rows.map { try field($0, kf) }).map(\.text)
            return .list(try steps.map { step in
                let atStep = try rows.filter { try field($0, sf) == step }
                func value(_ k: String) throws -> Double {
                    try atStep.first { try field($0, kf).text == k }.map { try TemplateExpression.number(try field($0, vf), "ranks") } ?? -.infinity
                }
                let mine = try value(args[2].text)
                let myOrder = keys.firstIndex(of: args[2].text) ?? 0
                var rank = 0
                for (i, k) in keys.enumerated() {
                    let v = try value(k)
                    if v > mine || (v == mine && i < myOrder) { rank += 1 }
                }
                return .number(Double(rank))
            })
        }),
        "scaled": ("scaled(list, multiply, add)", { args in
            let m = try num(args, 1), a = args.count > 2 ? try num(args, 2) : 0
            return .list(try numbers([args[0]]).map { .number($0 * m + a) })
        }),
        "clampEach": ("clampEach(list, low, high)", { args in
            let lo = try num(args, 1), hi = try num(args, 2)
            return .list(try numbers([args[0]]).map { .number(min(max($0, lo), hi)) })
        }),
        "below": ("below(list, limit, yes, no)", { args in
            // Per item: `yes` when it is below `limit`, else `no` (e.g. opacity for the top N).
            let limit = try num(args, 1), yes = try arg(args, 2), no = try arg(args, 3)
            return .list(try numbers([args[0]]).map { $0 < limit ? yes : no })
        }),
        "repeatEach": ("repeatEach(list, times)", { args in
            // Each item `times` times in a row: repeatEach([1, 2], 2) = [1, 1, 2, 2] (keyframe
            // values that hold, with holdKeyTimes).
            let n = try whole(args, 1)
            let l = try list(args, 0)
            guard n >= 0, n <= 100_000, l.count * n <= 100_000 else { throw ExpressionError(message: "times must be 0…\(100_000 / max(1, l.count)), got \(n)") }
            return .list(l.flatMap { Array(repeating: $0, count: n) })
        }),
        "holdKeyTimes": ("holdKeyTimes(count, hold)", { args in
            // Key times (0…1) for `count` values that each hold for `hold` of a step around their
            // step and move in between: the values given twice (repeatEach(values, 2)), so a
            // bar-chart race's bars change places quickly rather than sliding through a whole step.
            // holdKeyTimes(3, 0.5) = [0, 0.125, 0.375, 0.625, 0.875, 1].
            let count = try whole(args, 0), hold = try num(args, 1)
            guard count >= 2, count <= 50_000 else { throw ExpressionError(message: "count must be 2…50000, got \(count)") }
            guard hold >= 0, hold <= 1 else { throw ExpressionError(message: "hold must be a fraction of a step in 0…1, got \(hold)") }
            let last = Double(count - 1), h = hold / 2
            return .list((0..<count).flatMap { k -> [TemplateValue] in
                let t = Double(k)
                return [.number(max(0, t - h) / last), .number(min(last, t + h) / last)]
            })
        }),
        "textWidth": ("textWidth(text, font, fontSize)", { args in
            // The width the text takes in points, as a text layer lays it out (unhinted, so it
            // scales with the font size): to size a mask, an underline or a typing cursor.
            let size = try num(args, 2)
            guard size > 0, size <= Double(CATextLayer.maximumFontSize) else {
                throw ExpressionError(message: "fontSize must be > 0 and ≤ \(TemplateValue.number(Double(CATextLayer.maximumFontSize)).text), got \(TemplateValue.number(size).text)")
            }
            return .number(Double(TextMetrics.size(of: try text(args, 0), font: try text(args, 1), fontSize: CGFloat(size)).width))
        }),
        "startsWith": ("startsWith(text, prefix)", { args in .bool(try text(args, 0).hasPrefix(try text(args, 1))) }),
        "withPrefix": ("withPrefix(list, prefix)", { args in
            // The items of a list of text that start with `prefix` (a terminal session's commands).
            let prefix = try text(args, 1)
            return .list(try list(args, 0).filter { $0.text.hasPrefix(prefix) })
        }),
        "indexOf": ("indexOf(list, value)", { args in .number(Double(try list(args, 0).firstIndex(of: try arg(args, 1)) ?? -1)) }),
        "contains": ("contains(list or text, value)", { args in
            if case .string(let s) = args.first { return .bool(s.contains(try text(args, 1))) }
            return .bool(try list(args, 0).contains(try arg(args, 1)))
        }),
    ]

    static func call(_ name: String, _ args: [TemplateValue]) throws -> TemplateValue {
        guard let (_, f) = all[name] else {
            throw ExpressionError(message: "unknown function \"\(name)\" (functions: \(all.keys.sorted().joined(separator: ", ")))")
        }
        do { return try f(args) } catch let e as ExpressionError {
            throw ExpressionError(message: "\(all[name]!.0): \(e.message)")
        }
    }

    private static func arity(_ args: [TemplateValue], _ n: Int, _ usage: String) throws {
        guard args.count >= n else { throw ExpressionError(message: "needs \(n) argument\(n == 1 ? "" : "s")") }
    }

    /// The longest list `range` makes and the widest `pad` pads to.
    static let maximumCount = 100_000

    private static func arg(_ args: [TemplateValue], _ i: Int) throws -> TemplateValue {
        guard i < args.count else { throw ExpressionError(message: "missing argument \(i + 1)") }
        return args[i]
    }

    /// Argument `i` as a whole number (its fraction dropped).
    private static func whole(_ args: [TemplateValue], _ i: Int) throws -> Int {
        try wholeNumber(try num(args, i).rounded(.towardZero))
    }

    /// `n` as an Int, or an error where it has none (instead of a trap).
    private static func wholeNumber(_ n: Double) throws -> Int {
        guard !n.isNaN else { throw ExpressionError(message: "expected a number, got nan") }
        guard abs(n) < 1e15 else { throw ExpressionError(message: "\(TemplateValue.number(n).text) is too large for a whole number") }
        return Int(n)
    }

    private static func text(_ args: [TemplateValue], _ i: Int) throws -> String {
        guard i < args.count else { throw ExpressionError(message: "missing argument \(i + 1)") }
        guard case .string(let s) = args[i] else {
            if case .number = args[i] { return args[i].text }
            throw ExpressionError(message: "argument \(i + 1) must be text, got \(args[i].typeName)")
        }
        return s
    }

    private static func num(_ args: [TemplateValue], _ i: Int) throws -> Double {
        guard i < args.count else { throw ExpressionError(message: "missing argument \(i + 1)") }
        return try TemplateExpression.number(args[i], "argument \(i + 1)")
    }

    private static func list(_ args: [TemplateValue], _ i: Int) throws -> [TemplateValue] {
        guard i < args.count else { throw ExpressionError(message: "missing argument \(i + 1)") }
        guard case .list(let l) = args[i] else { throw ExpressionError(message: "argument \(i + 1) must be a list, got \(args[i].typeName)") }
        return l
    }

    private static func numbers(_ args: [TemplateValue]) throws -> [Double] {
        let items: [TemplateValue] = args.count == 1 ? (try? list(args, 0)) ?? args : args
        return try items.map { try TemplateExpression.number($0, "a list of numbers") }
    }

    private static func uniqueValues(_ values: [TemplateValue]) throws -> [TemplateValue] {
        var seen = Set<TemplateValue>(), out: [TemplateValue] = []
        for v in values where seen.insert(v).inserted { out.append(v) }
        return out
    }

    private static func field(_ row: TemplateValue, _ key: String) throws -> TemplateValue {
        guard case .object(let o) = row else { throw ExpressionError(message: "rows must be objects, got \(row.typeName)") }
        guard let v = o[key] else { throw ExpressionError(message: "no field \"\(key)\" (fields: \(o.keys.sorted().joined(separator: ", ")))") }
        return v
    }

    /// Orders numbers numerically (also numeric text), else text.
    private static func compare(_ a: TemplateValue, _ b: TemplateValue) -> Int {
        if let x = try? TemplateExpression.number(a, ""), let y = try? TemplateExpression.number(b, "") { return x < y ? -1 : x > y ? 1 : 0 }
        return a.text < b.text ? -1 : a.text > b.text ? 1 : 0
    }
}
