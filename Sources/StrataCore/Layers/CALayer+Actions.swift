// Implicit animations: a property change inside a scene block asks `action(forKey:)` and runs the
// action it finds (CORE_ANIMATION.md §4.5). Changes made while building never animate.
import Foundation

/// Stops the action search (as `NSNull` does on iOS): `layer.actions = ["position": NSNull()]`.
extension NSNull: CAAction {
    /// Does nothing: an `NSNull` found for an event means "no action", so the change is not
    /// animated and no further place is searched.
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

extension CAAnimation: CAAction {
    /// Adds the animation to the layer under the event's key (the default action behaviour).
    /// A property animation without a key path animates the event's key; one without values runs
    /// from the property's previous presentation value to its new value (as on iOS).
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        guard let layer = anObject as? CALayer else { return }
        if let p = self as? CAPropertyAnimation, p.keyPath == nil, let c = p.copy() as? CAPropertyAnimation {
            c.keyPath = event
            layer.add(c, forKey: event)
        } else {
            layer.add(self, forKey: event)
        }
    }
}

/// The action event sent when a layer joins a layer tree (`addSublayer` and its relatives, inside
/// a scene block with actions enabled): an action found for it runs, e.g. a fade-in.
public let kCAOnOrderIn = "onOrderIn"
/// The action event sent when a layer leaves its superlayer (`removeFromSuperlayer()`, or
/// `replaceSublayer(_:with:)` for the old layer), inside a scene block with actions enabled.
public let kCAOnOrderOut = "onOrderOut"
/// The key a `CATransition` is always added under (`add(_:forKey:)` ignores the key given), so a
/// layer runs one transition at a time, the newest.
public let kCATransition = "transition"

/// The outcome of the action search for one event.
enum ActionLookup {
    case found(CAAction)
    /// `NSNull` stopped the search.
    case stopped
    /// Nothing was found: the built-in default applies.
    case notFound
}

extension CALayer {
    /// **Strata:** the key under which a property change's action receives the property's value
    /// before the change (an `AnimatableValue`) in `run(forKey:object:arguments:)`; Apple passes
    /// nil. UIKit's block animations use it to make additive animations.
    public static let previousValueArgument = "strata.previousValue"

    /// The keys whose changes animate implicitly by default.
    static let implicitlyAnimatedKeys = baseProperties.implicitlyAnimatedKeys

    /// `action(forKey:)`'s default: delegate `action(for:forKey:)` → `actions` →
    /// `style["actions"]` → `defaultAction(forKey:)`; `NSNull` anywhere stops the search and gives
    /// nil. When nothing is found, an animatable property gets Core Animation's implicit
    /// animation: a `CABasicAnimation` of the key with the current transaction's duration and
    /// timing function (from the previous presentation value to the new one), and `contents` a
    /// fade `CATransition`.
    func searchAction(forKey event: String) -> CAAction? {
        switch lookupAction(forKey: event) {
        case .found(let a): return a
        case .stopped: return nil
        case .notFound: return builtInAction(forKey: event)
        }
    }

    func lookupAction(forKey event: String) -> ActionLookup {
        func found(_ a: CAAction) -> ActionLookup { a is NSNull ? .stopped : .found(a) }
        if let d = delegate, let a = d.action(for: self, forKey: event) { return found(a) }
        if let a = actions?[event] { return found(a) }
        if let styleActions = style?["actions"] as? [String: CAAction], let a = styleActions[event] { return found(a) }
        if let a = type(of: self).defaultAction(forKey: event) { return found(a) }
        return .notFound
    }

    /// Core Animation's implicit animation for `key` when the search finds nothing.
    func builtInAction(forKey key: String) -> CAAction? {
        let duration = CATransaction.animationDuration()
        let timing = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
        if key == "contents" {
            let fade = CATransition()
            fade.duration = duration
            fade.timingFunction = timing
            return fade
        }
        guard CALayer.implicitlyAnimatedKeys.contains(key)
                || customValues[key] != nil && type(of: self).needsDisplay(forKey: key)
                || type(of: self).implicitlyAnimates(key: key) else { return nil }
        let anim = CABasicAnimation(keyPath: key)
        anim.duration = duration
        anim.timingFunction = timing
        anim.isImplicitDefault = true
        return anim
    }

    /// Runs `body` with implicit actions off (used when animation values are written).
    func withActionsSuppressed(_ body: () -> Void) {
        actionsSuppressed += 1
        body()
        actionsSuppressed -= 1
    }

    /// Called after an animatable property changed from `oldValue`: records the change for the
    /// running transaction, then (inside a scene block, actions enabled) runs the key's action.
    func didChange(_ key: String, oldValue: AnimatableValue) {
        if isPresentationCopy { return }
        let ctx = SceneClock.current
        // Replaying recorded history: the flags and animations this change caused are recorded
        // changes of their own.
        if let ctx, ctx.isReplaying || ctx.copyingPresentation > 0 { return }
        if key == "bounds", case .rect(let r) = oldValue, r.size != bounds.size {
            needsLayoutFlag = true
            superlayer?.needsLayoutFlag = true
        }
        guard actionsSuppressed == 0, let ctx else { return }
        ctx.journal.recordChange(of: self, key: key, old: oldValue)
        guard !CATransaction.disableActions() else { return }
        // `action(forKey:)` is open: a subclass's override decides, as on iOS.
        guard let action = action(forKey: key) else { return }
        if let basic = action as? CABasicAnimation, basic.isImplicitDefault {
            // The built-in implicit animation: only a real change animates, and only for a
            // positive duration.
            guard basic.duration > 0, let newValue = animatableValue(forKey: key), newValue != oldValue else { return }
        }
        action.run(forKey: key, object: self, arguments: [CALayer.previousValueArgument: oldValue])
    }

    /// The value of `key` on screen at `sceneTime` if the model value were `model`, with the
    /// layer's animations (`entries`, by default the current ones) applied.
    func presentedValue(forKey key: String, model: AnimatableValue, sceneTime: Double,
                        entries: [AnimationEntry]? = nil) -> AnimatableValue {
        let t = sceneTimeToLocal(sceneTime)
        var v = model
        for entry in entries ?? animationEntries {
            entry.prepared.forEachPropertyAnimation(at: t) { prepared, time in
                let path = prepared.keyPath
                if path == key {
                    if let r = prepared.value(at: time, underlying: v) { v = r }
                } else if path.hasPrefix(key + "."), let field = Optional(String(path.dropFirst(key.count + 1))),
                          let under = CALayer.read(field: field, of: v),
                          let r = prepared.value(at: time, underlying: under),
                          let whole = CALayer.write(field: field, of: v, value: r) {
                    v = whole
                }
            }
        }
        return v
    }

    /// Called when the layer is added to or removed from a layer tree: records the parent's
    /// previous sublayers for the running transaction, lets the scene take charge of animations
    /// added to the layer while building, and runs `kCAOnOrderIn` / `kCAOnOrderOut`.
    func didChangeOrder(inserted: Bool) {
        guard !isPresentationCopy, let ctx = SceneClock.current, !ctx.isReplaying, ctx.copyingPresentation == 0 else { return }
        if let parent = superlayer {
            // (The list is copied only the first time in the transaction.)
            ctx.journal.recordSublayers(of: parent, original: inserted ? parent.sublayerStorage.filter { $0 !== self } : parent.sublayerStorage)
        }
        if inserted, let events = ctx.events { events.adopt(tree: self, in: ctx) }
        if inserted, ctx.changeLog != nil { didEnterTree(atSceneTime: ctx.time) }
        guard actionsSuppressed == 0, !CATransaction.disableActions() else { return }
        let event = inserted ? kCAOnOrderIn : kCAOnOrderOut
        action(forKey: event)?.run(forKey: event, object: self, arguments: nil)
    }

    // MARK: Display and layout

    /// Marks the content as needing to be redrawn before the next frame.
    public func setNeedsDisplay() { needsDisplayFlag = true }
    /// Marks the content as needing to be redrawn. **Strata:** the whole layer is redrawn; the
    /// rectangle is accepted for ported code and otherwise ignored.
    public func setNeedsDisplay(_ r: CGRect) { needsDisplayFlag = true }
    /// Whether `setNeedsDisplay()` has marked the content to be redrawn and it has not been yet
    /// (the mark is cleared when the layer displays, before the next frame).
    public func needsDisplay() -> Bool { needsDisplayFlag }
    /// Redraws now if marked.
    public func displayIfNeeded() {
        if needsDisplayFlag { needsDisplayFlag = false; display() }
    }

    /// Marks the layer as needing layout before the next frame.
    public func setNeedsLayout() { needsLayoutFlag = true }
    /// Whether the layer is marked to be laid out before the next frame (by `setNeedsLayout()`,
    /// or a change of its own or a sublayer's bounds size).
    public func needsLayout() -> Bool { needsLayoutFlag }

    /// Lays out this layer and its subtree where marked.
    public func layoutIfNeeded() {
        if needsLayoutFlag { needsLayoutFlag = false; layoutSublayers() }
        for s in sublayers ?? [] { s.layoutIfNeeded() }
    }
}
