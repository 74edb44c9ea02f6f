// A font reference by name and size, for ported code that hands fonts to text layers and
// attributed strings. Strata does not load anything here (Core imports Foundation only): the
// name is resolved through fontconfig when the text is laid out (StrataRender's FontResolver).
import Foundation

/// A font name and point size (a small stand-in for UIKit's `UIFont`).
///
/// Any name is accepted; it is resolved when text is drawn. Names of Apple fonts that are not
/// installed fall back to a generic family of the same kind — "Helvetica", "Arial", ".SFUI-…"
/// → sans-serif; "Times", "Georgia" → serif; "Courier", "Menlo" → monospace — and unknown names
/// to sans-serif (see `TextMetrics.resolvedFamily(forFontName:)` in StrataRender).
///
/// ```swift
/// let title = NSAttributedString(string: "Strata", attributes: [
///     .font: UIFont(name: "DejaVu Sans Bold", size: 48)!,
///     .foregroundColor: CGColor.white,
/// ])
/// ```
public final class UIFont: Hashable, Sendable, CustomStringConvertible {
    /// The name the font was created with (a family, "Family Style" or a PostScript name).
    public let fontName: String
    /// The size in points.
    public let pointSize: CGFloat

    /// **Strata:** OpenType features the font is drawn with (`"tnum"`: tabular digits), as
    /// `monospacedDigits()` and `monospacedDigitSystemFont(ofSize:weight:)` set them. On iOS
    /// they live in the font's descriptor (`UIFontDescriptor.AttributeName.featureSettings`).
    public let fontFeatures: [String]

    /// A font by name and size. Never nil in Strata (resolution happens when text is laid out);
    /// the optional mirrors UIKit so ported `UIFont(name:size:)!` compiles unchanged.
    public init?(name fontName: String, size fontSize: CGFloat) {
        self.fontName = fontName
        self.pointSize = fontSize
        self.fontFeatures = []
    }

    private init(validName: String, size: CGFloat, features: [String] = []) {
        fontName = validName
        pointSize = size
        fontFeatures = features
    }

    /// **Strata:** the same font with tabular digits (OpenType `tnum`): every digit as wide as
    /// the others, so a number that changes does not make the text around it move. Apple's
    /// equivalent is a descriptor with the feature setting `kNumberSpacingType` /
    /// `kMonospacedNumbersSelector`. Fonts whose digits are tabular anyway (DejaVu) look the same.
    public func monospacedDigits() -> UIFont {
        fontFeatures.contains("tnum") ? self : UIFont(validName: fontName, size: pointSize, features: fontFeatures + ["tnum"])
    }

    /// The system font in a weight, with tabular digits (see `monospacedDigits()`).
    public static func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        systemFont(ofSize: fontSize, weight: weight).monospacedDigits()
    }

    /// Font weights, with UIKit's raw values.
    public struct Weight: RawRepresentable, Hashable, Sendable {
        /// UIKit's weight value (−1…1, regular = 0).
        public let rawValue: CGFloat
        /// A weight from its UIKit value.
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        /// Ultra-light (−0.8).
        public static let ultraLight = Weight(rawValue: -0.8)
        /// Thin (−0.6).
        public static let thin = Weight(rawValue: -0.6)
        /// Light (−0.4).
        public static let light = Weight(rawValue: -0.4)
        /// Regular (0).
        public static let regular = Weight(rawValue: 0)
        /// Medium (0.23).
        public static let medium = Weight(rawValue: 0.23)
        /// Semibold (0.3).
        public static let semibold = Weight(rawValue: 0.3)
        /// Bold (0.4).
        public static let bold = Weight(rawValue: 0.4)
        /// Heavy (0.56).
        public static let heavy = Weight(rawValue: 0.56)
        /// Black (0.62).
        public static let black = Weight(rawValue: 0.62)

        /// The style word used in the font name (`"Bold"`, …).
        var styleName: String {
            switch rawValue {
            case ..<(-0.7): "UltraLight"
            case ..<(-0.5): "Thin"
            case ..<(-0.2): "Light"
            case ..<0.15: "Regular"
            case ..<0.27: "Medium"
            case ..<0.35: "Semibold"
            case ..<0.5: "Bold"
            case ..<0.6: "Heavy"
            default: "Black"
            }
        }
    }

    /// The system font (named `.SFUI-Regular` as on iOS; drawn with the sans-serif face).
    public static func systemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(validName: ".SFUI-Regular", size: fontSize)
    }

    /// The system font in a weight (`.SFUI-Bold`, …).
    public static func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(validName: ".SFUI-" + weight.styleName, size: fontSize)
    }

    /// The bold system font.
    public static func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(validName: ".SFUI-Bold", size: fontSize)
    }

    /// The italic system font.
    public static func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(validName: ".SFUI-Italic", size: fontSize)
    }

    /// The monospaced system font in a weight (`.SFMono-Regular`, …; drawn with a monospace face).
    public static func monospacedSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(validName: ".SFMono-" + weight.styleName, size: fontSize)
    }

    /// The same font at another size.
    public func withSize(_ fontSize: CGFloat) -> UIFont { UIFont(validName: fontName, size: fontSize, features: fontFeatures) }

    /// Equal names, sizes and features.
    public static func == (l: UIFont, r: UIFont) -> Bool {
        l.fontName == r.fontName && l.pointSize == r.pointSize && l.fontFeatures == r.fontFeatures
    }
    /// Hashes the name, size and features.
    public func hash(into h: inout Hasher) { h.combine(fontName); h.combine(pointSize); h.combine(fontFeatures) }
    /// The name and size.
    public var description: String { "UIFont(\(fontName), \(Double(pointSize)) pt)" }
}
