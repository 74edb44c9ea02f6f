// The layer: geometry, appearance, sublayers, animations and timing, as Core Animation has them.
// A layer lives in the model tree (mutable, confined to the thread building the scene).
// Rendering never reads it directly: `LayerSnapshot` (Presentation/) freezes the presentation
// values of a tree at one time into Sendable data for the renderer.
import Foundation

/// Which corners `cornerRadius` rounds (Core Animation's `CACornerMask`, y-down: "min Y" is the
/// visual top).
public struct CACornerMask: OptionSet, Hashable, Sendable {
    /// The corners as bits (1, 2, 4, 8 for the four masks).
    public let rawValue: UInt
    /// A mask from its bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The top-left corner (y down).
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    /// The top-right corner.
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    /// The bottom-left corner.
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    /// The bottom-right corner.
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
    /// All four corners (the default of `maskedCorners`).
    public static let all: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
}

/// Receives a layer's drawing, layout and action requests (Core Animation's informal protocol).
public protocol CALayerDelegate: AnyObject {
    /// The action for `event` (a key being changed): an animation, `NSNull()` to stop the search,
    /// or nil to let the layer look further (its `actions`, `style`, then the default action).
    func action(for layer: CALayer, forKey event: String) -> CAAction?
    /// Lays out the layer's sublayers (called when the layer lays out, before drawing).
    func layoutSublayers(of layer: CALayer)
    /// Sets the layer's content itself (e.g. `contents`); when implemented, `draw(_:in:)` is not
    /// called. Defaults in CALayer+Drawing.swift.
    func display(_ layer: CALayer)
    /// Draws the layer's content into a recording context covering its bounds.
    func draw(_ layer: CALayer, in ctx: CGContext)
}

extension CALayerDelegate {
    /// No action of the delegate's own: the layer looks further.
    public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
    /// Nothing: the layer's own `layoutSublayers()` applies.
    public func layoutSublayers(of layer: CALayer) {}
}

/// Something that can respond to a layer event (an animation, or `NSNull` to stop the search).
public protocol CAAction {
    /// Performs the action for `event` on `anObject` (the layer). A `CAAnimation` adds itself to the
    /// layer under the event's key; `NSNull` does nothing. `dict` is unused by Strata's actions.
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

/// A rectangle in a tree of layers: it has geometry (`bounds`, `position`, `anchorPoint`,
/// `transform`), a look (background, border, corner radius, shadow, image `contents` or custom
/// drawing) and sublayers, and every animatable property can be animated over scene time.
///
/// ```swift
/// let card = CALayer()
/// card.bounds = CGRect(x: 0, y: 0, width: 240, height: 140)
/// card.position = CGPoint(x: 320, y: 180)
/// card.backgroundColor = CGColor(red: 0.12, green: 0.44, blue: 0.92, alpha: 1)
/// card.cornerRadius = 16
/// root.addSublayer(card)
/// ```
///
/// Coordinates are in points with y growing downward, as on iOS; see CORE_ANIMATION.md for the
/// rules Strata follows and where it differs from Apple's.
open class CALayer: NSObject, CAMediaTiming {
    // The observed stored properties below are `@exclusivity(unchecked)`: a frame's snapshot reads
    // each of them for every layer, and their run-time exclusivity checks (a runtime call and a
    // thread-local access set each) were 17 calls a layer a frame, over a third of the snapshot's
    // instructions. No access to one of them can overlap another of the same property: their
    // observers only record the old value and report the change. The compile-time checks stay.

    // MARK: Geometry
    /// The layer's rectangle in its superlayer's coordinates: the bounding box of the transformed
    /// bounds. Setting it (with an identity transform) sets `bounds.size` and `position`.
    open var frame: CGRect {
        get { derivedFrame }
        set { derivedFrame = newValue }
    }
    /// The layer's own rectangle in its own coordinates (default zero). Its size is the layer's size
    /// in points; its origin shifts what the layer shows, so sublayers move by `-bounds.origin` (this
    /// is how `CAScrollLayer` scrolls). A change of size marks the layer for layout. Animatable.
    @exclusivity(unchecked) open var bounds = CGRect.zero { didSet { journal(self, \.bounds, oldValue); didChange("bounds", oldValue: .rect(oldValue)) } }
    /// Where the layer's `anchorPoint` sits in its superlayer's coordinates, in points (default
    /// (0, 0)). Animatable.
    ///
    /// ```swift
    /// layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
    /// layer.position = CGPoint(x: 160, y: 120)   // the centre, with the default anchor point
    /// ```
    @exclusivity(unchecked) open var position = CGPoint.zero { didSet { journal(self, \.position, oldValue); didChange("position", oldValue: .point(oldValue)) } }
    /// The point of the bounds that `position` places and that `transform` turns and scales about, in
    /// unit coordinates: (0, 0) is the top-left corner, (0.5, 0.5) the centre (the default). Changing it
    /// keeps `position` and moves the frame. Animatable.
    @exclusivity(unchecked) open var anchorPoint = CGPoint(x: 0.5, y: 0.5) { didSet { journal(self, \.anchorPoint, oldValue); didChange("anchorPoint", oldValue: .point(oldValue)) } }
    /// The anchor point's z, about which 3D transforms apply (0 by default).
    @exclusivity(unchecked) public var anchorPointZ: CGFloat = 0 { didSet { journal(self, \.anchorPointZ, oldValue); didChange("anchorPointZ", oldValue: .number(oldValue)) } }
    /// The position along z: among siblings, higher draws on top (with no 3D transform, only the
    /// order changes, as in Core Animation). Animatable.
    @exclusivity(unchecked) public var zPosition: CGFloat = 0 { didSet { journal(self, \.zPosition, oldValue); didChange("zPosition", oldValue: .number(oldValue)) } }
    /// The 3D transform applied about the anchor point (identity by default). Points are row vectors
    /// (`[x y z 1] · M`), as Core Animation's; perspective needs `m34` set here or, shared by all
    /// sublayers, in the superlayer's `sublayerTransform`. Animatable, also by key paths such as
    /// `"transform.rotation.z"` and `"transform.scale"`.
    ///
    /// ```swift
    /// layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)   // 45° clockwise on screen
    /// ```
    @exclusivity(unchecked) open var transform = CATransform3DIdentity { didSet { journal(self, \.transform, oldValue); didChange("transform", oldValue: .transform(oldValue)) } }
    /// A transform applied to the sublayers about the centre of the bounds: set `m34 = -1 / d` for a
    /// perspective shared by all of them. Animatable.
    @exclusivity(unchecked) public var sublayerTransform = CATransform3DIdentity { didSet { journal(self, \.sublayerTransform, oldValue); didChange("sublayerTransform", oldValue: .transform(oldValue)) } }
    /// Whether the sublayers' geometry is flipped vertically (y up inside this layer).
    @exclusivity(unchecked) public var isGeometryFlipped = false { didSet { journal(self, \.isGeometryFlipped, oldValue) } }
    /// Whether the layer is drawn when turned away from the viewer (true by default).
    @exclusivity(unchecked) public var isDoubleSided = true { didSet { journal(self, \.isDoubleSided, oldValue) } }

    // MARK: Appearance
    /// The colour that fills the bounds (with `cornerRadius` rounding), behind the contents and the
    /// sublayers; nil (the default) fills nothing. Animatable.
    @exclusivity(unchecked) open var backgroundColor: CGColor? { didSet { journal(self, \.backgroundColor, oldValue); didChange("backgroundColor", oldValue: .color(oldValue)) } }
    /// The radius, in points, of the rounded corners of the background and border, and of the clip when
    /// `masksToBounds` is set (default 0: square). `maskedCorners` picks the corners. Animatable.
    @exclusivity(unchecked) open var cornerRadius: CGFloat = 0 { didSet { journal(self, \.cornerRadius, oldValue); didChange("cornerRadius", oldValue: .number(oldValue)) } }
    /// Which corners `cornerRadius` rounds (all by default).
    @exclusivity(unchecked) public var maskedCorners: CACornerMask = .all { didSet { journal(self, \.maskedCorners, oldValue) } }
    /// The width of the border in points (default 0: none), drawn inside the bounds' edge, following
    /// `cornerRadius`, above the contents and sublayers. Animatable.
    @exclusivity(unchecked) open var borderWidth: CGFloat = 0 { didSet { journal(self, \.borderWidth, oldValue); didChange("borderWidth", oldValue: .number(oldValue)) } }
    /// The colour of the border (default opaque black). Animatable.
    @exclusivity(unchecked) open var borderColor: CGColor? = .black { didSet { journal(self, \.borderColor, oldValue); didChange("borderColor", oldValue: .color(oldValue)) } }
    /// How opaque the layer and its subtree are, 0 (invisible) to 1 (the default). With
    /// `allowsGroupOpacity` the subtree is composited first and faded as one. Animatable.
    @exclusivity(unchecked) open var opacity: Float = 1 { didSet { journal(self, \.opacity, oldValue); didChange("opacity", oldValue: .number(CGFloat(oldValue))) } }
    /// Whether the layer and its subtree are not drawn (default false); a hidden layer is also skipped
    /// by `hitTest(_:)`. Animatable under the key `"hidden"`: the value switches halfway through.
    @exclusivity(unchecked) open var isHidden = false { didSet { journal(self, \.isHidden, oldValue); didChange("hidden", oldValue: .bool(oldValue)) } }
    /// Whether contents and sublayers are clipped to the (rounded) bounds.
    @exclusivity(unchecked) public var masksToBounds = false { didSet { journal(self, \.masksToBounds, oldValue); didChange("masksToBounds", oldValue: .bool(oldValue)) } }
    /// Whether a partly transparent layer composites its sublayers as one group (true, as on iOS 7
    /// and later) or lets each show through the others.
    @exclusivity(unchecked) public var allowsGroupOpacity = true { didSet { journal(self, \.allowsGroupOpacity, oldValue) } }
    /// **Strata:** true by default (video output); Apple's default is false.
    @exclusivity(unchecked) public var allowsEdgeAntialiasing = true { didSet { journal(self, \.allowsEdgeAntialiasing, oldValue) } }

    /// The shadow's opacity, 0 (no shadow, the default) to 1. Animatable.
    @exclusivity(unchecked) public var shadowOpacity: Float = 0 { didSet { journal(self, \.shadowOpacity, oldValue); didChange("shadowOpacity", oldValue: .number(CGFloat(oldValue))) } }
    /// The shadow's colour (opaque black by default). Animatable.
    @exclusivity(unchecked) public var shadowColor: CGColor? = .black { didSet { journal(self, \.shadowColor, oldValue); didChange("shadowColor", oldValue: .color(oldValue)) } }
    /// The shadow's offset: (0, −3) by default, as on iOS (up on screen). Animatable.
    @exclusivity(unchecked) public var shadowOffset = CGSize(width: 0, height: -3) { didSet { journal(self, \.shadowOffset, oldValue); didChange("shadowOffset", oldValue: .size(oldValue)) } }
    /// The blur radius of the shadow (σ of a Gaussian; 3 by default). Animatable.
    @exclusivity(unchecked) public var shadowRadius: CGFloat = 3 { didSet { journal(self, \.shadowRadius, oldValue); didChange("shadowRadius", oldValue: .number(oldValue)) } }
    /// The shape of the shadow; nil derives it from the composited layer's alpha.
    @exclusivity(unchecked) public var shadowPath: CGPath? { didSet { journal(self, \.shadowPath, oldValue); didChange("shadowPath", oldValue: .path(oldValue)) } }
    /// Composite the subtree once into a bitmap and reuse it while it is unchanged.
    @exclusivity(unchecked) public var shouldRasterize = false { didSet { journal(self, \.shouldRasterize, oldValue) } }
    /// Pixels per point of the bitmap `shouldRasterize` renders the subtree into (default 1; values
    /// below 1/64 count as 1/64). A larger scale keeps a rasterized layer sharp when it is scaled up.
    @exclusivity(unchecked) public var rasterizationScale: CGFloat = 1 { didSet { journal(self, \.rasterizationScale, oldValue) } }
    /// How the layer, with its sublayers, combines with what is beneath it (default nil:
    /// source-over). On iOS a Core Image filter; ported code writes its name, and Strata takes
    /// those names: `"multiplyBlendMode"`, `"screenBlendMode"`, `"overlayBlendMode"`,
    /// `"darkenBlendMode"`, `"lightenBlendMode"`, `"colorDodgeBlendMode"`, `"colorBurnBlendMode"`,
    /// `"hardLightBlendMode"`, `"softLightBlendMode"`, `"differenceBlendMode"`,
    /// `"exclusionBlendMode"`, `"hueBlendMode"`, `"saturationBlendMode"`, `"colorBlendMode"`,
    /// `"luminosityBlendMode"`, `"linearDodgeBlendMode"`, `"additionCompositing"` and
    /// `"sourceOverCompositing"` (also with Core Image's `CI` prefix, `"CIMultiplyBlendMode"`).
    /// The layer is drawn offscreen and composited onto its backdrop (what is beneath it inside
    /// its superlayer's group) with the W3C Compositing and Blending formulas, which Core Image's
    /// blend filters use too. Any other value is drawn source-over and reported as unsupported.
    /// Not animatable.
    ///
    /// ```swift
    /// shade.compositingFilter = "multiplyBlendMode"
    /// ```
    @exclusivity(unchecked) open var compositingFilter: Any? { didSet { journal(self, \.compositingFilter, oldValue) } }

    // MARK: Contents
    /// A `CGImage`; anything else shows nothing, as on iOS.
    @exclusivity(unchecked) open var contents: Any? { didSet { journal(self, \.contents, oldValue); didChange("contents", oldValue: .image(oldValue as? CGImage)) } }
    /// How `contents` is placed in the bounds (default `.resize`: stretched to fill). **Strata:**
    /// `.top`, `.topLeft` and the others name the edge as seen on screen; Apple's refer to a y-up
    /// system, so on iOS `.top` and `.bottom` appear swapped.
    @exclusivity(unchecked) public var contentsGravity: CALayerContentsGravity = .resize { didSet { journal(self, \.contentsGravity, oldValue) } }
    /// The part of the image shown, in unit coordinates of the image (default (0, 0, 1, 1): all of it);
    /// values outside 0…1 are allowed, e.g. a cell of a sprite sheet. Animatable.
    @exclusivity(unchecked) public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1) { didSet { journal(self, \.contentsRect, oldValue); didChange("contentsRect", oldValue: .rect(oldValue)) } }
    /// The stretchable centre of the image for nine-slice scaling, in unit coordinates (default
    /// (0, 0, 1, 1): the whole image stretches). The edges outside it keep their size in points
    /// (image pixels ÷ `contentsScale`). Used with the `.resize` gravity only. Animatable.
    @exclusivity(unchecked) public var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1) { didSet { journal(self, \.contentsCenter, oldValue); didChange("contentsCenter", oldValue: .rect(oldValue)) } }
    /// Image pixels per point of the contents (default 1, as Core Animation's; UIKit views set their
    /// screen's scale): a 200-pixel-wide image at scale 2 is 100 points wide for the gravities that
    /// keep its size, and a drawn layer's backing store has `bounds.size × contentsScale` pixels.
    @exclusivity(unchecked) public var contentsScale: CGFloat = 1 { didSet { journal(self, \.contentsScale, oldValue) } }
    /// How contents are sampled when drawn smaller than their size: `.linear` (bilinear, the default),
    /// `.nearest`, or `.trilinear` (bilinear from mipmap levels, smoother for large reductions).
    @exclusivity(unchecked) public var minificationFilter: CALayerContentsFilter = .linear { didSet { journal(self, \.minificationFilter, oldValue) } }
    /// How contents are sampled when drawn larger than their size: `.linear` (the default) or `.nearest`
    /// (hard pixel edges, for pixel art).
    @exclusivity(unchecked) public var magnificationFilter: CALayerContentsFilter = .linear { didSet { journal(self, \.magnificationFilter, oldValue) } }
    /// Added to the mipmap level `.trilinear` minification picks (default 0): positive values blur,
    /// negative ones sharpen.
    @exclusivity(unchecked) public var minificationFilterBias: Float = 0 { didSet { journal(self, \.minificationFilterBias, oldValue) } }

    // MARK: Tree
    /// The layer's sublayers, back to front (nil when there are none). Setting it replaces them,
    /// as on iOS: layers not in the new list are removed (they lose their superlayer), each new
    /// one is taken from its previous superlayer first; nil or `[]` removes all.
    open var sublayers: [CALayer]? {
        get { sublayerList }
        set { replaceSublayers(with: newValue ?? []) }
    }
    /// The stored sublayers (nil when there are none).
    var sublayerList: [CALayer]? { sublayerStorage.isEmpty ? nil : sublayerStorage }
    /// The sublayers as stored, changed only through `changeSublayerList` (which records the
    /// change in the scene's history).
    private(set) var sublayerStorage: [CALayer] = []
    /// The layer this one is a sublayer of (nil for a root, or a mask).
    public internal(set) weak var superlayer: CALayer? { didSet { journal(self, \.superlayer, oldValue) } }
    /// A layer whose alpha masks this layer and its sublayers.
    @exclusivity(unchecked) public var mask: CALayer? { didSet { journal(self, \.mask, oldValue) } }
    /// A name for the layer (default nil); it changes nothing drawn. The declarative model gives
    /// each element's `id` to its layer as the name, and finds layers by it.
    @exclusivity(unchecked) public var name: String? { didSet { journal(self, \.name, oldValue) } }
    /// An object asked for the layer's content (`display(_:)`, `draw(_:in:)`), its layout and its
    /// actions. Held weakly, as on iOS: keep the delegate alive elsewhere.
    public weak var delegate: CALayerDelegate? { didSet { journal(self, \.delegate, oldValue) } }
    /// Per-key actions consulted by `action(forKey:)`.
    public var actions: [String: CAAction]? { didSet { journal(self, \.actions, oldValue) } }
    /// Default values and actions looked up after the layer's own (Core Animation's `style`
    /// dictionary).
    public var style: [AnyHashable: Any]? { didSet { journal(self, \.style, oldValue) } }

    // MARK: Timing (CAMediaTiming)
    /// When the layer's local time starts, in its parent's time (`CAMediaTiming`).
    @exclusivity(unchecked) public var beginTime: CFTimeInterval = 0 { didSet { journal(self, \.beginTime, oldValue) } }
    /// The length of one cycle of the layer's local time (`CAMediaTiming`; 0: forever).
    @exclusivity(unchecked) public var duration: CFTimeInterval = 0 { didSet { journal(self, \.duration, oldValue) } }
    /// How fast the layer's time runs against its parent's (0 pauses it; `CAMediaTiming`).
    @exclusivity(unchecked) public var speed: Float = 1 { didSet { journal(self, \.speed, oldValue) } }
    /// An offset added to the layer's local time (`CAMediaTiming`).
    @exclusivity(unchecked) public var timeOffset: CFTimeInterval = 0 { didSet { journal(self, \.timeOffset, oldValue) } }
    /// How many cycles the layer's time runs (`CAMediaTiming`).
    @exclusivity(unchecked) public var repeatCount: Float = 0 { didSet { journal(self, \.repeatCount, oldValue) } }
    /// How long the layer's time repeats, in seconds (`CAMediaTiming`).
    @exclusivity(unchecked) public var repeatDuration: CFTimeInterval = 0 { didSet { journal(self, \.repeatDuration, oldValue) } }
    /// Whether each cycle of the layer's time runs forwards then backwards (`CAMediaTiming`).
    @exclusivity(unchecked) public var autoreverses = false { didSet { journal(self, \.autoreverses, oldValue) } }
    /// What the layer's time is outside its active period (`CAMediaTiming`).
    @exclusivity(unchecked) public var fillMode: CAMediaTimingFillMode = .removed { didSet { journal(self, \.fillMode, oldValue) } }

    // MARK: Animations and key/value storage
    /// Animations in the order added, with the keys they were added under.
    var animationEntries: [AnimationEntry] { animationStorage.entries }
    /// The animations as stored, changed only through `changeAnimations` (which records the change
    /// in the scene's history).
    private(set) var animationStorage = AnimationList()
    /// `PresentationBuilder.animatesGeometryOnly(self)`, kept with the animations until they
    /// change (a cache: not journaled; written while a snapshot is made, on one thread at a time).
    var animatesGeometryOnly: Bool {
        if let known = animationStorage.animatesGeometryOnly { return known }
        let found = PresentationBuilder.animatesGeometryOnly(self)
        animationStorage.animatesGeometryOnly = found
        return found
    }
    /// Values set with `setValue(_:forKey:)` for keys that are not built-in properties.
    var customValues: [String: Any] = [:] { didSet { journal(self, \.customValues, oldValue) } }
    /// Set on presentation copies.
    public internal(set) weak var modelLayerReference: CALayer?
    var isPresentationCopy = false
    var needsLayoutFlag = false { didSet { journal(self, \.needsLayoutFlag, oldValue) } }
    var actionsSuppressed = 0
    var needsDisplayFlag = false { didSet { journal(self, \.needsDisplayFlag, oldValue) } }
    // Custom drawing (CALayer+Drawing.swift).
    /// Whether a change of `bounds.size` redraws the content (else the drawing is stretched by
    /// `contentsGravity`, as on iOS).
    public var needsDisplayOnBoundsChange = false { didSet { journal(self, \.needsDisplayOnBoundsChange, oldValue) } }
    /// The drawing the last `display()` recorded; nil until the layer draws.
    var drawing: DrawingContent? { didSet { journal(self, \.drawing, oldValue) } }
    /// Set by `CALayerDelegate`'s default `display(_:)`, so `display()` can tell an implemented one.
    var delegateDisplayWasDefault = false
    /// The values of the `needsDisplay(forKey:)` keys when the layer last drew.
    var displayedKeyValues: [String: AnimatableValue]? { didSet { journal(self, \.displayedKeyValues, oldValue) } }

    /// A layer with default values (the designated initializer of model layers).
    public override init() { super.init() }

    /// Copies every property of `layer` into a new layer: how presentation copies are made.
    /// Subclasses override it and call super to copy their own state, as on iOS:
    ///
    ///     override init(layer: Any) {
    ///         super.init(layer: layer)
    ///         if let other = layer as? ProgressLayer { progress = other.progress }
    ///     }
    public init(layer: Any) {
        // Assigned before super.init(): stored directly, without observers (no actions, no
        // recording).
        if let l = layer as? CALayer {
            bounds = l.bounds; position = l.position; anchorPoint = l.anchorPoint; anchorPointZ = l.anchorPointZ
            zPosition = l.zPosition; transform = l.transform; sublayerTransform = l.sublayerTransform
            isGeometryFlipped = l.isGeometryFlipped; isDoubleSided = l.isDoubleSided
            backgroundColor = l.backgroundColor; cornerRadius = l.cornerRadius; maskedCorners = l.maskedCorners
            borderWidth = l.borderWidth; borderColor = l.borderColor; opacity = l.opacity; isHidden = l.isHidden
            masksToBounds = l.masksToBounds; allowsGroupOpacity = l.allowsGroupOpacity
            allowsEdgeAntialiasing = l.allowsEdgeAntialiasing
            shadowOpacity = l.shadowOpacity; shadowColor = l.shadowColor; shadowOffset = l.shadowOffset
            shadowRadius = l.shadowRadius; shadowPath = l.shadowPath
            shouldRasterize = l.shouldRasterize; rasterizationScale = l.rasterizationScale
            compositingFilter = l.compositingFilter
            contents = l.contents; contentsGravity = l.contentsGravity; contentsRect = l.contentsRect
            contentsCenter = l.contentsCenter; contentsScale = l.contentsScale
            minificationFilter = l.minificationFilter; magnificationFilter = l.magnificationFilter
            minificationFilterBias = l.minificationFilterBias
            name = l.name; delegate = l.delegate; actions = l.actions; style = l.style
            beginTime = l.beginTime; duration = l.duration; speed = l.speed; timeOffset = l.timeOffset
            repeatCount = l.repeatCount; repeatDuration = l.repeatDuration; autoreverses = l.autoreverses
            fillMode = l.fillMode
            customValues = l.customValues
        }
        super.init()
    }

    /// **Strata:** there are no archives (nib, storyboard) to decode from: a layer with default
    /// values. Apple's boilerplate `required init?(coder:)` (also one that calls `fatalError`)
    /// compiles unchanged; Strata never calls it.
    public required init?(coder: NSCoder) { super.init() }

    /// The presentation copy of `model`, made through the dynamic class's `init(layer:)`.
    ///
    /// Swift can make an object of a class known only at run time only through a `required`
    /// initializer. Apple's `init(layer:)` is not required (subclasses write `override
    /// init(layer:)`), so this required convenience initializer is the entry point: it delegates
    /// to `init(layer:)`, which Swift dispatches to the subclass's override. A subclass inherits it
    /// when it declares no designated initializer, or overrides all of `init()`, `init(layer:)`
    /// and `init?(coder:)` — Apple's boilerplate (see RemainingLayerInterface.swift).
    public required convenience init(presentationCopyOf model: CALayer) {
        self.init(layer: model)
    }

    /// A layer of the dynamic class with default values, made through its `init()` (how a
    /// `UIView` makes the layer its `layerClass` names; the same inheritance rule applies).
    public required convenience init(byLayerClass: Void) {
        self.init()
    }


    // MARK: Overridable hooks (declared here: Swift on Linux cannot override extension members)

    /// The kind of value stored under a top-level animatable key, or nil when there is none.
    /// Subclasses add their properties and call super.
    open func animatableKind(forKey key: String) -> AnimatableValue.Kind? { baseAnimatableKind(forKey: key) }
    /// The current value of a top-level animatable key.
    open func animatableValue(forKey key: String) -> AnimatableValue? { baseAnimatableValue(forKey: key) }
    /// Sets a top-level animatable key without triggering actions.
    open func setAnimatableValue(_ value: AnimatableValue, forKey key: String) { baseSetAnimatableValue(value, forKey: key) }
    /// Whether a change of `key` requires the layer's content to be redrawn (override in
    /// subclasses with custom drawing, as on iOS).
    open class func needsDisplay(forKey key: String) -> Bool { false }
    /// The default value of a property key.
    open class func defaultValue(forKey key: String) -> Any? { nil }
    /// Whether a change of `key` animates implicitly (beyond CALayer's own keys); subclasses
    /// return true for their animatable properties.
    open class func implicitlyAnimates(key: String) -> Bool { false }
    /// The action for `event` when neither the delegate, `actions` nor `style` gives one.
    open class func defaultAction(forKey event: String) -> CAAction? { nil }
    /// Bounds containment in the layer's own coordinates.
    open func contains(_ p: CGPoint) -> Bool { bounds.contains(p) }
    /// The action for a change of `event` (a property key, `kCAOnOrderIn`, …). The default asks
    /// the delegate, then `actions`, `style` and `defaultAction(forKey:)`, and falls back to Core
    /// Animation's implicit animation of animatable properties (CALayer+Actions.swift).
    /// Override it, as on iOS, to animate a custom property implicitly.
    open func action(forKey event: String) -> CAAction? { searchAction(forKey: event) }
    /// Lays out sublayers; the default asks the delegate.
    open func layoutSublayers() { delegate?.layoutSublayers(of: self) }
    /// Reloads the content: the default calls the delegate's `display(_:)` when it implements
    /// it, else records `draw(in:)` into a context covering `bounds` (CALayer+Drawing.swift).
    open func display() { recordDisplay() }
    /// Draws the content into `ctx` (a recording context covering `bounds`); the default asks the
    /// delegate's `draw(_:in:)`. Override in subclasses, as on iOS.
    open func draw(in ctx: CGContext) { delegate?.draw(self, in: ctx) }
    /// The vector/drawn content this layer shows, for the renderer (subclasses override).
    open func snapshotContent() -> LayerContent { drawingSnapshot() }
    /// The gradient this layer draws (CAGradientLayer), evaluated per pixel by the renderer.
    open func snapshotGradient() -> GradientSnapshot? { nil }
    /// True for layers that form a 3D rendering context (CATransformLayer).
    open var isTransformLayerForSnapshot: Bool { false }
    /// Called on each presentation copy after its animations are applied, with the scene time it
    /// shows; layers whose content is a function of time set it here (AVPlayerLayer: the video
    /// frame as `contents`).
    open func updatePresentation(atSceneTime time: Double) {}
    /// The snapshots of the sublayers, back to front, as the renderer draws them: one per
    /// sublayer here; a `CAReplicatorLayer` repeats them once per instance.
    open func snapshotSublayers() -> [LayerSnapshot] { (sublayers ?? []).map { $0.makeSnapshot() } }
    /// Adds what a subclass shows beyond CALayer's properties to its snapshot (a
    /// `CAEmitterLayer`'s particles, a `CATiledLayer`'s tiles); called last by `makeSnapshot()`.
    open func completeSnapshot(_ snapshot: inout LayerSnapshot) {}
    /// On a presentation copy: the layer's local time it shows (the time its animations were
    /// evaluated at; a replicated instance's is shifted by its `instanceDelay`).
    var presentationLocalTime: Double?
    /// The list of sublayer snapshots this layer's last snapshot made (PresentationBuilder), its
    /// storage taken up again by the next once no snapshot holds it. A cache: not journaled, not
    /// copied to presentation copies. Written while a snapshot is made: a tree is snapshotted on
    /// one thread at a time, as it is changed on one.
    @exclusivity(unchecked) var snapshotSublayerStorage: [LayerSnapshot] = []
    /// Called, inside a recording scene block, on every layer of a subtree just added to a tree.
    func didEnterTree(atSceneTime t: Double) {
        for s in sublayers ?? [] { s.didEnterTree(atSceneTime: t) }
    }

    func setSublayersRaw(_ list: [CALayer]) {
        changeSublayerList { $0 = list }
        for l in list { l.superlayer = self }
    }

    // MARK: Stored lists

    // The sublayer and animation lists are changed in place. A property observer that records a
    // change needs the old value, which copies the whole list on every change: adding 100 000
    // sublayers one by one copied 5 × 10⁹ references (minutes). Only a recording scene block
    // needs the old list (its history keeps it), so only then is it copied; building a tree
    // appends in O(1) amortised.

    /// Changes the stored sublayers in place, recording the change when a scene block records.
    func changeSublayerList(_ body: (inout [CALayer]) -> Void) {
        guard isJournaling(self) else { return body(&sublayerStorage) }
        let old = sublayerStorage
        body(&sublayerStorage)
        journal(self, \.sublayerStorage, old)
    }

    /// Changes the stored animations in place, recording the change when a scene block records.
    func changeAnimations(_ body: (inout AnimationList) -> Void) {
        animationsWillChange()
        guard isJournaling(self) else { return body(&animationStorage) }
        let old = animationStorage
        body(&animationStorage)
        journal(self, \.animationStorage, old)
    }

    /// Called before the animation list changes (a `CAEmitterLayer` keeps its configuration
    /// until then).
    func animationsWillChange() {}

    open override var description: String {
        let n = name.map { " '\($0)'" } ?? ""
        return "<\(type(of: self))\(n) frame=\(frame)>"
    }

    // MARK: Sublayers

    /// Appends `layer` to the sublayers, removing it from its previous superlayer first.
    public func addSublayer(_ layer: CALayer) { insertSublayer(layer, at: UInt32(sublayers?.count ?? 0)) }

    /// Inserts `layer` at `idx` (clamped to the sublayer count).
    public func insertSublayer(_ layer: CALayer, at idx: UInt32) {
        guard layer !== self else { return }
        layer.removeFromSuperlayerSilently()
        changeSublayerList { list in
            if Int(idx) >= list.count { list.append(layer) } else { list.insert(layer, at: Int(idx)) }
        }
        layer.superlayer = self
        layer.didChangeOrder(inserted: true)
    }

    /// Inserts `layer` just below `sibling` (at the bottom when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        guard let sibling, let i = sublayers?.firstIndex(where: { $0 === sibling }) else {
            insertSublayer(layer, at: 0); return
        }
        let already = sublayers?.firstIndex(where: { $0 === layer }).map { $0 < i } ?? false
        insertSublayer(layer, at: UInt32(already ? i - 1 : i))
    }

    /// Inserts `layer` just above `sibling` (at the top when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        guard let sibling, let i = sublayers?.firstIndex(where: { $0 === sibling }) else {
            addSublayer(layer); return
        }
        let already = sublayers?.firstIndex(where: { $0 === layer }).map { $0 < i } ?? false
        insertSublayer(layer, at: UInt32(already ? i : i + 1))
    }

    /// Replaces `oldLayer` (a sublayer) with `newLayer` at the same index.
    public func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard let i = sublayers?.firstIndex(where: { $0 === oldLayer }) else { return }
        oldLayer.removeFromSuperlayer()
        insertSublayer(newLayer, at: UInt32(i))
    }

    /// Detaches the layer from its superlayer.
    public func removeFromSuperlayer() {
        guard superlayer != nil else { return }
        didChangeOrder(inserted: false)
        removeFromSuperlayerSilently()
    }

    private func removeFromSuperlayerSilently() {
        guard let parent = superlayer else { return }
        parent.changeSublayerList { list in
            if let i = list.firstIndex(where: { $0 === self }) { list.remove(at: i) }
        }
        superlayer = nil
    }

    /// Replaces the sublayers with `layers` (what assigning `sublayers` does): the current ones
    /// not in `layers` are removed (with their `kCAOnOrderOut` action), the others keep their
    /// place in the new order, and new ones are inserted (with `kCAOnOrderIn`).
    func replaceSublayers(with layers: [CALayer]) {
        var seen = Set<ObjectIdentifier>()
        let wanted = layers.filter { $0 !== self && seen.insert(ObjectIdentifier($0)).inserted }
        for old in sublayerList ?? [] where !seen.contains(ObjectIdentifier(old)) { old.removeFromSuperlayer() }
        for (i, layer) in wanted.enumerated() {
            if layer.superlayer === self {
                // Already a sublayer: only its place changes.
                guard let j = sublayerList?.firstIndex(where: { $0 === layer }), j != i else { continue }
                if let ctx = SceneClock.current, !ctx.isReplaying {
                    ctx.journal.recordSublayers(of: self, original: sublayerList ?? [])
                }
                changeSublayerList { list in
                    list.remove(at: j)
                    list.insert(layer, at: i)
                }
            } else {
                insertSublayer(layer, at: UInt32(i))
            }
        }
    }

    /// Sets the sublayers array wholesale (the same as assigning `sublayers`).
    public func setSublayers(_ layers: [CALayer]?) { replaceSublayers(with: layers ?? []) }

    // MARK: Presentation

    /// The layer as it is shown at the current scene time, with every animation applied.
    /// Inside `scene.at(t)` this is the presentation at t; while building the scene, at 0.
    public func presentation() -> Self? {
        if isPresentationCopy { return self }
        let t = SceneClock.currentTime
        let root = rootLayer
        // As on iOS, the presentation shows what is on screen: inside a block, the tree as it was
        // before this transaction's changes (which are committed, and shown, when it ends).
        let copy = PresentationBuilder(time: t).presentationTree(of: root, journal: SceneClock.current?.journal)
        return copy.find(model: self) as? Self
    }

    /// On a presentation copy, the model layer it was made from; on a model layer, itself.
    public func model() -> Self { (modelLayerReference as? Self) ?? self }
    /// The model layer a presentation copy was made from (the layer itself for a model layer).
    public var modelLayer: CALayer { modelLayerReference ?? self }

    var rootLayer: CALayer {
        var l = self
        while let p = l.superlayer { l = p }
        return l
    }

    func find(model: CALayer) -> CALayer? {
        if modelLayerReference === model { return self }
        for s in sublayers ?? [] { if let f = s.find(model: model) { return f } }
        return nil
    }
}

/// How contents are placed in the bounds.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Gravities that keep the image's natural size (pixels ÷ `contentsScale`): at the centre of the
    /// bounds, or at the middle of its top or bottom edge.
    public static let center = Self(rawValue: "center"), top = Self(rawValue: "top"), bottom = Self(rawValue: "bottom")
    /// Gravities that keep the natural size, at the middle of the left or right edge.
    public static let left = Self(rawValue: "left"), right = Self(rawValue: "right")
    /// Gravities that keep the natural size, in the top-left or top-right corner.
    public static let topLeft = Self(rawValue: "topLeft"), topRight = Self(rawValue: "topRight")
    /// Gravities that keep the natural size, in the bottom-left or bottom-right corner.
    public static let bottomLeft = Self(rawValue: "bottomLeft"), bottomRight = Self(rawValue: "bottomRight")
    /// `resize`: stretched to fill the bounds (the default); `resizeAspect`: as large as fits, keeping
    /// its aspect ratio, centred (letterboxed).
    public static let resize = Self(rawValue: "resize"), resizeAspect = Self(rawValue: "resizeAspect")
    /// As small as covers the bounds, keeping its aspect ratio, centred (cropped unless clipped).
    public static let resizeAspectFill = Self(rawValue: "resizeAspectFill")
}

/// How contents are sampled when scaled.
public struct CALayerContentsFilter: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `linear`: bilinear interpolation between the four nearest pixels; `nearest`: the nearest pixel
    /// (blocky when magnified).
    public static let linear = Self(rawValue: "linear"), nearest = Self(rawValue: "nearest")
    /// Bilinear sampling from the two nearest mipmap levels (halvings of the image), blended;
    /// for minification (as a magnification filter it samples as `linear`).
    public static let trilinear = Self(rawValue: "trilinear")
}
