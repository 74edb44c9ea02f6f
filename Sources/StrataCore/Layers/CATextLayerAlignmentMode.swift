// How a text layer aligns its lines, with Core Animation's names and raw values.
import Foundation

/// How a `CATextLayer` aligns lines horizontally in its bounds (Apple's
/// `CATextLayerAlignmentMode`).
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    /// The Core Animation string constant (`kCAAlignmentCenter` is `"center"`).
    public let rawValue: String
    /// An alignment mode from its Core Animation string constant.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Left for left-to-right paragraphs, right for right-to-left ones (the default).
    public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
    /// Flush left.
    public static let left = CATextLayerAlignmentMode(rawValue: "left")
    /// Flush right.
    public static let right = CATextLayerAlignmentMode(rawValue: "right")
    /// Centred.
    public static let center = CATextLayerAlignmentMode(rawValue: "center")
    /// Both edges flush, except the last line of a paragraph, which is natural.
    public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}
