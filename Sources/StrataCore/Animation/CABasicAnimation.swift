// A single-keyframe animation: from/to/by in every combination Core Animation allows.
import Foundation

// @unchecked: see CAAnimation.
/// Animates one key path between two values.
open class CABasicAnimation: CAPropertyAnimation, @unchecked Sendable {
    /// The value at the start (default nil). With `toValue`: from one to the other; with `byValue`:
    /// from it to it + by; alone: from it to the property's current value. Numbers, points, sizes,
    /// rects, `CGColor`s, `CATransform3D`s, paths, … as the key path's property takes them (an
    /// `NSValue` or `NSNumber` as ported code writes them is fine).
    ///
    /// ```swift
    /// let fade = CABasicAnimation(keyPath: "opacity")
    /// fade.fromValue = 0
    /// fade.toValue = 1
    /// fade.duration = 0.5
    /// layer.add(fade, forKey: "fade")
    /// ```
    public var fromValue: Any?
    /// The value at the end (default nil). Alone: from the property's current (presentation) value
    /// to it; with `byValue`: from it − by to it.
    public var toValue: Any?
    /// A change relative to the start (default nil). Alone: from the current value to current + by.
    public var byValue: Any?

    /// An animation with no key path and no values: set `keyPath` before adding it (or use
    /// `init(keyPath:)`), or return it as a layer action, which supplies the changed key and
    /// animates from the previous value to the new one.
    public required init() { super.init() }

    /// **Strata:** no archives: an animation with default values.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CABasicAnimation
        c.fromValue = fromValue; c.toValue = toValue; c.byValue = byValue
        return c
    }

    open override func prepare(for kind: AnimatableValue.Kind) throws -> PreparedAnimation? {
        let path = keyPath ?? ""
        func conv(_ v: Any?, _ name: String) throws -> AnimatableValue? {
            guard let v else { return nil }
            guard let c = AnimatableValue.convert(v, to: kind) else {
                throw AnimationError.wrongValueType(keyPath: path, field: name, expected: kind,
                                                    got: String(describing: type(of: v)))
            }
            return c
        }
        let from = try conv(fromValue, "fromValue"), to = try conv(toValue, "toValue"), by = try conv(byValue, "byValue")
        let ends: BasicEnds
        switch (from, to, by) {
        case let (f?, t?, _): ends = .fromTo(f, t)
        case let (f?, nil, b?):
            guard let t = AnimatableValue.add(f, b) else { throw AnimationError.notAddable(keyPath: path) }
            ends = .fromTo(f, t)
        case let (nil, t?, b?):
            guard let f = AnimatableValue.subtract(t, b) else { throw AnimationError.notAddable(keyPath: path) }
            ends = .fromTo(f, t)
        case let (f?, nil, nil): ends = .fromCurrent(f)
        case let (nil, t?, nil): ends = .currentTo(t)
        case let (nil, nil, b?): ends = .currentBy(b)
        case (nil, nil, nil): ends = .currentToCurrent
        }
        return PreparedAnimation(keyPath: path, timing: timingValues, timingFunction: timingFunction,
                                 isAdditive: isAdditive, isCumulative: isCumulative, curve: .basic(ends))
    }
}

/// Errors found when an animation is added.
public enum AnimationError: Error, CustomStringConvertible, Equatable {
    /// The layer (named by its class) has no animatable property at the key path.
    case unknownKeyPath(String, layer: String)
    /// A value of the animation (`field`: `fromValue`, `values[2]`, …) is not of the kind the
    /// property takes.
    case wrongValueType(keyPath: String, field: String, expected: AnimatableValue.Kind, got: String)
    /// `byValue` was given for a property whose values cannot be added or subtracted (an image, a
    /// Boolean, …).
    case notAddable(keyPath: String)
    /// A property animation was added with no key path, and not as a layer action (which supplies one).
    case missingKeyPath
    /// A parameter out of its range (a spring's mass, a transition inside a group, …).
    case invalidParameter(keyPath: String, String)
    /// A problem with the child at `index` of an animation group.
    indirect case inGroup(index: Int, AnimationError)

    public var description: String {
        switch self {
        case .unknownKeyPath(let p, let layer): "unknown animatable key path '\(p)' on \(layer)"
        case .wrongValueType(let p, let f, let e, let g): "\(f) of the animation on '\(p)' is a \(g); expected a \(e.rawValue)"
        case .notAddable(let p): "the values of the animation on '\(p)' cannot be added or subtracted (byValue)"
        case .missingKeyPath: "a property animation needs a keyPath"
        case .invalidParameter(let p, let what): p.isEmpty ? what : "the animation on '\(p)': \(what)"
        case .inGroup(let i, let e): "animations[\(i)] of the group: \(e.description)"
        }
    }
}
