// Colour spaces: Strata draws in sRGB only; the type lets ported drawing code compile.
import Foundation

/// A colour space. Strata draws in sRGB only, so every colour space behaves as sRGB; the type
/// exists so that ported code (`CGColorSpaceCreateDeviceRGB()`) compiles.
public final class CGColorSpace: Hashable, Sendable {
    /// The colour space's name.
    public let name: String
    /// The standard sRGB colour space's name.
    public static let sRGB = "kCGColorSpaceSRGB"
    /// The generic RGB colour space's name (treated as sRGB).
    public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"
    /// The generic grey colour space's name.
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
    /// The number of colour components (1 for grey spaces, 3 for RGB), without alpha.
    public var numberOfComponents: Int { name.contains("Gray") ? 1 : 3 }
    /// A colour space by name (every name gives sRGB behaviour).
    public init?(name: String) { self.name = name }
    public static func == (l: CGColorSpace, r: CGColorSpace) -> Bool { l.name == r.name }
    public func hash(into h: inout Hasher) { h.combine(name) }
}

/// The device RGB colour space (sRGB in Strata).
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(name: CGColorSpace.sRGB)! }

/// The device grey colour space (sRGB greys in Strata).
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)! }
