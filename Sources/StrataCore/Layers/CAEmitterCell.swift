// The template of a kind of particle: how many are born, how long they live, how they move, turn,
// grow and change colour, the image they show, and the sub-cells each particle emits in turn.
// A cell is a plain object (not a layer): its values live in a `CellParameters` value, so the
// emitter can freeze them for its timeline (Particles/EmitterTimeline.swift), and every change
// made in a scene block is recorded in the scene's history like a layer property.
import Foundation

/// The definition of a particle type emitted by a `CAEmitterLayer` (Apple's `CAEmitterCell`).
///
/// Values with a range are chosen per particle uniformly in `[mean − range, mean + range]`
/// (Apple's documentation: a lifetime of 10 s with a `lifetimeRange` of 3 s lives 7–13 s);
/// `emissionRange` is the whole angle of the cone, centred on the emission direction; speeds
/// change a value per second of the particle's life:
///
/// ```swift
/// let spark = CAEmitterCell()
/// spark.name = "spark"
/// spark.contents = sparkImage
/// spark.birthRate = 150; spark.lifetime = 5
/// spark.velocity = 50; spark.velocityRange = 50      // 25 … 75 points per second
/// spark.emissionRange = .pi * 2                      // every direction
/// spark.color = CGColor(red: 1, green: 0.5, blue: 0.1, alpha: 1)
/// spark.alphaSpeed = -0.4                            // fades out over 2.5 s
/// emitter.emitterCells = [spark]
/// ```
///
/// Every numeric property, `color`, `contents`, `contentsRect` and `isEnabled` can be animated
/// through the emitter layer with the key path `emitterCells.NAME.KEY`
/// (`emitterCells.spark.birthRate`), or set with `setValue(_:forKeyPath:)` on the layer.
open class CAEmitterCell: NSObject, CAMediaTiming {
    /// The values of the cell's properties (the storage behind them).
    public internal(set) var parameters = CellParameters()
    /// The cell's contents as given (`parameters.contents` holds it when it is a CGImage).
    private var contentsObject: Any?
    private var subcells: [CAEmitterCell]?
    /// Emitter layers whose particle timeline must hear about changes made in scene blocks.
    private var owners: [WeakEmitterLayer] = []

    /// A cell with Core Animation's defaults (birth rate 0: it emits nothing until set).
    public override init() { super.init() }

    /// Changes the parameters, recording the change for the scene's history and telling the
    /// emitters that show this cell (before the change, so they keep what was shown until now).
    private func update(_ body: (inout CellParameters) -> Void) {
        var next = parameters
        body(&next)
        guard next != parameters else { return }
        notifyOwners()
        let old = parameters
        parameters = next
        journal(self, \.parameters, old)
    }

    private func notifyOwners() {
        guard CAEmitterLayer.isRecordingChange else { return }
        owners.removeAll { $0.layer == nil }
        for o in owners { o.layer?.emitterWillChange() }
    }

    /// Registers `layer` as showing this cell (and its sub-cells).
    func addOwner(_ layer: CAEmitterLayer) {
        owners.removeAll { $0.layer == nil }
        if !owners.contains(where: { $0.layer === layer }) { owners.append(WeakEmitterLayer(layer)) }
        for c in subcells ?? [] { c.addOwner(layer) }
    }

    /// The cell's values and its sub-cells', frozen.
    var configuration: CellConfiguration {
        CellConfiguration(parameters: parameters, cells: (subcells ?? []).map(\.configuration))
    }

    /// A deep copy (sub-cells copied too): presentation layers animate their own cells.
    func deepCopy() -> CAEmitterCell {
        let c = CAEmitterCell()
        c.parameters = parameters
        c.contentsObject = contentsObject
        c.subcells = subcells?.map { $0.deepCopy() }
        c.style = style
        return c
    }

    // MARK: Identity

    /// The name used in key paths (`emitterCells.NAME.birthRate`); default nil.
    open var name: String? { get { parameters.name } set { update { $0.name = newValue } } }
    /// Whether the cell emits (default true).
    open var isEnabled: Bool { get { parameters.isEnabled } set { update { $0.isEnabled = newValue } } }

    // MARK: Emission

    /// Particles created per second (default 0), multiplied by the layer's `birthRate`.
    open var birthRate: Float { get { parameters.birthRate } set { update { $0.birthRate = newValue } } }
    /// Mean lifetime in seconds (default 0), multiplied by the layer's `lifetime`.
    open var lifetime: Float { get { parameters.lifetime } set { update { $0.lifetime = newValue } } }
    /// Range of the lifetime about its mean (default 0).
    open var lifetimeRange: Float { get { parameters.lifetimeRange } set { update { $0.lifetimeRange = newValue } } }
    /// Angle (radians) out of the xy-plane of the emission direction (default 0).
    /// **Strata:** a positive latitude tilts towards +z (towards the viewer); Apple's header
    /// calls it a colatitude but also says 0 means the shape's own direction.
    open var emissionLatitude: CGFloat { get { parameters.emissionLatitude } set { update { $0.emissionLatitude = newValue } } }
    /// Angle (radians) in the xy-plane from the x-axis of the emission direction (default 0:
    /// along +x; a positive angle turns clockwise on screen, y being down).
    open var emissionLongitude: CGFloat { get { parameters.emissionLongitude } set { update { $0.emissionLongitude = newValue } } }
    /// Full angle (radians) of the cone around the emission direction that particles leave in,
    /// uniformly over its solid angle (default 0; 2π: every direction in 3D).
    open var emissionRange: CGFloat { get { parameters.emissionRange } set { update { $0.emissionRange = newValue } } }
    /// Mean initial speed in points per second (default 0), multiplied by the layer's `velocity`.
    open var velocity: CGFloat { get { parameters.velocity } set { update { $0.velocity = newValue } } }
    /// Range of the initial speed (default 0).
    open var velocityRange: CGFloat { get { parameters.velocityRange } set { update { $0.velocityRange = newValue } } }
    /// Acceleration along x in points per second² (default 0).
    open var xAcceleration: CGFloat { get { parameters.xAcceleration } set { update { $0.xAcceleration = newValue } } }
    /// Acceleration along y (down on screen) in points per second² (default 0): gravity.
    open var yAcceleration: CGFloat { get { parameters.yAcceleration } set { update { $0.yAcceleration = newValue } } }
    /// Acceleration along z in points per second² (default 0).
    open var zAcceleration: CGFloat { get { parameters.zAcceleration } set { update { $0.zAcceleration = newValue } } }

    // MARK: Appearance over the particle's life

    /// Mean scale of the image (default 1), multiplied by the layer's `scale`.
    open var scale: CGFloat { get { parameters.scale } set { update { $0.scale = newValue } } }
    /// Range of the scale (default 0).
    open var scaleRange: CGFloat { get { parameters.scaleRange } set { update { $0.scaleRange = newValue } } }
    /// Change of the scale per second (default 0).
    open var scaleSpeed: CGFloat { get { parameters.scaleSpeed } set { update { $0.scaleSpeed = newValue } } }
    /// Mean rotation speed in radians per second (default 0), multiplied by the layer's `spin`.
    open var spin: CGFloat { get { parameters.spin } set { update { $0.spin = newValue } } }
    /// Range of the rotation speed (default 0).
    open var spinRange: CGFloat { get { parameters.spinRange } set { update { $0.spinRange = newValue } } }
    /// Mean colour multiplying the image (default opaque white).
    open var color: CGColor? { get { parameters.color } set { update { $0.color = newValue } } }
    /// How far each particle's red may differ from `color`'s (default 0): a particle gets red ± up to
    /// this, drawn uniformly at birth and clamped to 0…1.
    open var redRange: Float { get { parameters.redRange } set { update { $0.redRange = newValue } } }
    /// How far each particle's green may differ from `color`'s (default 0), as `redRange`.
    open var greenRange: Float { get { parameters.greenRange } set { update { $0.greenRange = newValue } } }
    /// How far each particle's blue may differ from `color`'s (default 0), as `redRange`.
    open var blueRange: Float { get { parameters.blueRange } set { update { $0.blueRange = newValue } } }
    /// How far each particle's alpha may differ from `color`'s (default 0), as `redRange`.
    open var alphaRange: Float { get { parameters.alphaRange } set { update { $0.alphaRange = newValue } } }
    /// Change of the red component per second (default 0); likewise green, blue, alpha.
    open var redSpeed: Float { get { parameters.redSpeed } set { update { $0.redSpeed = newValue } } }
    /// Change of the green component per second (default 0).
    open var greenSpeed: Float { get { parameters.greenSpeed } set { update { $0.greenSpeed = newValue } } }
    /// Change of the blue component per second (default 0).
    open var blueSpeed: Float { get { parameters.blueSpeed } set { update { $0.blueSpeed = newValue } } }
    /// Change of alpha per second (default 0): −0.4 fades a particle out in 2.5 s.
    open var alphaSpeed: Float { get { parameters.alphaSpeed } set { update { $0.alphaSpeed = newValue } } }

    // MARK: Contents

    /// The image every particle shows, a `CGImage` (anything else, or nil, shows nothing).
    open var contents: Any? {
        get { contentsObject }
        set {
            let image = newValue as? CGImage
            if image == nil || image != parameters.contents { notifyOwners() }
            let old = contentsObject
            contentsObject = newValue
            journal(self, \.contentsObject, old)
            update { $0.contents = image }
        }
    }
    /// The part of the image shown, in unit coordinates (default (0, 0, 1, 1)).
    open var contentsRect: CGRect { get { parameters.contentsRect } set { update { $0.contentsRect = newValue } } }
    /// Image pixels per point (default 1): a 64-pixel image at scale 2 is 32 points wide.
    open var contentsScale: CGFloat { get { parameters.contentsScale } set { update { $0.contentsScale = newValue } } }
    /// `"linear"` (default), `"nearest"` or `"trilinear"`.
    open var minificationFilter: String { get { parameters.minificationFilter } set { update { $0.minificationFilter = newValue } } }
    /// How the image is sampled when drawn larger than its size: `"linear"` (default) or `"nearest"`.
    /// **Strata:** a particle's image is sampled nearest-neighbour only when both this and
    /// `minificationFilter` are `"nearest"`.
    open var magnificationFilter: String { get { parameters.magnificationFilter } set { update { $0.magnificationFilter = newValue } } }
    /// The level-of-detail bias of `"trilinear"` minification (default 0). **Strata:** kept for ported
    /// code; particle images are not mipmapped, so it changes nothing drawn.
    open var minificationFilterBias: Float { get { parameters.minificationFilterBias } set { update { $0.minificationFilterBias = newValue } } }

    // MARK: Sub-cells and style

    /// Cells that every particle of this cell emits (default nil): from the particle's current
    /// position, with emission angles relative to its current direction, while it lives.
    open var emitterCells: [CAEmitterCell]? {
        get { subcells }
        set {
            notifyOwners()
            let old = subcells
            subcells = newValue
            journal(self, \.subcells, old)
            owners.removeAll { $0.layer == nil }
            for o in owners { if let l = o.layer { for c in newValue ?? [] { c.addOwner(l) } } }
        }
    }
    /// Extra key-value data (kept; it changes nothing drawn).
    open var style: [AnyHashable: Any]? { didSet { journal(self, \.style, oldValue) } }

    // MARK: Media timing (relative to the parent: the emitter layer, or a sub-cell's particle)

    /// When the cell starts emitting, in its parent's seconds (default 0): the emitter layer's local
    /// time, or the age of the particle that emits this sub-cell.
    open var beginTime: CFTimeInterval { get { parameters.timing.beginTime } set { update { $0.timing.beginTime = newValue } } }
    /// The emitting duration (default 0: forever).
    open var duration: CFTimeInterval { get { parameters.timing.duration } set { update { $0.timing.duration = newValue } } }
    /// The rate of the cell's time (default 1): its particles are born and age this much faster.
    open var speed: Float { get { Float(parameters.timing.speed) } set { update { $0.timing.speed = Double(newValue) } } }
    /// Seconds added to the cell's local time (default 0): the cell starts as if it had already
    /// emitted for that long (its emitting window opens and closes `timeOffset / speed` parent
    /// seconds earlier).
    open var timeOffset: CFTimeInterval { get { parameters.timing.timeOffset } set { update { $0.timing.timeOffset = newValue } } }
    /// How many `duration`s the cell emits (default 0: one). Only the length of the emitting window
    /// uses it; particles already born are not affected.
    open var repeatCount: Float { get { Float(parameters.timing.repeatCount) } set { update { $0.timing.repeatCount = Double(newValue) } } }
    /// The emitting window's length in the cell's seconds, in place of `duration × repeatCount` when
    /// greater than 0 (default 0).
    open var repeatDuration: CFTimeInterval { get { parameters.timing.repeatDuration } set { update { $0.timing.repeatDuration = newValue } } }
    /// Doubles each cycle of the emitting window, as a reversing animation's would (default false);
    /// emission does not run backwards.
    open var autoreverses: Bool { get { parameters.timing.autoreverses } set { update { $0.timing.autoreverses = newValue } } }
    /// Kept for ported code (default `.removed`); **Strata:** the emitting window ignores it.
    open var fillMode: CAMediaTimingFillMode { get { parameters.timing.fillMode } set { update { $0.timing.fillMode = newValue } } }

    // MARK: Key-value coding

    /// The default value of a property key (Apple's `defaultValueForKey:`).
    open class func defaultValue(forKey key: String) -> Any? {
        CellParameters().value(forKey: key)?.anyValue
    }

    /// Whether the value of `key` would be archived (always true: Strata archives nothing).
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// Sets a property by its key (`"birthRate"`, `"color"`, `"name"`, `"emitterCells"`, …);
    /// numbers may be any numeric type.
    public func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case "name": name = value as? String
        case "emitterCells": emitterCells = value as? [CAEmitterCell]
        case "contents": contents = value
        case "minificationFilter": if let s = value as? String { minificationFilter = s }
        case "magnificationFilter": if let s = value as? String { magnificationFilter = s }
        case "style": style = value as? [AnyHashable: Any]
        default:
            guard let kind = CellParameters.kinds[key], let v = AnimatableValue.convert(value, to: kind) else { return }
            update { $0.set(v, forKey: key) }
        }
    }

    /// The value of a property by its key (numbers as CGFloat).
    public func value(forKey key: String) -> Any? {
        switch key {
        case "name": return name
        case "emitterCells": return emitterCells
        case "contents": return contents
        case "minificationFilter": return minificationFilter
        case "magnificationFilter": return magnificationFilter
        case "style": return style
        default: return parameters.value(forKey: key)?.anyValue
        }
    }

    /// `setValue(_:forKey:)` along a path of sub-cell names (`"spark.birthRate"`).
    public func setValue(_ value: Any?, forKeyPath path: String) {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2, let sub = subcells?.first(where: { $0.name == parts[0] }) {
            sub.setValue(value, forKeyPath: parts[1])
        } else if parts.count == 2, parts[0] == "emitterCells" {
            setValue(value, forKeyPath: parts[1])
        } else {
            setValue(value, forKey: path)
        }
    }

    /// `value(forKey:)` along a path of sub-cell names.
    public func value(forKeyPath path: String) -> Any? {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2, let sub = subcells?.first(where: { $0.name == parts[0] }) { return sub.value(forKeyPath: parts[1]) }
        if parts.count == 2, parts[0] == "emitterCells" { return value(forKeyPath: parts[1]) }
        return value(forKey: path)
    }

    // MARK: Animation values (used by the emitter layer's key paths)

    /// The animatable value of `key` (`"birthRate"`, `"color"`, …), nil for other keys.
    func animatableValue(forKey key: String) -> AnimatableValue? { parameters.value(forKey: key) }

    /// Sets an animatable key from an animation or KVC.
    func setAnimatableValue(_ value: AnimatableValue, forKey key: String) {
        if key == "contents", case .image(let i) = value { contents = i; return }
        update { $0.set(value, forKey: key) }
    }

    open override var description: String {
        "<CAEmitterCell\(name.map { " '\($0)'" } ?? "") birthRate=\(birthRate) lifetime=\(lifetime)>"
    }
}

/// A weak reference to an emitter layer.
final class WeakEmitterLayer {
    weak var layer: CAEmitterLayer?
    init(_ layer: CAEmitterLayer) { self.layer = layer }
}
