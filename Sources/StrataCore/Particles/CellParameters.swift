// The values of one emitter cell as plain Sendable data. `CAEmitterCell` keeps its properties in
// one of these (so freezing a cell for the particle timeline is a copy), and key-value coding,
// animations and the closed-form simulation all read and write it by Apple's key names.
import Foundation

/// The properties of a `CAEmitterCell` (without its sub-cells), with Apple's defaults.
public struct CellParameters: Sendable, Equatable {
    public var name: String?
    public var isEnabled = true
    public var birthRate: Float = 0
    public var lifetime: Float = 0
    public var lifetimeRange: Float = 0
    public var emissionLatitude: CGFloat = 0
    public var emissionLongitude: CGFloat = 0
    public var emissionRange: CGFloat = 0
    public var velocity: CGFloat = 0
    public var velocityRange: CGFloat = 0
    public var xAcceleration: CGFloat = 0
    public var yAcceleration: CGFloat = 0
    public var zAcceleration: CGFloat = 0
    public var scale: CGFloat = 1
    public var scaleRange: CGFloat = 0
    public var scaleSpeed: CGFloat = 0
    public var spin: CGFloat = 0
    public var spinRange: CGFloat = 0
    public var color: CGColor? = .white
    public var redRange: Float = 0, greenRange: Float = 0, blueRange: Float = 0, alphaRange: Float = 0
    public var redSpeed: Float = 0, greenSpeed: Float = 0, blueSpeed: Float = 0, alphaSpeed: Float = 0
    /// The image each particle shows (nil: the particles are invisible, but still emit sub-cells).
    public var contents: CGImage?
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    public var contentsScale: CGFloat = 1
    public var minificationFilter = "linear"
    public var magnificationFilter = "linear"
    public var minificationFilterBias: Float = 0
    /// The cell's media timing: when, relative to its parent's time (the emitter layer's, or for
    /// a sub-cell its particle's age), it emits.
    public var timing = MediaTimingValues()

    public init() {}

    /// The animatable keys (Apple's KVC names) and their value kinds.
    static let kinds: [String: AnimatableValue.Kind] = [
        "birthRate": .number, "lifetime": .number, "lifetimeRange": .number,
        "emissionLatitude": .number, "emissionLongitude": .number, "emissionRange": .number,
        "velocity": .number, "velocityRange": .number,
        "xAcceleration": .number, "yAcceleration": .number, "zAcceleration": .number,
        "scale": .number, "scaleRange": .number, "scaleSpeed": .number, "spin": .number, "spinRange": .number,
        "color": .color, "redRange": .number, "greenRange": .number, "blueRange": .number, "alphaRange": .number,
        "redSpeed": .number, "greenSpeed": .number, "blueSpeed": .number, "alphaSpeed": .number,
        "contents": .image, "contentsRect": .rect, "contentsScale": .number, "minificationFilterBias": .number,
        "enabled": .bool,
        "beginTime": .number, "duration": .number, "speed": .number, "timeOffset": .number,
        "repeatCount": .number, "repeatDuration": .number,
    ]

    /// The value under an animatable key, nil for an unknown key.
    public func value(forKey key: String) -> AnimatableValue? {
        func n<T: BinaryFloatingPoint>(_ v: T) -> AnimatableValue { .number(CGFloat(v)) }
        switch key {
        case "birthRate": return n(birthRate)
        case "lifetime": return n(lifetime)
        case "lifetimeRange": return n(lifetimeRange)
        case "emissionLatitude": return n(emissionLatitude)
        case "emissionLongitude": return n(emissionLongitude)
        case "emissionRange": return n(emissionRange)
        case "velocity": return n(velocity)
        case "velocityRange": return n(velocityRange)
        case "xAcceleration": return n(xAcceleration)
        case "yAcceleration": return n(yAcceleration)
        case "zAcceleration": return n(zAcceleration)
        case "scale": return n(scale)
        case "scaleRange": return n(scaleRange)
        case "scaleSpeed": return n(scaleSpeed)
        case "spin": return n(spin)
        case "spinRange": return n(spinRange)
        case "color": return .color(color)
        case "redRange": return n(redRange)
        case "greenRange": return n(greenRange)
        case "blueRange": return n(blueRange)
        case "alphaRange": return n(alphaRange)
        case "redSpeed": return n(redSpeed)
        case "greenSpeed": return n(greenSpeed)
        case "blueSpeed": return n(blueSpeed)
        case "alphaSpeed": return n(alphaSpeed)
        case "contents": return .image(contents)
        case "contentsRect": return .rect(contentsRect)
        case "contentsScale": return n(contentsScale)
        case "minificationFilterBias": return n(minificationFilterBias)
        case "enabled": return .bool(isEnabled)
        case "beginTime": return n(timing.beginTime)
        case "duration": return n(timing.duration)
        case "speed": return n(timing.speed)
        case "timeOffset": return n(timing.timeOffset)
        case "repeatCount": return n(timing.repeatCount)
        case "repeatDuration": return n(timing.repeatDuration)
        default: return nil
        }
    }

    /// Sets an animatable key; returns false when the key is unknown or the value of the wrong kind.
    @discardableResult
    public mutating func set(_ value: AnimatableValue, forKey key: String) -> Bool {
        switch (key, value) {
        case ("color", .color(let c)): color = c
        case ("contents", .image(let i)): contents = i
        case ("contentsRect", .rect(let r)): contentsRect = r
        case ("enabled", .bool(let b)): isEnabled = b
        case (_, .number(let v)):
            let f = Float(v)
            switch key {
            case "birthRate": birthRate = f
            case "lifetime": lifetime = f
            case "lifetimeRange": lifetimeRange = f
            case "emissionLatitude": emissionLatitude = v
            case "emissionLongitude": emissionLongitude = v
            case "emissionRange": emissionRange = v
            case "velocity": velocity = v
            case "velocityRange": velocityRange = v
            case "xAcceleration": xAcceleration = v
            case "yAcceleration": yAcceleration = v
            case "zAcceleration": zAcceleration = v
            case "scale": scale = v
            case "scaleRange": scaleRange = v
            case "scaleSpeed": scaleSpeed = v
            case "spin": spin = v
            case "spinRange": spinRange = v
            case "redRange": redRange = f
            case "greenRange": greenRange = f
            case "blueRange": blueRange = f
            case "alphaRange": alphaRange = f
            case "redSpeed": redSpeed = f
            case "greenSpeed": greenSpeed = f
            case "blueSpeed": blueSpeed = f
            case "alphaSpeed": alphaSpeed = f
            case "contentsScale": contentsScale = v
            case "minificationFilterBias": minificationFilterBias = f
            case "enabled": isEnabled = v != 0
            case "beginTime": timing.beginTime = Double(v)
            case "duration": timing.duration = Double(v)
            case "speed": timing.speed = Double(v)
            case "timeOffset": timing.timeOffset = Double(v)
            case "repeatCount": timing.repeatCount = Double(v)
            case "repeatDuration": timing.repeatDuration = Double(v)
            default: return false
            }
        default: return false
        }
        return true
    }
}

/// A cell and its sub-cells, frozen: what one entry of an emitter's timeline holds per cell.
public struct CellConfiguration: Sendable, Equatable {
    public var parameters: CellParameters
    public var cells: [CellConfiguration]

    public init(parameters: CellParameters, cells: [CellConfiguration]) {
        self.parameters = parameters; self.cells = cells
    }
}
