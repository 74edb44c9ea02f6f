// Where a text layer cuts text that does not fit, with Core Animation's names and raw values.
import Foundation

/// How a `CATextLayer` truncates text too long for its bounds (Apple's
/// `CATextLayerTruncationMode`). Truncated text shows an ellipsis (…) where it was cut.
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    /// The Core Animation string constant (`kCATruncationEnd` is `"end"`).
    public let rawValue: String
    /// A truncation mode from its Core Animation string constant.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// No truncation: text past the bounds is clipped (the default).
    public static let none = CATextLayerTruncationMode(rawValue: "none")
    /// The start of the line is replaced by an ellipsis.
    public static let start = CATextLayerTruncationMode(rawValue: "start")
    /// The end of the line is replaced by an ellipsis.
    public static let end = CATextLayerTruncationMode(rawValue: "end")
    /// The middle of the line is replaced by an ellipsis.
    public static let middle = CATextLayerTruncationMode(rawValue: "middle")
}
