// The attribute keys CATextLayer reads from attributed strings, with the raw values UIKit and
// AppKit use, so ported code (`[.font: …, .foregroundColor: …]`) compiles and behaves the same.
// Foundation on Linux defines NSAttributedString.Key but none of these constants.
import Foundation

extension NSAttributedString.Key {
    /// The font of a run: a `UIFont` (its size is used) or a font name `String` (at 12 pt,
    /// Core Text's default size). Runs without one use Helvetica 12 pt, as Core Text does.
    public static let font = NSAttributedString.Key("NSFont")
    /// The text colour of a run: a `CGColor` (runs without one are black, as in Core Text).
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// Extra space between characters, in points (a number). **Strata:** added between
    /// characters (Pango letter spacing); Core Text also adds it after the last character.
    public static let kern = NSAttributedString.Key("NSKern")
    /// An underline: `NSUnderlineStyle` or its raw `Int` (0: none).
    public static let underlineStyle = NSAttributedString.Key("NSUnderline")
    /// The colour of the underline and strikethrough (default: the text colour).
    public static let underlineColor = NSAttributedString.Key("NSUnderlineColor")
    /// A line through the text: `NSUnderlineStyle` or its raw `Int` (0: none).
    public static let strikethroughStyle = NSAttributedString.Key("NSStrikethrough")
}
