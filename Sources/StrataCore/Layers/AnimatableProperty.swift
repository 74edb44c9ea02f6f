// A layer class's animatable properties, each written once: its key (Core Animation's name), the
// kind of its values, whether a change animates implicitly, and how its value is read and
// written. Key-value access (`animatableKind(forKey:)`, `animatableValue(forKey:)`,
// `setAnimatableValue(_:forKey:)`), the implicit actions (CALayer+Actions.swift) and the
// templates' and DSL's property table (Strata's PropertyTable.swift) read these lists; each class
// has one (`CALayer.baseProperties`, `CAShapeLayer.shapeProperties`, `CAEmitterLayer.emitterProperties`,
// …) and asks its superclass's for the keys it does not have. The model is lottie-ios's
// `LayerProperty`: a descriptor with the key path's name, the value kind and the accessors.
import Foundation

/// One animatable property of layers of class `Layer`.
public struct AnimatableProperty<Layer: CALayer>: Sendable {
    /// Core Animation's key (`"opacity"`, `"strokeEnd"`).
    public let key: String
    /// The kind of the values the property takes.
    public let kind: AnimatableValue.Kind
    /// Whether a change inside a scene block animates implicitly when no action is found (Core
    /// Animation's default for most animatable properties; not for `hidden`, `masksToBounds`,
    /// `doubleSided`, and `contents` fades with a transition instead).
    public let implicitlyAnimates: Bool
    /// The kind of an array's elements (a gradient's `colors`: `.color`, its `locations`:
    /// `.number`); nil for other kinds.
    public let elementKind: AnimatableValue.Kind?
    /// The property's current value.
    public let get: @Sendable (Layer) -> AnimatableValue
    /// Stores a value of the property's kind, as the property's setter does (actions included),
    /// and returns true; returns false (storing nothing) for a value of another kind.
    public let set: @Sendable (Layer, AnimatableValue) -> Bool

    /// A property with its own accessors (for a stored type that is not the value's, such as
    /// `opacity`'s `Float`).
    init(_ key: String, _ kind: AnimatableValue.Kind, elements: AnimatableValue.Kind? = nil, implicit: Bool = true,
         get: @escaping @Sendable (Layer) -> AnimatableValue, set: @escaping @Sendable (Layer, AnimatableValue) -> Bool) {
        self.key = key
        self.kind = kind
        self.elementKind = elements
        self.implicitlyAnimates = implicit
        self.get = get
        self.set = set
    }

    /// A `CGFloat` property.
    static func number(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGFloat> & Sendable, implicit: Bool = true) -> Self {
        Self(key, .number, implicit: implicit, get: { .number($0[keyPath: path]) }) { layer, value in
            guard case .number(let n) = value else { return false }
            layer[keyPath: path] = n
            return true
        }
    }

    /// A `Float` property (`opacity`, `shadowOpacity`), read and written as a `CGFloat`.
    static func float(_ key: String, _ path: ReferenceWritableKeyPath<Layer, Float> & Sendable, implicit: Bool = true) -> Self {
        Self(key, .number, implicit: implicit, get: { .number(CGFloat($0[keyPath: path])) }) { layer, value in
            guard case .number(let n) = value else { return false }
            layer[keyPath: path] = Float(n)
            return true
        }
    }

    static func point(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGPoint> & Sendable, implicit: Bool = true) -> Self {
        Self(key, .point, implicit: implicit, get: { .point($0[keyPath: path]) }) { layer, value in
            guard case .point(let p) = value else { return false }
            layer[keyPath: path] = p
            return true
        }
    }

    static func size(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGSize> & Sendable, implicit: Bool = true) -> Self {
        Self(key, .size, implicit: implicit, get: { .size($0[keyPath: path]) }) { layer, value in
            guard case .size(let s) = value else { return false }
            layer[keyPath: path] = s
            return true
        }
    }

    static func rect(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGRect> & Sendable, implicit: Bool = true) -> Self {
        Self(key, .rect, implicit: implicit, get: { .rect($0[keyPath: path]) }) { layer, value in
            guard case .rect(let r) = value else { return false }
            layer[keyPath: path] = r
            return true
        }
    }

    static func color(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGColor?> & Sendable, implicit: Bool = true) -> Self {
        Self(key, .color, implicit: implicit, get: { .color($0[keyPath: path]) }) { layer, value in
            guard case .color(let c) = value else { return false }
            layer[keyPath: path] = c
            return true
        }
    }

    static func transform(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CATransform3D> & Sendable, implicit: Bool = true) -> Self {
        Self(key, .transform, implicit: implicit, get: { .transform($0[keyPath: path]) }) { layer, value in
            guard case .transform(let t) = value else { return false }
            layer[keyPath: path] = t
            return true
        }
    }

    static func path(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGPath?> & Sendable, implicit: Bool = true) -> Self {
        Self(key, .path, implicit: implicit, get: { .path($0[keyPath: path]) }) { layer, value in
            guard case .path(let p) = value else { return false }
            layer[keyPath: path] = p
            return true
        }
    }

    static func bool(_ key: String, _ path: ReferenceWritableKeyPath<Layer, Bool> & Sendable, implicit: Bool = false) -> Self {
        Self(key, .bool, implicit: implicit, get: { .bool($0[keyPath: path]) }) { layer, value in
            guard case .bool(let b) = value else { return false }
            layer[keyPath: path] = b
            return true
        }
    }
}

/// The animatable properties of one layer class, by key.
public struct AnimatableProperties<Layer: CALayer>: Sendable {
    /// In the order written.
    public let all: [AnimatableProperty<Layer>]
    private let byKey: [String: AnimatableProperty<Layer>]

    init(_ properties: [AnimatableProperty<Layer>]) {
        all = properties
        byKey = Dictionary(properties.map { ($0.key, $0) }) { first, second in
            preconditionFailure("the animatable property \(first.key) is listed twice")
        }
    }

    public subscript(key: String) -> AnimatableProperty<Layer>? { byKey[key] }

    /// The keys whose changes animate implicitly.
    public var implicitlyAnimatedKeys: Set<String> { Set(all.filter(\.implicitlyAnimates).map(\.key)) }

    /// The value of `key` on `layer`, or nil when the class has no such property.
    func value(forKey key: String, of layer: Layer) -> AnimatableValue? { byKey[key]?.get(layer) }

    /// Stores `value` under `key` when the class has that property and the value is of its kind;
    /// returns whether it did.
    func set(_ value: AnimatableValue, forKey key: String, of layer: Layer) -> Bool {
        byKey[key]?.set(layer, value) ?? false
    }
}
