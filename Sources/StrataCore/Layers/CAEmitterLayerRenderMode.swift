// How an emitter's particles are composited (Apple's `CAEmitterLayerRenderMode`).
import Foundation

/// The order and blending of an emitter's particles. The first four composite source-over; the
/// last adds the particles' colours to what is beneath (overlaps get brighter).
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// No particular order (the default). **Strata:** cell by cell in `emitterCells` order, each
    /// oldest first — deterministic like everything else.
    public static let unordered = CAEmitterLayerRenderMode(rawValue: "unordered")
    /// Oldest particles drawn first (the newest on top).
    public static let oldestFirst = CAEmitterLayerRenderMode(rawValue: "oldestFirst")
    /// Oldest particles drawn last (on top).
    public static let oldestLast = CAEmitterLayerRenderMode(rawValue: "oldestLast")
    /// Farthest particles first, sorted by z (larger z is nearer the viewer).
    public static let backToFront = CAEmitterLayerRenderMode(rawValue: "backToFront")
    /// Additive blending: each particle's colour is added to the pixels beneath it.
    public static let additive = CAEmitterLayerRenderMode(rawValue: "additive")
}

/// The Objective-C spelling of `CAEmitterLayerRenderMode.unordered`, for ported code.
public let kCAEmitterLayerUnordered = CAEmitterLayerRenderMode.unordered
/// The Objective-C spelling of `CAEmitterLayerRenderMode.oldestFirst`, for ported code.
public let kCAEmitterLayerOldestFirst = CAEmitterLayerRenderMode.oldestFirst
/// The Objective-C spelling of `CAEmitterLayerRenderMode.oldestLast`, for ported code.
public let kCAEmitterLayerOldestLast = CAEmitterLayerRenderMode.oldestLast
/// The Objective-C spelling of `CAEmitterLayerRenderMode.backToFront`, for ported code.
public let kCAEmitterLayerBackToFront = CAEmitterLayerRenderMode.backToFront
/// The Objective-C spelling of `CAEmitterLayerRenderMode.additive`, for ported code.
public let kCAEmitterLayerAdditive = CAEmitterLayerRenderMode.additive
