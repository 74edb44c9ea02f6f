// CATextLayer's preferred size, measured with the Pango layout the renderer uses. It lives in
// StrataRender because StrataCore does not depend on the text engine; `import Strata` brings
// it to ported code unchanged.
import Foundation
import StrataCore

extension CATextLayer {
    /// The size the layer's text needs (Apple's `preferredFrameSize()`): for a wrapped layer,
    /// wrapped at the current bounds width; otherwise the unwrapped text.
    public func preferredFrameSize() -> CGSize {
        guard let content = textContent else { return .zero }
        return TextMetrics.size(of: content, constrainedToWidth: isWrapped && bounds.width > 0 ? bounds.width : nil)
    }
}
