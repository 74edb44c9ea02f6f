// The pattern of the template function `format(number, pattern)`: text around exactly one
// printf-style conversion of a number, `%[flags][width][.precision]conversion` with flags from
// `-+ #0` and a conversion from `d x X f e E g G`. A pattern comes from a template's author, who
// may be hostile, so it is parsed here and never handed to `String(format:)` as written: width
// and precision are bounded (a `%.2147483647f` made Foundation crash, a `%999999999.0f` asked for
// a gigabyte), and the one conversion is rebuilt from the parsed parts with the length modifier
// the argument needs; the text around it is copied, not interpreted.
import Foundation

struct NumberFormatPattern: Equatable {
    /// The largest width or precision a pattern may ask for: wider than any line of a video
    /// frame needs, far below what makes formatting slow or large.
    static let maximumField = 100

    var prefix: String
    var flags: String
    var width: Int?
    var precision: Int?
    /// One of `d x X f e E g G`.
    var conversion: Character
    var suffix: String

    /// Whether the conversion takes a whole number (`d`, `x`, `X`).
    var isWhole: Bool { "dxX".contains(conversion) }

    struct Problem: Error { let message: String }

    /// Parses `pattern`; throws a message naming the pattern and what is wrong.
    init(_ pattern: String) throws {
        let usage = "format needs one number pattern such as \"%.1f\" or \"%05d\", got \"\(pattern)\""
        let chars = Array(pattern)
        guard chars.filter({ $0 == "%" }).count == 1, let start = chars.firstIndex(of: "%") else { throw Problem(message: usage) }
        var i = start + 1
        var flags = ""
        while i < chars.count, "-+ #0".contains(chars[i]) { flags.append(chars[i]); i += 1 }
        // A run of digits, read with a bound so that a long run cannot overflow.
        func field(_ name: String) throws -> Int? {
            let first = i
            while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
            guard i > first else { return nil }
            let digits = String(chars[first..<i])
            guard digits.count <= 4, let n = Int(digits), n <= Self.maximumField else {
                throw Problem(message: "the \(name) \(digits) in \"\(pattern)\" is too large (at most \(Self.maximumField))")
            }
            return n
        }
        let width = try field("width")
        var precision: Int?
        if i < chars.count, chars[i] == "." {
            i += 1
            precision = try field("precision") ?? 0
        }
        guard i < chars.count, "dxXfeEgG".contains(chars[i]) else { throw Problem(message: usage) }
        self.prefix = String(chars[..<start])
        self.flags = flags
        self.width = width
        self.precision = precision
        self.conversion = chars[i]
        self.suffix = String(chars[(i + 1)...])
    }

    /// The conversion alone, rebuilt from its parsed parts (`%ld` for a whole number: the
    /// argument is a 64-bit Int).
    var conversionSpecification: String {
        var s = "%" + flags
        if let width { s += String(width) }
        if let precision { s += "." + String(precision) }
        return s + (isWhole ? "l" : "") + String(conversion)
    }

    /// `value` formatted: the prefix, the conversion of `value`, the suffix.
    func format(whole value: Int) -> String { prefix + String(format: conversionSpecification, value) + suffix }
    func format(_ value: Double) -> String { prefix + String(format: conversionSpecification, value) + suffix }
}
