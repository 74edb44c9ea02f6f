// Where on the emitter shape particles are born (Apple's `CAEmitterLayerEmitterMode`).
import Foundation

/// Where on (or in) the emitter shape particles are born.
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// At the shape's points: its vertices (a line's two ends, a rectangle's four corners, a
    /// cuboid's eight); **Strata:** a circle's and a sphere's centre.
    public static let points = CAEmitterLayerEmitterMode(rawValue: "points")
    /// On the outline: a rectangle's edges, a circle's circumference, a cuboid's twelve edges,
    /// a sphere's surface; along a line.
    public static let outline = CAEmitterLayerEmitterMode(rawValue: "outline")
    /// On the surface: inside a rectangle or circle, on a cuboid's faces or a sphere's surface;
    /// along a line.
    public static let surface = CAEmitterLayerEmitterMode(rawValue: "surface")
    /// Inside the shape: a rectangle's or circle's area, a cuboid's or sphere's volume; along a
    /// line (the default).
    public static let volume = CAEmitterLayerEmitterMode(rawValue: "volume")
}

/// The Objective-C spelling of `CAEmitterLayerEmitterMode.points`, for ported code.
public let kCAEmitterLayerPoints = CAEmitterLayerEmitterMode.points
/// The Objective-C spelling of `CAEmitterLayerEmitterMode.outline`, for ported code.
public let kCAEmitterLayerOutline = CAEmitterLayerEmitterMode.outline
/// The Objective-C spelling of `CAEmitterLayerEmitterMode.surface`, for ported code.
public let kCAEmitterLayerSurface = CAEmitterLayerEmitterMode.surface
/// The Objective-C spelling of `CAEmitterLayerEmitterMode.volume`, for ported code.
public let kCAEmitterLayerVolume = CAEmitterLayerEmitterMode.volume
