// UIKit's image view for ported code: a view whose layer shows an image as its contents, at the
// image's scale, placed by `contentMode`.
import Foundation
import StrataCore

/// A view that shows an image (UIKit's `UIImageView`).
///
/// ```swift
/// let logo = UIImageView(image: UIImage(contentsOfFile: "logo@2x.png"))
/// logo.contentMode = .scaleAspectFit
/// view.addSubview(logo)
/// ```
open class UIImageView: UIView {
    /// The image shown.
    open var image: UIImage? {
        didSet { showImage() }
    }

    /// Shown instead of `image` while `isHighlighted`.
    open var highlightedImage: UIImage? {
        didSet { showImage() }
    }

    /// Whether the view shows `highlightedImage` (when there is one) instead of `image`; default `false`.
    open var isHighlighted = false {
        didSet { showImage() }
    }

    /// A view the size of `image` showing it.
    public init(image: UIImage?) {
        super.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        isUserInteractionEnabled = false
        self.image = image
        showImage()
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    /// **Strata:** no archives: an empty image view.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isUserInteractionEnabled = false
    }

    private func showImage() {
        let shown = isHighlighted ? (highlightedImage ?? image) : image
        layer.contents = shown?.cgImage
        layer.contentsScale = shown?.scale ?? layer.contentsScale
    }

    open override func sizeThatFits(_ size: CGSize) -> CGSize { image?.size ?? .zero }
    open override var intrinsicContentSize: CGSize { image?.size ?? super.intrinsicContentSize }
}
