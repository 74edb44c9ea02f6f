// A layer that draws its sublayers several times, each copy moved by one more step of
// `instanceTransform`, shifted in time by `instanceDelay` and tinted by the instance colour.
// Strata expands the copies when the snapshot is made (CAReplicatorLayer+Instances.swift): each
// instance is an ordinary sublayer snapshot with the instance's transform folded into its
// `transform` and its colour in `colorMultiplier`, so the renderer draws replicas like any
// other layer (depth-sorted siblings, masks, shadows, backing stores shared between instances).
import Foundation

/// A layer that creates copies of its sublayers with geometric, temporal and colour
/// transformations (Apple's `CAReplicatorLayer`).
///
/// Instance 0 is the sublayers as they are; instance k is instance k − 1 transformed by
/// `instanceTransform` about the replicator's centre, shown `instanceDelay` seconds later in
/// time, and multiplied by `instanceColor` plus k times the colour offsets:
///
/// ```swift
/// let ring = CAReplicatorLayer()
/// ring.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
/// ring.instanceCount = 12
/// ring.instanceTransform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)   // about the centre
/// ring.instanceDelay = 1.0 / 12                                          // a spinner's wave
/// let dot = CALayer()
/// dot.frame = CGRect(x: 95, y: 10, width: 10, height: 10)
/// dot.backgroundColor = CGColor(gray: 1, alpha: 1)
/// ring.addSublayer(dot)
/// ```
///
/// Animatable (and implicitly animated inside `scene.at`): `instanceCount` (whole numbers, the
/// value rounded down), `instanceDelay`, `instanceTransform`, `instanceColor` and the four
/// offsets. As on iOS, `hitTest(_:)` and `convert` see only instance 0 (the sublayers
/// themselves). With `preservesDepth` the replicator is treated like a `CATransformLayer`
/// (Apple: "the standard restrictions apply"): the instances share the superlayer's 3D space and
/// the replicator draws none of its own content.
open class CAReplicatorLayer: CALayer {
    /// The animatable replicator properties.
    public static let replicatorProperties = AnimatableProperties<CAReplicatorLayer>([
        AnimatableProperty("instanceCount", .number, get: { .number(CGFloat($0.instanceCount)) }) { layer, value in
            guard case .number(let n) = value else { return false }
            // (Clamped as a double: an animation to 1e300 must not trap; the snapshot limits the count.)
            layer.instanceCount = n.isFinite ? Int(min(max(n.rounded(.down), -1e15), 1e15)) : layer.instanceCount
            return true
        },
        AnimatableProperty("instanceDelay", .number, get: { .number(CGFloat($0.instanceDelay)) }) { layer, value in
            guard case .number(let n) = value else { return false }
            layer.instanceDelay = Double(n)
            return true
        },
        .transform("instanceTransform", \.instanceTransform), .color("instanceColor", \.instanceColor),
        .float("instanceRedOffset", \.instanceRedOffset), .float("instanceGreenOffset", \.instanceGreenOffset),
        .float("instanceBlueOffset", \.instanceBlueOffset), .float("instanceAlphaOffset", \.instanceAlphaOffset),
    ])

    /// The number of copies, including the sublayers themselves (default 1: no extra copies).
    /// 0 or less draws no sublayers at all. Animatable.
    public var instanceCount: Int = 1 {
        didSet { journal(self, \.instanceCount, oldValue); didChange("instanceCount", oldValue: .number(CGFloat(oldValue))) }
    }
    /// Whether the instances live in the superlayer's 3D space (like a `CATransformLayer`'s
    /// sublayers) instead of being flattened into the replicator's plane (default false).
    public var preservesDepth = false { didSet { journal(self, \.preservesDepth, oldValue) } }
    /// How much later in time each instance is than the one before, in seconds (default 0):
    /// instance k shows its sublayers' animations at t − k · instanceDelay. Animatable.
    public var instanceDelay: CFTimeInterval = 0 {
        didSet { journal(self, \.instanceDelay, oldValue); didChange("instanceDelay", oldValue: .number(CGFloat(oldValue))) }
    }
    /// The transform that turns instance k − 1 into instance k, applied about the centre of the
    /// replicator's bounds (default identity). Animatable.
    public var instanceTransform = CATransform3DIdentity {
        didSet { journal(self, \.instanceTransform, oldValue); didChange("instanceTransform", oldValue: .transform(oldValue)) }
    }
    /// The colour that multiplies instance 0 (default opaque white: no change; nil behaves as
    /// white). Animatable.
    public var instanceColor: CGColor? = .white {
        didSet { journal(self, \.instanceColor, oldValue); didChange("instanceColor", oldValue: .color(oldValue)) }
    }
    /// Added to the red component of instance k − 1's colour to make instance k's (default 0).
    /// Animatable.
    public var instanceRedOffset: Float = 0 {
        didSet { journal(self, \.instanceRedOffset, oldValue); didChange("instanceRedOffset", oldValue: .number(CGFloat(oldValue))) }
    }
    /// Added to the green component per instance (default 0). Animatable.
    public var instanceGreenOffset: Float = 0 {
        didSet { journal(self, \.instanceGreenOffset, oldValue); didChange("instanceGreenOffset", oldValue: .number(CGFloat(oldValue))) }
    }
    /// Added to the blue component per instance (default 0). Animatable.
    public var instanceBlueOffset: Float = 0 {
        didSet { journal(self, \.instanceBlueOffset, oldValue); didChange("instanceBlueOffset", oldValue: .number(CGFloat(oldValue))) }
    }
    /// Added to the alpha component per instance (default 0): a negative value fades each copy
    /// more than the one before (a reflection's −0.7). Animatable.
    public var instanceAlphaOffset: Float = 0 {
        didSet { journal(self, \.instanceAlphaOffset, oldValue); didChange("instanceAlphaOffset", oldValue: .number(CGFloat(oldValue))) }
    }

    /// On a presentation copy with a non-zero `instanceDelay`: the sublayers of instances 1, 2, …
    /// made at their shifted times (instance 0 is `sublayers`).
    var delayedInstances: [[CALayer]] = []

    /// A replicator with Core Animation's defaults.
    public override init() { super.init() }

    /// **Strata:** no archives: a layer with default values.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A copy of `layer`'s properties (used for presentation copies).
    public override init(layer: Any) {
        super.init(layer: layer)
        guard let r = layer as? CAReplicatorLayer else { return }
        withActionsSuppressed {
            instanceCount = r.instanceCount; preservesDepth = r.preservesDepth; instanceDelay = r.instanceDelay
            instanceTransform = r.instanceTransform; instanceColor = r.instanceColor
            instanceRedOffset = r.instanceRedOffset; instanceGreenOffset = r.instanceGreenOffset
            instanceBlueOffset = r.instanceBlueOffset; instanceAlphaOffset = r.instanceAlphaOffset
        }
    }

    // MARK: Key-value coding and animation

    /// The replicator keys and CALayer's.
    open override func animatableKind(forKey key: String) -> AnimatableValue.Kind? {
        CAReplicatorLayer.replicatorProperties[key]?.kind ?? super.animatableKind(forKey: key)
    }

    /// The current value of a replicator key, or CALayer's.
    open override func animatableValue(forKey key: String) -> AnimatableValue? {
        CAReplicatorLayer.replicatorProperties.value(forKey: key, of: self) ?? super.animatableValue(forKey: key)
    }

    /// Sets a replicator key (or CALayer's) without triggering actions.
    open override func setAnimatableValue(_ value: AnimatableValue, forKey key: String) {
        withActionsSuppressed {
            if !CAReplicatorLayer.replicatorProperties.set(value, forKey: key, of: self) { super.setAnimatableValue(value, forKey: key) }
        }
    }

    /// The animatable replicator keys animate implicitly, as on iOS.
    open override class func implicitlyAnimates(key: String) -> Bool {
        replicatorProperties[key]?.implicitlyAnimates == true || super.implicitlyAnimates(key: key)
    }

    // MARK: Snapshot

    /// Every instance's sublayers (instance-major: all of instance 0, then instance 1, …), each
    /// with its instance's transform and colour.
    open override func snapshotSublayers() -> [LayerSnapshot] {
        let base = super.snapshotSublayers()
        let count = drawnInstanceCount
        guard count > 0, !base.isEmpty else { return [] }
        var out: [LayerSnapshot] = []
        out.reserveCapacity(base.count * count)
        var step = CATransform3DIdentity
        let about = instanceStep
        for i in 0..<count {
            let subs: [LayerSnapshot]
            if i > 0, i - 1 < delayedInstances.count {
                subs = delayedInstances[i - 1].map { $0.makeSnapshot() }
            } else {
                subs = base
            }
            let color = modulationColor(ofInstance: i)
            for var s in subs {
                if i > 0 { s.transform = CAReplicatorLayer.fold(step, into: s) }
                s.colorMultiplier = CAReplicatorLayer.multiply(s.colorMultiplier, color)
                out.append(s)
            }
            step = step.concatenating(about)
        }
        return out
    }

    /// With `preservesDepth`, a 3D rendering context like a `CATransformLayer`.
    open override var isTransformLayerForSnapshot: Bool { preservesDepth }
}
