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

public let kCAEmitterLayerUnordered = CAEmitterLayerRenderMode.unordered
public let kCAEmitterLayerOldestFirst = CAEmitterLayerRenderMode.oldestFirst
public let kCAEmitterLayerOldestLast = CAEmitterLayerRenderMode.oldestLast
public let kCAEmitterLayerBackToFront = CAEmitterLayerRenderMode.backToFront
public let kCAEmitterLayerAdditive = CAEmitterLayerRenderMode.additive
