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

    /// A property stored as `T`, whose values `codec` converts.
    init<T>(_ key: String, _ path: ReferenceWritableKeyPath<Layer, T> & Sendable, _ codec: ValueCodec<T>, implicit: Bool = true) {
        self.init(key, codec.kind, implicit: implicit, get: { codec.wrap($0[keyPath: path]) }) { layer, value in
            guard let v = codec.unwrap(value) else { return false }
            layer[keyPath: path] = v
            return true
        }
    }

    /// A `CGFloat` property.
    static func number(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGFloat> & Sendable, implicit: Bool = true) -> Self {
        Self(key, path, .number, implicit: implicit)
    }
    /// A `Float` property (`opacity`, `shadowOpacity`), read and written as a `CGFloat`.
    static func float(_ key: String, _ path: ReferenceWritableKeyPath<Layer, Float> & Sendable, implicit: Bool = true) -> Self {
        Self(key, path, .float, implicit: implicit)
    }
    static func point(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGPoint> & Sendable, implicit: Bool = true) -> Self {
        Self(key, path, .point, implicit: implicit)
    }
    static func size(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGSize> & Sendable, implicit: Bool = true) -> Self {
        Self(key, path, .size, implicit: implicit)
    }
    static func rect(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGRect> & Sendable, implicit: Bool = true) -> Self {
        Self(key, path, .rect, implicit: implicit)
    }
    static func color(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGColor?> & Sendable, implicit: Bool = true) -> Self {
        Self(key, path, .color, implicit: implicit)
    }
    static func transform(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CATransform3D> & Sendable, implicit: Bool = true) -> Self {
        Self(key, path, .transform, implicit: implicit)
    }
    static func path(_ key: String, _ path: ReferenceWritableKeyPath<Layer, CGPath?> & Sendable, implicit: Bool = true) -> Self {
        Self(key, path, .path, implicit: implicit)
    }
    /// A `Bool` property; not implicitly animated unless told.
    static func bool(_ key: String, _ path: ReferenceWritableKeyPath<Layer, Bool> & Sendable, implicit: Bool = false) -> Self {
        Self(key, path, .bool, implicit: implicit)
    }
}

/// How a stored type's values are an animatable kind's: `wrap` makes the value, `unwrap` reads it
/// back (nil for a value of another kind).
struct ValueCodec<T>: Sendable {
    let kind: AnimatableValue.Kind
    let wrap: @Sendable (T) -> AnimatableValue
    let unwrap: @Sendable (AnimatableValue) -> T?
}

extension ValueCodec where T == CGFloat {
    static var number: Self { Self(kind: .number, wrap: { .number($0) }, unwrap: { $0.number }) }
}
extension ValueCodec where T == Float {
    /// Read and written as a `CGFloat`.
    static var float: Self { Self(kind: .number, wrap: { .number(CGFloat($0)) }, unwrap: { $0.number.map { Float($0) } }) }
}
extension ValueCodec where T == Double {
    /// Read and written as a `CGFloat`.
    static var double: Self { Self(kind: .number, wrap: { .number(CGFloat($0)) }, unwrap: { $0.number.map { Double($0) } }) }
}
extension ValueCodec where T == CGPoint {
    static var point: Self { Self(kind: .point, wrap: { .point($0) }) { if case .point(let p) = $0 { p } else { nil } } }
}
extension ValueCodec where T == CGSize {
    static var size: Self { Self(kind: .size, wrap: { .size($0) }) { if case .size(let s) = $0 { s } else { nil } } }
}
extension ValueCodec where T == CGRect {
    static var rect: Self { Self(kind: .rect, wrap: { .rect($0) }) { if case .rect(let r) = $0 { r } else { nil } } }
}
extension ValueCodec where T == CGColor? {
    static var color: Self { Self(kind: .color, wrap: { .color($0) }) { if case .color(let c) = $0 { .some(c) } else { nil } } }
}
extension ValueCodec where T == CGImage? {
    static var image: Self { Self(kind: .image, wrap: { .image($0) }) { if case .image(let i) = $0 { .some(i) } else { nil } } }
}
extension ValueCodec where T == CATransform3D {
    static var transform: Self { Self(kind: .transform, wrap: { .transform($0) }) { if case .transform(let t) = $0 { t } else { nil } } }
}
extension ValueCodec where T == CGPath? {
    static var path: Self { Self(kind: .path, wrap: { .path($0) }) { if case .path(let p) = $0 { .some(p) } else { nil } } }
}
extension ValueCodec where T == Bool {
    static var bool: Self { Self(kind: .bool, wrap: { .bool($0) }) { if case .bool(let b) = $0 { b } else { nil } } }
    /// A bool that also takes a number (non-zero: true), as an emitter cell's `enabled` does.
    static var flag: Self {
        Self(kind: .bool, wrap: { .bool($0) }) {
            switch $0 {
            case .bool(let b): b
            case .number(let n): n != 0
            default: nil
            }
        }
    }
}

/// An animatable value of a value type (an emitter's or a cell's frozen configuration, which
/// particles read): the struct counterpart of `AnimatableProperty`.
struct ValueField<Root>: Sendable {
    let key: String
    let kind: AnimatableValue.Kind
    let get: @Sendable (Root) -> AnimatableValue
    /// Stores a value of the field's kind; false (nothing stored) for another kind.
    let set: @Sendable (inout Root, AnimatableValue) -> Bool

    init<T>(_ key: String, _ path: WritableKeyPath<Root, T> & Sendable, _ codec: ValueCodec<T>) {
        self.key = key
        kind = codec.kind
        get = { codec.wrap($0[keyPath: path]) }
        set = { root, value in
            guard let v = codec.unwrap(value) else { return false }
            root[keyPath: path] = v
            return true
        }
    }

    /// Fields by key.
    static func keyed(_ fields: [Self]) -> [String: Self] { Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0) }) }
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

    /// The property named `key` (such as `"opacity"`), or nil when the class has none of that name.
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
