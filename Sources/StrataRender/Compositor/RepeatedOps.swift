// A draw op's payload lives in a box (DrawOp is indirect), so every fill, border, gradient and
// image made by the display list builder was an allocation a frame — 400 of them in the motion
// scene, whose rectangles turn but never change, 50 in the composite scene. The builder asks this
// record for those ops instead: it keeps the ops of the last frame built in the order they were
// made, and when the op made at the same place now would be equal to the one made there last
// frame, hands out that one (a retain, not a new box). For a gradient the comparison is of its sources (the layer's gradient,
// bounds and opacity), so a repeated gradient skips its paint's set-up and ramp lookup too.
//
// Matching by place is the display list's own order: a tree of the same shape makes its ops in the
// same order. Where it is not the same shape the ops differ and are made anew; the result is
// always an op equal to the one asked for, so frames do not depend on what was kept.
import Foundation
import StrataCore

/// The fills, borders, gradients and images of the last display list built, by the order they
/// were made. Used by one build at a time: the builder takes it, in its BuildRecords, out of its
/// `RenderCaches` for a build and puts it back after.
// @unchecked: mutable, but only ever in the hands of one build — taken out of the cache's mutex
// for the build and put back after (BuildRecords), so two builds never hold the same record.
final class RepeatedOps: @unchecked Sendable {
    private enum Entry {
        case op(DrawOp)
        case gradient(DrawOp, source: GradientSnapshot, bounds: CGRect, opacity: Float)
    }
    // Not checked for exclusivity at run time (one owner at a time, as above; the checks were
    // a runtime call for each op asked for).
    @exclusivity(unchecked) private var entries: [Entry] = []
    @exclusivity(unchecked) private var next = 0
    /// Ops handed out again, and made anew, since the record was made (for tests).
    @exclusivity(unchecked) private(set) var repeated = 0
    @exclusivity(unchecked) private(set) var made = 0

    /// Starts a build: the next op asked for is matched against the first one of the last build.
    func begin() { next = 0 }

    /// Ends a build: entries the last build made beyond this one's are dropped.
    func end() {
        if next < entries.count { entries.removeSubrange(next...) }
    }

    /// A fill of `shape` in `color`.
    func fill(_ shape: RoundedRect, _ color: SIMD4<Float>) -> DrawOp {
        if case .op(let op)? = current, case .fill(let s, let c) = op, s == shape, c == color { return again(op) }
        return record(.fill(shape, color))
    }

    /// A border: the ring between `outer` and `inner` in `color`.
    func ring(outer: RoundedRect, inner: RoundedRect, _ color: SIMD4<Float>) -> DrawOp {
        if case .op(let op)? = current, case .ring(let o, let i, let c) = op, o == outer, i == inner, c == color {
            return again(op)
        }
        return record(.ring(outer: outer, inner: inner, color))
    }

    /// An image placed as `placement`, clipped to `clip`, with `opacity`.
    func image(_ placement: ImagePlacement, clip: RoundedRect?, opacity: Float) -> DrawOp {
        if case .op(let op)? = current, case .image(let p, let c, let o) = op, o == opacity, c == clip, p.isSame(as: placement) {
            return again(op)
        }
        return record(.image(placement, clip: clip, opacity: opacity))
    }

    /// The gradient `g` over `bounds` with `opacity`, clipped to `clip`; nil when `g` draws nothing.
    func gradient(_ g: GradientSnapshot, bounds: CGRect, opacity: Float, clip: RoundedRect,
                  ramps: GradientRamps) -> DrawOp? {
        if case .gradient(let op, let source, let b, let o)? = current, b == bounds, o == opacity, source == g,
           case .gradient(_, let c) = op, c == clip {
            return again(op)
        }
        guard let paint = GradientPaint(g, bounds: bounds, opacity: opacity, ramps: ramps) else { return nil }
        let op = DrawOp.gradient(paint, clip: clip)
        store(.gradient(op, source: g, bounds: bounds, opacity: opacity))
        made += 1
        return op
    }

    private var current: Entry? { next < entries.count ? entries[next] : nil }

    private func again(_ op: DrawOp) -> DrawOp {
        next += 1
        repeated += 1
        return op
    }

    private func record(_ op: DrawOp) -> DrawOp {
        store(.op(op))
        made += 1
        return op
    }

    private func store(_ entry: Entry) {
        if next < entries.count { entries[next] = entry } else { entries.append(entry) }
        next += 1
    }
}

extension ImagePlacement {
    /// Whether `other` places the same image (the same object) the same way.
    func isSame(as other: ImagePlacement) -> Bool {
        image === other.image && destination == other.destination && source == other.source && nearest == other.nearest
            && cell == other.cell && coverage == other.coverage && tint == other.tint && modulate == other.modulate
            && blend?.image === other.blend?.image && blend?.weight == other.blend?.weight
    }
}
