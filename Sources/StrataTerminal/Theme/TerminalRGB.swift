// An opaque 8-bit colour as terminal themes write it ("#1e1e2e").
import Foundation
import Strata

/// An opaque sRGB colour with 8-bit channels.
public struct TerminalRGB: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The channels, 0…255.
    public var red: UInt8, green: UInt8, blue: UInt8

    /// A colour from its red, green and blue channels (0…255).
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) { self.red = red; self.green = green; self.blue = blue }

    /// A colour from "#rrggbb", "rrggbb" or "#rgb" (nil otherwise).
    public init?(hex: String) {
        var s = Substring(hex.trimmingCharacters(in: .whitespaces))
        if s.hasPrefix("#") { s = s.dropFirst() }
        if s.count == 3 { s = Substring(s.map { "\($0)\($0)" }.joined()) }
        guard s.count == 6, let v = UInt32(s, radix: 16) else { return nil }
        self.init(UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF))
    }

    /// "#rrggbb".
    public var description: String { String(format: "#%02x%02x%02x", red, green, blue) }

    /// The colour as a CGColor.
    public var cgColor: CGColor {
        CGColor(red: CGFloat(red) / 255, green: CGFloat(green) / 255, blue: CGFloat(blue) / 255, alpha: 1)
    }

    /// The colour as the renderer's RGBA.
    public var rgba: RGBA { RGBA(r: Float(red) / 255, g: Float(green) / 255, b: Float(blue) / 255, a: 1) }

    /// The colour `amount` of the way to `other` (0: self, 1: other).
    public func mixed(with other: TerminalRGB, amount: Double) -> TerminalRGB {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * amount).rounded()) }
        return TerminalRGB(mix(red, other.red), mix(green, other.green), mix(blue, other.blue))
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let c = TerminalRGB(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not a colour (expected #rrggbb)"))
        }
        self = c
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
