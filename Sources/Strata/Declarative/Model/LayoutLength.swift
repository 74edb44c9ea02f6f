// Lengths relative to the space a layer is offered, in the declarative model: points, a fraction
// of the parent (`"50%"`), or all of it (`"fill"`, also written `"infinity"` as SwiftUI's
// `.frame(maxWidth: .infinity)`); padding is made of them (LayoutInsets.swift). Resolved when
// the composition is compiled (CompositionCompiler+Fill.swift), so a composition laid out again
// at another `--size` keeps its proportions.
import Foundation

/// A length in a layout: points, a fraction of the offered length, or all of it.
public enum LayoutLength: Codable, Hashable, Sendable {
    /// A fixed number of points.
    case points(Double)
    /// A percentage of the length the parent offers (50: half). Written `"50%"`.
    case percent(Double)
    /// All of the length the parent offers. Written `"fill"` (or `"infinity"`).
    case fill

    /// A fraction of the offered length (0.5: half).
    public static func fraction(_ f: Double) -> LayoutLength { .percent(f * 100) }

    /// The length in points, offered `available` points.
    func resolved(in available: CGFloat) -> CGFloat {
        switch self {
        case .points(let p): CGFloat(p)
        case .percent(let p): CGFloat(p / 100) * available
        case .fill: available
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Double.self) {
            guard n.isFinite, n >= 0 else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected a length ≥ 0, got \(PropertyValue.number(n))")
            }
            self = .points(n); return
        }
        let s = try c.decode(String.self).trimmingCharacters(in: .whitespaces)
        if s == "fill" || s == "infinity" { self = .fill; return }
        if s.hasSuffix("%"), let n = Double(s.dropLast().trimmingCharacters(in: .whitespaces)), n.isFinite, n >= 0 {
            self = .percent(n); return
        }
        throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected a length: points (120), a percentage of the parent (\"50%\") or \"fill\", got \"\(Echo.text(s))\"")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .points(let p): try c.encode(p)
        case .percent(let p): try c.encode("\(PropertyValue.number(p).description)%")
        case .fill: try c.encode("fill")
        }
    }
}
