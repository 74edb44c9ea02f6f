// Derived geometry: frame, affine transform access, and the matrix that maps a layer's own
// coordinates into its superlayer's (CORE_ANIMATION.md §1.2).
import Foundation

extension CALayer {
    /// `frame`'s value: the bounding box of the transformed bounds in the superlayer.
    var derivedFrame: CGRect {
        get {
            let m = localToParentTransform(includingParentSublayerTransform: false)
            let b = bounds
            let corners = [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY),
                           CGPoint(x: b.minX, y: b.maxY), CGPoint(x: b.maxX, y: b.maxY)]
            var minX = CGFloat.infinity, minY = CGFloat.infinity, maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
            for c in corners {
                let h = m.project(c)
                guard h.w != 0 else { continue }
                let x = h.x / h.w, y = h.y / h.w
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
            guard minX.isFinite else { return .null }
            return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        }
        set {
            let f = newValue.standardized
            bounds = CGRect(origin: bounds.origin, size: f.size)
            position = CGPoint(x: f.minX + anchorPoint.x * f.width, y: f.minY + anchorPoint.y * f.height)
        }
    }

    /// The transform as a 2D affine transform (the affine part of `transform`).
    public func affineTransform() -> CGAffineTransform { transform.affineTransform }

    /// Sets `transform` to a 2D affine transform.
    public func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3D(m) }

    /// The point in the layer's own coordinates that `position` refers to.
    public var anchorInBounds: CGPoint {
        CGPoint(x: bounds.origin.x + anchorPoint.x * bounds.width,
                y: bounds.origin.y + anchorPoint.y * bounds.height)
    }

    /// The 3D map from this layer's coordinates to its superlayer's:
    /// `p ↦ (p − anchor) · transform + position`, then optionally the superlayer's
    /// `sublayerTransform` about the superlayer's anchor.
    public func localToParentTransform(includingParentSublayerTransform: Bool = true) -> CATransform3D {
        let a = anchorInBounds
        var m = CATransform3DMakeTranslation(-a.x, -a.y, -anchorPointZ)
            .concatenating(transform)
            .concatenating(CATransform3DMakeTranslation(position.x, position.y, zPosition))
        if includingParentSublayerTransform, let p = superlayer, !p.sublayerTransform.isIdentity {
            let pa = p.anchorInBounds
            m = m.concatenating(CATransform3DMakeTranslation(-pa.x, -pa.y, -p.anchorPointZ))
                .concatenating(p.sublayerTransform)
                .concatenating(CATransform3DMakeTranslation(pa.x, pa.y, p.anchorPointZ))
        }
        return m
    }
}
