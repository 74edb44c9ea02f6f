// An animation as the evaluator sees it: checked, converted to AnimatableValues and frozen at
// the moment it was added. Evaluating it at a layer-local time gives the value it contributes;
// a group hands its children group-local times; a transition gives the renderer its snapshot.
import Foundation

/// The ends of a basic animation after from/to/by resolution (CORE_ANIMATION.md §4.3).
public enum BasicEnds: Sendable, Equatable {
    /// Both ends given (from `fromValue`/`toValue`, or one of them and `byValue`).
    case fromTo(AnimatableValue, AnimatableValue)
    /// From the value given to the property's value underneath the animation.
    case fromCurrent(AnimatableValue)
    /// From the value underneath to the value given.
    case currentTo(AnimatableValue)
    /// From the value underneath to that value plus the one given.
    case currentBy(AnimatableValue)
    /// No values given: from the property's previous presentation value to its new one when the
    /// layer adds it as an action, else the value underneath at both ends.
    case currentToCurrent

    /// The two ends given the value underneath ("current").
    func resolve(underlying: AnimatableValue) -> (AnimatableValue, AnimatableValue) {
        switch self {
        case .fromTo(let f, let t): (f, t)
        case .fromCurrent(let f): (f, underlying)
        case .currentTo(let t): (underlying, t)
        case .currentBy(let b): (underlying, AnimatableValue.add(underlying, b) ?? underlying)
        case .currentToCurrent: (underlying, underlying)
        }
    }
}

/// The shape of an animation's value over its progress.
public enum AnimationCurve: Sendable {
    /// Between two ends along the (eased) progress.
    case basic(BasicEnds)
    /// Between two ends along a damped spring, in local time.
    case spring(BasicEnds, DampedSpring)
    /// Through keyframe values or along a path.
    case keyframes(KeyframeCurve)
    /// Child animations in the group's local time.
    case group([PreparedAnimation])
    /// A whole-layer transition (no key path).
    case transition(PreparedTransition)
}

/// What a property animation contributes at one time.
public struct AnimationSample: Sendable {
    /// The value the animation gives the property (to replace, or to add to, the value underneath).
    public var value: AnimatableValue
    /// For keyframes with a `rotationMode`: the angle (radians) to turn the layer by.
    public var rotation: Double?
}

/// A checked, frozen animation ready to evaluate.
public struct PreparedAnimation: Sendable {
    /// The animated key path, such as `"position"` or `"transform.rotation.z"`.
    public var keyPath: String {
        didSet {
            (keyBase, keyField) = CALayer.split(keyPath)
            field = keyField.flatMap(KeyField.init)
            property = nil
            snapshotKey = SnapshotKey(keyBase)
        }
    }
    /// `keyPath` split at its first dot once, not per frame: the layer property and the field in
    /// it (`"transform"`, `"rotation.z"`).
    private(set) var keyBase: String
    private(set) var keyField: String?
    /// `keyField` parsed (nil when there is none, or no value has such a field).
    private(set) var field: KeyField?
    /// What `keyBase` is to a snapshot made without a presentation copy (PresentationBuilder),
    /// found once, not per frame.
    private(set) var snapshotKey: SnapshotKey
    /// The accessors of the property `keyBase` names, found once for the class of the layer the
    /// animation was added to (`CALayer.resolvedProperty`); nil to look the key up by name.
    var property: ResolvedProperty?
    /// The animation's media timing (its `duration` already 0.25 s where the animation said 0).
    public var timing: MediaTimingValues
    /// The easing applied to the progress (nil: linear).
    public var timingFunction: CAMediaTimingFunction?
    /// Whether the value is added to the value underneath rather than replacing it.
    public var isAdditive: Bool
    /// Whether each repeat continues from where the previous one ended.
    public var isCumulative: Bool
    /// How the value moves over the progress: between two ends, along a spring, through keyframes,
    /// a group's children, or a transition.
    public var curve: AnimationCurve

    /// A prepared animation of `keyPath` with these timing values and this curve.
    public init(keyPath: String, timing: MediaTimingValues, timingFunction: CAMediaTimingFunction?,
                isAdditive: Bool, isCumulative: Bool, curve: AnimationCurve) {
        self.keyPath = keyPath
        (keyBase, keyField) = CALayer.split(keyPath)
        field = keyField.flatMap(KeyField.init)
        snapshotKey = SnapshotKey(keyBase)
        self.timing = timing; self.timingFunction = timingFunction
        self.isAdditive = isAdditive; self.isCumulative = isCumulative; self.curve = curve
    }

    /// The value of the property at parent time `t` (the layer's local time, or the group's for a
    /// child), given the value underneath (the model value or the result of earlier animations
    /// on the same key path). Returns nil when the animation has no effect at `t`.
    public func value(at t: Double, underlying: AnimatableValue) -> AnimatableValue? {
        sample(at: t, underlying: underlying)?.value
    }

    /// The value and, for keyframes along a path with a rotation mode, the turn, at parent time `t`.
    public func sample(at t: Double, underlying: AnimatableValue) -> AnimationSample? {
        let state = timing.evaluate(atParentTime: t)
        guard let raw = state.progress else { return nil }
        let fraction = timingFunction?.evaluate(raw) ?? raw
        var v: AnimatableValue
        var rotation: Double?
        var span: AnimatableValue?
        // The "current" value of missing ends: the value underneath, or for an additive
        // animation (whose result is added to it) zero, so `byValue` alone adds 0…by.
        let current = isAdditive ? (AnimatableValue.subtract(underlying, underlying) ?? underlying) : underlying
        switch curve {
        case .basic(let ends):
            let (from, to) = ends.resolve(underlying: current)
            v = AnimatableValue.interpolate(from, to, fraction)
            if isCumulative { span = AnimatableValue.subtract(to, from) }
        case .spring(let ends, let spring):
            let (from, to) = ends.resolve(underlying: current)
            v = AnimatableValue.interpolate(from, to, spring.fraction(at: fraction * timing.duration))
            if isCumulative { span = AnimatableValue.subtract(to, from) }
        case .keyframes(let k):
            guard let s = k.sample(fraction) else { return nil }
            v = s.value
            rotation = s.angle
            if isCumulative { span = k.cycleSpan }
        case .group, .transition:
            return nil
        }
        if let span, state.iteration > 0 { v = Self.accumulate(v, span, times: state.iteration) }
        if isAdditive { v = AnimatableValue.add(underlying, v) ?? v }
        return AnimationSample(value: v, rotation: rotation)
    }

    /// Whether the value underneath matters (an end left to "current", or additive); when it
    /// does not, the layer need not read it (reading a virtual transform field decomposes the
    /// matrix).
    var usesUnderlying: Bool {
        if isAdditive { return true }
        switch curve {
        case .basic(.fromTo), .spring(.fromTo, _), .keyframes: return false
        default: return true
        }
    }

    /// `v + n·span`: in one step for vector values, by repeated addition for transforms.
    static func accumulate(_ v: AnimatableValue, _ span: AnimatableValue, times n: Int) -> AnimatableValue {
        if let a = v.components, let b = span.components, a.count == b.count {
            return v.withComponents(zip(a, b).map { $0 + Double(n) * $1 })
        }
        var out = v
        for _ in 0..<min(n, 10_000) { out = AnimatableValue.add(out, span) ?? out }
        return out
    }

    /// Calls `body` with every property animation this one contributes at parent time `t` and
    /// the time to evaluate it at: itself at `t`, or a group's children (recursively) at the
    /// group's local time — the progress within its current cycle (after its timing function)
    /// times its duration — while the group has an effect.
    public func forEachPropertyAnimation(at t: Double, _ body: (PreparedAnimation, Double) -> Void) {
        switch curve {
        case .group(let children):
            guard let raw = timing.evaluate(atParentTime: t).progress else { return }
            let local = (timingFunction?.evaluate(raw) ?? raw) * timing.duration
            for child in children { child.forEachPropertyAnimation(at: local, body) }
        case .transition:
            return
        default:
            guard !keyPath.isEmpty else { return }
            body(self, t)
        }
    }

    /// The transition snapshot at parent time `t`, when this is a transition with an effect then.
    public func transitionSnapshot(at t: Double) -> TransitionSnapshot? {
        guard case .transition(let tr) = curve, let raw = timing.evaluate(atParentTime: t).progress else { return nil }
        return tr.snapshot(at: timingFunction?.evaluate(raw) ?? raw)
    }

    /// The end of the active interval in the parent's time (infinite when repeating forever or
    /// frozen by speed 0); used to fire delegates and completion blocks.
    public var activeEnd: Double {
        guard timing.speed != 0 else { return .infinity }
        return timing.beginTime + (timing.activeDuration - timing.timeOffset) / timing.speed
    }
}
