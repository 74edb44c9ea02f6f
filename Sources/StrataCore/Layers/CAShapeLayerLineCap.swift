// The line caps a shape layer can use, with Core Animation's names and raw values.
import Foundation

/// How the ends of a `CAShapeLayer`'s open subpaths are stroked (Apple's `CAShapeLayerLineCap`).
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    /// The Core Animation string constant (`kCALineCapRound` is `"round"`).
    public let rawValue: String
    /// A line cap from its Core Animation string constant.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The stroke stops at the end point (the default).
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    /// A half-disc of diameter `lineWidth` caps each end.
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    /// The stroke extends half of `lineWidth` beyond each end, squared off.
    public static let square = CAShapeLayerLineCap(rawValue: "square")

    /// The equivalent Core Graphics cap (unknown raw values act as `.butt`).
    public var cgLineCap: CGLineCap {
        switch self {
        case .round: .round
        case .square: .square
        default: .butt
        }
    }
}
