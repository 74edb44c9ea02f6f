// The presentation tree as immutable, Sendable data: what the renderer reads. One snapshot per
// layer per frame, with every animation already applied. Nothing here refers back to the model.
import Foundation

/// A straight-alpha RGBA colour in 0…1 (clamped), ready for the renderer.
public struct RGBA: Hashable, Sendable {
    /// The red, green, blue and alpha components, 0…1; the colour components are not premultiplied.
    public var r: Float, g: Float, b: Float, a: Float
    /// A colour from its components (taken as given, not clamped).
    public init(r: Float, g: Float, b: Float, a: Float) { self.r = r; self.g = g; self.b = b; self.a = a }
    /// The colour of `c` with each component clamped to 0…1; nil when `c` is nil.
    public init?(_ c: CGColor?) {
        guard let c else { return nil }
        func cl(_ v: CGFloat) -> Float { Float(min(max(v, 0), 1)) }
        self.init(r: cl(c.red), g: cl(c.green), b: cl(c.blue), a: cl(c.alpha))
    }
    /// Opaque black.
    public static let black = RGBA(r: 0, g: 0, b: 0, a: 1)
    /// Fully transparent black.
    public static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
}

/// Image contents and how they are placed.
public struct ContentsSnapshot: Sendable, Hashable {
    /// The layer's `contents` image.
    public var image: CGImage
    /// The layer's `contentsGravity`.
    public var gravity: CALayerContentsGravity
    /// The layer's `contentsRect`: the part of the image shown, in unit coordinates.
    public var contentsRect: CGRect
    /// The layer's `contentsCenter`: the stretchable part for nine-slice scaling, in unit coordinates.
    public var contentsCenter: CGRect
    /// The layer's `contentsScale`: image pixels per point.
    public var contentsScale: CGFloat
    /// The layer's `minificationFilter`.
    public var minificationFilter: CALayerContentsFilter
    /// The layer's `magnificationFilter`.
    public var magnificationFilter: CALayerContentsFilter
    /// The layer's `minificationFilterBias` (for `.trilinear`).
    public var minificationFilterBias: Float = 0
}

/// Vector or drawn content of specialised layers (shape, text, gradient, custom drawing).
/// Each case is rasterised by StrataRender into a backing store keyed by its value (gradients
/// are evaluated per pixel instead, so they stay smooth at any scale).
public enum LayerContent: Sendable, Hashable {
    /// Nothing of the class's own: a plain layer (or a layer type whose content lives elsewhere in
    /// the snapshot, such as a gradient).
    case none
    /// A filled and/or stroked path (`CAShapeLayer`).
    case shape(ShapeContent)
    /// Styled text laid out in the layer bounds (`CATextLayer`).
    case text(TextContent)
    /// A filled path blurred with a Gaussian of `blur` points (σ), used as an alpha mask: a
    /// layer's `shadowPath` shadow, blurred once and reused while the layer moves.
    case pathMask(CGPath, blur: CGFloat)
    /// Custom drawing recorded by `display()` / `draw(in:)`.
    case drawing(DrawingContent)
}

/// A CATransition in progress on a layer: the rendered "before" subtree and how far along it is.
public struct TransitionSnapshot: Sendable, Hashable {
    /// The layer as it looked when the transition was added (its subtree included).
    public var before: Box<LayerSnapshot>
    /// `fade`, `moveIn`, `push`, `reveal` (or a Strata type name).
    public var type: String
    /// `fromLeft`, `fromRight`, `fromTop`, `fromBottom` (nil: fromLeft).
    public var subtype: String?
    /// 0…1, after the timing function and start/endProgress.
    public var progress: Double

    /// A transition snapshot showing `before` at `progress` (0…1) of a transition of `type`.
    public init(before: LayerSnapshot, type: String, subtype: String?, progress: Double) {
        self.before = Box(before); self.type = type; self.subtype = subtype; self.progress = progress
    }
}

/// One layer of the presentation tree at one time.
public struct LayerSnapshot: Sendable, Hashable {
    /// The layer's `bounds` (with animations applied, as every property here).
    public var bounds: CGRect
    /// The layer's `position` in its superlayer's coordinates.
    public var position: CGPoint
    /// The layer's `anchorPoint`, in unit coordinates of the bounds.
    public var anchorPoint: CGPoint
    /// The layer's `anchorPointZ`.
    public var anchorPointZ: CGFloat
    /// The layer's `zPosition`.
    public var zPosition: CGFloat
    /// The layer's `transform`, applied about the anchor point.
    public var transform: CATransform3D
    /// The layer's `sublayerTransform`, applied to the sublayers about the anchor point.
    public var sublayerTransform: CATransform3D
    /// The layer's `isDoubleSided`: false hides the layer when its back faces the viewer.
    public var isDoubleSided: Bool
    /// The layer's `isGeometryFlipped`: the sublayers use a y-up system.
    public var isGeometryFlipped: Bool
    /// True for a `CATransformLayer`: no own content, sublayers share the parent's 3D space.
    public var isTransformLayer: Bool

    /// The layer's `backgroundColor`, or nil for none.
    public var backgroundColor: RGBA?
    /// The layer's `cornerRadius` in points.
    public var cornerRadius: CGFloat
    /// The corners `cornerRadius` rounds.
    public var maskedCorners: CACornerMask
    /// The layer's `borderWidth` in points.
    public var borderWidth: CGFloat
    /// The layer's `borderColor`, or nil for none.
    public var borderColor: RGBA?
    /// The layer's `opacity`, 0…1.
    public var opacity: Float
    /// The layer's `isHidden`: the subtree is not drawn.
    public var isHidden: Bool
    /// The layer's `masksToBounds`: contents and sublayers are clipped to the (rounded) bounds.
    public var masksToBounds: Bool
    /// The layer's `allowsGroupOpacity`.
    public var allowsGroupOpacity: Bool
    /// The layer's `allowsEdgeAntialiasing`.
    public var allowsEdgeAntialiasing: Bool

    /// The layer's `shadowOpacity` (0: no shadow).
    public var shadowOpacity: Float
    /// The layer's `shadowColor`.
    public var shadowColor: RGBA?
    /// The layer's `shadowOffset` in points.
    public var shadowOffset: CGSize
    /// The layer's `shadowRadius`: σ of the shadow's Gaussian blur, in points.
    public var shadowRadius: CGFloat

    /// The layer's image contents and their placement, or nil when `contents` is not an image.
    public var contents: ContentsSnapshot?
    /// What the layer's class draws of its own (a shape, text, custom drawing), or `.none`.
    public var content: LayerContent

    /// The snapshot of the layer's `mask` layer, if any, in this layer's coordinates.
    public var mask: Box<LayerSnapshot>?
    /// The sublayers' snapshots in the model's order (the renderer orders siblings by `zPosition`).
    public var sublayers: [LayerSnapshot]
    /// A transition running on this layer (CATransition), if any.
    public var transition: TransitionSnapshot? = nil
    /// `shouldRasterize`: the subtree is composited once and reused while unchanged.
    public var shouldRasterize: Bool = false
    /// How this layer masks when it is another layer's mask (`MatteLayer`; `.alpha` otherwise).
    public var maskMode: MaskMode = .alpha
    /// The layer's `rasterizationScale`: pixels per point of the bitmap `shouldRasterize` uses.
    public var rasterizationScale: CGFloat = 1
    /// The layer's `shadowPath`: nil derives the shadow from the composited layer's alpha.
    public var shadowPath: CGPath? = nil
    /// A gradient drawn over the background (CAGradientLayer).
    public var gradient: GradientSnapshot? = nil
    /// A name for diagnostics.
    public var name: String?
    /// How the layer, with its subtree, combines with what is beneath it: its
    /// `compositingFilter`'s mode (`normal`: source-over; a filter Strata does not know is
    /// `normal` too). The renderer draws a layer of another mode as an offscreen group.
    public var blendMode: LayerBlendMode = .normal
    /// Colour and blur stages applied to the layer's group, in order, before it is blended
    /// (`LayerEffect`; set by a subclass's `completeSnapshot`). Empty for Core Animation's layers.
    package var effects: [LayerEffect] = []
    /// Multiplies every colour this layer and its subtree draw (straight RGBA, components
    /// 0…1): a `CAReplicatorLayer` instance's colour (`instanceColor` plus the offsets). Applies
    /// on top of the multipliers of ancestors. nil: no change.
    public var colorMultiplier: RGBA? = nil
    /// The particles a `CAEmitterLayer` shows at this time, drawn above the layer's background,
    /// border and sublayers.
    public var particles: ParticleSystemSnapshot? = nil
    /// A `CATiledLayer`'s content: drawn tile by tile, on demand, at the level of detail its
    /// on-screen scale needs.
    public var tiledContent: TiledContentSnapshot? = nil

    /// The map from this layer's coordinates to its superlayer's (before the superlayer's
    /// sublayerTransform): `(p − anchor) · transform + position`.
    public var localToParent: CATransform3D {
        let a = CGPoint(x: bounds.origin.x + anchorPoint.x * bounds.width,
                        y: bounds.origin.y + anchorPoint.y * bounds.height)
        return CATransform3DMakeTranslation(-a.x, -a.y, -anchorPointZ)
            .concatenating(transform)
            .concatenating(CATransform3DMakeTranslation(position.x, position.y, zPosition))
    }

    /// The superlayer-side map applied to every sublayer: with `isGeometryFlipped`, first the
    /// flip of the y axis within the bounds (sublayers then use a y-up system), then
    /// sublayerTransform about the anchor. Sublayers live in bounds coordinates.
    public var sublayerToLocal: CATransform3D {
        var m = CATransform3DIdentity
        if isGeometryFlipped {
            m = CATransform3DMakeScale(1, -1, 1).concatenating(CATransform3DMakeTranslation(0, bounds.minY + bounds.maxY, 0))
        }
        guard !sublayerTransform.isIdentity else { return m }
        let a = CGPoint(x: bounds.origin.x + anchorPoint.x * bounds.width,
                        y: bounds.origin.y + anchorPoint.y * bounds.height)
        return m.concatenating(CATransform3DMakeTranslation(-a.x, -a.y, -anchorPointZ))
            .concatenating(sublayerTransform)
            .concatenating(CATransform3DMakeTranslation(a.x, a.y, anchorPointZ))
    }
}

/// A reference box so a snapshot can hold an optional snapshot (its mask).
public final class Box<T: Sendable>: Sendable {
    /// The boxed value.
    public let value: T
    /// Boxes `value`.
    public init(_ value: T) { self.value = value }
}

extension Box: Equatable where T: Equatable {
    public static func == (l: Box, r: Box) -> Bool { l === r || l.value == r.value }
}

extension Box: Hashable where T: Hashable {
    public func hash(into h: inout Hasher) { h.combine(value) }
}
