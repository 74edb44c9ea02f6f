// Blend modes of the Core Graphics drawing model, replayed as Cairo operators.
import Foundation

/// How drawing combines with the pixels already in the context (Apple's raw values). Porter–Duff
/// modes are Cairo's operators; `plusDarker` has no Cairo counterpart and draws as `normal`.
public enum CGBlendMode: Int32, Hashable, Sendable {
    /// The separable modes (PDF's): `normal` paints over, `multiply` darkens, `screen` lightens,
    /// `overlay`, `darken`, `lighten`, `colorDodge`, `colorBurn`, `softLight`, `hardLight`.
    case normal = 0, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    /// `difference` and `exclusion`, then the non-separable modes that take the hue, saturation,
    /// colour (hue and saturation) or luminosity of what is drawn.
    case difference, exclusion, hue, saturation, color, luminosity
    /// Porter–Duff compositing: `clear` erases, `copy` replaces, and the source/destination
    /// in/out/atop/over operators.
    case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut
    /// `destinationAtop`, `xor`; `plusDarker` (drawn as `normal`); `plusLighter` adds the colours.
    case destinationAtop, xor, plusDarker, plusLighter
}
