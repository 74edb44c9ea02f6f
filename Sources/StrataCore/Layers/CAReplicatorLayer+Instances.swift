// The arithmetic of replicator instances, per Apple's header: "The matrix applied to instance
// k−1 to produce instance k. The matrix is applied relative to the center of the replicator
// layer, i.e. the superlayer of each replicated sublayer"; "The color to multiply the first
// object by"; "The color components added to the color of instance k−1 to produce the
// modulation color of instance k"; instance k is `k · instanceDelay` later in time.
//
// With c the centre of the replicator's bounds (z = 0) and M = instanceTransform, instance k of
// a point p of the replicator's sublayer space is p · R^k where R = T(−c) · M · T(c) (row
// vectors, CORE_ANIMATION.md §1.1). A sublayer s of instance k is drawn as s with
// localToParent · R^k, which is s with `transform` replaced by
// transform · T(position, zPosition) · R^k · T(−position, −zPosition) — so the renderer needs no
// notion of instances.
import Foundation

extension CAReplicatorLayer {
    /// The map from the sublayers' coordinates in instance 0 to those of instance `index`
    /// (in the replicator's sublayer space): `instanceTransform` applied `index` times about the
    /// centre of the bounds. Identity for instance 0.
    public func transform(ofInstance index: Int) -> CATransform3D {
        var m = CATransform3DIdentity
        let step = instanceStep
        for _ in 0..<max(index, 0) { m = m.concatenating(step) }
        return m
    }

    /// The colour instance `index` is multiplied by: `instanceColor` (white when nil) plus
    /// `index` times the offsets, each component clamped to 0…1.
    public func modulationColor(ofInstance index: Int) -> RGBA {
        let base = instanceColor ?? .white
        let k = CGFloat(index)
        func c(_ v: CGFloat, _ offset: Float) -> Float { Float(min(max(v + k * CGFloat(offset), 0), 1)) }
        return RGBA(r: c(base.red, instanceRedOffset), g: c(base.green, instanceGreenOffset),
                    b: c(base.blue, instanceBlueOffset), a: c(base.alpha, instanceAlphaOffset))
    }

    /// How much earlier in time instance `index` shows its sublayers: `index · instanceDelay`.
    public func timeShift(ofInstance index: Int) -> CFTimeInterval { Double(max(index, 0)) * instanceDelay }

    /// The number of instances drawn: `instanceCount` (at least 0), at most the scene's
    /// instance limit (`SnapshotReport.limitsInForce`) — beyond it an issue is recorded for the scene to
    /// report.
    var drawnInstanceCount: Int {
        let n = max(instanceCount, 0)
        let limit = max(SnapshotReport.limitsInForce.replicatorInstances, 0)
        guard n <= limit else {
            SnapshotReport.record(SnapshotIssue(what: "\(SnapshotReport.describe(self)) with instanceCount \(n)",
                                                limit: limit, limitName: "instances"))
            return limit
        }
        return n
    }

    /// R = T(−c) · instanceTransform · T(c), c the centre of the bounds.
    var instanceStep: CATransform3D {
        let cx = bounds.midX, cy = bounds.midY
        return CATransform3DMakeTranslation(-cx, -cy, 0)
            .concatenating(instanceTransform)
            .concatenating(CATransform3DMakeTranslation(cx, cy, 0))
    }

    /// `s.transform` with `instance` (a map of the replicator's sublayer space) folded in after
    /// the sublayer's own placement.
    static func fold(_ instance: CATransform3D, into s: LayerSnapshot) -> CATransform3D {
        let p = CATransform3DMakeTranslation(s.position.x, s.position.y, s.zPosition)
        let back = CATransform3DMakeTranslation(-s.position.x, -s.position.y, -s.zPosition)
        return s.transform.concatenating(p).concatenating(instance).concatenating(back)
    }

    /// The product of two colour multipliers (nil is white).
    static func multiply(_ a: RGBA?, _ b: RGBA) -> RGBA? {
        guard let a else { return b == RGBA(r: 1, g: 1, b: 1, a: 1) ? nil : b }
        return RGBA(r: a.r * b.r, g: a.g * b.g, b: a.b * b.b, a: a.a * b.a)
    }
}
