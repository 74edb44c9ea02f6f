// Hit testing (CORE_ANIMATION.md §1.2): which layer is on top at a point. The point travels down
// the tree as a point of the nearest flattening layer's plane and is un-projected onto each
// layer's plane (the same flattening model the renderer draws with, so a rotated or
// perspective-projected layer is hit where it is seen). Siblings are visited front-most first
// (descending zPosition, then reverse insertion); inside a CATransformLayer (a 3D rendering
// context) the face nearest the viewer at that point wins, whatever the order.
import Foundation

extension CALayer {
    /// The farthest descendant of this layer (or the layer itself) that contains `p`, a point in
    /// the superlayer's coordinates; nil when none does.
    ///
    /// Hidden layers (and their subtrees) are ignored; with `masksToBounds`, points outside the
    /// bounds do not reach sublayers; a layer with `isDoubleSided == false` turned away is
    /// ignored, as is a plane seen edge-on or a point behind the eye. A CATransformLayer is never
    /// returned itself (it has no plane), only its sublayers. On a presentation layer the test
    /// uses the animated values. Containment is `contains(_:)`, which subclasses may override.
    ///
    /// **Strata:** `hitTest` itself is not overridable (Swift on Linux cannot override extension
    /// members); override `contains(_:)` to shape hits.
    public func hitTest(_ p: CGPoint) -> CALayer? {
        let parent = superlayer
        let plane = CALayer.flatteningLayer(atOrAbove: parent)
        var point = p
        var parentToPlane = CATransform3D.identity
        if let parent, parent !== plane {
            // The superlayer is a transform layer: p is on its z = 0 plane.
            var x: CALayer = parent
            while x !== plane {
                parentToPlane = parentToPlane.concatenating(x.localToParentTransform(includingParentSublayerTransform: true))
                guard let up = x.superlayer else { break }
                x = up
            }
            let (X, Y, W) = PlaneHomography(flattening: parentToPlane).apply(p)
            guard W > 0 else { return nil }
            point = CGPoint(x: X / W, y: Y / W)
        }
        return hit(point, parentToPlane: parentToPlane)?.layer
    }

    /// A hit at `p` (a point of the plane this layer's superlayer flattens into), with
    /// `parentToPlane` the 3D map from the superlayer's space into that plane's space (identity
    /// unless the superlayer is a transform layer). Returns the layer and its depth there
    /// (larger is nearer the viewer), for ordering faces of a 3D context.
    func hit(_ p: CGPoint, parentToPlane: CATransform3D) -> (layer: CALayer, depth: Double)? {
        guard !isHidden else { return nil }
        let toPlane = localToParentTransform(includingParentSublayerTransform: true).concatenating(parentToPlane)
        if keepsSublayersIn3D {
            var best: (layer: CALayer, depth: Double)?
            for child in sublayersFrontToBack() {
                if let h = child.hit(p, parentToPlane: toPlane), best == nil || h.depth > best!.depth { best = h }
            }
            return best
        }
        let h = PlaneHomography(flattening: toPlane)
        guard let inv = h.inverted() else { return nil }
        let (x, y, w) = inv.apply(p)
        guard w != 0, w.isFinite else { return nil }
        let q = CGPoint(x: x / w, y: y / w)
        // The point must lie in front of the eye on this plane.
        let (_, _, zc, wc) = toPlane.project(q)
        guard wc > 0 else { return nil }
        if !isDoubleSided && planeHomography(upTo: nil).determinant < 0 { return nil }
        let depth = Double(zc / wc)
        if masksToBounds && !contains(q) { return nil }
        for child in sublayersFrontToBack() {
            if let hit = child.hit(q, parentToPlane: .identity) { return (hit.layer, depth) }
        }
        return contains(q) ? (self, depth) : nil
    }

    /// Sublayers front-most first: descending zPosition, later insertion first.
    func sublayersFrontToBack() -> [CALayer] {
        guard let subs = sublayers else { return [] }
        guard subs.contains(where: { $0.zPosition != 0 }) else { return subs.reversed() }
        return subs.enumerated().sorted { a, b in
            a.element.zPosition != b.element.zPosition ? a.element.zPosition > b.element.zPosition : a.offset > b.offset
        }.map(\.element)
    }
}
