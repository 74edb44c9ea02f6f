// Blend modes of the Core Graphics drawing model, replayed as Cairo operators.
import Foundation

/// How drawing combines with the pixels already in the context (Apple's raw values). Porter–Duff
/// modes are Cairo's operators; `plusDarker` has no Cairo counterpart and draws as `normal`.
public enum CGBlendMode: Int32, Hashable, Sendable {
    case normal = 0, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    case difference, exclusion, hue, saturation, color, luminosity
    case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut
    case destinationAtop, xor, plusDarker, plusLighter
}
