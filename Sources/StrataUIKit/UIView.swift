// UIKit's view for ported code: a thin owner of a `CALayer`, as on iOS. The view is its layer's
// delegate; every geometric and visual property forwards to the layer (frame, bounds, center,
// transform, alpha, backgroundColor, isHidden, clipsToBounds, contentMode), subviews are
// sublayers, `draw(_:)` is the layer's drawing and `layoutSubviews()` its layout. As on iOS, a
// view's changes do not animate by themselves — its `action(for:forKey:)` answers `NSNull` —
// except inside `UIView.animate` blocks (UIView+Animation.swift).
import Foundation
import StrataCore

/// A rectangle on screen backed by a layer (UIKit's `UIView`).
///
/// ```swift
/// let box = UIView(frame: CGRect(x: 20, y: 20, width: 100, height: 100))
/// box.backgroundColor = .systemRed
/// box.layer.cornerRadius = 12
/// view.addSubview(box)
/// scene.at(1) { UIView.animate(withDuration: 0.5) { box.center.x += 200 } }
/// ```
open class UIView: UIResponder, CALayerDelegate {
    /// The class of the view's layer (override to back a view with a `CAShapeLayer`,
    /// `CAGradientLayer`, …). It must be a `CALayer` subclass.
    open class var layerClass: AnyClass { CALayer.self }

    private var backingLayer: CALayer!
    /// The layer that shows the view (its `delegate` is the view).
    public var layer: CALayer { backingLayer }

    /// The views inside this one, back to front.
    open private(set) var subviews: [UIView] = []
    /// The view this one is inside.
    open private(set) weak var superview: UIView?
    /// The view controller whose root view this is.
    weak var owningViewController: UIViewController?

    private var storedBackgroundColor: UIColor?
    var attachedGestureRecognizers: [UIGestureRecognizer] = []

    /// An integer that identifies the view (default 0); see `viewWithTag(_:)`.
    open var tag = 0
    /// Whether the view receives touches (default `true`); `hitTest(_:with:)` skips views without it.
    open var isUserInteractionEnabled = true
    /// Whether the view takes more than one touch (default `false`). **Strata:** kept.
    open var isMultipleTouchEnabled = false
    /// Whether the view draws no transparent pixels (default `true`). **Strata:** kept.
    open var isOpaque = true
    /// The tint of the view's controls (default `.systemBlue`). **Strata:** kept.
    open var tintColor: UIColor! = .systemBlue
    /// Whether the autoresizing mask becomes constraints (default `true`). **Strata:** kept; no Auto Layout.
    open var translatesAutoresizingMaskIntoConstraints = true
    /// How the view resizes with its superview (default none). **Strata:** kept; no effect.
    open var autoresizingMask: AutoresizingMask = []

    /// A view with `frame` in its superview's coordinates.
    public init(frame: CGRect) {
        super.init()
        setUpLayer(frame: frame)
    }

    /// A view with a zero frame.
    public override convenience init() { self.init(frame: .zero) }

    /// **Strata:** there are no nibs or storyboards: a view with a zero frame.
    public required init?(coder: NSCoder) {
        super.init()
        setUpLayer(frame: .zero)
    }

    private func setUpLayer(frame: CGRect) {
        let cls = (type(of: self).layerClass as? CALayer.Type) ?? CALayer.self
        backingLayer = cls.init(byLayerClass: ())
        backingLayer.delegate = self
        backingLayer.frame = frame
        // Drawn once before it is first shown, as UIKit does for views that draw.
        backingLayer.setNeedsDisplay()
    }

    /// Called after a view is loaded from a nib (never offline; kept for ported overrides).
    open func awakeFromNib() {}

    open override var next: UIResponder? { owningViewController ?? superview }

    // MARK: Geometry (the layer's)

    /// The view's rectangle in its superview's coordinates.
    open var frame: CGRect {
        get { layer.frame }
        set { layer.frame = newValue }
    }

    /// The view's own coordinate space.
    open var bounds: CGRect {
        get { layer.bounds }
        set { layer.bounds = newValue }
    }

    /// The centre of the frame, in the superview's coordinates (the layer's `position`).
    open var center: CGPoint {
        get { layer.position }
        set { layer.position = newValue }
    }

    /// A 2D transform about the centre.
    open var transform: CGAffineTransform {
        get { layer.affineTransform() }
        set { layer.setAffineTransform(newValue) }
    }

    /// The layer's 3D transform.
    open var transform3D: CATransform3D {
        get { layer.transform }
        set { layer.transform = newValue }
    }

    /// Points to pixels of the view's backing store.
    open var contentScaleFactor: CGFloat {
        get { layer.contentsScale }
        set { layer.contentsScale = newValue }
    }

    // MARK: Appearance (the layer's)

    /// The layer's background colour (nil: transparent).
    open var backgroundColor: UIColor? {
        get { storedBackgroundColor }
        set {
            storedBackgroundColor = newValue
            layer.backgroundColor = newValue?.cgColor
        }
    }

    /// The view's opacity, 0…1 (the layer's `opacity`; default 1).
    open var alpha: CGFloat {
        get { CGFloat(layer.opacity) }
        set { layer.opacity = Float(newValue) }
    }

    /// Whether the view is hidden (the layer's `isHidden`).
    open var isHidden: Bool {
        get { layer.isHidden }
        set { layer.isHidden = newValue }
    }

    /// Whether subviews are clipped to the bounds (the layer's `masksToBounds`).
    open var clipsToBounds: Bool {
        get { layer.masksToBounds }
        set { layer.masksToBounds = newValue }
    }

    /// How the layer's contents fill the bounds (the layer's `contentsGravity`).
    open var contentMode: ContentMode = .scaleToFill {
        didSet { layer.contentsGravity = contentMode.gravity }
    }

    // MARK: Hierarchy

    /// Adds `view` on top of the subviews (taking it from its previous superview).
    open func addSubview(_ view: UIView) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` among the subviews.
    open func insertSubview(_ view: UIView, at index: Int) {
        guard view !== self else { return }
        if view.superview === self, let i = subviews.firstIndex(where: { $0 === view }) {
            subviews.remove(at: i)
        } else {
            view.removeFromSuperview()
        }
        let i = max(0, min(index, subviews.count))
        if i < subviews.count {
            layer.insertSublayer(view.layer, below: subviews[i].layer)
        } else if let top = subviews.last, let j = layer.sublayers?.firstIndex(where: { $0 === top.layer }) {
            layer.insertSublayer(view.layer, at: UInt32(j + 1))
        } else {
            layer.addSublayer(view.layer)
        }
        subviews.insert(view, at: i)
        view.superview = self
        view.didMoveToSuperview()
    }

    /// Inserts `view` just above `sibling` (at the end when `sibling` is not a subview).
    open func insertSubview(_ view: UIView, aboveSubview sibling: UIView) {
        let i = subviews.firstIndex(where: { $0 === sibling }).map { $0 + 1 } ?? subviews.count
        insertSubview(view, at: i)
    }

    /// Inserts `view` just below `sibling` (at the start when `sibling` is not a subview).
    open func insertSubview(_ view: UIView, belowSubview sibling: UIView) {
        insertSubview(view, at: subviews.firstIndex(where: { $0 === sibling }) ?? 0)
    }

    /// Moves `view`, a subview, to the front (the end of `subviews`).
    open func bringSubviewToFront(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count)
    }

    /// Moves `view`, a subview, to the back (the start of `subviews`).
    open func sendSubviewToBack(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    /// Swaps the subviews at the two indexes.
    open func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        guard subviews.indices.contains(index1), subviews.indices.contains(index2), index1 != index2 else { return }
        let a = subviews[index1], b = subviews[index2]
        insertSubview(a, at: index2)
        insertSubview(b, at: index1)
    }

    /// Removes the view from its superview.
    open func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
        layer.removeFromSuperlayer()
        didMoveToSuperview()
    }

    /// Called after the view was added to or removed from a superview; the default does nothing.
    open func didMoveToSuperview() {}

    /// Whether `view` is this view or inside it.
    open func isDescendant(of view: UIView) -> Bool {
        var v: UIView? = self
        while let c = v { if c === view { return true }; v = c.superview }
        return false
    }

    /// The first view with `tag` in this view's subtree (itself included).
    open func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag { return self }
        for s in subviews { if let v = s.viewWithTag(tag) { return v } }
        return nil
    }

    /// The window the view is in, if any.
    open var window: UIWindow? { rootView as? UIWindow }

    /// The top-most ancestor.
    var rootView: UIView {
        var v = self
        while let p = v.superview { v = p }
        return v
    }

    // MARK: Layout and drawing

    /// Lays out the subviews (no Auto Layout offline: override to position them).
    open func layoutSubviews() {}
    /// Marks the layout as out of date (the layer's `setNeedsLayout()`).
    open func setNeedsLayout() { layer.setNeedsLayout() }
    /// Lays out now when marked out of date (the layer's `layoutIfNeeded()`).
    open func layoutIfNeeded() { layer.layoutIfNeeded() }

    /// Draws the view's content in `rect` into the current context. The default draws nothing.
    open func draw(_ rect: CGRect) {}
    /// Marks the content to be redrawn with `draw(_:)` before the next frame.
    open func setNeedsDisplay() { layer.setNeedsDisplay() }
    /// Marks the part `rect` of the content to be redrawn (**Strata:** the whole content is redrawn).
    open func setNeedsDisplay(_ rect: CGRect) { layer.setNeedsDisplay(rect) }

    /// The size that fits the view's content (the current size unless a subclass knows better).
    open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }
    /// Resizes the view to `sizeThatFits`.
    open func sizeToFit() { bounds.size = sizeThatFits(bounds.size) }
    /// The natural size of the content: `noIntrinsicMetric` in both dimensions unless a subclass knows.
    open var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric) }
    /// "No natural size" in a dimension of `intrinsicContentSize` (-1).
    public static let noIntrinsicMetric: CGFloat = -1

    // MARK: CALayerDelegate

    /// The action for a change of the layer's `event`: inside a `UIView.animate` block an
    /// animation with the block's duration, delay and curve; otherwise `NSNull` (no implicit
    /// animation), as UIKit does.
    open func action(for layer: CALayer, forKey event: String) -> CAAction? {
        UIView.animationAction(for: layer, forKey: event)
    }

    /// The layer's delegate call: runs `layoutSubviews()`.
    public func layoutSublayers(of layer: CALayer) {
        layoutSubviews()
    }

    /// The layer's delegate call: runs `draw(_:)` with `ctx` as the current context.
    public func draw(_ layer: CALayer, in ctx: CGContext) {
        UIGraphicsPushContext(ctx)
        draw(bounds)
        UIGraphicsPopContext()
    }

    // MARK: Hit testing and conversion

    /// The deepest visible, interactive subview containing `point` (in this view's
    /// coordinates), or nil.
    open func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        guard !isHidden, isUserInteractionEnabled, alpha >= 0.01, self.point(inside: point, with: event) else { return nil }
        for s in subviews.reversed() {
            if let hit = s.hitTest(s.convert(point, from: self), with: event) { return hit }
        }
        return self
    }

    /// Whether `point` (in the view's coordinates) is inside the view: inside `bounds`.
    open func point(inside point: CGPoint, with event: UIEvent?) -> Bool { bounds.contains(point) }

    /// Converts a point from this view's coordinates to `view`'s (nil: the root view's).
    open func convert(_ point: CGPoint, to view: UIView?) -> CGPoint {
        layer.convert(point, to: (view ?? rootView).layer)
    }

    /// Converts a point from `view`'s coordinates (nil: the root view's) to this view's.
    open func convert(_ point: CGPoint, from view: UIView?) -> CGPoint {
        layer.convert(point, from: (view ?? rootView).layer)
    }

    /// Converts a rectangle from this view's coordinates to `view`'s (nil: the root view's).
    open func convert(_ rect: CGRect, to view: UIView?) -> CGRect {
        layer.convert(rect, to: (view ?? rootView).layer)
    }

    /// Converts a rectangle from `view`'s coordinates (nil: the root view's) to this view's.
    open func convert(_ rect: CGRect, from view: UIView?) -> CGRect {
        layer.convert(rect, from: (view ?? rootView).layer)
    }

    open override var description: String {
        "<\(type(of: self)); frame = \(frame); layer = \(layer)>"
    }
}

extension UIView {
    /// How a view's content fills its bounds.
    public enum ContentMode: Int, Sendable {
        /// Scaled: `scaleToFill` stretches (as does `redraw`), `scaleAspectFit` fits inside,
        /// `scaleAspectFill` fills and crops; or unscaled at the `center` or an edge.
        case scaleToFill, scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right
        /// Unscaled in a corner.
        case topLeft, topRight, bottomLeft, bottomRight

        /// The layer gravity with the same effect (`top` is the visual top, as in Strata's
        /// `contentsGravity`).
        var gravity: CALayerContentsGravity {
            switch self {
            case .scaleToFill, .redraw: .resize
            case .scaleAspectFit: .resizeAspect
            case .scaleAspectFill: .resizeAspectFill
            case .center: .center
            case .top: .top
            case .bottom: .bottom
            case .left: .left
            case .right: .right
            case .topLeft: .topLeft
            case .topRight: .topRight
            case .bottomLeft: .bottomLeft
            case .bottomRight: .bottomRight
            }
        }
    }

    /// How a view resizes with its superview (kept; no effect offline).
    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The left margin grows or shrinks.
        public static let flexibleLeftMargin = Self(rawValue: 1 << 0)
        /// The width grows or shrinks.
        public static let flexibleWidth = Self(rawValue: 1 << 1)
        /// The right margin grows or shrinks.
        public static let flexibleRightMargin = Self(rawValue: 1 << 2)
        /// The top margin grows or shrinks.
        public static let flexibleTopMargin = Self(rawValue: 1 << 3)
        /// The height grows or shrinks.
        public static let flexibleHeight = Self(rawValue: 1 << 4)
        /// The bottom margin grows or shrinks.
        public static let flexibleBottomMargin = Self(rawValue: 1 << 5)
    }
}

/// The top of a view hierarchy (UIKit's `UIWindow`).
open class UIWindow: UIView {
    /// The view controller whose view fills the window.
    open var rootViewController: UIViewController? {
        didSet {
            oldValue?.view.removeFromSuperview()
            if let vc = rootViewController {
                vc.view.frame = bounds
                addSubview(vc.view)
            }
        }
    }

    /// Shows the window (`isHidden = false`).
    open func makeKeyAndVisible() { isHidden = false }
    /// Makes the window the key window: nothing offline.
    open func makeKey() {}
}
