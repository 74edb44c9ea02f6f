// Colours for the DSL: hex strings, CSS names, sRGB components and OKLCH, stored in the model as
// "#RRGGBB"/"#RRGGBBAA" when the components are whole bytes, else [r, g, b, a].
import Foundation
import StrataCore

/// An sRGB colour with alpha.
///
/// ```swift
/// .fill(.hex("#FF5A36"))   .foreground(.white)   .background(Color(oklch: 0.7, 0.15, 250))
/// ```
public struct Color: Hashable, Sendable, PropertyValueConvertible {
    /// The sRGB components and the alpha, 0…1 each (not premultiplied).
    public var red: Double, green: Double, blue: Double, alpha: Double

    /// A colour from sRGB components, 0…1 each.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A grey.
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    /// A colour from OKLCH (lightness 0…1, chroma ≈ 0…0.4, hue in degrees), converted to sRGB
    /// (out-of-gamut components clamped) — perceptually even ramps for charts and palettes.
    public init(oklch l: Double, _ c: Double, _ h: Double, alpha: Double = 1) {
        let hr = h * .pi / 180
        let a = c * cos(hr), b = c * sin(hr)
        let l_ = l + 0.3963377774 * a + 0.2158037573 * b
        let m_ = l - 0.1055613458 * a - 0.0638541728 * b
        let s_ = l - 0.0894841775 * a - 1.2914855480 * b
        let (L, M, S) = (l_ * l_ * l_, m_ * m_ * m_, s_ * s_ * s_)
        let lr = 4.0767416621 * L - 3.3077115913 * M + 0.2309699292 * S
        let lg = -1.2684380046 * L + 2.6097574011 * M - 0.3413193965 * S
        let lb = -0.0041960863 * L - 0.7034186147 * M + 1.7076147010 * S
        func encode(_ x: Double) -> Double {
            let v = min(max(x, 0), 1)
            return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
        }
        self.init(red: encode(lr), green: encode(lg), blue: encode(lb), alpha: alpha)
    }

    /// A colour from `#RGB`, `#RRGGBB` or `#RRGGBBAA` (nil when malformed).
    public init?(hex: String) {
        var s = hex.trimmingCharacters(in: .whitespaces)
        if s.hasPrefix("#") { s.removeFirst() }
        guard s.allSatisfy(\.isHexDigit) else { return nil }
        if s.count == 3 { s = s.map { "\($0)\($0)" }.joined() }
        guard s.count == 6 || s.count == 8, let v = UInt64(s, radix: 16) else { return nil }
        let n = s.count == 8 ? v : (v << 8) | 0xFF
        self.init(red: Double((n >> 24) & 0xFF) / 255, green: Double((n >> 16) & 0xFF) / 255,
                  blue: Double((n >> 8) & 0xFF) / 255, alpha: Double(n & 0xFF) / 255)
    }

    /// A colour from a hex string; a malformed one gives magenta (and is caught when a template
    /// is validated, where the string is kept as written).
    public static func hex(_ s: String) -> Color { Color(hex: s) ?? Color(red: 1, green: 0, blue: 1) }

    /// The same colour with `alpha`.
    public func opacity(_ alpha: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

    /// The colour for Core Animation.
    public var cgColor: CGColor { CGColor(red: red, green: green, blue: blue, alpha: alpha) }

    /// "#RRGGBB(AA)" when every component is a whole byte, else [r, g, b, a].
    public var propertyValue: PropertyValue {
        let cs = [red, green, blue, alpha]
        let bytes = cs.map { ($0 * 255).rounded() }
        if zip(cs, bytes).allSatisfy({ abs($0 * 255 - $1) < 1e-9 && $1 >= 0 && $1 <= 255 }) {
            let b = bytes.map { UInt8($0) }
            let hex = b[0..<3].map { String(format: "%02X", $0) }.joined()
            return .string("#" + hex + (b[3] == 255 ? "" : String(format: "%02X", b[3])))
        }
        return .array(cs.map { .number($0) })
    }

    // CSS's basic names.
    /// Black, white, and fully transparent.
    public static let black = Color(white: 0), white = Color(white: 1), clear = Color(white: 0, alpha: 0)
    /// CSS's `gray` (50 % white).
    public static let gray = Color(white: 0.5)
    /// CSS's `red` and `green` (`#008000`, not full green: use `.hex("#00FF00")`).
    public static let red = Color(red: 1, green: 0, blue: 0), green = Color(red: 0, green: 128.0 / 255, blue: 0)
    /// CSS's `blue` and `yellow`.
    public static let blue = Color(red: 0, green: 0, blue: 1), yellow = Color(red: 1, green: 1, blue: 0)
    /// CSS's `orange` and `purple`.
    public static let orange = Color(red: 1, green: 165.0 / 255, blue: 0), purple = Color(red: 128.0 / 255, green: 0, blue: 128.0 / 255)
    /// CSS's `pink` and `cyan`.
    public static let pink = Color(red: 1, green: 192.0 / 255, blue: 203.0 / 255), cyan = Color(red: 0, green: 1, blue: 1)
    /// CSS's `magenta` and `teal`.
    public static let magenta = Color(red: 1, green: 0, blue: 1), teal = Color(red: 0, green: 128.0 / 255, blue: 128.0 / 255)

    /// CSS colour names the template format accepts (a subset: the common ones).
    static let named: [String: Color] = [
        "black": .black, "white": .white, "clear": .clear, "transparent": .clear, "gray": .gray, "grey": .gray,
        "red": .red, "green": .green, "blue": .blue, "yellow": .yellow, "orange": .orange, "purple": .purple,
        "pink": .pink, "cyan": .cyan, "magenta": .magenta, "teal": .teal,
        "navy": Color(red: 0, green: 0, blue: 128.0 / 255), "lime": Color(red: 0, green: 1, blue: 0),
        "silver": Color(white: 192.0 / 255), "maroon": Color(red: 128.0 / 255, green: 0, blue: 0),
        "olive": Color(red: 128.0 / 255, green: 128.0 / 255, blue: 0), "gold": Color(red: 1, green: 215.0 / 255, blue: 0),
        "coral": Color(red: 1, green: 127.0 / 255, blue: 80.0 / 255), "indigo": Color(red: 75.0 / 255, green: 0, blue: 130.0 / 255),
    ]
}

/// An angle (radians inside; write `.degrees(30)` or a number of radians).
public struct Angle: Hashable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, PropertyValueConvertible {
    /// The angle in radians.
    public var radians: Double
    /// An angle of `radians`.
    public init(radians: Double) { self.radians = radians }
    /// A number literal is radians: `.rotation(.pi / 2)`.
    public init(floatLiteral value: Double) { radians = value }
    /// An integer literal is radians.
    public init(integerLiteral value: Int) { radians = Double(value) }
    /// An angle of `d` degrees: `.rotation(.degrees(45))`.
    public static func degrees(_ d: Double) -> Angle { Angle(radians: d * .pi / 180) }
    /// An angle of `r` radians.
    public static func radians(_ r: Double) -> Angle { Angle(radians: r) }
    /// The angle in degrees.
    public var degrees: Double { radians * 180 / .pi }
    /// The angle as the model stores it: radians.
    public var propertyValue: PropertyValue { .number(radians) }
}

/// A Swift value the DSL can store as a property value.
public protocol PropertyValueConvertible {
    /// The value as the declarative model stores it (a number, a string, an array, …); the property
    /// it is given to decides what it means when the scene is compiled.
    var propertyValue: PropertyValue { get }
}

extension Double: PropertyValueConvertible { public var propertyValue: PropertyValue { .number(self) } }
extension CGFloat: PropertyValueConvertible { public var propertyValue: PropertyValue { .number(Double(self)) } }
extension Int: PropertyValueConvertible { public var propertyValue: PropertyValue { .number(Double(self)) } }
extension Bool: PropertyValueConvertible { public var propertyValue: PropertyValue { .bool(self) } }
extension String: PropertyValueConvertible { public var propertyValue: PropertyValue { .string(self) } }
extension CGPoint: PropertyValueConvertible {
    /// The point as `[x, y]`.
    public var propertyValue: PropertyValue { .array([.number(Double(x)), .number(Double(y))]) }
}
extension CGSize: PropertyValueConvertible {
    /// The size as `[width, height]`.
    public var propertyValue: PropertyValue { .array([.number(Double(width)), .number(Double(height))]) }
}
extension CGRect: PropertyValueConvertible {
    /// The rectangle as `[x, y, width, height]`.
    public var propertyValue: PropertyValue {
        .array([origin.x, origin.y, size.width, size.height].map { .number(Double($0)) })
    }
}
extension CATransform3D: PropertyValueConvertible {
    /// The transform as `{"matrix": [m11, m12, …, m44]}`: its sixteen entries row by row.
    public var propertyValue: PropertyValue {
        .object(["matrix": .array([m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
            .map { .number(Double($0)) })])
    }
}
extension Array: PropertyValueConvertible where Element: PropertyValueConvertible {
    /// The elements' values as an array, in order.
    public var propertyValue: PropertyValue { .array(map(\.propertyValue)) }
}
