// Custom drawing (CORE_ANIMATION.md §2.1): `setNeedsDisplay()` → before the next frame
// `display()` runs → the default records `draw(in:)` (or the delegate's `draw(_:in:)`) into a
// `CGContext` covering the bounds → the layer shows that recording (`LayerContent.drawing`),
// which the renderer rasterises at the scale the layer is shown at.
//
// Custom animatable properties: while an animation runs on a key for which the layer's class
// returns `needsDisplay(forKey:) == true`, each frame's presentation copy (made with
// `init(layer:)`, animated values applied) runs `display()` again, so the drawing follows the
// interpolated value — the seeds' progress-bar layer.
import Foundation
import Synchronization

extension CALayerDelegate {
    /// Not implemented: the layer records `draw(in:)` instead (Core Animation asks
    /// `respondsToSelector:`; this default marks the layer so `display()` can tell).
    public func display(_ layer: CALayer) { layer.delegateDisplayWasDefault = true }
    /// Draws nothing.
    public func draw(_ layer: CALayer, in ctx: CGContext) {}
}

extension CALayer {
    /// The drawing the layer currently shows (recorded by the last `display()`), if any.
    public var currentDrawing: DrawingContent? { drawing }

    /// The default `display()`: the delegate's `display(_:)` when implemented (it sets the
    /// content itself, so any earlier drawing is dropped), else `draw(in:)` recorded into a
    /// context of `bounds.size × contentsScale` pixels, current (UIGraphicsGetCurrentContext)
    /// while it runs.
    func recordDisplay() {
        if let d = delegate {
            delegateDisplayWasDefault = false
            d.display(self)
            if !delegateDisplayWasDefault {
                drawing = nil
                return
            }
        }
        guard bounds.width > 0, bounds.height > 0, bounds.width.isFinite, bounds.height.isFinite else {
            drawing = nil
            return
        }
        let ctx = CGContext(recordingIn: bounds, contentsScale: contentsScale)
        UIGraphicsPushContext(ctx)
        draw(in: ctx)
        UIGraphicsPopContext()
        drawing = ctx.makeDrawing(gravity: contentsGravity)
    }

    /// The `.drawing` content for the renderer (the default `snapshotContent()`).
    func drawingSnapshot() -> LayerContent {
        guard var d = drawing, !d.recording.isEmpty else { return .none }
        d.gravity = contentsGravity
        return .drawing(d)
    }

    // MARK: Running display before a frame

    /// Runs `display()` on every layer of this tree (masks included) that needs it — marked
    /// with `setNeedsDisplay()`, resized with `needsDisplayOnBoundsChange`, or with a changed
    /// value of a key its class names in `needsDisplay(forKey:)`. The scene calls it before each
    /// frame, after layout (what Core Animation's transaction commit does).
    public func displayTreeIfNeeded() {
        let values = currentDisplayKeyValues()
        if !needsDisplayFlag {
            if needsDisplayOnBoundsChange, let d = drawing, d.bounds.size != bounds.size {
                needsDisplayFlag = true
            } else if let values, values != (displayedKeyValues ?? [:]) {
                needsDisplayFlag = true
            }
        }
        if needsDisplayFlag {
            displayIfNeeded()
            displayedKeyValues = values
        }
        mask?.displayTreeIfNeeded()
        for s in sublayers ?? [] { s.displayTreeIfNeeded() }
    }

    /// The current values of keys that need display when they change (nil when the class names
    /// none that the layer has).
    private func currentDisplayKeyValues() -> [String: AnimatableValue]? {
        let cls = type(of: self)
        if cls == CALayer.self && customValues.isEmpty { return nil }
        var keys = DisplayKeyCache.shared.builtInKeys(of: cls)
        for k in customValues.keys where cls.needsDisplay(forKey: k) { keys.append(k) }
        guard !keys.isEmpty else { return nil }
        var values: [String: AnimatableValue] = [:]
        for k in keys { values[k] = animatableValue(forKey: k) }
        return values
    }

    // MARK: Presentation copies

    /// On a presentation copy made from `model` (animations applied for the model's local time
    /// `localTime`): shows the model's drawing, or draws again when an animation is running on a
    /// key whose change needs display.
    func preparePresentationDrawing(from model: CALayer, localTime: Double) {
        // (Most layers have no drawing: nothing to copy then.)
        if model.drawing != nil || drawing != nil { drawing = model.drawing }
        let cls = type(of: model)
        var animating = false
        for entry in model.animationEntries where !animating {
            entry.prepared.forEachPropertyAnimation(at: localTime) { prepared, t in
                guard !animating, cls.needsDisplay(forKey: prepared.keyBase) else { return }
                if prepared.timing.evaluate(atParentTime: t).progress != nil { animating = true }
            }
        }
        if animating { withActionsSuppressed { display() } }
    }
}

/// Per class, the built-in property keys for which `needsDisplay(forKey:)` is true (class
/// functions are pure, so this is computed once per class).
private final class DisplayKeyCache: Sendable {
    static let shared = DisplayKeyCache()
    private let keys = Mutex<[ObjectIdentifier: [String]]>([:])

    func builtInKeys(of cls: CALayer.Type) -> [String] {
        let id = ObjectIdentifier(cls)
        return keys.withCheckedLock { keys in
            if let k = keys[id] { return k }
            let k = cls == CALayer.self ? [] : CALayer.baseProperties.all.map(\.key).sorted().filter { cls.needsDisplay(forKey: $0) }
            keys[id] = k
            return k
        }
    }
}
