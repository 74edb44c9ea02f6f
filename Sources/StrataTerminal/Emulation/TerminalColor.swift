// A colour as a program asked for it, before a theme resolves it: the terminal's default, one
// of the 256 palette entries (0–15 are the theme's ANSI colours), or 24-bit RGB.

/// A cell's foreground or background colour, unresolved.
public enum TerminalColor: Hashable, Sendable {
    /// The default foreground or background (the theme's `foreground` / `background`).
    case `default`
    /// An entry of the 256-colour palette: 0–7 the ANSI colours, 8–15 their bright variants,
    /// 16–231 a 6×6×6 cube, 232–255 a grey ramp.
    case indexed(UInt8)
    /// A 24-bit colour (`ESC[38;2;r;g;bm`).
    case rgb(UInt8, UInt8, UInt8)
}
