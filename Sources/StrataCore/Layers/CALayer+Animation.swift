// Adding, finding and removing animations; the layer's place in the time hierarchy
// (scene → layers → animations → group children); and evaluating animations into a
// presentation copy.
import Foundation

extension CALayer {
    /// Adds a copy of `anim` under `key` (replacing an animation with the same key; a
    /// `CATransition` always goes under `kCATransition`).
    /// A `beginTime` of 0 means "now": the scene time of the calling code, in the layer's time.
    /// An unknown key path or a wrongly typed value is a programming error reported at once;
    /// use `addChecked(_:forKey:)` to receive it as a thrown error instead.
    public func add(_ anim: CAAnimation, forKey key: String?) {
        do { try addChecked(anim, forKey: key) } catch {
            // Not a crash: the error is kept and reported by the scene when it renders
            // (`Scene.renderFrame`/`export` throw it, naming the layer and key path).
            AnimationErrorLog.record(error, layer: self)
        }
    }

    /// Adds a copy of `anim`, throwing `AnimationError` for an unknown key path, a value of the
    /// wrong type (in `fromValue`/`toValue`/`byValue`, `values`, a group's children) or an
    /// impossible parameter (a spring's mass or stiffness ≤ 0).
    public func addChecked(_ anim: CAAnimation, forKey key: String?) throws {
        let copy = anim.copy() as! CAAnimation
        if copy.beginTime == 0 {
            copy.beginTime = convertTime(CACurrentMediaTime(), from: nil)
        }
        var prepared = try prepare(copy, capturingTransition: true)
        let k = copy is CATransition ? kCATransition : key ?? "anim-\(animationEntries.count)-\(LayerIdentity.next())"
        // With no values at all, a basic animation runs from the property's previous presentation
        // value (before this transaction changed it) to the current one, as on iOS.
        if let previous = previousPresentedValue(forKeyPath: prepared.keyPath) {
            switch prepared.curve {
            case .basic(.currentToCurrent): prepared.curve = .basic(.fromCurrent(previous))
            case .spring(.currentToCurrent, let s): prepared.curve = .spring(.fromCurrent(previous), s)
            default: break
            }
        }
        let ctx = SceneClock.current
        ctx?.journal.recordAnimations(of: self)
        // (Detached outside the change: a delegate told of the stop may read the animations.)
        if animationStorage.contains(key: k) { for old in animationEntries where old.key == k { old.original.runtime?.detach() } }
        changeAnimations { $0.add((k, copy, prepared)) }
        let runtime = AnimationRuntime(layer: self, animation: copy, timing: prepared.timing)
        copy.runtime = runtime
        CATransaction.noteAnimationAdded(runtime)
        if let ctx, let events = ctx.events { events.register(runtime, in: ctx) }
    }

    /// Checks `anim` against this layer and freezes it (a copy is expected: transitions capture
    /// their "before" image now).
    public func prepare(_ anim: CAAnimation) throws -> PreparedAnimation {
        try prepare(anim, capturingTransition: false)
    }

    func prepare(_ anim: CAAnimation, capturingTransition: Bool) throws -> PreparedAnimation {
        switch anim {
        case let group as CAAnimationGroup:
            return PreparedAnimation(keyPath: "", timing: group.timingValues, timingFunction: group.timingFunction,
                                     isAdditive: false, isCumulative: false, curve: .group(try prepareChildren(of: group)))
        case let transition as CATransition:
            let before = capturingTransition ? transitionBeforeImage() : makeSnapshot()
            let prepared = PreparedTransition(before: Box(before), type: transition.type.rawValue,
                                              subtype: transition.subtype?.rawValue,
                                              startProgress: Double(transition.startProgress),
                                              endProgress: Double(transition.endProgress))
            return PreparedAnimation(keyPath: "", timing: transition.timingValues, timingFunction: transition.timingFunction,
                                     isAdditive: false, isCumulative: false, curve: .transition(prepared))
        case let p as CAPropertyAnimation:
            guard let path = p.keyPath, !path.isEmpty else { throw AnimationError.missingKeyPath }
            guard let kind = animatableKind(forKeyPath: path) else {
                throw AnimationError.unknownKeyPath(path, layer: String(describing: type(of: self)))
            }
            guard var prepared = try p.prepare(for: kind) else {
                throw AnimationError.unknownKeyPath(path, layer: String(describing: type(of: self)))
            }
            prepared.property = CALayer.resolvedProperty(forKey: prepared.keyBase, of: type(of: self))
            return prepared
        default:
            // A plain CAAnimation: timing and delegate callbacks, no effect.
            return PreparedAnimation(keyPath: "", timing: anim.timingValues, timingFunction: anim.timingFunction,
                                     isAdditive: false, isCumulative: false, curve: .group([]))
        }
    }

    /// The presentation of this layer's subtree before the running transaction's changes.
    func transitionBeforeImage() -> LayerSnapshot {
        let builder = PresentationBuilder(time: SceneClock.currentTime)
        return builder.presentationTree(of: self, journal: SceneClock.current?.journal).makeSnapshot()
    }

    /// The presentation value of `path` before the running transaction changed the property,
    /// nil when it did not change it (or outside a scene block).
    func previousPresentedValue(forKeyPath path: String) -> AnimatableValue? {
        guard !path.isEmpty, let ctx = SceneClock.current else { return nil }
        let (base, field) = CALayer.split(path)
        guard let old = ctx.journal.oldValue(of: self, key: base) else { return nil }
        let entries = ctx.journal.originalEntries(of: self) ?? animationEntries
        let whole = presentedValue(forKey: base, model: old, sceneTime: ctx.time, entries: entries)
        guard let field else { return whole }
        return CALayer.read(field: field, of: whole)
    }

    /// The animation added under `key` (a copy of the one passed to `add`); nil once it has run
    /// to its end with `isRemovedOnCompletion`.
    public func animation(forKey key: String) -> CAAnimation? {
        animationEntries.last { $0.key == key && $0.original.runtime?.removedAtEnd != true }?.original
    }

    /// The keys of the attached animations, in the order added (without those that ran to their
    /// end with `isRemovedOnCompletion`).
    public func animationKeys() -> [String]? {
        let keys = animationEntries.filter { $0.original.runtime?.removedAtEnd != true }.map(\.key)
        return keys.isEmpty ? nil : keys
    }

    /// Removes the animation under `key`; its delegate hears `animationDidStop(finished: false)`.
    public func removeAnimation(forKey key: String) {
        guard animationStorage.contains(key: key) else { return }
        SceneClock.current?.journal.recordAnimations(of: self)
        for e in animationEntries where e.key == key { e.original.runtime?.detach() }
        changeAnimations { $0.removeAll { $0.key == key } }
    }

    /// Removes every animation; their delegates hear `animationDidStop(finished: false)`.
    public func removeAllAnimations() {
        guard !animationEntries.isEmpty else { return }
        SceneClock.current?.journal.recordAnimations(of: self)
        for e in animationEntries { e.original.runtime?.detach() }
        changeAnimations { $0.removeAll() }
    }

    // MARK: Evaluation

    /// Applies `entries` (the model's animations) to this presentation copy at layer-local time
    /// `t`. Animations on one key path combine in the order added; a group's children apply at
    /// its place; keyframe rotation (`rotationMode`) turns the transform after all of them; a
    /// running transition is kept for the snapshot.
    func applyAnimations(atLocalTime t: Double, entries: [AnimationEntry]) {
        var turn = 0.0
        var turns = false
        for i in entries.indices {
            if case .transition = entries[i].prepared.curve {
                if let snap = entries[i].prepared.transitionSnapshot(at: t) { customValues[TransitionStorage.key] = snap }
                continue
            }
            entries[i].prepared.forEachPropertyAnimation(at: t) { leaf, time in
                if let r = apply(leaf, at: time) { turn += r; turns = true }
            }
        }
        if turns, case .transform(let m)? = animatableValue(forKey: "transform") {
            setAnimatableValue(.transform(CATransform3DRotate(m, CGFloat(turn), 0, 0, 1)), forKey: "transform")
        }
    }

    /// Applies one property animation; returns its rotation-mode turn, if any.
    private func apply(_ prepared: PreparedAnimation, at t: Double) -> Double? {
        if prepared.isAdditive, applyAdditiveTransformField(prepared, at: t) { return nil }
        if let property = prepared.property, property.layerClass == ObjectIdentifier(type(of: self)) {
            return apply(prepared, at: t, through: property)
        }
        guard let whole = animatableValue(forKey: prepared.keyBase) else { return nil }
        guard prepared.keyField != nil else {
            guard let s = prepared.sample(at: t, underlying: whole) else { return nil }
            setAnimatableValue(s.value, forKey: prepared.keyBase)
            return s.rotation
        }
        // A field no value has changes nothing (as `write(field:)` of its string gives nil).
        guard let field = prepared.field else { return nil }
        let underlying = prepared.usesUnderlying ? CALayer.read(field: field, of: whole) : .number(0)
        guard let underlying, let s = prepared.sample(at: t, underlying: underlying),
              let updated = CALayer.write(field: field, of: whole, value: s.value) else { return nil }
        setAnimatableValue(updated, forKey: prepared.keyBase)
        return s.rotation
    }

    /// `apply(_:at:)` through the accessors of the property found when the animation was added,
    /// without looking its key up by name: the same reads and writes (a value of another kind
    /// than the property's goes where `setAnimatableValue(_:forKey:)` puts it).
    private func apply(_ prepared: PreparedAnimation, at t: Double, through property: ResolvedProperty) -> Double? {
        let value: AnimatableValue
        let rotation: Double?
        if prepared.keyField == nil {
            // The property's value is read only when the animation uses it (reading some, such as
            // a text layer's `string`, makes a box).
            let underlying = prepared.usesUnderlying ? property.get(self) : .number(0)
            guard let s = prepared.sample(at: t, underlying: underlying) else { return nil }
            (value, rotation) = (s.value, s.rotation)
        } else {
            guard let field = prepared.field else { return nil }
            let whole = property.get(self)
            let underlying = prepared.usesUnderlying ? CALayer.read(field: field, of: whole) : .number(0)
            guard let underlying, let s = prepared.sample(at: t, underlying: underlying),
                  let updated = CALayer.write(field: field, of: whole, value: s.value) else { return nil }
            (value, rotation) = (updated, s.rotation)
        }
        withActionsSuppressed {
            if !property.set(self, value) { setAnimatableValue(value, forKey: prepared.keyBase) }
        }
        return rotation
    }

    /// An additive animation of a virtual transform field (`transform.rotation.y`, …) turns its
    /// scalar into a matrix (as Core Animation's value functions do) and concatenates it before
    /// the underlying transform, so a spin adds to a tilt instead of replacing it.
    private func applyAdditiveTransformField(_ prepared: PreparedAnimation, at t: Double) -> Bool {
        let base = prepared.keyBase
        guard let field = prepared.keyField, base == "transform" || base == "sublayerTransform",
              CALayer.transformFields.contains(field), field != "translation",
              case .transform(let current)? = animatableValue(forKey: base) else { return false }
        let neutral: CGFloat = field.hasPrefix("scale") ? 1 : 0
        guard case .number(let v)? = prepared.value(at: t, underlying: .number(0)),
              case .virtual(let key)? = prepared.field,
              let m = CATransform3DIdentity.settingVirtualKey(key, to: neutral + v) else { return true }
        setAnimatableValue(.transform(m.concatenating(current)), forKey: base)
        return true
    }

    // MARK: Time

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

    /// This layer's local time for its superlayer's time `tp` (§4.1 for layers):
    /// `(tp − beginTime) · speed + timeOffset`; a layer with its own `duration` (or repeat
    /// settings) also repeats and autoreverses that time like an animation's, and holds it at the
    /// end of its active interval afterwards. (0 duration: the layer's time runs on forever, as on
    /// iOS.)
    func localTime(fromParent tp: Double) -> Double {
        let t = (tp - beginTime) * Double(speed) + timeOffset
        guard duration > 0 else { return t }
        var v = MediaTimingValues()
        v.beginTime = beginTime; v.duration = duration; v.speed = Double(speed); v.timeOffset = timeOffset
        v.repeatCount = Double(repeatCount); v.repeatDuration = repeatDuration; v.autoreverses = autoreverses
        v.fillMode = .forwards; v.removedOnCompletion = false
        guard t >= 0, let p = v.evaluate(atParentTime: tp).progress else { return t }
        return p * duration
    }

    /// Scene time → this layer's local time, through every ancestor's timing.
    func sceneTimeToLocal(_ t: Double) -> Double {
        localTime(fromParent: superlayer?.sceneTimeToLocal(t) ?? t)
    }

    /// This layer's local time → scene time (inverse of `sceneTimeToLocal`; a frozen layer with
    /// speed 0 maps everything to its begin time).
    func localTimeToScene(_ t: Double) -> Double {
        let parentTime = speed == 0 ? beginTime : (t - timeOffset) / Double(speed) + beginTime
        return superlayer?.localTimeToScene(parentTime) ?? parentTime
    }

    /// The scene time at which this layer's local time reaches `local`, nil when it never does
    /// (this layer or an ancestor is frozen with speed 0).
    func sceneTime(ofLocal local: Double) -> Double? {
        var t = local
        var layer: CALayer? = self
        while let l = layer {
            guard l.speed != 0 else { return nil }
            t = (t - l.timeOffset) / Double(l.speed) + l.beginTime
            layer = l.superlayer
        }
        return t.isFinite ? t : nil
    }
}

/// Where a presentation copy keeps the transition running on it until its snapshot is made.
enum TransitionStorage {
    static let key = "@strata.transition"
}

/// Errors of `add(_:forKey:)` (which cannot throw, as in Core Animation). Inside a scene's block
/// they go to the block's context (`SceneContext.animationErrors`), which the scene reads after
/// the block; made while no scene runs (building the tree), they are kept for this thread until
/// the scene built from the tree takes them.
public enum AnimationErrorLog {
    private final class Unattached { var messages: [String] = [] }
    private static let unattached = PerThreadObject { Unattached() }

    static func record(_ error: Error, layer: CALayer) {
        let name = layer.name.map { " '\($0)'" } ?? ""
        let message = "animation added to \(type(of: layer))\(name): \(error)"
        if let context = SceneClock.current { context.animationErrors.append(message) } else { unattached.current.messages.append(message) }
    }

    /// The messages recorded on this thread outside any scene since the last call, oldest first.
    public static func takeUnattached() -> [String] {
        defer { unattached.current.messages = [] }
        return unattached.current.messages
    }
}

/// Process-unique numbers for generated keys.
enum LayerIdentity {
    private static let counter = LockedCounter()
    static func next() -> UInt64 { counter.next() }
}
