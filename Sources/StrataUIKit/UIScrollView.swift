// UIKit's scroll view for ported code: the content offset is the bounds origin (as on iOS), so
// subviews scroll; there is no finger to drag it offline — scripts set `contentOffset` (animated
// or not) at scene times.
import Foundation
import StrataCore

/// A view whose content can be larger than its bounds (UIKit's `UIScrollView`).
open class UIScrollView: UIView {
    /// The size of the content.
    open var contentSize: CGSize = .zero
    /// Extra space around the content (default zero). **Strata:** kept; it does not limit `contentOffset`.
    open var contentInset: UIEdgeInsets = .zero
    /// Whether a horizontal scroll indicator shows (default `true`). **Strata:** kept; none is drawn.
    open var showsHorizontalScrollIndicator = true
    /// Whether a vertical scroll indicator shows (default `true`). **Strata:** kept; none is drawn.
    open var showsVerticalScrollIndicator = true
    /// Whether the user can scroll (default `true`). **Strata:** kept; scripts set `contentOffset`.
    open var isScrollEnabled = true
    /// Whether scrolling bounces past the edges (default `true`). **Strata:** kept.
    open var bounces = true
    /// Whether scrolling stops on multiples of the bounds (default `false`). **Strata:** kept.
    open var isPagingEnabled = false
    /// The smallest zoom scale (default 1). **Strata:** kept; there is no zooming.
    open var minimumZoomScale: CGFloat = 1
    /// The largest zoom scale (default 1). **Strata:** kept; there is no zooming.
    open var maximumZoomScale: CGFloat = 1
    /// The current zoom scale (default 1). **Strata:** kept; there is no zooming.
    open var zoomScale: CGFloat = 1

    /// The point of the content shown at the top-left of the bounds.
    open var contentOffset: CGPoint {
        get { bounds.origin }
        set { bounds.origin = newValue }
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        clipsToBounds = true
    }

    /// **Strata:** no archives: an empty scroll view that clips to its bounds.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        clipsToBounds = true
    }

    /// Sets the offset, animating it over 0.3 s when `animated`.
    open func setContentOffset(_ offset: CGPoint, animated: Bool) {
        if animated {
            UIView.animate(withDuration: 0.3) { self.contentOffset = offset }
        } else {
            contentOffset = offset
        }
    }

    /// Scrolls the least distance that makes `rect` visible.
    open func scrollRectToVisible(_ rect: CGRect, animated: Bool) {
        var o = contentOffset
        let size = bounds.size
        if rect.maxX > o.x + size.width { o.x = rect.maxX - size.width }
        if rect.minX < o.x { o.x = rect.minX }
        if rect.maxY > o.y + size.height { o.y = rect.maxY - size.height }
        if rect.minY < o.y { o.y = rect.minY }
        setContentOffset(o, animated: animated)
    }
}

/// Insets from the edges of a rectangle (UIKit's `UIEdgeInsets`).
public struct UIEdgeInsets: Hashable, Sendable {
    /// The inset of each edge, in points.
    public var top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat
    /// Insets of each edge, in points.
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// No inset on any edge.
    public static let zero = UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

extension CGRect {
    /// The rectangle shrunk by `insets` (UIKit's `inset(by:)`).
    public func inset(by insets: UIEdgeInsets) -> CGRect {
        CGRect(x: minX + insets.left, y: minY + insets.top,
               width: width - insets.left - insets.right, height: height - insets.top - insets.bottom)
    }
}

extension IndexPath {
    /// A row in a section (UIKit's table addition).
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    /// The row (the index path's second index).
    public var row: Int { self[1] }
    /// The section (the first index).
    public var section: Int { self[0] }
    /// The item (collection views): the second index.
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    /// The item (collection views): the second index.
    public var item: Int { self[1] }
}
