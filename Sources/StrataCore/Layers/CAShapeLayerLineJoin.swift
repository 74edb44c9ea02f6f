// The line joins a shape layer can use, with Core Animation's names and raw values.
import Foundation

/// How corners between a `CAShapeLayer`'s stroked segments are drawn (Apple's
/// `CAShapeLayerLineJoin`).
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    /// The Core Animation string constant (`kCALineJoinRound` is `"round"`).
    public let rawValue: String
    /// A line join from its Core Animation string constant.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Sharp corners, bevelled where the miter would exceed `miterLimit` (the default).
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    /// Rounded corners.
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    /// Corners cut off square to the bisector.
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")

    /// The equivalent Core Graphics join (unknown raw values act as `.miter`).
    public var cgLineJoin: CGLineJoin {
        switch self {
        case .round: .round
        case .bevel: .bevel
        default: .miter
        }
    }
}
