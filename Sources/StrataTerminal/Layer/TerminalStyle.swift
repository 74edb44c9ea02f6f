// How a terminal looks, apart from what it shows: font, colours, cursor, and the window around
// the grid (padding, a title bar, rounded corners, a shadow, a margin). The defaults make a
// dark window with a little padding, as a documentation GIF usually wants.
import Foundation

/// The decoration across the top of the terminal window.
public enum TerminalWindowBar: String, Hashable, Sendable, Codable, CaseIterable {
    /// No bar.
    case none
    /// Three filled dots (red, yellow, green) on the left.
    case colorful
    /// Three filled dots on the right.
    case colorfulRight
    /// Three outlined dots on the left.
    case rings
    /// Three outlined dots on the right.
    case ringsRight
}

/// The appearance of a `TerminalLayer`.
public struct TerminalStyle: Hashable, Sendable {
    /// The colours.
    public var theme: TerminalTheme = .strataDark
    /// A monospace font family (fontconfig resolves it; DejaVu Sans Mono ships with Strata's image).
    public var fontFamily = "DejaVu Sans Mono"
    /// Font size in points.
    public var fontSize: CGFloat = 22
    /// Row height as a multiple of the font's line height.
    public var lineHeight: CGFloat = 1
    /// Extra space between columns, in points.
    public var letterSpacing: CGFloat = 0
    /// Space between the window's edge and the grid, in points.
    public var padding: CGFloat = 24
    /// Space around the window, filled with `marginFill`, in points.
    public var margin: CGFloat = 0
    /// The colour around the window (nil: transparent).
    public var marginFill: TerminalRGB?
    /// A picture (a PNG, JPEG or WebP file's path) filling the whole layer behind the window,
    /// cropped to cover it, over `marginFill` (nil: none; a file that cannot be read shows
    /// `marginFill`).
    public var marginImage: String?
    /// The window's title bar.
    public var windowBar: TerminalWindowBar = .none
    /// Height of the title bar, in points.
    public var windowBarSize: CGFloat = 32
    /// A title centred in the title bar (nil: none), in the theme's foreground, dimmed.
    public var windowTitle: String?
    /// Radius of the window's corners, in points.
    public var borderRadius: CGFloat = 0
    /// Whether the window casts a shadow (needs a margin to be seen).
    public var shadow = false
    /// The shadow's blur radius, in points.
    public var shadowRadius: CGFloat = 16
    /// The cursor's shape when the program does not choose one.
    public var cursorShape: TerminalCursorShape = .block
    /// Whether the cursor blinks (it stays on for one interval after each change of the screen).
    public var cursorBlink = true
    /// Seconds the blinking cursor is on, then off.
    public var cursorBlinkInterval: Double = 0.5

    /// The default look (see each property's default).
    public init() {}

    /// Height of the title bar as drawn (0 without one).
    public var barHeight: CGFloat { windowBar == .none ? 0 : windowBarSize }
}
