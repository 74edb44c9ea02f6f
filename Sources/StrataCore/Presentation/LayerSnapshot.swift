// The presentation tree as immutable, Sendable data: what the renderer reads. One snapshot per
// layer per frame, with every animation already applied. Nothing here refers back to the model.
import Foundation

/// A straight-alpha RGBA colour in 0…1 (clamped), ready for the renderer.
public struct RGBA: Hashable, Sendable {
    public var r: Float, g: Float, b: Float, a: Float
    public init(r: Float, g: Float, b: Float, a: Float) { self.r = r; self.g = g; self.b = b; self.a = a }
    public init?(_ c: CGColor?) {
        guard let c else { return nil }
        func cl(_ v: CGFloat) -> Float { Float(min(max(v, 0), 1)) }
        self.init(r: cl(c.red), g: cl(c.green), b: cl(c.blue), a: cl(c.alpha))
    }
    public static let black = RGBA(r: 0, g: 0, b: 0, a: 1)
    public static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
}

/// Image contents and how they are placed.
public struct ContentsSnapshot: Sendable, Hashable {
    public var image: CGImage
    public var gravity: CALayerContentsGravity
    public var contentsRect: CGRect
    public var contentsCenter: CGRect
    public var contentsScale: CGFloat
    public var minificationFilter: CALayerContentsFilter
    public var magnificationFilter: CALayerContentsFilter
    public var minificationFilterBias: Float = 0
}

/// Vector or drawn content of specialised layers (shape, text, gradient, custom drawing).
/// Each case is rasterised by StrataRender into a backing store keyed by its value (gradients
/// are evaluated per pixel instead, so they stay smooth at any scale).
public enum LayerContent: Sendable, Hashable {
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

    public init(before: LayerSnapshot, type: String, subtype: String?, progress: Double) {
        self.before = Box(before); self.type = type; self.subtype = subtype; self.progress = progress
    }
}

/// One layer of the presentation tree at one time.
public struct LayerSnapshot: Sendable, Hashable {
    public var bounds: CGRect
    public var position: CGPoint
    public var anchorPoint: CGPoint
    public var anchorPointZ: CGFloat
    public var zPosition: CGFloat
    public var transform: CATransform3D
    public var sublayerTransform: CATransform3D
    public var isDoubleSided: Bool
    public var isGeometryFlipped: Bool
    /// True for a `CATransformLayer`: no own content, sublayers share the parent's 3D space.
    public var isTransformLayer: Bool

    public var backgroundColor: RGBA?
    public var cornerRadius: CGFloat
    public var maskedCorners: CACornerMask
    public var borderWidth: CGFloat
    public var borderColor: RGBA?
    public var opacity: Float
    public var isHidden: Bool
    public var masksToBounds: Bool
    public var allowsGroupOpacity: Bool
    public var allowsEdgeAntialiasing: Bool

    public var shadowOpacity: Float
    public var shadowColor: RGBA?
    public var shadowOffset: CGSize
    public var shadowRadius: CGFloat

    public var contents: ContentsSnapshot?
    public var content: LayerContent

    public var mask: Box<LayerSnapshot>?
    public var sublayers: [LayerSnapshot]
    /// A transition running on this layer (CATransition), if any.
    public var transition: TransitionSnapshot? = nil
    /// `shouldRasterize`: the subtree is composited once and reused while unchanged.
    public var shouldRasterize: Bool = false
    /// How this layer masks when it is another layer's mask (`MatteLayer`; `.alpha` otherwise).
    public var maskMode: MaskMode = .alpha
    public var rasterizationScale: CGFloat = 1
    public var shadowPath: CGPath? = nil
    /// A gradient drawn over the background (CAGradientLayer).
    public var gradient: GradientSnapshot? = nil
    /// A name for diagnostics.
    public var name: String?
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
    public let value: T
    public init(_ value: T) { self.value = value }
}

extension Box: Equatable where T: Equatable {
    public static func == (l: Box, r: Box) -> Bool { l === r || l.value == r.value }
}

extension Box: Hashable where T: Hashable {
    public func hash(into h: inout Hasher) { h.combine(value) }
}
