// A layer that draws a path: fill, stroke, dashes and the arc-length trim used for "draw-on"
// effects. The model side only; the path is rasterised by StrataRender (ShapeRasterizer) into a
// backing store at the scale the layer is shown at, so it stays sharp under any transform.
import Foundation

/// A layer that draws a cubic Bézier path in its coordinate space (Apple's `CAShapeLayer`).
///
/// The shape is drawn above the layer's background and image contents and below its sublayers.
/// It is not clipped to the bounds unless `masksToBounds` is set, as on iOS. Animatable (and
/// implicitly animated inside `scene.at`): `path` (point-wise when both paths have the same
/// element structure, else a jump at the midpoint), `fillColor`, `strokeColor`, `lineWidth`,
/// `miterLimit`, `lineDashPhase`, `strokeStart`, `strokeEnd`.
///
/// ```swift
/// let check = CAShapeLayer()
/// let p = CGMutablePath()
/// p.move(to: CGPoint(x: 10, y: 50)); p.addLine(to: CGPoint(x: 40, y: 80)); p.addLine(to: CGPoint(x: 90, y: 20))
/// check.path = p
/// check.fillColor = nil
/// check.strokeColor = CGColor(red: 0.1, green: 0.7, blue: 0.3, alpha: 1)
/// check.lineWidth = 8
/// check.lineCap = .round
/// let draw = CABasicAnimation(keyPath: "strokeEnd")
/// draw.fromValue = 0; draw.toValue = 1; draw.duration = 1
/// check.add(draw, forKey: "draw")
/// ```
///
/// `strokeStart`/`strokeEnd` trim the stroke by arc length over the *whole* path, across
/// subpaths, as Core Animation does; a closed subpath cut by the trim gets caps at the cut.
/// Dashes stay put along the path while it is trimmed (they do not slide with `strokeStart`).
open class CAShapeLayer: CALayer {
    // Stored properties read by every snapshot are `@exclusivity(unchecked)`, as CALayer's (see there).
    /// The animatable shape properties.
    public static let shapeProperties = AnimatableProperties<CAShapeLayer>([
        .path("path", \.path), .color("fillColor", \.fillColor), .color("strokeColor", \.strokeColor),
        .number("lineWidth", \.lineWidth), .number("miterLimit", \.miterLimit), .number("lineDashPhase", \.lineDashPhase),
        .number("strokeStart", \.strokeStart), .number("strokeEnd", \.strokeEnd),
        // Animated element by element between patterns of one length (others switch half-way);
        // not implicitly: Apple documents no animation of it, though Core Animation runs explicit ones.
        AnimatableProperty("lineDashPattern", .array, elements: .number, implicit: false, get: { dashArray($0.lineDashPattern) }) { layer, value in
            guard case .array(let a) = value else { return false }
            let lengths = a.compactMap(\.number)
            layer.lineDashPattern = lengths.isEmpty ? nil : lengths.map { NSNumber(value: Double($0)) }
            return true
        },
    ])

    /// A dash pattern as an animatable value (nil: an empty list).
    static func dashArray(_ pattern: [NSNumber]?) -> AnimatableValue {
        .array((pattern ?? []).map { .number(CGFloat($0.doubleValue)) })
    }

    @exclusivity(unchecked) private var storedPath: CGPath? { didSet { journal(self, \.storedPath, oldValue) } }

    /// The path to draw, in the layer's coordinates (default nil). A mutable path is copied when
    /// assigned, so later changes to it do not affect the layer, as on iOS. Animatable.
    public var path: CGPath? {
        get { storedPath }
        set {
            let old = storedPath
            storedPath = newValue.map { $0.copy() ?? $0 }
            didChange("path", oldValue: .path(old))
        }
    }

    /// The colour that fills the path (default opaque black; nil or clear: no fill). Animatable.
    @exclusivity(unchecked) public var fillColor: CGColor? = .black { didSet { journal(self, \.fillColor, oldValue); didChange("fillColor", oldValue: .color(oldValue)) } }

    /// The rule that decides which points the fill covers (default `.nonZero`).
    @exclusivity(unchecked) public var fillRule: CAShapeLayerFillRule = .nonZero { didSet { journal(self, \.fillRule, oldValue) } }

    /// The colour that strokes the path (default nil: no stroke). Animatable.
    @exclusivity(unchecked) public var strokeColor: CGColor? { didSet { journal(self, \.strokeColor, oldValue); didChange("strokeColor", oldValue: .color(oldValue)) } }

    /// The stroke width in points (default 1), centred on the path. Animatable.
    @exclusivity(unchecked) public var lineWidth: CGFloat = 1 { didSet { journal(self, \.lineWidth, oldValue); didChange("lineWidth", oldValue: .number(oldValue)) } }

    /// How the ends of open subpaths are stroked (default `.butt`).
    @exclusivity(unchecked) public var lineCap: CAShapeLayerLineCap = .butt { didSet { journal(self, \.lineCap, oldValue) } }

    /// How corners are stroked (default `.miter`).
    @exclusivity(unchecked) public var lineJoin: CAShapeLayerLineJoin = .miter { didSet { journal(self, \.lineJoin, oldValue) } }

    /// The largest ratio of miter length to line width drawn as a miter (default 10); sharper
    /// corners are bevelled. Animatable.
    @exclusivity(unchecked) public var miterLimit: CGFloat = 10 { didSet { journal(self, \.miterLimit, oldValue); didChange("miterLimit", oldValue: .number(oldValue)) } }

    /// The dash pattern: alternating painted and unpainted lengths in points (default nil:
    /// solid). Number literals work directly (`layer.lineDashPattern = [10, 2]`); for arrays of
    /// Swift numbers use `lineDashLengths` or `setLineDashPattern(_:)`. An explicit animation of
    /// it moves each length between patterns of the same count (others switch half-way), as
    /// Core Animation does; a change does not animate implicitly.
    @exclusivity(unchecked) public var lineDashPattern: [NSNumber]? {
        didSet { journal(self, \.lineDashPattern, oldValue); didChange("lineDashPattern", oldValue: CAShapeLayer.dashArray(oldValue)) }
    }

    /// How far into the dash pattern each subpath starts, in points (default 0). Animating it
    /// makes "marching ants". Animatable.
    @exclusivity(unchecked) public var lineDashPhase: CGFloat = 0 { didSet { journal(self, \.lineDashPhase, oldValue); didChange("lineDashPhase", oldValue: .number(oldValue)) } }

    /// Where the stroke starts, as a fraction 0…1 of the path's length (default 0). Animatable.
    @exclusivity(unchecked) public var strokeStart: CGFloat = 0 { didSet { journal(self, \.strokeStart, oldValue); didChange("strokeStart", oldValue: .number(oldValue)) } }

    /// Where the stroke ends, as a fraction 0…1 of the path's length (default 1). Animatable.
    @exclusivity(unchecked) public var strokeEnd: CGFloat = 1 { didSet { journal(self, \.strokeEnd, oldValue); didChange("strokeEnd", oldValue: .number(oldValue)) } }

    /// A shape layer with Core Animation's defaults.
    public override init() { super.init() }

    /// **Strata:** no archives: a layer with default values.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A copy of `layer`'s properties (used for presentation copies).
    public override init(layer: Any) {
        super.init(layer: layer)
        guard let l = layer as? CAShapeLayer else { return }
        storedPath = l.storedPath; fillColor = l.fillColor; fillRule = l.fillRule
        strokeColor = l.strokeColor; lineWidth = l.lineWidth; lineCap = l.lineCap; lineJoin = l.lineJoin
        miterLimit = l.miterLimit; lineDashPattern = l.lineDashPattern; lineDashPhase = l.lineDashPhase
        strokeStart = l.strokeStart; strokeEnd = l.strokeEnd
    }

    // MARK: Swift-friendly dash pattern

    /// The dash pattern as points (nil: solid); the same storage as `lineDashPattern`.
    public var lineDashLengths: [CGFloat]? {
        get { lineDashPattern?.map { CGFloat($0.doubleValue) } }
        set { lineDashPattern = newValue?.map { NSNumber(value: Double($0)) } }
    }

    /// Sets the dash pattern from any floating-point lengths (`[Double]`, `[CGFloat]`, `[Float]`).
    public func setLineDashPattern<T: BinaryFloatingPoint>(_ lengths: [T]?) {
        lineDashLengths = lengths?.map { CGFloat(Double($0)) }
    }

    /// Sets the dash pattern from integer lengths (`[Int]`).
    public func setLineDashPattern<T: BinaryInteger>(_ lengths: [T]?) {
        lineDashLengths = lengths?.map { CGFloat(Int($0)) }
    }

    // MARK: Animatable keys

    /// The shape keys and CALayer's.
    open override func animatableKind(forKey key: String) -> AnimatableValue.Kind? {
        CAShapeLayer.shapeProperties[key]?.kind ?? super.animatableKind(forKey: key)
    }

    /// The current value of a shape key, or CALayer's.
    open override func animatableValue(forKey key: String) -> AnimatableValue? {
        CAShapeLayer.shapeProperties.value(forKey: key, of: self) ?? super.animatableValue(forKey: key)
    }

    /// Sets a shape key (or CALayer's) without triggering actions.
    open override func setAnimatableValue(_ value: AnimatableValue, forKey key: String) {
        withActionsSuppressed {
            if !CAShapeLayer.shapeProperties.set(value, forKey: key, of: self) { super.setAnimatableValue(value, forKey: key) }
        }
    }

    /// The animatable shape keys animate implicitly, as on iOS.
    open override class func implicitlyAnimates(key: String) -> Bool {
        shapeProperties[key]?.implicitlyAnimates == true || super.implicitlyAnimates(key: key)
    }

    /// Core Animation's defaults for the shape keys.
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "fillColor": CGColor.black
        case "fillRule": CAShapeLayerFillRule.nonZero
        case "lineWidth": CGFloat(1)
        case "lineCap": CAShapeLayerLineCap.butt
        case "lineJoin": CAShapeLayerLineJoin.miter
        case "miterLimit": CGFloat(10)
        case "lineDashPhase", "strokeStart": CGFloat(0)
        case "strokeEnd": CGFloat(1)
        default: super.defaultValue(forKey: key)
        }
    }

    // MARK: Rendering

    /// The shape as the renderer sees it (`.none` when nothing would be painted).
    open override func snapshotContent() -> LayerContent { snapshotContent(path: storedPath) }

    /// The content with `path` stored as the path (a presentation's animated path).
    func snapshotContent(path: CGPath?) -> LayerContent {
        guard let path else { return super.snapshotContent() }
        let shape = ShapeContent(
            path: path, fillColor: RGBA(fillColor), fillRule: fillRule.cgFillRule,
            strokeColor: RGBA(strokeColor), lineWidth: lineWidth, lineCap: lineCap.cgLineCap,
            lineJoin: lineJoin.cgLineJoin, miterLimit: miterLimit, dashPattern: lineDashLengths ?? [],
            dashPhase: lineDashPhase, strokeStart: strokeStart, strokeEnd: strokeEnd)
        return shape.isVisible ? .shape(shape) : super.snapshotContent()
    }

    /// The content with the path, fill and stroke of `style` (a presentation's animated values)
    /// and this layer's other properties.
    func snapshotContent(style: PresentedStyle) -> LayerContent {
        guard let path = style.path else { return super.snapshotContent() }
        let shape = ShapeContent(
            path: path, fillColor: RGBA(style.fillColor), fillRule: fillRule.cgFillRule,
            strokeColor: RGBA(style.strokeColor), lineWidth: style.lineWidth, lineCap: lineCap.cgLineCap,
            lineJoin: lineJoin.cgLineJoin, miterLimit: style.miterLimit, dashPattern: style.dashLengths ?? [],
            dashPhase: style.lineDashPhase, strokeStart: style.strokeStart, strokeEnd: style.strokeEnd)
        return shape.isVisible ? .shape(shape) : super.snapshotContent()
    }

    /// The animatable shape properties a shape's content is made from, as a presentation copy
    /// holds them: read and written as `shapeProperties` reads and writes them (a path copied
    /// when stored), so that `PresentationBuilder` can make an animated shape's content without
    /// a copy of the layer.
    struct PresentedStyle {
        /// The keys held, named as the properties.
        enum Key: String, Sendable {
            case path, fillColor, strokeColor, lineWidth, miterLimit, lineDashPattern, lineDashPhase, strokeStart, strokeEnd
        }
        var path: CGPath?
        var fillColor: CGColor?
        var strokeColor: CGColor?
        var lineWidth: CGFloat
        var miterLimit: CGFloat
        /// `lineDashPattern`'s lengths (nil: none).
        var dashLengths: [CGFloat]?
        var lineDashPhase: CGFloat
        var strokeStart: CGFloat
        var strokeEnd: CGFloat

        /// The model values of `layer`.
        init(of layer: CAShapeLayer) {
            path = layer.storedPath; fillColor = layer.fillColor; strokeColor = layer.strokeColor
            lineWidth = layer.lineWidth; miterLimit = layer.miterLimit; dashLengths = layer.lineDashLengths
            lineDashPhase = layer.lineDashPhase
            strokeStart = layer.strokeStart; strokeEnd = layer.strokeEnd
        }

        /// The value of `key`.
        func value(forKey key: Key) -> AnimatableValue {
            switch key {
            case .path: .path(path)
            case .fillColor: .color(fillColor)
            case .strokeColor: .color(strokeColor)
            case .lineWidth: .number(lineWidth)
            case .miterLimit: .number(miterLimit)
            case .lineDashPattern: .array((dashLengths ?? []).map { .number($0) })
            case .lineDashPhase: .number(lineDashPhase)
            case .strokeStart: .number(strokeStart)
            case .strokeEnd: .number(strokeEnd)
            }
        }

        /// Stores `value` under `key`; false when it is not of the key's kind (a copy would keep
        /// it aside).
        mutating func set(_ value: AnimatableValue, forKey key: Key) -> Bool {
            switch (key, value) {
            case (.path, .path(let p)): path = p.map { $0.copy() ?? $0 }
            case (.fillColor, .color(let c)): fillColor = c
            case (.strokeColor, .color(let c)): strokeColor = c
            case (.lineWidth, .number(let n)): lineWidth = n
            case (.miterLimit, .number(let n)): miterLimit = n
            case (.lineDashPattern, .array(let a)):
                // As the property stores it: the numbers, an empty list as none.
                let lengths = a.compactMap(\.number)
                dashLengths = lengths.isEmpty ? nil : lengths
            case (.lineDashPhase, .number(let n)): lineDashPhase = n
            case (.strokeStart, .number(let n)): strokeStart = n
            case (.strokeEnd, .number(let n)): strokeEnd = n
            default: return false
            }
            return true
        }
    }
}
