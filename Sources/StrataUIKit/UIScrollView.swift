// UIKit's scroll view for ported code: the content offset is the bounds origin (as on iOS), so
// subviews scroll; there is no finger to drag it offline — scripts set `contentOffset` (animated
// or not) at scene times.
import Foundation
import StrataCore

/// A view whose content can be larger than its bounds (UIKit's `UIScrollView`).
open class UIScrollView: UIView {
    /// The size of the content.
    open var contentSize: CGSize = .zero
    open var contentInset: UIEdgeInsets = .zero
    open var showsHorizontalScrollIndicator = true
    open var showsVerticalScrollIndicator = true
    open var isScrollEnabled = true
    open var bounces = true
    open var isPagingEnabled = false
    open var minimumZoomScale: CGFloat = 1
    open var maximumZoomScale: CGFloat = 1
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
    public var top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
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
    public var item: Int { self[1] }
}
