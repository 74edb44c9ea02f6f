// Converting points and rectangles between the coordinate spaces of layers, through 3D
// transforms, with the renderer's flattening model (CORE_ANIMATION.md §1.2): a layer's plane
// reaches its superlayer through `localToParentTransform` (its transform about the anchor, then
// the superlayer's sublayerTransform); every superlayer except a CATransformLayer drops z there
// (keeping w), so each flattening step is a plane-to-plane homography; transform layers pass 3D
// points on unflattened. Converting from A to B maps A's plane into the plane of the nearest
// flattening layer both share, then un-projects onto B's plane along the line of sight (the
// inverse homography).
import Foundation

/// A projective map between two planes, `[x y 1] · M = [X Y W]` (row vectors, as CATransform3D).
struct PlaneHomography: Equatable {
    var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    static let identity = PlaneHomography(m: (1, 0, 0, 0, 1, 0, 0, 0, 1))

    static func == (l: PlaneHomography, r: PlaneHomography) -> Bool {
        l.m.0 == r.m.0 && l.m.1 == r.m.1 && l.m.2 == r.m.2 && l.m.3 == r.m.3 && l.m.4 == r.m.4
            && l.m.5 == r.m.5 && l.m.6 == r.m.6 && l.m.7 == r.m.7 && l.m.8 == r.m.8
    }

    /// The plane z = 0 through a 3D transform with the output z dropped.
    init(flattening t: CATransform3D) {
        m = (Double(t.m11), Double(t.m12), Double(t.m14),
             Double(t.m21), Double(t.m22), Double(t.m24),
             Double(t.m41), Double(t.m42), Double(t.m44))
    }

    init(m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) { self.m = m }

    /// `self` then `o`.
    func concatenating(_ o: PlaneHomography) -> PlaneHomography {
        let a = m, b = o.m
        return PlaneHomography(m: (
            a.0 * b.0 + a.1 * b.3 + a.2 * b.6, a.0 * b.1 + a.1 * b.4 + a.2 * b.7, a.0 * b.2 + a.1 * b.5 + a.2 * b.8,
            a.3 * b.0 + a.4 * b.3 + a.5 * b.6, a.3 * b.1 + a.4 * b.4 + a.5 * b.7, a.3 * b.2 + a.4 * b.5 + a.5 * b.8,
            a.6 * b.0 + a.7 * b.3 + a.8 * b.6, a.6 * b.1 + a.7 * b.4 + a.8 * b.7, a.6 * b.2 + a.7 * b.5 + a.8 * b.8))
    }

    func apply(_ p: CGPoint) -> (x: Double, y: Double, w: Double) {
        let x = Double(p.x), y = Double(p.y)
        return (x * m.0 + y * m.3 + m.6, x * m.1 + y * m.4 + m.7, x * m.2 + y * m.5 + m.8)
    }

    var determinant: Double {
        m.0 * (m.4 * m.8 - m.5 * m.7) - m.1 * (m.3 * m.8 - m.5 * m.6) + m.2 * (m.3 * m.7 - m.4 * m.6)
    }

    /// The inverse, nil when the plane is seen edge-on (singular).
    func inverted() -> PlaneHomography? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let k = 1 / det
        return PlaneHomography(m: (
            (m.4 * m.8 - m.5 * m.7) * k, (m.2 * m.7 - m.1 * m.8) * k, (m.1 * m.5 - m.2 * m.4) * k,
            (m.5 * m.6 - m.3 * m.8) * k, (m.0 * m.8 - m.2 * m.6) * k, (m.2 * m.3 - m.0 * m.5) * k,
            (m.3 * m.7 - m.4 * m.6) * k, (m.1 * m.6 - m.0 * m.7) * k, (m.0 * m.4 - m.1 * m.3) * k))
    }
}

extension CALayer {
    /// Converts `p` from the coordinate space of `layer` (nil: the scene, the space the root
    /// layer's `position` is in) to this layer's. Through perspective the point is un-projected
    /// onto this layer's plane along the line of sight; a plane seen edge-on gives NaN.
    ///
    /// Apple requires both layers to share a root; layers of different trees are converted as if
    /// each root stood in the scene.
    public func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint {
        CALayer.map(p, from: layer, to: self) ?? CGPoint(x: CGFloat.nan, y: CGFloat.nan)
    }

    /// Converts `p` from this layer's coordinate space to `layer`'s (nil: the scene's).
    public func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint {
        CALayer.map(p, from: self, to: layer) ?? CGPoint(x: CGFloat.nan, y: CGFloat.nan)
    }

    /// Converts a rectangle from `layer`'s space to this layer's: the bounding box of its
    /// converted corners (`.null` when a corner cannot be converted).
    public func convert(_ r: CGRect, from layer: CALayer?) -> CGRect {
        CALayer.mapRect(r, from: layer, to: self)
    }

    /// Converts a rectangle from this layer's space to `layer`'s (bounding box of the corners).
    public func convert(_ r: CGRect, to layer: CALayer?) -> CGRect {
        CALayer.mapRect(r, from: self, to: layer)
    }

    // MARK: Planes

    /// True for a layer whose sublayers share its superlayer's 3D space (CATransformLayer).
    var keepsSublayersIn3D: Bool { isTransformLayerForSnapshot }

    /// The nearest layer at or above `layer` that flattens its sublayers (nil: the scene).
    static func flatteningLayer(atOrAbove layer: CALayer?) -> CALayer? {
        var f = layer
        while let l = f, l.keepsSublayersIn3D { f = l.superlayer }
        return f
    }

    /// The homography from this layer's plane to the plane of `target`, an ancestor that
    /// flattens (or nil: the scene), flattening at every non-transform-layer superlayer.
    func planeHomography(upTo target: CALayer?) -> PlaneHomography {
        var h = PlaneHomography.identity
        var m = CATransform3D.identity
        var x: CALayer = self
        while x !== target {
            m = m.concatenating(x.localToParentTransform(includingParentSublayerTransform: true))
            guard let parent = x.superlayer else { return h.concatenating(PlaneHomography(flattening: m)) }
            if parent === target || !parent.keepsSublayersIn3D {
                h = h.concatenating(PlaneHomography(flattening: m))
                m = .identity
            }
            x = parent
        }
        return h
    }

    /// The nearest flattening layer that `a` and `b` both lie under (nil: the scene).
    static func commonPlane(_ a: CALayer?, _ b: CALayer?) -> CALayer? {
        guard let a, let b else { return nil }
        var ancestors: [ObjectIdentifier] = []
        var l: CALayer? = a
        while let x = l { ancestors.append(ObjectIdentifier(x)); l = x.superlayer }
        let set = Set(ancestors)
        l = b
        while let x = l {
            if set.contains(ObjectIdentifier(x)) { return flatteningLayer(atOrAbove: x) }
            l = x.superlayer
        }
        return nil
    }

    /// `p` in `from`'s coordinates as a point of `to`'s plane; nil when `to`'s plane is seen
    /// edge-on or the point is at infinity.
    static func map(_ p: CGPoint, from: CALayer?, to: CALayer?) -> CGPoint? {
        if from === to { return p }
        let plane = commonPlane(from, to)
        let ha = from?.planeHomography(upTo: plane) ?? .identity
        let hb = to?.planeHomography(upTo: plane) ?? .identity
        guard let inv = hb.inverted() else { return nil }
        let (x, y, w) = ha.concatenating(inv).apply(p)
        guard w != 0, w.isFinite else { return nil }
        return CGPoint(x: x / w, y: y / w)
    }

    static func mapRect(_ r: CGRect, from: CALayer?, to: CALayer?) -> CGRect {
        guard !r.isNull else { return .null }
        if from === to { return r }
        var minX = CGFloat.infinity, minY = CGFloat.infinity, maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
        for c in [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                  CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)] {
            guard let q = map(c, from: from, to: to), q.x.isFinite, q.y.isFinite else { return .null }
            minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
