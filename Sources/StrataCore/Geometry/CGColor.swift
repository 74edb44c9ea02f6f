// Colours are sRGB, 8-bit on output, straight (unpremultiplied) in the model.
import Foundation

/// An sRGB colour with straight alpha; components are kept as given (not clamped) so animation
/// can overshoot with spring curves, and clamped only when drawn.
///
/// ```swift
/// layer.backgroundColor = CGColor(red: 0.1, green: 0.5, blue: 0.9, alpha: 1)
/// layer.borderColor = CGColor(gray: 0, alpha: 0.5)
/// ```
public final class CGColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The components, in 0…1 for in-gamut colours.
    public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat

    /// An sRGB colour from its components.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// A grey: `red = green = blue = gray`.
    public convenience init(gray: CGFloat, alpha: CGFloat) { self.init(red: gray, green: gray, blue: gray, alpha: alpha) }
    /// Apple's explicit-sRGB spelling; the same as `init(red:green:blue:alpha:)`.
    /// A colour from `components` in `colorSpace` (an RGB space takes red, green, blue, alpha; a
    /// grey one white, alpha); nil when the components do not fit the space. Strata's spaces
    /// are all sRGB.
    public convenience init?(colorSpace: CGColorSpace, components: UnsafePointer<CGFloat>) {
        if colorSpace.numberOfComponents == 1 {
            self.init(red: components[0], green: components[0], blue: components[0], alpha: components[1])
        } else {
            self.init(red: components[0], green: components[1], blue: components[2], alpha: components[3])
        }
    }

    /// A colour from sRGB components (0…1), the same as `init(red:green:blue:alpha:)`.
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// `[red, green, blue, alpha]`, as Core Graphics returns for an RGB colour.
    public var components: [CGFloat]? { [red, green, blue, alpha] }
    /// Always 4 (RGBA).
    public var numberOfComponents: Int { 4 }

    /// The same colour with `alpha` replaced.
    public func copy(alpha: CGFloat) -> CGColor? { CGColor(red: red, green: green, blue: blue, alpha: alpha) }

    /// Opaque black.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Fully transparent black.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// Component-wise equality.
    public static func == (l: CGColor, r: CGColor) -> Bool {
        l.red == r.red && l.green == r.green && l.blue == r.blue && l.alpha == r.alpha
    }
    /// Hashes the four components.
    public func hash(into h: inout Hasher) { h.combine(red); h.combine(green); h.combine(blue); h.combine(alpha) }
    /// The components, labelled.
    public var description: String { "CGColor(r: \(red), g: \(green), b: \(blue), a: \(alpha))" }

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa`; nil when malformed.
    public convenience init?(hex: String) {
        var s = hex.trimmingCharacters(in: .whitespaces)
        if s.hasPrefix("#") { s.removeFirst() }
        if s.count == 3 { s = s.map { "\($0)\($0)" }.joined() }
        guard s.count == 6 || s.count == 8, let v = UInt64(s, radix: 16) else { return nil }
        let n = s.count == 6 ? (v << 8) | 0xff : v
        self.init(red: CGFloat((n >> 24) & 0xff) / 255, green: CGFloat((n >> 16) & 0xff) / 255,
                  blue: CGFloat((n >> 8) & 0xff) / 255, alpha: CGFloat(n & 0xff) / 255)
    }
}

/// An sRGB colour from its components (Core Graphics' C spelling).
public func CGColorCreateGenericRGB(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat) -> CGColor {
    CGColor(red: r, green: g, blue: b, alpha: a)
}
