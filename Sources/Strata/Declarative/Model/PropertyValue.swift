// The value of a property in the declarative model: JSON's shapes (number, string, boolean,
// array, object), so the same values come from Swift (the DSL writes them in canonical forms)
// and from JSON/YAML templates. What a value means — a point, a colour, a transform — is decided
// by the property it is given to, when the composition is compiled, so an error can say which
// property expected what ("layers[2].position: expected a point [x, y], got \"left\"").
import Foundation

/// A property's value as the declarative model stores it.
public enum PropertyValue: Codable, Hashable, Sendable, CustomStringConvertible {
    /// A number (JSON's numbers; Swift integers and floating-point values alike).
    case number(Double)
    /// A string: text, a colour such as `"#FF8800"`, a named choice, an expression.
    case string(String)
    /// A Boolean.
    case bool(Bool)
    /// An ordered list, such as a point `[x, y]` or keyframe values.
    case array([PropertyValue])
    /// Named values, such as `{"matrix": [...]}` for a transform.
    case object([String: PropertyValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let n = try? c.decode(Double.self) { self = .number(n); return }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let a = try? c.decode([PropertyValue].self) { self = .array(a); return }
        if let o = try? c.decode([String: PropertyValue].self) { self = .object(o); return }
        throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected a number, string, boolean, array or object")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let n): try c.encode(n)
        case .string(let s): try c.encode(s)
        case .bool(let b): try c.encode(b)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// The value as written in JSON, long texts and lists cut short (for error messages).
    public var description: String {
        switch self {
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .string(let s): "\"\(Echo.text(s))\""
        case .bool(let b): String(b)
        case .array(let a): "[" + Echo.list(a, \.description) + "]"
        case .object(let o): "{" + Echo.list(o.keys.sorted()) { "\"\(Echo.text($0))\": \(o[$0]!)" } + "}"
        }
    }

    /// The number, if this is one.
    public var number: Double? { if case .number(let n) = self { return n }; return nil }
    /// The numbers of an array of numbers.
    public var numbers: [Double]? {
        guard case .array(let a) = self else { return nil }
        let ns = a.compactMap(\.number)
        return ns.count == a.count ? ns : nil
    }
    /// The text, when the value is a string.
    public var string: String? { if case .string(let s) = self { return s }; return nil }
}
