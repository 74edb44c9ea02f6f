// A single-keyframe animation: from/to/by in every combination Core Animation allows.
import Foundation

/// Animates one key path between two values.
// @unchecked: see CAAnimation.
open class CABasicAnimation: CAPropertyAnimation, @unchecked Sendable {
    public var fromValue: Any?
    public var toValue: Any?
    public var byValue: Any?

    public required init() { super.init() }

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
    case unknownKeyPath(String, layer: String)
    case wrongValueType(keyPath: String, field: String, expected: AnimatableValue.Kind, got: String)
    case notAddable(keyPath: String)
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
