// Underline and strikethrough styles for attributed strings, with UIKit's raw values.
import Foundation

/// The style of an underline or strikethrough (UIKit's `NSUnderlineStyle`); the value of
/// `NSAttributedString.Key.underlineStyle` and `.strikethroughStyle`, given as this type or as
/// its raw `Int`.
public struct NSUnderlineStyle: OptionSet, Hashable, Sendable {
    /// UIKit's bit pattern.
    public let rawValue: Int
    /// A style from UIKit's bit pattern.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// One thin line.
    public static let single = NSUnderlineStyle(rawValue: 0x01)
    /// One thick line.
    public static let thick = NSUnderlineStyle(rawValue: 0x02)
    /// Two thin lines.
    public static let double = NSUnderlineStyle(rawValue: 0x09)
}
