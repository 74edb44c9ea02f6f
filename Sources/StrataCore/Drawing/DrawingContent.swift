// A layer's custom drawing as the renderer receives it (`LayerContent.drawing`): the recording,
// the bounds it was made for and how it is placed in bounds that have changed since.
import Foundation

/// What a layer's custom drawing shows: the recording, the bounds it was drawn for (the extent of
/// its backing store, as `bounds.size × contentsScale` pixels are on iOS) and how it is placed
/// when the bounds have changed since (by `contentsGravity`, as Core Animation stretches a stale
/// backing store).
public struct DrawingContent: Sendable, Hashable {
    /// The recorded drawing.
    public var recording: DrawingRecording
    /// The layer's bounds when it drew: the drawing's coordinate space and clip.
    public var bounds: CGRect
    /// Placement in bounds of another size (`.resize` stretches).
    public var gravity: CALayerContentsGravity

    /// A drawing made for `bounds`.
    public init(recording: DrawingRecording, bounds: CGRect, gravity: CALayerContentsGravity = .resize) {
        self.recording = recording; self.bounds = bounds; self.gravity = gravity
    }

    /// The rectangle (layer coordinates) the drawing's bounds occupy in a layer whose bounds are
    /// now `layerBounds`: `bounds` itself when unchanged, else placed by `gravity` (`.top` is the
    /// visual top, as for image contents in Strata).
    public func destination(in layerBounds: CGRect) -> CGRect {
        if layerBounds == bounds { return bounds }
        let B = layerBounds, s = bounds.size
        func at(_ fx: CGFloat, _ fy: CGFloat, _ size: CGSize) -> CGRect {
            CGRect(x: B.minX + (B.width - size.width) * fx, y: B.minY + (B.height - size.height) * fy,
                   width: size.width, height: size.height)
        }
        switch gravity {
        case .resizeAspect, .resizeAspectFill:
            guard s.width > 0, s.height > 0 else { return B }
            let kx = B.width / s.width, ky = B.height / s.height
            let k = gravity == .resizeAspect ? min(kx, ky) : max(kx, ky)
            return at(0.5, 0.5, CGSize(width: s.width * k, height: s.height * k))
        case .center: return at(0.5, 0.5, s)
        case .top: return at(0.5, 0, s)
        case .bottom: return at(0.5, 1, s)
        case .left: return at(0, 0.5, s)
        case .right: return at(1, 0.5, s)
        case .topLeft: return at(0, 0, s)
        case .topRight: return at(1, 0, s)
        case .bottomLeft: return at(0, 1, s)
        case .bottomRight: return at(1, 1, s)
        default: return B
        }
    }

    /// The map from the drawing's coordinates (`bounds`) to the layer's current coordinates.
    public func placement(in layerBounds: CGRect) -> CGAffineTransform {
        let d = destination(in: layerBounds)
        guard bounds.width > 0, bounds.height > 0 else { return .identity }
        let sx = d.width / bounds.width, sy = d.height / bounds.height
        return CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: d.minX - bounds.minX * sx, ty: d.minY - bounds.minY * sy)
    }
}
