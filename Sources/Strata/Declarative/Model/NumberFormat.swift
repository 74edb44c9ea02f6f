// How a counter (a text layer whose `value` animates) writes its number: decimals, grouping,
// prefix and suffix, percent, currency, a duration as m:ss, in a locale, rounded one of four
// ways. The model's JSON/YAML form is an object ({"style": "currency", "decimals": 2,
// "currency": "EUR", "locale": "de_DE"}) or the name of a style ("percent"); the DSL writes it as
// `NumberFormat` values (`.number(decimals: 1)`, `.currency("USD")`).
//
// Digits and separators come from Foundation's NumberFormatter for the locale (ICU's data), the
// rounding is done here first so that every style rounds the same way, and a negative zero is
// written as zero.
import Foundation

/// How a counter writes its value.
///
/// ```swift
/// Counter(from: 0, to: 1234.5, format: .number(decimals: 1))          // "1,234.5"
/// Counter(from: 0, to: 0.42, format: .percent())                      // "42%"
/// Counter(from: 0, to: 99, format: .currency("EUR", locale: "de_DE")) // "99,00 €"
/// Counter(from: 90, to: 0, format: .duration(rounding: .up))          // "01:30" … "00:00"
/// ```
public struct NumberFormat: Hashable, Sendable {
    /// What the number is.
    public enum Style: String, Hashable, Sendable, CaseIterable {
        /// A plain number ("1,234.5").
        case number
        /// A fraction written as a percentage (0.42 → "42%"), as `NumberFormatter`'s percent style.
        case percent
        /// An amount of money in `currency` ("$1,234.50"); decimals default to the currency's.
        case currency
        /// Seconds written as minutes and seconds, "mm:ss" ("h:mm:ss" from an hour on; `decimals`
        /// adds fractions of a second, "00:07.5").
        case duration
    }

    /// How the value is rounded to `decimals` places.
    public enum Rounding: String, Hashable, Sendable, CaseIterable {
        /// To the nearest, halves away from zero.
        case nearest
        /// Up (a countdown from 5 shows "5" during its first second).
        case up
        /// Down (a count up shows "1" only once it reaches 1).
        case down
        /// Toward zero.
        case towardZero
    }

    /// What the number is.
    public var style: Style
    /// Digits after the decimal separator (nil: 0, a currency's own for `.currency`).
    public var decimals: Int?
    /// Whether thousands are grouped ("1,234"; not for `.duration`).
    public var grouping: Bool
    /// Text before the number.
    public var prefix: String
    /// Text after the number.
    public var suffix: String
    /// The locale's identifier ("en_US", "de_DE", "fr"): its separators, digits and currency
    /// placement. Nil: "en_US".
    public var locale: String?
    /// The ISO 4217 code of a `.currency` ("USD", "EUR", "JPY"; nil: "USD").
    public var currency: String?
    /// How the value is rounded.
    public var rounding: Rounding

    /// A format from all its parts.
    public init(style: Style = .number, decimals: Int? = nil, grouping: Bool = true, prefix: String = "", suffix: String = "",
                locale: String? = nil, currency: String? = nil, rounding: Rounding = .nearest) {
        self.style = style; self.decimals = decimals; self.grouping = grouping; self.prefix = prefix; self.suffix = suffix
        self.locale = locale; self.currency = currency; self.rounding = rounding
    }

    /// A plain number with `decimals` places, grouped thousands by default.
    public static func number(decimals: Int = 0, grouping: Bool = true, prefix: String = "", suffix: String = "",
                              locale: String? = nil, rounding: Rounding = .nearest) -> NumberFormat {
        NumberFormat(style: .number, decimals: decimals, grouping: grouping, prefix: prefix, suffix: suffix, locale: locale, rounding: rounding)
    }

    /// A fraction as a percentage (0.42 → "42%").
    public static func percent(decimals: Int = 0, locale: String? = nil, rounding: Rounding = .nearest) -> NumberFormat {
        NumberFormat(style: .percent, decimals: decimals, locale: locale, rounding: rounding)
    }

    /// An amount of money in the currency `code` ("USD", "EUR"), written as `locale` writes it.
    public static func currency(_ code: String = "USD", decimals: Int? = nil, locale: String? = nil,
                                rounding: Rounding = .nearest) -> NumberFormat {
        NumberFormat(style: .currency, decimals: decimals, locale: locale, currency: code, rounding: rounding)
    }

    /// Seconds as "mm:ss" (from an hour on "h:mm:ss"; `decimals` adds fractions of a second).
    public static func duration(decimals: Int = 0, rounding: Rounding = .nearest) -> NumberFormat {
        NumberFormat(style: .duration, decimals: decimals, grouping: false, rounding: rounding)
    }

    /// The most decimals a format may ask for.
    public static let maximumDecimals = 10

    /// `value` rounded to `places` decimals as this format rounds.
    func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        let x = value * scale
        // A hair of tolerance: an animation that ends at 42 may be evaluated at 41.999999999.
        let r: Double = switch rounding {
        case .nearest: x.rounded(.toNearestOrAwayFromZero)
        case .up: (x - 1e-7).rounded(.up)
        case .down: (x + 1e-7).rounded(.down)
        case .towardZero: x < 0 ? (x - 1e-7).rounded(.up) : (x + 1e-7).rounded(.down)
        }
        return r / scale + 0  // + 0 turns -0 into 0
    }
}

extension NumberFormat: PropertyValueConvertible {
    /// The model's object form (only the parts that differ from the defaults).
    public var propertyValue: PropertyValue {
        var o: [String: PropertyValue] = ["style": .string(style.rawValue)]
        if let decimals { o["decimals"] = .number(Double(decimals)) }
        if !grouping { o["grouping"] = .bool(false) }
        if !prefix.isEmpty { o["prefix"] = .string(prefix) }
        if !suffix.isEmpty { o["suffix"] = .string(suffix) }
        if let locale { o["locale"] = .string(locale) }
        if let currency { o["currency"] = .string(currency) }
        if rounding != .nearest { o["rounding"] = .string(rounding.rawValue) }
        return .object(o)
    }

    /// The keys of the object form.
    static let keys = ["style", "decimals", "grouping", "prefix", "suffix", "locale", "currency", "rounding"]

    /// Reads the object form (or a style's name); throws the problems, each with the key it is at.
    init(_ value: PropertyValue) throws(FormatProblem) {
        self.init()
        switch value {
        case .string(let name):
            guard let s = Style(rawValue: name) else {
                throw FormatProblem(key: nil, message: "expected a format object or one of \(Self.quoted(Style.allCases.map(\.rawValue))), got \(value)")
            }
            style = s
            return
        case .object(let o):
            for key in o.keys.sorted() where !Self.keys.contains(key) {
                throw FormatProblem(key: key, message: "unknown format key\(NearestName.didYouMean(key, among: Self.keys))(known: \(Self.keys.joined(separator: ", ")))")
            }
            func text(_ key: String) throws(FormatProblem) -> String? {
                guard let v = o[key] else { return nil }
                guard let s = v.string else { throw FormatProblem(key: key, message: "expected a string, got \(v)") }
                return s
            }
            if let s = try text("style") {
                guard let st = Style(rawValue: s) else {
                    throw FormatProblem(key: "style", message: "expected one of \(Self.quoted(Style.allCases.map(\.rawValue))), got \"\(s)\"")
                }
                style = st
            }
            if let v = o["decimals"] {
                guard let n = v.number, n == n.rounded(), n >= 0, n <= Double(Self.maximumDecimals) else {
                    throw FormatProblem(key: "decimals", message: "expected a whole number in 0…\(Self.maximumDecimals), got \(v)")
                }
                decimals = Int(n)
            }
            if let v = o["grouping"] {
                guard case .bool(let b) = v else { throw FormatProblem(key: "grouping", message: "expected true or false, got \(v)") }
                grouping = b
            }
            prefix = try text("prefix") ?? ""
            suffix = try text("suffix") ?? ""
            if let l = try text("locale") {
                let known = Locale.availableIdentifiers
                guard known.contains(l) else {
                    throw FormatProblem(key: "locale", message: "unknown locale \"\(l)\"\(NearestName.didYouMean(l, among: known))(identifiers such as en_US, de_DE, fr_FR, ja_JP)")
                }
                locale = l
            }
            if let c = try text("currency") {
                guard c.count == 3, c.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                    throw FormatProblem(key: "currency", message: "expected an ISO 4217 code of three capital letters (\"USD\", \"EUR\"), got \"\(c)\"")
                }
                currency = c
            }
            if let r = try text("rounding") {
                guard let rr = Rounding(rawValue: r) else {
                    throw FormatProblem(key: "rounding", message: "expected one of \(Self.quoted(Rounding.allCases.map(\.rawValue))), got \"\(r)\"")
                }
                rounding = rr
            }
        default:
            throw FormatProblem(key: nil, message: "expected a format object ({\"style\": \"number\", \"decimals\": 1, …}) or one of \(Self.quoted(Style.allCases.map(\.rawValue))), got \(value)")
        }
    }

    static func quoted(_ names: [String]) -> String { names.map { "\"\($0)\"" }.joined(separator: ", ") }
}

/// A problem with a format: the key it is at (nil: the format as a whole) and what was expected.
struct FormatProblem: Error {
    let key: String?
    let message: String
}

/// Writes numbers in one format. One per counter: the formatter is made once.
final class NumberWriter {
    let format: NumberFormat
    private let formatter: NumberFormatter?
    /// The decimals used (the currency's own when the format gives none).
    let places: Int

    init(_ format: NumberFormat) {
        self.format = format
        guard format.style != .duration else {
            formatter = nil
            places = min(max(format.decimals ?? 0, 0), NumberFormat.maximumDecimals)
            return
        }
        let f = NumberFormatter()
        f.locale = Locale(identifier: format.locale ?? "en_US")
        switch format.style {
        case .number: f.numberStyle = .decimal
        case .percent: f.numberStyle = .percent
        case .currency:
            f.numberStyle = .currency
            f.currencyCode = format.currency ?? "USD"
        case .duration: break
        }
        let own = format.style == .currency ? (NumberWriter.wholeCurrencies.contains(f.currencyCode) ? 0 : 2) : 0
        let p = min(max(format.decimals ?? own, 0), NumberFormat.maximumDecimals)
        f.minimumFractionDigits = p
        f.maximumFractionDigits = p
        f.usesGroupingSeparator = format.grouping
        f.roundingMode = .halfUp
        formatter = f
        places = p
    }

    /// The ISO 4217 currencies without minor units (written without decimals by default; the
    /// others with two). Foundation on Linux keeps two fraction digits for every currency.
    static let wholeCurrencies: Set<String> = ["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX",
                                               "UYI", "VND", "VUV", "XAF", "XOF", "XPF"]

    /// The text of `value`.
    func text(_ value: Double) -> String {
        guard value.isFinite else { return format.prefix + (value.isNaN ? "NaN" : value < 0 ? "-∞" : "∞") + format.suffix }
        let body: String
        if let formatter {
            // Percent multiplies by 100 before it shows decimals: round the percentage.
            let scale = format.style == .percent ? 100.0 : 1
            let r = format.rounded(value * scale, places: places) / scale
            body = formatter.string(from: NSNumber(value: r)) ?? String(r)
        } else {
            body = duration(value)
        }
        return format.prefix + body + format.suffix
    }

    /// Seconds as [h:]mm:ss[.fff].
    private func duration(_ seconds: Double) -> String {
        let r = format.rounded(seconds, places: places)
        let negative = r < 0
        let scale = pow(10, Double(places))
        // Whole units of 10^-places seconds, so the parts add up exactly.
        let units = (abs(r) * scale).rounded()
        guard units < 1e15 else {
            // Beyond whole units of Int64: hours written from the double, no fraction.
            let a = abs(r)
            guard a.isFinite else { return negative ? "-∞" : "∞" }
            let m = Int(fmod(a, 3600) / 60), s = Int(fmod(a, 60))
            return (negative ? "-" : "") + String(format: "%.0f", (a / 3600).rounded(.down)) + ":" + (m < 10 ? "0\(m)" : "\(m)") + ":" + (s < 10 ? "0\(s)" : "\(s)")
        }
        let total = Int64(units)
        let unitsPerSecond = Int64(scale)
        let fraction = total % unitsPerSecond
        let wholeSeconds = total / unitsPerSecond
        let s = wholeSeconds % 60, m = (wholeSeconds / 60) % 60, h = wholeSeconds / 3600
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var out = negative ? "-" : ""
        out += h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(two(m)):\(two(s))"
        if places > 0 {
            let digits = String(fraction)
            out += "." + String(repeating: "0", count: places - digits.count) + digits
        }
        return out
    }
}
