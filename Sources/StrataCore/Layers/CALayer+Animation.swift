// Adding, finding and removing animations, and evaluating them into a presentation copy.
import Foundation

extension CALayer {
    /// Adds a copy of `anim` under `key` (replacing an animation with the same key).
    /// A `beginTime` of 0 means "now": the scene time of the calling code, in the layer's time.
    /// An unknown key path or a wrongly typed value is a programming error reported at once;
    /// use `addChecked(_:forKey:)` to receive it as a thrown error instead.
    public func add(_ anim: CAAnimation, forKey key: String?) {
        do { try addChecked(anim, forKey: key) } catch {
            fatalError("Strata: \(error)")
        }
    }

    /// Adds a copy of `anim`, throwing `AnimationError` for an unknown key path or a value of the
    /// wrong type.
    public func addChecked(_ anim: CAAnimation, forKey key: String?) throws {
        let copy = anim.copy()
        if copy.beginTime == 0 {
            copy.beginTime = convertTime(CACurrentMediaTime(), from: nil)
        }
        let prepared = try prepare(copy)
        let k = key ?? "anim-\(animationEntries.count)-\(LayerIdentity.next())"
        animationEntries.removeAll { $0.key == k }
        animationEntries.append((k, copy, prepared))
        if let ctx = SceneClock.current {
            let end = convertTime(prepared.activeEnd, to: nil)
            CATransaction.noteAnimationEnd(end)
            if let d = copy.delegate {
                let start = convertTime(prepared.timing.beginTime, to: nil)
                ctx.schedule(max(start, ctx.time)) { d.animationDidStart(copy) }
                if end.isFinite { ctx.schedule(end) { d.animationDidStop(copy, finished: true) } }
            }
        } else if let d = copy.delegate, prepared.activeEnd.isFinite {
            pendingDelegateEvents.append((copy, d))
        }
    }

    /// Delegate calls for animations added while building; the scene schedules them.
    public func takePendingDelegateEvents() -> [(CAAnimation, CAAnimationDelegate)] {
        defer { pendingDelegateEvents.removeAll() }
        return pendingDelegateEvents
    }

    public func prepare(_ anim: CAAnimation) throws -> PreparedAnimation {
        guard let p = anim as? CAPropertyAnimation else {
            return PreparedAnimation(keyPath: "", timing: anim.timingValues, timingFunction: anim.timingFunction,
                                     isAdditive: false, isCumulative: false, curve: .basic(.currentToCurrent))
        }
        guard let path = p.keyPath, !path.isEmpty else { throw AnimationError.missingKeyPath }
        guard let kind = animatableKind(forKeyPath: path) else {
            throw AnimationError.unknownKeyPath(path, layer: String(describing: type(of: self)))
        }
        guard let prepared = try p.prepare(for: kind) else {
            throw AnimationError.unknownKeyPath(path, layer: String(describing: type(of: self)))
        }
        return prepared
    }

    /// The animation added under `key` (a copy of the one passed to `add`).
    public func animation(forKey key: String) -> CAAnimation? {
        animationEntries.last { $0.key == key }?.original
    }

    /// The keys of the attached animations, in the order added.
    public func animationKeys() -> [String]? {
        animationEntries.isEmpty ? nil : animationEntries.map(\.key)
    }

    public func removeAnimation(forKey key: String) { animationEntries.removeAll { $0.key == key } }
    public func removeAllAnimations() { animationEntries.removeAll() }

    /// Applies every animation to this layer's properties at layer-local time `t`
    /// (on a presentation copy). Animations on the same key path combine in the order added.
    func applyAnimations(atLocalTime t: Double, from model: CALayer) {
        for entry in model.animationEntries {
            let prepared = entry.prepared
            guard !prepared.keyPath.isEmpty else { continue }
            if prepared.isAdditive, applyAdditiveTransformField(prepared, at: t) { continue }
            guard let underlying = animatableValue(forKeyPath: prepared.keyPath) else { continue }
            if let v = prepared.value(at: t, underlying: underlying) {
                setAnimatableValue(v, forKeyPath: prepared.keyPath)
            }
        }
    }

    /// An additive animation of a virtual transform field (`transform.rotation.y`, …) turns its
    /// scalar into a matrix (as Core Animation's value functions do) and concatenates it before
    /// the underlying transform, so a spin adds to a tilt instead of replacing it.
    private func applyAdditiveTransformField(_ prepared: PreparedAnimation, at t: Double) -> Bool {
        let (base, field) = CALayer.split(prepared.keyPath)
        guard let field, base == "transform" || base == "sublayerTransform",
              CALayer.transformFields.contains(field), field != "translation",
              case .transform(let current)? = animatableValue(forKey: base) else { return false }
        let neutral: CGFloat = field.hasPrefix("scale") ? 1 : 0
        guard case .number(let v)? = prepared.value(at: t, underlying: .number(0)),
              let m = CATransform3DIdentity.settingVirtualKey(field, to: neutral + v) else { return true }
        setAnimatableValue(.transform(m.concatenating(current)), forKey: base)
        return true
    }

    /// Converts a time from `layer`'s time space (nil: scene time) to this layer's.
    public func convertTime(_ t: CFTimeInterval, from layer: CALayer?) -> CFTimeInterval {
        let sceneTime = layer?.localTimeToScene(t) ?? t
        return sceneTimeToLocal(sceneTime)
    }

    /// Converts a time from this layer's time space to `layer`'s (nil: scene time).
    public func convertTime(_ t: CFTimeInterval, to layer: CALayer?) -> CFTimeInterval {
        let sceneTime = localTimeToScene(t)
        return layer?.sceneTimeToLocal(sceneTime) ?? sceneTime
    }

    /// Scene time → this layer's local time, through every ancestor's timing.
    func sceneTimeToLocal(_ t: Double) -> Double {
        let parentTime = superlayer?.sceneTimeToLocal(t) ?? t
        return (parentTime - beginTime) * Double(speed) + timeOffset
    }

    /// This layer's local time → scene time (inverse of `sceneTimeToLocal`; a frozen layer with
    /// speed 0 maps everything to its begin time).
    func localTimeToScene(_ t: Double) -> Double {
        let parentTime = speed == 0 ? beginTime : (t - timeOffset) / Double(speed) + beginTime
        return superlayer?.localTimeToScene(parentTime) ?? parentTime
    }
}

/// Process-unique numbers for generated keys.
enum LayerIdentity {
    private static let counter = LockedCounter()
    static func next() -> UInt64 { counter.next() }
}
