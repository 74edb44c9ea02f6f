// The fill rules a shape layer can use, with Core Animation's names and raw values.
import Foundation

/// How a `CAShapeLayer` decides which points its path encloses (Apple's `CAShapeLayerFillRule`).
///
/// The raw values are Core Animation's string constants (`kCAFillRuleNonZero` is `"non-zero"`),
/// so templates and KVC code can use them as strings.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    /// The Core Animation string constant.
    public let rawValue: String
    /// A fill rule from its Core Animation string constant.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Non-zero winding number (the default).
    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    /// An odd number of boundary crossings: overlapping regions alternate.
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")

    /// The equivalent Core Graphics rule (unknown raw values act as `.nonZero`).
    public var cgFillRule: CGPathFillRule { self == .evenOdd ? .evenOdd : .winding }
}
