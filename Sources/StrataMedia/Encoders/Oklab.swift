// Oklab (a perceptually uniform colour space) for GIF quantisation, and the 8-bit colour it maps.
import Foundation

/// An 8-bit sRGB colour.
struct RGB8: Hashable, Sendable {
    var r: UInt8
    var g: UInt8
    var b: UInt8

    var packed: UInt32 { UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }
}

/// Conversions between sRGB and Oklab (Björn Ottosson's perceptual colour space).
enum Oklab {
    /// sRGB-encoded 0...255 values to linear light, one table entry per 8-bit value.
    static let linearTable: [Float] = (0..<256).map { linear(fromEncoded: Double($0) / 255) }

    static func linear(fromEncoded v: Double) -> Float {
        Float(v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4))
    }

    static func encoded(fromLinear v: Double) -> Double {
        v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// Oklab of linear-light RGB.
    static func fromLinear(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        return (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
                1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
    }

    /// Oklab of sRGB-encoded 0...255 values (fractional values allowed).
    static func fromSRGB(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        fromLinear(Double(linear(fromEncoded: r / 255)), Double(linear(fromEncoded: g / 255)),
                   Double(linear(fromEncoded: b / 255)))
    }

    /// The nearest 8-bit sRGB colour to an Oklab colour (out-of-gamut values are clipped).
    static func toSRGB8(_ L: Double, _ a: Double, _ b: Double) -> RGB8 {
        let l = pow(L + 0.3963377774 * a + 0.2158037573 * b, 3)
        let m = pow(L - 0.1055613458 * a - 0.0638541728 * b, 3)
        let s = pow(L - 0.0894841775 * a - 1.2914855480 * b, 3)
        let lr = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s
        let lg = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s
        let lb = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s
        func byte(_ v: Double) -> UInt8 {
            UInt8((encoded(fromLinear: min(1, max(0, v))) * 255).rounded().clamped(to: 0...255))
        }
        return RGB8(r: byte(lr), g: byte(lg), b: byte(lb))
    }
}

extension Double {
    func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(range.upperBound, Swift.max(range.lowerBound, self)) }
}
