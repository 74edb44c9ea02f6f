// The shapes a particle emitter emits from (Apple's `CAEmitterLayerEmitterShape`).
import Foundation

/// The shape particles are emitted from, centred on `emitterPosition` (and
/// `emitterZPosition`) with the extent `emitterSize` (and `emitterDepth`).
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A single point at the emitter position (the default).
    public static let point = CAEmitterLayerEmitterShape(rawValue: "point")
    /// A horizontal line `emitterSize.width` long through the emitter position.
    public static let line = CAEmitterLayerEmitterShape(rawValue: "line")
    /// A rectangle of `emitterSize` centred on the emitter position.
    public static let rectangle = CAEmitterLayerEmitterShape(rawValue: "rectangle")
    /// A box of `emitterSize` × `emitterDepth` centred on the emitter position.
    public static let cuboid = CAEmitterLayerEmitterShape(rawValue: "cuboid")
    /// A circle of diameter `emitterSize.width` in the xy-plane.
    public static let circle = CAEmitterLayerEmitterShape(rawValue: "circle")
    /// A sphere of diameter `emitterSize.width`.
    public static let sphere = CAEmitterLayerEmitterShape(rawValue: "sphere")
}

/// The Objective-C spelling of `CAEmitterLayerEmitterShape.point`, for ported code.
public let kCAEmitterLayerPoint = CAEmitterLayerEmitterShape.point
/// The Objective-C spelling of `CAEmitterLayerEmitterShape.line`, for ported code.
public let kCAEmitterLayerLine = CAEmitterLayerEmitterShape.line
/// The Objective-C spelling of `CAEmitterLayerEmitterShape.rectangle`, for ported code.
public let kCAEmitterLayerRectangle = CAEmitterLayerEmitterShape.rectangle
/// The Objective-C spelling of `CAEmitterLayerEmitterShape.cuboid`, for ported code.
public let kCAEmitterLayerCuboid = CAEmitterLayerEmitterShape.cuboid
/// The Objective-C spelling of `CAEmitterLayerEmitterShape.circle`, for ported code.
public let kCAEmitterLayerCircle = CAEmitterLayerEmitterShape.circle
/// The Objective-C spelling of `CAEmitterLayerEmitterShape.sphere`, for ported code.
public let kCAEmitterLayerSphere = CAEmitterLayerEmitterShape.sphere
