// The values animations carry and interpolate. Ported Core Animation code hands `fromValue`,
// `toValue` and `values` as `Any` (NSNumber, Double, CGPoint, CGColor, CATransform3D, …); they are
// converted once, when the animation is added, into this closed set so that evaluation per frame
// is cheap, Sendable and exhaustively typed.
import Foundation

/// A value of an animatable property.
public enum AnimatableValue: Sendable, Equatable, CustomStringConvertible {
    /// A number (a `CGFloat`; ported `Int`, `Double`, `Float` and `NSNumber` values become one);
    /// interpolates linearly.
    case number(CGFloat)
    /// A point; interpolates per coordinate.
    case point(CGPoint)
    /// A size; interpolates per dimension.
    case size(CGSize)
    /// A rectangle; interpolates its origin and size per component.
    case rect(CGRect)
    /// A colour, or nil (no colour); interpolates per RGBA component, a nil end as the other colour
    /// made transparent.
    case color(CGColor?)
    /// A 3D transform; interpolates by decomposition (translation, rotation, scale, skew,
    /// perspective), as CSS does, so a rotation turns rather than shrinking through the middle.
    case transform(CATransform3D)
    /// An image, or nil; switches from one end to the other at the halfway point.
    case image(CGImage?)
    /// A path, or nil; interpolates point by point when both paths have the same elements in the same
    /// order, else switches at the halfway point.
    case path(CGPath?)
    /// A Boolean; switches at the halfway point.
    case bool(Bool)
    /// A list of values (a gradient's colours or locations); interpolates element by element when
    /// both lists have the same length, else switches at the halfway point.
    case array([AnimatableValue])
    /// Any other value: switches at progress 0.5, never interpolates.
    case discrete(DiscreteBox)

    /// The kind of a value (used to check that animations give values of the right type).
    public enum Kind: String, Sendable {
        /// The kinds of the cases of the same names: `number` for `.number(_)`, and so on.
        case number, point, size, rect, color, transform, image, path, bool, array, discrete
    }

    /// The kind of this value: its case, without the payload.
    public var kind: Kind {
        switch self {
        case .number: .number
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .color: .color
        case .transform: .transform
        case .image: .image
        case .path: .path
        case .bool: .bool
        case .array: .array
        case .discrete: .discrete
        }
    }

    public var description: String {
        switch self {
        case .number(let v): "\(v)"
        case .point(let p): "(\(p.x), \(p.y))"
        case .size(let s): "\(s.width)×\(s.height)"
        case .rect(let r): "\(r)"
        case .color(let c): c.map { "\($0)" } ?? "nil"
        case .transform(let t): "\(t)"
        case .image(let i): i.map { "CGImage(\($0.width)×\($0.height))" } ?? "nil"
        case .path(let p): p.map { "CGPath(\($0.elements.count) elements)" } ?? "nil"
        case .bool(let b): "\(b)"
        case .array(let a): "\(a)"
        case .discrete(let d): "\(d.value)"
        }
    }

    /// The value as a number, when it is one.
    public var number: CGFloat? { if case .number(let v) = self { return v }; return nil }
}

// @unchecked: `value` is immutable, and what is boxed (enum cases, strings, colours taken from an
// animation when it is added) is not mutated afterwards; `Any` cannot be checked.
/// A box that makes an arbitrary discrete value Sendable and comparable by description.
public final class DiscreteBox: @unchecked Sendable, Equatable {
    /// The boxed value, as the animation or property gave it.
    public let value: Any
    /// Boxes `value`; two boxes are equal when they are the same box or their values print the same.
    public init(_ value: Any) { self.value = value }
    public static func == (l: DiscreteBox, r: DiscreteBox) -> Bool {
        l === r || String(describing: l.value) == String(describing: r.value)
    }
}

extension AnimatableValue {
    /// Converts a ported `Any` value to the kind a property expects, or nil when it does not fit.
    /// Numbers arrive as Int, Double, Float, CGFloat or NSNumber and all become CGFloat.
    public static func convert(_ any: Any?, to kind: Kind) -> AnimatableValue? {
        guard let any else {
            switch kind {
            case .color: return .color(nil)
            case .image: return .image(nil)
            case .path: return .path(nil)
            default: return nil
            }
        }
        if let v = any as? AnimatableValue { return v.kind == kind ? v : nil }
        // QuartzCore's NSValue boxes (`NSValue(caTransform3D:)`, `NSValue(cgPoint:)`, …).
        if !(any is NSNumber), let box = any as? NSValue, let unboxed = box.unboxedGeometry {
            return convert(unboxed, to: kind)
        }
        switch kind {
        case .number: return asNumber(any).map { .number($0) }
        case .point:
            if let p = any as? CGPoint { return .point(p) }
            if let s = any as? CGSize { return .point(CGPoint(x: s.width, y: s.height)) }
        case .size:
            if let s = any as? CGSize { return .size(s) }
            if let p = any as? CGPoint { return .size(CGSize(width: p.x, height: p.y)) }
        case .rect:
            if let r = any as? CGRect { return .rect(r) }
        case .color:
            if let c = any as? CGColor { return .color(c) }
        case .transform:
            if let t = any as? CATransform3D { return .transform(t) }
            if let t = any as? CGAffineTransform { return .transform(CATransform3D(t)) }
        case .image:
            if let i = any as? CGImage { return .image(i) }
        case .path:
            if let p = any as? CGPath { return .path(p.copy() ?? p) }
            if let b = any as? BezierPath { return .path(b.cgPath) }
        case .bool:
            if let b = any as? Bool { return .bool(b) }
            if let n = asNumber(any) { return .bool(n != 0) }
        case .array:
            if let a = any as? [AnimatableValue] { return .array(a) }
            if let a = any as? [Any] {
                var out: [AnimatableValue] = []
                for e in a {
                    if let n = asNumber(e) { out.append(.number(n)) }
                    else if let c = e as? CGColor { out.append(.color(c)) }
                    else if let p = e as? CGPoint { out.append(.point(p)) }
                    else { return nil }
                }
                return .array(out)
            }
        case .discrete:
            return .discrete(DiscreteBox(any))
        }
        return nil
    }

    /// Reads Int, Double, Float, CGFloat, NSNumber and Bool as CGFloat.
    public static func asNumber(_ any: Any) -> CGFloat? {
        switch any {
        case let v as CGFloat: return v
        case let v as Double: return CGFloat(v)
        case let v as Float: return CGFloat(v)
        case let v as Int: return CGFloat(v)
        case let v as Int32: return CGFloat(v)
        case let v as Int64: return CGFloat(v)
        case let v as UInt: return CGFloat(v)
        case let v as NSNumber: return CGFloat(v.doubleValue)
        default: return nil
        }
    }
}
