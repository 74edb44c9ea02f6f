// A layer that fills its bounds with a colour gradient. Strata evaluates the gradient per pixel
// in the compositor (no backing store), so it is exact at any scale and under 3D transforms, and
// dithered so dark full-screen gradients do not band after 8-bit quantisation and H.264.
import Foundation

/// The shape of a gradient.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Along the line from startPoint to endPoint.
    public static let axial = CAGradientLayerType(rawValue: "axial")
    /// An ellipse centred at startPoint whose radii reach endPoint.
    public static let radial = CAGradientLayerType(rawValue: "radial")
    /// Around startPoint, starting in the direction of endPoint and turning clockwise on screen.
    public static let conic = CAGradientLayerType(rawValue: "conic")
}

/// A layer filled with a colour gradient, drawn over its background colour: along a line, from a
/// centre outwards, or around a centre. **Strata:** the gradient fills the square bounds and
/// follows `cornerRadius` only when `masksToBounds` is set; Apple documents it as filling the
/// rounded shape.
///
/// ```swift
/// let sky = CAGradientLayer()
/// sky.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
/// sky.colors = [CGColor(red: 0.05, green: 0.1, blue: 0.3, alpha: 1), CGColor(red: 0.9, green: 0.5, blue: 0.3, alpha: 1)]
/// sky.locations = [0, 1]
/// root.addSublayer(sky)
/// ```
open class CAGradientLayer: CALayer {
    // Stored properties read by every snapshot are `@exclusivity(unchecked)`, as CALayer's (see there).
    /// `CGColor`s, one per stop (ported code passes `[cgColor1, cgColor2]`).
    @exclusivity(unchecked) public var colors: [Any]? {
        didSet { snapshotCache = nil; journal(self, \.colors, oldValue); didChange("colors", oldValue: CAGradientLayer.colorArray(oldValue)) }
    }
    /// Stop positions 0…1 (nil = evenly spaced); a count different from `colors` draws nothing.
    @exclusivity(unchecked) public var locations: [NSNumber]? {
        didSet { snapshotCache = nil; journal(self, \.locations, oldValue); didChange("locations", oldValue: CAGradientLayer.numberArray(oldValue)) }
    }
    /// Unit coordinates in the bounds; default (0.5, 0) — the top centre.
    @exclusivity(unchecked) public var startPoint = CGPoint(x: 0.5, y: 0) {
        didSet { snapshotCache = nil; journal(self, \.startPoint, oldValue); didChange("startPoint", oldValue: .point(oldValue)) }
    }
    /// Unit coordinates in the bounds; default (0.5, 1) — the bottom centre.
    @exclusivity(unchecked) public var endPoint = CGPoint(x: 0.5, y: 1) {
        didSet { snapshotCache = nil; journal(self, \.endPoint, oldValue); didChange("endPoint", oldValue: .point(oldValue)) }
    }
    /// The kind of gradient: `.axial` (the default, along the line from `startPoint` to `endPoint`),
    /// `.radial` or `.conic`. Not animatable.
    @exclusivity(unchecked) public var type: CAGradientLayerType = .axial { didSet { snapshotCache = nil; journal(self, \.type, oldValue) } }
    /// **Strata (package only, not Core Animation's):** the focal point of a radial gradient,
    /// in unit coordinates of the bounds, or nil for none (the centre). The gradient is then a
    /// two-point conical one, as SVG's and Lottie's radial gradients with a highlight: the
    /// circles run from a point at the focus (the first stop's colour) to the ellipse through
    /// `endPoint` (the last stop's), their centres moving from the focus to `startPoint`. A focus
    /// outside the ellipse is drawn at 0.99 of the way from the centre to it. Animatable under
    /// the key `"focalPoint"`; ignored by axial and conic gradients.
    @exclusivity(unchecked) package var focalPoint: CGPoint? {
        didSet {
            snapshotCache = nil; journal(self, \.focalPoint, oldValue)
            didChange(CAGradientLayer.focalPointKey, oldValue: .point(oldValue ?? startPoint))
        }
    }
    /// The gradient the last snapshot read (.some(nil): it draws nothing), until one of the
    /// properties above is set: a gradient layer that only moves is snapshotted every frame, and
    /// reading its colours (dynamic casts, three arrays) each time was most of that. (CGColor and
    /// NSNumber are immutable, so the arrays' contents cannot change behind it.)
    @exclusivity(unchecked) private var snapshotCache: GradientSnapshot?? = nil

    public override init() { super.init() }

    /// **Strata:** no archives: a layer with default values.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    public override init(layer: Any) {
        super.init(layer: layer)
        guard let g = layer as? CAGradientLayer else { return }
        withActionsSuppressed {
            colors = g.colors; locations = g.locations; startPoint = g.startPoint; endPoint = g.endPoint; type = g.type
            focalPoint = g.focalPoint
        }
    }

    /// The animatable gradient properties.
    public static let gradientProperties = AnimatableProperties<CAGradientLayer>([
        AnimatableProperty("colors", .array, elements: .color, get: { colorArray($0.colors) }) { layer, value in
            guard case .array(let a) = value else { return false }
            layer.colors = a.compactMap { if case .color(let c?) = $0 { return c as Any }; return nil }
            return true
        },
        AnimatableProperty("locations", .array, elements: .number, get: { numberArray($0.locations) }) { layer, value in
            guard case .array(let a) = value else { return false }
            layer.locations = a.compactMap { $0.number.map { NSNumber(value: Double($0)) } }
            return true
        },
        .point("startPoint", \.startPoint), .point("endPoint", \.endPoint),
    ])

    /// The key of `focalPoint` (Strata's, not in `gradientProperties`: no template or DSL
    /// property, not implicitly animated).
    package static let focalPointKey = "focalPoint"

    /// The gradient keys and CALayer's.
    open override func animatableKind(forKey key: String) -> AnimatableValue.Kind? {
        if key == CAGradientLayer.focalPointKey { return .point }
        return CAGradientLayer.gradientProperties[key]?.kind ?? super.animatableKind(forKey: key)
    }

    /// The current value of a gradient key, or CALayer's.
    open override func animatableValue(forKey key: String) -> AnimatableValue? {
        if key == CAGradientLayer.focalPointKey { return .point(focalPoint ?? startPoint) }
        return CAGradientLayer.gradientProperties.value(forKey: key, of: self) ?? super.animatableValue(forKey: key)
    }

    /// Sets a gradient key (or CALayer's) without triggering actions.
    open override func setAnimatableValue(_ value: AnimatableValue, forKey key: String) {
        withActionsSuppressed {
            if key == CAGradientLayer.focalPointKey {
                if case .point(let p) = value { focalPoint = p }
                return
            }
            if !CAGradientLayer.gradientProperties.set(value, forKey: key, of: self) { super.setAnimatableValue(value, forKey: key) }
        }
    }

    /// The animatable gradient keys animate implicitly, as on iOS.
    open override class func implicitlyAnimates(key: String) -> Bool {
        gradientProperties[key]?.implicitlyAnimates == true || super.implicitlyAnimates(key: key)
    }

    /// The gradient for the renderer, or nil when it draws nothing.
    open override func snapshotGradient() -> GradientSnapshot? {
        if let cached = snapshotCache { return cached }
        let snapshot = makeGradientSnapshot()
        snapshotCache = .some(snapshot)
        return snapshot
    }

    private func makeGradientSnapshot() -> GradientSnapshot? {
        let cs = (colors ?? []).compactMap { $0 as? CGColor }
        guard !cs.isEmpty, cs.count == (colors ?? []).count else { return nil }
        let stops: [Double]
        if let locations {
            guard locations.count == cs.count else { return nil }
            stops = locations.map(\.doubleValue)
        } else {
            stops = cs.count == 1 ? [0] : (0..<cs.count).map { Double($0) / Double(cs.count - 1) }
        }
        return GradientSnapshot(type: type, colors: cs.compactMap { RGBA($0) }, locations: stops,
                                startPoint: startPoint, endPoint: endPoint, focalPoint: type == .radial ? focalPoint : nil)
    }

    static func colorArray(_ a: [Any]?) -> AnimatableValue {
        .array((a ?? []).map { .color($0 as? CGColor) })
    }
    static func numberArray(_ a: [NSNumber]?) -> AnimatableValue {
        .array((a ?? []).map { .number(CGFloat($0.doubleValue)) })
    }
}

/// A gradient as the renderer reads it.
public struct GradientSnapshot: Sendable, Hashable {
    /// The kind of gradient.
    public var type: CAGradientLayerType
    /// The stop colours, one per stop (at least one).
    public var colors: [RGBA]
    /// The stop positions, 0…1, as many as `colors` (evenly spaced when the layer's `locations` is nil).
    public var locations: [Double]
    /// The start point in unit coordinates of the bounds.
    public var startPoint: CGPoint
    /// The end point in unit coordinates of the bounds.
    public var endPoint: CGPoint
    /// A radial gradient's focal point in unit coordinates of the bounds (CAGradientLayer's
    /// package-level `focalPoint`), nil for none.
    package var focalPoint: CGPoint? = nil
}
