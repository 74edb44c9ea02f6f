// Key-value access to a layer's animatable properties by name and key path, as animations and
// ported KVC code use them: `"position"`, `"position.x"`, `"bounds.size.width"`,
// `"transform.rotation.z"`, custom keys set with `setValue(_:forKey:)`. Numbers come back as
// CGFloat (CORE_ANIMATION.md §4.4 "Numbers on Linux").
import Foundation

extension CALayer {
    /// CALayer's animatable properties (subclasses list theirs: `CAShapeLayer.shapeProperties`, …).
    public static let baseProperties = AnimatableProperties<CALayer>([
        .rect("bounds", \.bounds), .point("position", \.position), .point("anchorPoint", \.anchorPoint),
        .number("anchorPointZ", \.anchorPointZ), .number("zPosition", \.zPosition),
        .transform("transform", \.transform), .transform("sublayerTransform", \.sublayerTransform),
        .color("backgroundColor", \.backgroundColor), .number("cornerRadius", \.cornerRadius),
        .number("borderWidth", \.borderWidth), .color("borderColor", \.borderColor),
        .float("opacity", \.opacity), .bool("hidden", \.isHidden), .bool("masksToBounds", \.masksToBounds),
        .float("shadowOpacity", \.shadowOpacity), .color("shadowColor", \.shadowColor),
        .size("shadowOffset", \.shadowOffset), .number("shadowRadius", \.shadowRadius), .path("shadowPath", \.shadowPath),
        // `contents` changes with a fade transition, not a basic animation (CALayer+Actions.swift).
        AnimatableProperty("contents", .image, implicit: false, get: { .image($0.contents as? CGImage) }) { layer, value in
            guard case .image(let image) = value else { return false }
            layer.contents = image
            return true
        },
        .rect("contentsRect", \.contentsRect), .rect("contentsCenter", \.contentsCenter), .bool("doubleSided", \.isDoubleSided),
        // Animatable on iOS too (the scale a rasterized layer's bitmap is drawn at).
        .number("rasterizationScale", \.rasterizationScale, implicit: false),
    ])

    /// The kind of value stored under a top-level property key, or nil when the layer has no such
    /// animatable property. Subclasses override to add theirs and call super.
    public func baseAnimatableKind(forKey key: String) -> AnimatableValue.Kind? {
        if let k = CALayer.baseProperties[key]?.kind { return k }
        if let v = customValues[key] {
            if AnimatableValue.asNumber(v) != nil { return .number }
            for kind in [AnimatableValue.Kind.point, .size, .rect, .color, .transform] {
                if AnimatableValue.convert(v, to: kind) != nil { return kind }
            }
            return .discrete
        }
        // A custom property the class declares (it redraws for it, or has a default value) is
        // animatable before anything was stored under it, as a dynamic property is on iOS.
        let cls = type(of: self)
        if let d = cls.defaultValue(forKey: key) {
            if AnimatableValue.asNumber(d) != nil, !(d is Bool) { return .number }
            for kind in [AnimatableValue.Kind.point, .size, .rect, .color, .transform] {
                if AnimatableValue.convert(d, to: kind) != nil { return kind }
            }
            return .discrete
        }
        if cls != CALayer.self, cls.needsDisplay(forKey: key) { return .number }
        return nil
    }

    /// The current (model, or on a presentation copy, presented) value of a top-level key.
    public func baseAnimatableValue(forKey key: String) -> AnimatableValue? {
        if let v = CALayer.baseProperties.value(forKey: key, of: self) { return v }
        guard let kind = animatableKind(forKey: key) else { return nil }
        if let v = customValues[key] { return AnimatableValue.convert(v, to: kind) }
        // Declared but never set: the class's default, or zero.
        if let d = type(of: self).defaultValue(forKey: key) { return AnimatableValue.convert(d, to: kind) }
        return kind == .number ? .number(0) : nil
    }

    /// Sets a top-level key from an animated value without triggering actions.
    public func baseSetAnimatableValue(_ value: AnimatableValue, forKey key: String) {
        withActionsSuppressed {
            if CALayer.baseProperties.set(value, forKey: key, of: self) { return }
            // A custom key (or a built-in one given a value of another kind, as before).
            switch value {
            case .number(let n): customValues[key] = n
            case .point(let p): customValues[key] = p
            case .size(let s): customValues[key] = s
            case .rect(let r): customValues[key] = r
            case .color(let c): customValues[key] = c as Any
            case .transform(let t): customValues[key] = t
            case .bool(let b): customValues[key] = b
            case .discrete(let d): customValues[key] = d.value
            default: break
            }
        }
    }

    // MARK: Key paths

    /// The kind of value a key path animates, or nil when the key path is unknown.
    public func animatableKind(forKeyPath path: String) -> AnimatableValue.Kind? {
        let (base, field) = CALayer.split(path)
        guard let baseKind = animatableKind(forKey: base) else { return nil }
        guard let field else { return baseKind }
        return CALayer.fieldKind(of: baseKind, field: field)
    }

    /// The value at a key path (`position.x`, `transform.rotation.z`, …).
    public func animatableValue(forKeyPath path: String) -> AnimatableValue? {
        let (base, field) = CALayer.split(path)
        guard let v = animatableValue(forKey: base) else { return nil }
        guard let field else { return v }
        return CALayer.read(field: field, of: v)
    }

    /// Sets the value at a key path without triggering actions.
    public func setAnimatableValue(_ value: AnimatableValue, forKeyPath path: String) {
        let (base, field) = CALayer.split(path)
        guard let field else { setAnimatableValue(value, forKey: base); return }
        guard let whole = animatableValue(forKey: base),
              let updated = CALayer.write(field: field, of: whole, value: value) else { return }
        setAnimatableValue(updated, forKey: base)
    }

    static func split(_ path: String) -> (String, String?) {
        // An emitter cell's key path (`emitterCells.fire.birthRate`) is one key of the layer.
        if path.hasPrefix("emitterCells.") { return (path, nil) }
        guard let dot = path.firstIndex(of: ".") else { return (path, nil) }
        return (String(path[..<dot]), String(path[path.index(after: dot)...]))
    }

    static let transformFields: Set<String> = [
        "rotation", "rotation.x", "rotation.y", "rotation.z", "scale", "scale.x", "scale.y", "scale.z",
        "translation", "translation.x", "translation.y", "translation.z",
    ]

    static func fieldKind(of kind: AnimatableValue.Kind, field: String) -> AnimatableValue.Kind? {
        switch (kind, field) {
        case (.point, "x"), (.point, "y"), (.size, "width"), (.size, "height"): return .number
        case (.rect, "origin"): return .point
        case (.rect, "size"): return .size
        case (.rect, "origin.x"), (.rect, "origin.y"), (.rect, "size.width"), (.rect, "size.height"),
             (.rect, "x"), (.rect, "y"), (.rect, "width"), (.rect, "height"): return .number
        case (.transform, "translation"): return .size
        case (.transform, let f) where transformFields.contains(f): return .number
        default: return nil
        }
    }

    static func read(field: String, of v: AnimatableValue) -> AnimatableValue? {
        KeyField(field).flatMap { read(field: $0, of: v) }
    }

    /// `read(field:of:)` for a field parsed once (an animation's, per frame).
    static func read(field: KeyField, of v: AnimatableValue) -> AnimatableValue? {
        switch (v, field) {
        case (.point(let p), .x): return .number(p.x)
        case (.point(let p), .y): return .number(p.y)
        case (.size(let s), .width): return .number(s.width)
        case (.size(let s), .height): return .number(s.height)
        case (.rect(let r), .origin): return .point(r.origin)
        case (.rect(let r), .size): return .size(r.size)
        case (.rect(let r), .originX), (.rect(let r), .x): return .number(r.origin.x)
        case (.rect(let r), .originY), (.rect(let r), .y): return .number(r.origin.y)
        case (.rect(let r), .sizeWidth), (.rect(let r), .width): return .number(r.size.width)
        case (.rect(let r), .sizeHeight), (.rect(let r), .height): return .number(r.size.height)
        case (.transform(let t), .translation):
            return .size(CGSize(width: t.value(forVirtualKey: .translationX) ?? 0,
                                height: t.value(forVirtualKey: .translationY) ?? 0))
        case (.transform(let t), .virtual(let k)):
            return t.value(forVirtualKey: k).map { .number($0) }
        default: return nil
        }
    }

    static func write(field: String, of whole: AnimatableValue, value: AnimatableValue) -> AnimatableValue? {
        KeyField(field).flatMap { write(field: $0, of: whole, value: value) }
    }

    /// `write(field:of:value:)` for a field parsed once (an animation's, per frame).
    static func write(field: KeyField, of whole: AnimatableValue, value: AnimatableValue) -> AnimatableValue? {
        switch (whole, field, value) {
        case (.point(var p), .x, .number(let n)): p.x = n; return .point(p)
        case (.point(var p), .y, .number(let n)): p.y = n; return .point(p)
        case (.size(var s), .width, .number(let n)): s.width = n; return .size(s)
        case (.size(var s), .height, .number(let n)): s.height = n; return .size(s)
        case (.rect(var r), .origin, .point(let p)): r.origin = p; return .rect(r)
        case (.rect(var r), .size, .size(let s)): r.size = s; return .rect(r)
        case (.rect(var r), .originX, .number(let n)), (.rect(var r), .x, .number(let n)): r.origin.x = n; return .rect(r)
        case (.rect(var r), .originY, .number(let n)), (.rect(var r), .y, .number(let n)): r.origin.y = n; return .rect(r)
        case (.rect(var r), .sizeWidth, .number(let n)), (.rect(var r), .width, .number(let n)): r.size.width = n; return .rect(r)
        case (.rect(var r), .sizeHeight, .number(let n)), (.rect(var r), .height, .number(let n)): r.size.height = n; return .rect(r)
        case (.transform(let t), .translation, .size(let s)):
            let a = t.settingVirtualKey(.translationX, to: s.width) ?? t
            return .transform(a.settingVirtualKey(.translationY, to: s.height) ?? a)
        case (.transform(let t), .virtual(let k), .number(let n)):
            return t.settingVirtualKey(k, to: n).map { .transform($0) }
        default: return nil
        }
    }

    // MARK: KVC as ported code uses it

    /// Stores a value for a key: built-in animatable properties by name, anything else as a
    /// custom value (numbers normalised to CGFloat).
    public func setValue(_ value: Any?, forKey key: String) {
        if CALayer.baseProperties[key] != nil || animatableKind(forKey: key) != nil && customValues[key] == nil,
           let kind = animatableKind(forKey: key), let v = AnimatableValue.convert(value, to: kind) {
            setAnimatableValueWithActions(v, forKey: key)
            return
        }
        // The value before: the stored one, or the class's default for a declared property.
        let old = animatableKind(forKey: key) != nil ? animatableValue(forKey: key) : nil
        if let value, let n = AnimatableValue.asNumber(value), !(value is Bool) { customValues[key] = n }
        else { customValues[key] = value }
        if let old, let kind = animatableKind(forKey: key), kind == old.kind { didChange(key, oldValue: old) }
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
    }

    /// The value for a key (built-in properties, then custom values; numbers as CGFloat).
    public func value(forKey key: String) -> Any? {
        if let v = animatableValue(forKey: key) { return v.anyValue }
        return customValues[key] ?? type(of: self).defaultValue(forKey: key)
    }

    /// The value at a key path such as `"transform.rotation.z"` or `"position.x"`.
    public func value(forKeyPath path: String) -> Any? {
        animatableValue(forKeyPath: path)?.anyValue ?? customValues[path]
    }

    /// Sets the value at a key path such as `"position.x"` or `"transform.rotation.z"`: the field of the
    /// animatable property is replaced and the property set as a whole (so its action runs, as on iOS).
    /// A path that names no such field is stored as a plain key, as `setValue(_:forKey:)` does.
    public func setValue(_ value: Any?, forKeyPath path: String) {
        let (base, field) = CALayer.split(path)
        guard field != nil, let kind = animatableKind(forKeyPath: path),
              let v = AnimatableValue.convert(value, to: kind),
              let whole = animatableValue(forKey: base),
              let updated = CALayer.write(field: field!, of: whole, value: v) else {
            setValue(value, forKey: path); return
        }
        setAnimatableValueWithActions(updated, forKey: base)
    }

    private func setAnimatableValueWithActions(_ v: AnimatableValue, forKey key: String) {
        let old = animatableValue(forKey: key)
        setAnimatableValue(v, forKey: key)
        if let old { didChange(key, oldValue: old) }
    }

}

extension AnimatableValue {
    /// The value as a plain Swift value for KVC callers (numbers as CGFloat).
    public var anyValue: Any? {
        switch self {
        case .number(let n): n
        case .point(let p): p
        case .size(let s): s
        case .rect(let r): r
        case .color(let c): c
        case .transform(let t): t
        case .image(let i): i
        case .path(let p): p
        case .bool(let b): b
        case .array(let a): a.map(\.anyValue)
        case .discrete(let d): d.value
        }
    }
}

/// The field of a key path after its first dot (`position.x` → `x`, `transform.rotation.z` →
/// `rotation.z`), parsed once: an animation reads and writes its field every frame, and matching
/// the string against every known field each time was most of the cost of applying it.
/// `origin.x` and `x` stay apart: a rect takes both, a point only `x`.
enum KeyField: Equatable, Sendable {
    case x, y, width, height, origin, size, originX, originY, sizeWidth, sizeHeight
    /// A transform's `translation` (a CGSize of its x and y).
    case translation
    /// A transform's scalar virtual field.
    case virtual(CATransform3D.VirtualKey)

    /// nil for a field no value has.
    init?(_ field: String) {
        switch field {
        case "x": self = .x
        case "y": self = .y
        case "width": self = .width
        case "height": self = .height
        case "origin": self = .origin
        case "size": self = .size
        case "origin.x": self = .originX
        case "origin.y": self = .originY
        case "size.width": self = .sizeWidth
        case "size.height": self = .sizeHeight
        case "translation": self = .translation
        default:
            guard let k = CATransform3D.VirtualKey(field) else { return nil }
            self = .virtual(k)
        }
    }
}

/// A layer property's accessors found once for a layer class (`CALayer.resolvedProperty`): what
/// `animatableValue(forKey:)` reads and the first thing `setAnimatableValue(_:forKey:)` tries, for
/// layers of exactly `layerClass`.
struct ResolvedProperty: Sendable {
    let layerClass: ObjectIdentifier
    let get: @Sendable (CALayer) -> AnimatableValue
    /// Stores a value of the property's kind; false (nothing stored) for another kind.
    let set: @Sendable (CALayer, AnimatableValue) -> Bool
}

extension CALayer {
    /// The accessors of the built-in property `key` for layers of exactly `cls`, when `cls` is
    /// one of Strata's classes whose key-value access is its property tables (CALayer,
    /// CAGradientLayer, CAShapeLayer, CATextLayer: their own table, then CALayer's); nil for
    /// any other class (a subclass may override `animatableValue(forKey:)`) or key.
    static func resolvedProperty(forKey key: String, of cls: CALayer.Type) -> ResolvedProperty? {
        let id = ObjectIdentifier(cls)
        func erased<L: CALayer>(_ p: AnimatableProperty<L>, _: L.Type) -> ResolvedProperty {
            ResolvedProperty(layerClass: id, get: { p.get(unsafeDowncast($0, to: L.self)) },
                             set: { p.set(unsafeDowncast($0, to: L.self), $1) })
        }
        if id == ObjectIdentifier(CAGradientLayer.self), let p = CAGradientLayer.gradientProperties[key] { return erased(p, CAGradientLayer.self) }
        if id == ObjectIdentifier(CAShapeLayer.self), let p = CAShapeLayer.shapeProperties[key] { return erased(p, CAShapeLayer.self) }
        if id == ObjectIdentifier(CATextLayer.self), let p = CATextLayer.textProperties[key] { return erased(p, CATextLayer.self) }
        guard id == ObjectIdentifier(CALayer.self) || id == ObjectIdentifier(CAGradientLayer.self)
                || id == ObjectIdentifier(CAShapeLayer.self) || id == ObjectIdentifier(CATextLayer.self),
              let p = CALayer.baseProperties[key] else { return nil }
        return erased(p, CALayer.self)
    }
}
