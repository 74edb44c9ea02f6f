// Lengths relative to the space a layer is offered, in the declarative model: points, a fraction
// of the parent (`"50%"`), or all of it (`"fill"`, also written `"infinity"` as SwiftUI's
// `.frame(maxWidth: .infinity)`), and padding made of them, including the safe area of social
// video formats. Resolved when the composition is compiled (CompositionCompiler+Fill.swift), so
// a composition laid out again at another `--size` keeps its proportions.
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

/// Padding: a length per edge, or the safe area of the format.
public enum LayoutInsets: Codable, Hashable, Sendable {
    /// Lengths for the top, leading, bottom and trailing edges (percentages of the offered
    /// height for top and bottom, of the offered width for leading and trailing).
    case edges(top: LayoutLength, leading: LayoutLength, bottom: LayoutLength, trailing: LayoutLength)
    /// The area clear of what platforms draw over a video, chosen by the offered size's shape:
    /// vertical (narrower than 3:4; TikTok, Reels, Shorts put captions and buttons over the
    /// bottom and the right): 10 % top, 20 % bottom, 6 % leading, 12 % trailing; square-ish
    /// (3:4 to 4:3): 5 % on every side; landscape: the title-safe area, 5 % on every side.
    case safeArea

    /// The same length on every edge.
    public static func all(_ l: LayoutLength) -> LayoutInsets { .edges(top: l, leading: l, bottom: l, trailing: l) }

    /// The insets in points for an offered size: (top, leading, bottom, trailing).
    func resolved(in size: CGSize) -> (top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        switch self {
        case .edges(let t, let l, let b, let r):
            return (t.resolved(in: size.height), l.resolved(in: size.width), b.resolved(in: size.height), r.resolved(in: size.width))
        case .safeArea:
            let aspect = size.height > 0 ? size.width / size.height : 1
            if aspect < 0.75 {
                return (0.10 * size.height, 0.06 * size.width, 0.20 * size.height, 0.12 * size.width)
            }
            return (0.05 * size.height, 0.05 * size.width, 0.05 * size.height, 0.05 * size.width)
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let s = try? c.decode(String.self), s == "safeArea" { self = .safeArea; return }
        if let one = try? c.decode(LayoutLength.self) { self = .all(one); return }
        if let list = try? c.decode([LayoutLength].self) {
            switch list.count {
            case 2: self = .edges(top: list[0], leading: list[1], bottom: list[0], trailing: list[1]); return
            case 4: self = .edges(top: list[0], leading: list[1], bottom: list[2], trailing: list[3]); return
            default: break
            }
        }
        throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected padding: a length (16 or \"5%\"), [vertical, horizontal], [top, leading, bottom, trailing] or \"safeArea\"")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .safeArea: try c.encode("safeArea")
        case .edges(let t, let l, let b, let r):
            if t == l, l == b, b == r { try c.encode(t) } else { try c.encode([t, l, b, r]) }
        }
    }
}
