// CAScrollLayer (CORE_ANIMATION.md §3) and the scrolling services every layer has: scrolling
// moves the scroll layer's `bounds.origin`, which shifts all its sublayers (they live in bounds
// coordinates); clipping is up to `masksToBounds`, as on iOS. A scroll inside a scene block
// animates implicitly, like any bounds change.
import Foundation

/// Which axes a scroll layer scrolls along.
public struct CAScrollLayerScrollMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// No scrolling.
    public static let none = CAScrollLayerScrollMode(rawValue: "none")
    /// Vertical only.
    public static let vertically = CAScrollLayerScrollMode(rawValue: "vertically")
    /// Horizontal only.
    public static let horizontally = CAScrollLayerScrollMode(rawValue: "horizontally")
    /// Both axes (the default).
    public static let both = CAScrollLayerScrollMode(rawValue: "both")
}

/// A layer that shows a scrollable portion of its sublayers by changing `bounds.origin`.
///
/// ```swift
/// let scroller = CAScrollLayer()
/// scroller.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
/// scroller.masksToBounds = true
/// scroller.addSublayer(longStrip)          // e.g. 1000 points wide
/// scroller.scroll(to: CGPoint(x: 300, y: 0))
/// ```
open class CAScrollLayer: CALayer {
    /// The axes along which `scroll(to:)` moves the origin.
    public var scrollMode: CAScrollLayerScrollMode = .both { didSet { journal(self, \.scrollMode, oldValue) } }

    public override init() { super.init() }

    /// **Strata:** no archives: a layer with default values.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    public override init(layer: Any) {
        super.init(layer: layer)
        if let s = layer as? CAScrollLayer { scrollMode = s.scrollMode }
    }

    /// Scrolls so that `p` (in this layer's coordinates) is at the top-left of the bounds:
    /// sets `bounds.origin`, on the axes `scrollMode` allows.
    public func scroll(to p: CGPoint) {
        var origin = bounds.origin
        if scrollMode == .both || scrollMode == .horizontally { origin.x = p.x }
        if scrollMode == .both || scrollMode == .vertically { origin.y = p.y }
        guard origin != bounds.origin, origin.x.isFinite, origin.y.isFinite else { return }
        bounds.origin = origin
    }

    /// Scrolls the least distance that makes `r` (this layer's coordinates) visible; a rectangle
    /// larger than the bounds is aligned at its top-left.
    public func scroll(to r: CGRect) {
        guard !r.isNull else { return }
        let b = bounds
        func axis(_ lo: CGFloat, _ hi: CGFloat, _ bLo: CGFloat, _ size: CGFloat) -> CGFloat {
            if hi - lo > size || lo < bLo { return lo }
            if hi > bLo + size { return hi - size }
            return bLo
        }
        scroll(to: CGPoint(x: axis(r.minX, r.maxX, b.minX, b.width), y: axis(r.minY, r.maxY, b.minY, b.height)))
    }
}

extension CALayer {
    /// The nearest CAScrollLayer at or above this layer.
    var enclosingScrollLayer: CAScrollLayer? {
        var l: CALayer? = self
        while let x = l {
            if let s = x as? CAScrollLayer { return s }
            l = x.superlayer
        }
        return nil
    }

    /// Scrolls the nearest enclosing CAScrollLayer (this layer itself if it is one) so that `p`,
    /// in this layer's coordinates, is at its top-left (Apple's `scrollPoint:`).
    public func scroll(_ p: CGPoint) {
        guard let s = enclosingScrollLayer else { return }
        s.scroll(to: s === self ? p : convert(p, to: s))
    }

    /// Scrolls the nearest enclosing CAScrollLayer the least distance that makes `r` (this
    /// layer's coordinates) visible.
    public func scrollRectToVisible(_ r: CGRect) {
        guard let s = enclosingScrollLayer else { return }
        s.scroll(to: s === self ? r : convert(r, to: s))
    }

    /// The part of this layer's bounds not clipped by the nearest enclosing scroll layer, in this
    /// layer's coordinates (the bounds when there is none; `.null` when nothing is visible).
    public var visibleRect: CGRect {
        guard let s = superlayer?.enclosingScrollLayer else { return bounds }
        let visible = bounds.intersection(convert(s.bounds, from: s))
        return visible.isNull ? .null : visible
    }
}
