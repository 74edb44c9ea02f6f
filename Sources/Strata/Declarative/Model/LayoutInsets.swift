// Padding in the declarative model: a length per edge (points, or percentages of the space the
// parent offers), or the safe area of the format — clear of what social platforms draw over a
// vertical video, the title-safe area otherwise. Resolved when the composition is compiled
// (CompositionCompiler+Fill.swift), so it follows `--size`.
import Foundation

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
