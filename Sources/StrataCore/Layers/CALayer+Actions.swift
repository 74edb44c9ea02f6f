// Implicit animations: a property change inside a scene block asks `action(forKey:)` and runs the
// action it finds (CORE_ANIMATION.md §4.5). Changes made while building never animate.
import Foundation

/// Stops the action search (as `NSNull` does on iOS): `layer.actions = ["position": NSNull()]`.
extension NSNull: CAAction {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

extension CAAnimation: CAAction {
    /// Adds the animation to the layer under the event's key (the default action behaviour).
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CALayer)?.add(self, forKey: event)
    }
}

public let kCAOnOrderIn = "onOrderIn"
public let kCAOnOrderOut = "onOrderOut"
public let kCATransition = "transition"

extension CALayer {
    /// The keys whose changes animate implicitly by default.
    static let implicitlyAnimatedKeys: Set<String> = [
        "bounds", "position", "anchorPoint", "anchorPointZ", "zPosition", "transform", "sublayerTransform",
        "backgroundColor", "cornerRadius", "borderWidth", "borderColor", "opacity", "shadowOpacity",
        "shadowColor", "shadowOffset", "shadowRadius", "shadowPath", "contentsRect", "contentsCenter",
    ]

    /// The action for `event`: delegate → `actions` → `style["actions"]` → `defaultAction(forKey:)`.
    /// `NSNull` anywhere stops the search with no action.
    public func action(forKey event: String) -> CAAction? {
        if let d = delegate, let a = d.action(for: self, forKey: event) { return a is NSNull ? nil : a }
        if let a = actions?[event] { return a is NSNull ? nil : a }
        if let styleActions = style?["actions"] as? [String: CAAction], let a = styleActions[event] {
            return a is NSNull ? nil : a
        }
        return type(of: self).defaultAction(forKey: event)
    }

    /// Runs `body` with implicit actions off (used when animation values are written).
    func withActionsSuppressed(_ body: () -> Void) {
        actionsSuppressed += 1
        body()
        actionsSuppressed -= 1
    }

    /// Called after an animatable property changed from `oldValue`.
    func didChange(_ key: String, oldValue: AnimatableValue) {
        if key == "bounds", case .rect(let r) = oldValue, r.size != bounds.size {
            needsLayoutFlag = true
            superlayer?.needsLayoutFlag = true
        }
        guard actionsSuppressed == 0, !isPresentationCopy, let ctx = SceneClock.current,
              !CATransaction.disableActions() else { return }
        if let custom = action(forKey: key) {
            custom.run(forKey: key, object: self, arguments: nil)
            return
        }
        guard CALayer.implicitlyAnimatedKeys.contains(key) || customValues[key] != nil && type(of: self).needsDisplay(forKey: key)
                || type(of: self).implicitlyAnimates(key: key) else { return }
        guard let newValue = animatableValue(forKey: key), newValue != oldValue else { return }
        // From the value on screen now, so an interrupted motion continues smoothly.
        let from = presentedValue(forKey: key, model: oldValue, sceneTime: ctx.time)
        let anim = CABasicAnimation(keyPath: key)
        anim.fromValue = from
        anim.duration = CATransaction.animationDuration()
        anim.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
        guard anim.duration > 0 else { return }
        add(anim, forKey: key)
    }

    /// The value of `key` on screen at `sceneTime` if the model value were `model`.
    func presentedValue(forKey key: String, model: AnimatableValue, sceneTime: Double) -> AnimatableValue {
        let t = sceneTimeToLocal(sceneTime)
        var v = model
        for entry in animationEntries {
            let path = entry.prepared.keyPath
            if path == key {
                if let r = entry.prepared.value(at: t, underlying: v) { v = r }
            } else if path.hasPrefix(key + "."), let field = Optional(String(path.dropFirst(key.count + 1))),
                      let under = CALayer.read(field: field, of: v),
                      let r = entry.prepared.value(at: t, underlying: under),
                      let whole = CALayer.write(field: field, of: v, value: r) {
                v = whole
            }
        }
        return v
    }

    /// Called when the layer is added to or removed from a layer tree.
    func didChangeOrder(inserted: Bool) {
        guard actionsSuppressed == 0, SceneClock.current != nil, !CATransaction.disableActions() else { return }
        let event = inserted ? kCAOnOrderIn : kCAOnOrderOut
        if let a = action(forKey: event) { a.run(forKey: event, object: self, arguments: nil) }
    }

    // MARK: Display and layout

    /// Marks the content as needing to be redrawn before the next frame.
    public func setNeedsDisplay() { needsDisplayFlag = true }
    public func setNeedsDisplay(_ r: CGRect) { needsDisplayFlag = true }
    public func needsDisplay() -> Bool { needsDisplayFlag }
    /// Redraws now if marked.
    public func displayIfNeeded() {
        if needsDisplayFlag { needsDisplayFlag = false; display() }
    }

    /// Marks the layer as needing layout before the next frame.
    public func setNeedsLayout() { needsLayoutFlag = true }
    public func needsLayout() -> Bool { needsLayoutFlag }

    /// Lays out this layer and its subtree where marked.
    public func layoutIfNeeded() {
        if needsLayoutFlag { needsLayoutFlag = false; layoutSublayers() }
        for s in sublayers ?? [] { s.layoutIfNeeded() }
    }
}
