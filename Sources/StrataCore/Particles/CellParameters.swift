// The values of one emitter cell as plain Sendable data. `CAEmitterCell` keeps its properties in
// one of these (so freezing a cell for the particle timeline is a copy), and key-value coding,
// animations and the closed-form simulation all read and write it by Apple's key names.
import Foundation

/// The properties of a `CAEmitterCell` (without its sub-cells), with Apple's defaults.
public struct CellParameters: Sendable, Equatable {
    /// The cell's `name`, used in key paths (`emitterCells.NAME.birthRate`).
    public var name: String?
    /// Whether the cell emits (`CAEmitterCell.isEnabled`, key `"enabled"`).
    public var isEnabled = true
    /// Particles born per second (default 0), times the layer's `birthRate`.
    public var birthRate: Float = 0
    /// Mean lifetime in seconds (default 0), times the layer's `lifetime`.
    public var lifetime: Float = 0
    /// How far a particle's lifetime may differ from the mean, uniformly (default 0).
    public var lifetimeRange: Float = 0
    /// The emission direction's angle out of the xy-plane, radians (default 0).
    public var emissionLatitude: CGFloat = 0
    /// The emission direction's angle in the xy-plane from +x, radians, clockwise on screen (default 0).
    public var emissionLongitude: CGFloat = 0
    /// The full angle, radians, of the cone of emission directions (default 0).
    public var emissionRange: CGFloat = 0
    /// Mean initial speed in points per second (default 0), times the layer's `velocity`.
    public var velocity: CGFloat = 0
    /// How far the initial speed may differ from the mean (default 0).
    public var velocityRange: CGFloat = 0
    /// Acceleration along x in points per second² (default 0).
    public var xAcceleration: CGFloat = 0
    /// Acceleration along y (down on screen) in points per second² (default 0).
    public var yAcceleration: CGFloat = 0
    /// Acceleration along z in points per second² (default 0).
    public var zAcceleration: CGFloat = 0
    /// Mean image scale (default 1), times the layer's `scale`.
    public var scale: CGFloat = 1
    /// How far a particle's scale may differ from the mean (default 0).
    public var scaleRange: CGFloat = 0
    /// Change of the scale per second (default 0).
    public var scaleSpeed: CGFloat = 0
    /// Mean rotation speed in radians per second (default 0), times the layer's `spin`.
    public var spin: CGFloat = 0
    /// How far a particle's rotation speed may differ from the mean (default 0).
    public var spinRange: CGFloat = 0
    /// Mean colour multiplying the image (default opaque white).
    public var color: CGColor? = .white
    /// How far each particle's red, green, blue and alpha may differ from `color`'s (default 0).
    public var redRange: Float = 0, greenRange: Float = 0, blueRange: Float = 0, alphaRange: Float = 0
    /// Change of the red, green, blue and alpha components per second (default 0).
    public var redSpeed: Float = 0, greenSpeed: Float = 0, blueSpeed: Float = 0, alphaSpeed: Float = 0
    /// The image each particle shows (nil: the particles are invisible, but still emit sub-cells).
    public var contents: CGImage?
    /// The part of the image shown, in unit coordinates (default (0, 0, 1, 1)).
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Image pixels per point (default 1).
    public var contentsScale: CGFloat = 1
    /// `"linear"` (default), `"nearest"` or `"trilinear"`.
    public var minificationFilter = "linear"
    /// `"linear"` (default) or `"nearest"`.
    public var magnificationFilter = "linear"
    /// The mipmap level bias (default 0); particle images are not mipmapped, so unused when drawing.
    public var minificationFilterBias: Float = 0
    /// The cell's media timing: when, relative to its parent's time (the emitter layer's, or for
    /// a sub-cell its particle's age), it emits.
    public var timing = MediaTimingValues()

    /// A cell with Apple's defaults: enabled, emitting nothing (birth rate 0).
    public init() {}

    /// The animatable values, each written once: Apple's KVC name, stored property and kind.
    static let fields = ValueField<CellParameters>.keyed([
        .init("birthRate", \.birthRate, .float), .init("lifetime", \.lifetime, .float), .init("lifetimeRange", \.lifetimeRange, .float),
        .init("emissionLatitude", \.emissionLatitude, .number), .init("emissionLongitude", \.emissionLongitude, .number),
        .init("emissionRange", \.emissionRange, .number),
        .init("velocity", \.velocity, .number), .init("velocityRange", \.velocityRange, .number),
        .init("xAcceleration", \.xAcceleration, .number), .init("yAcceleration", \.yAcceleration, .number),
        .init("zAcceleration", \.zAcceleration, .number),
        .init("scale", \.scale, .number), .init("scaleRange", \.scaleRange, .number), .init("scaleSpeed", \.scaleSpeed, .number),
        .init("spin", \.spin, .number), .init("spinRange", \.spinRange, .number),
        .init("color", \.color, .color), .init("redRange", \.redRange, .float), .init("greenRange", \.greenRange, .float),
        .init("blueRange", \.blueRange, .float), .init("alphaRange", \.alphaRange, .float),
        .init("redSpeed", \.redSpeed, .float), .init("greenSpeed", \.greenSpeed, .float), .init("blueSpeed", \.blueSpeed, .float),
        .init("alphaSpeed", \.alphaSpeed, .float),
        .init("contents", \.contents, .image), .init("contentsRect", \.contentsRect, .rect),
        .init("contentsScale", \.contentsScale, .number), .init("minificationFilterBias", \.minificationFilterBias, .float),
        .init("enabled", \.isEnabled, .flag),
        .init("beginTime", \.timing.beginTime, .double), .init("duration", \.timing.duration, .double),
        .init("speed", \.timing.speed, .double), .init("timeOffset", \.timing.timeOffset, .double),
        .init("repeatCount", \.timing.repeatCount, .double), .init("repeatDuration", \.timing.repeatDuration, .double),
    ])

    /// The animatable keys (Apple's KVC names) and their value kinds.
    static let kinds = fields.mapValues(\.kind)

    /// The value under an animatable key, nil for an unknown key.
    public func value(forKey key: String) -> AnimatableValue? { Self.fields[key]?.get(self) }

    /// Sets an animatable key; returns false when the key is unknown or the value of the wrong kind.
    @discardableResult
    public mutating func set(_ value: AnimatableValue, forKey key: String) -> Bool {
        Self.fields[key]?.set(&self, value) ?? false
    }
}

/// A cell and its sub-cells, frozen: what one entry of an emitter's timeline holds per cell.
public struct CellConfiguration: Sendable, Equatable {
    /// The cell's own values.
    public var parameters: CellParameters
    /// Its sub-cells, frozen the same way.
    public var cells: [CellConfiguration]

    /// A frozen cell with these values and sub-cells.
    public init(parameters: CellParameters, cells: [CellConfiguration]) {
        self.parameters = parameters; self.cells = cells
    }
}
