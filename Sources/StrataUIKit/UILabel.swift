// UIKit's label for ported code: text drawn by a `CATextLayer` inside the view, centred
// vertically in the bounds as UILabel does (measured with TextMetrics, the text layer's own
// layout), aligned and wrapped by the label's properties.
import Foundation
import StrataCore
import StrataRender

/// How text lines align (UIKit's `NSTextAlignment`).
public enum NSTextAlignment: Int, Sendable {
    /// `left`, `center`, `right`: lines flush to that side or centred; `justified`: lines stretched to
    /// the full width (the last one flush left); `natural`: the script's direction (left here).
    case left = 0, center = 1, right = 2, justified = 3, natural = 4
}

/// How text that does not fit breaks (UIKit's `NSLineBreakMode`).
public enum NSLineBreakMode: Int, Sendable {
    /// `byWordWrapping`/`byCharWrapping`: wrap at words/characters; `byClipping`: cut at the edge;
    /// `byTruncatingHead`/`Tail`/`Middle`: an ellipsis at the start, end or middle of the last line.
    case byWordWrapping = 0, byCharWrapping, byClipping, byTruncatingHead, byTruncatingTail, byTruncatingMiddle
}

/// A view that shows text (UIKit's `UILabel`).
///
/// ```swift
/// let title = UILabel(frame: CGRect(x: 20, y: 40, width: 350, height: 60))
/// title.text = "Hello"
/// title.font = .boldSystemFont(ofSize: 32)
/// title.textAlignment = .center
/// view.addSubview(title)
/// ```
open class UILabel: UIView {
    /// The layer that draws the text: a sublayer centred vertically. When a subclass makes the
    /// view's own layer a CATextLayer (`layerClass`), that layer is the subclass's to configure
    /// (as the seeds' LayerLabel does) and the label leaves it alone.
    private var textLayer: CATextLayer!
    private var drawsThroughOwnLayer: Bool { textLayer === layer }

    /// The text shown (nil: none). Setting it replaces `attributedText`.
    open var text: String? { didSet { attributedStorage = nil; update() } }
    private var attributedStorage: NSAttributedString?
    /// The text with attributes; plain `text` reads back as an attributed string without attributes.
    open var attributedText: NSAttributedString? {
        get { attributedStorage ?? text.map { NSAttributedString(string: $0) } }
        set { attributedStorage = newValue; update() }
    }
    /// Default: the system font at 17 points.
    open var font: UIFont! = .systemFont(ofSize: 17) { didSet { update() } }
    /// Default: black.
    open var textColor: UIColor! = .black { didSet { update() } }
    /// How the lines align (default `.natural`).
    open var textAlignment: NSTextAlignment = .natural { didSet { update() } }
    /// 0 means as many lines as fit; 1 (the default) a single line.
    open var numberOfLines = 1 { didSet { update() } }
    /// How text that does not fit breaks or is truncated (default `.byTruncatingTail`).
    open var lineBreakMode: NSLineBreakMode = .byTruncatingTail { didSet { update() } }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        setUp()
    }

    /// **Strata:** no archives: an empty label.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        setUp()
    }

    private func setUp() {
        isUserInteractionEnabled = false
        if let own = layer as? CATextLayer {
            textLayer = own
        } else {
            textLayer = CATextLayer()
            textLayer.contentsScale = UIScreen.main.scale
            layer.addSublayer(textLayer)
        }
        update()
    }

    open override var bounds: CGRect {
        didSet { if bounds.size != oldValue.size { update() } }
    }

    open override var frame: CGRect {
        didSet { update() }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        update()
    }

    /// The text content as the text layer lays it out.
    private var content: TextContent {
        var c = attributedStorage.map { TextContent(attributedString: $0) }
            ?? TextContent(string: text ?? "", fontName: font.fontName, fontSize: font.pointSize)
        c.isWrapped = numberOfLines != 1
        return c
    }

    private func update() {
        guard let textLayer, !drawsThroughOwnLayer else { return }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        if let attributed = attributedStorage {
            textLayer.string = attributed
        } else {
            textLayer.string = text
            textLayer.font = font.fontName
            textLayer.fontSize = font.pointSize
            textLayer.foregroundColor = textColor.cgColor
        }
        textLayer.alignmentMode = switch textAlignment {
        case .left: .left
        case .center: .center
        case .right: .right
        case .justified: .justified
        case .natural: .natural
        }
        textLayer.isWrapped = numberOfLines != 1
        textLayer.truncationMode = switch lineBreakMode {
        case .byTruncatingHead: .start
        case .byTruncatingMiddle: .middle
        case .byTruncatingTail: .end
        default: .none
        }
        let b = bounds
        let measured = (text?.isEmpty ?? true) && attributedStorage == nil
            ? .zero : TextMetrics.size(of: content, constrainedToWidth: numberOfLines == 1 ? nil : b.width)
        let h = min(b.height, measured.height)
        textLayer.frame = CGRect(x: b.minX, y: b.minY + (b.height - h) / 2, width: b.width, height: h)
    }

    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        guard !(text?.isEmpty ?? true) || attributedStorage != nil else { return .zero }
        let wrapWidth: CGFloat? = numberOfLines == 1 || size.width <= 0 ? nil : size.width
        let s = TextMetrics.size(of: content, constrainedToWidth: wrapWidth)
        return CGSize(width: s.width.rounded(.up), height: s.height.rounded(.up))
    }

    open override var intrinsicContentSize: CGSize { sizeThatFits(CGSize(width: bounds.width, height: 0)) }
}
