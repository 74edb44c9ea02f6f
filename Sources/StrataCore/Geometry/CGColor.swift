// Colours are sRGB, 8-bit on output, straight (unpremultiplied) in the model.
import Foundation

/// An sRGB colour with straight alpha; components are kept as given (not clamped) so animation
/// can overshoot with spring curves, and clamped only when drawn.
public final class CGColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public convenience init(gray: CGFloat, alpha: CGFloat) { self.init(red: gray, green: gray, blue: gray, alpha: alpha) }
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// `[red, green, blue, alpha]`, as Core Graphics returns for an RGB colour.
    public var components: [CGFloat]? { [red, green, blue, alpha] }
    public var numberOfComponents: Int { 4 }

    public func copy(alpha: CGFloat) -> CGColor? { CGColor(red: red, green: green, blue: blue, alpha: alpha) }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)

    public static func == (l: CGColor, r: CGColor) -> Bool {
        l.red == r.red && l.green == r.green && l.blue == r.blue && l.alpha == r.alpha
    }
    public func hash(into h: inout Hasher) { h.combine(red); h.combine(green); h.combine(blue); h.combine(alpha) }
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

public func CGColorCreateGenericRGB(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat) -> CGColor {
    CGColor(red: r, green: g, blue: b, alpha: a)
}
