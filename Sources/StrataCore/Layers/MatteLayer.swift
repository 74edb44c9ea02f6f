// A mask that is not only alpha: After Effects' track mattes (alpha inverted, luma, luma
// inverted), which Core Animation has no way to say. A MatteLayer used as a layer's `mask`
// masks by the mode's value of its composited pixels; as anything else it is an ordinary layer.
import Foundation

/// How a mask's pixels become coverage.
public enum MaskMode: Int, Sendable, Hashable {
    /// The mask's alpha (Core Animation's only mode).
    case alpha
    /// One minus the mask's alpha: shows what the mask does not cover.
    case alphaInverted
    /// The mask's luminance over black (Rec. 709 weights of the premultiplied, gamma-encoded
    /// sRGB values): white shows, black and transparent hide.
    case luminance
    /// One minus the luminance.
    case luminanceInverted
}

/// **Strata:** a layer that, set as another layer's `mask`, masks by `maskMode` instead of by
/// alpha alone (After Effects' and Lottie's track mattes).
///
///     let matte = MatteLayer()
///     matte.maskMode = .luminance
///     matte.addSublayer(gradientLayer)   // white shows the masked layer, black hides it
///     photo.mask = matte
open class MatteLayer: CALayer {
    /// How this layer's pixels mask (default `.alpha`). Set it when building the tree: it is not
    /// journalled, so changes in `scene.at` blocks are not undone when frames render out of order.
    public var maskMode: MaskMode = .alpha

    public override init() { super.init() }

    /// **Strata:** no archives.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A copy of `layer`'s properties (presentation copies).
    public override init(layer: Any) {
        super.init(layer: layer)
        if let l = layer as? MatteLayer { maskMode = l.maskMode }
    }

    open override func completeSnapshot(_ snapshot: inout LayerSnapshot) {
        super.completeSnapshot(&snapshot)
        snapshot.maskMode = maskMode
    }
}
