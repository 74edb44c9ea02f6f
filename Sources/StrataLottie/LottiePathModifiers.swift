// Path modifiers: trim paths, rounded corners, pucker/bloat, zig-zag and offset path change the
// paths above them in their group and in the groups nested there. The compiler hands each path
// the modifiers below it, nearest first (its own group's, then the enclosing groups'), as the
// spec's shape rendering model composes them; each takes one frame's contours and returns new
// ones (a trim "individually" needs all its paths' lengths: LottieCompiler+Modifiers.swift).
// Rounded corners and pucker/bloat follow lottie-spec 1.0's formulas; zig-zag follows
// lottie-web (the spec has none), ridges placed by arc length; offset path is in
// LottieOffsetPath.swift, trim paths in LottieTrim.swift.
import Foundation
import Strata

/// A shape modifier with its properties; `apply(_:at:)` changes a frame's contours.
enum LottiePathModifier {
    /// Trim paths (`tm`): start and end in percent, offset in degrees; `individually` is `m` 2
    /// (the spec's sequential mode: the paths it changes trimmed as one after the other).
    case trim(start: LottieAnimated<[Double]>, end: LottieAnimated<[Double]>, offset: LottieAnimated<[Double]>?, individually: Bool)
    /// Rounded corners (`rd`): the radius `r`.
    case roundedCorners(radius: LottieAnimated<[Double]>)
    /// Pucker/bloat (`pb`): the amount `a` in percent (negative puckers, positive bloats).
    case puckerBloat(amount: LottieAnimated<[Double]>)
    /// Zig-zag (`zz`): the size `s` (how far each point moves off the path), ridges per
    /// segment `r` (at most `ridgeLimit`), points `pt` (1 corner, 2 smooth).
    case zigZag(size: LottieAnimated<[Double]>, ridges: LottieAnimated<[Double]>, points: LottieAnimated<[Double]>?, ridgeLimit: Int)
    /// Offset path (`op`): the amount `a` (positive grows a closed path), line join `lj`
    /// (1 miter, 2 round, 3 bevel) and miter limit `ml`.
    case offset(amount: LottieAnimated<[Double]>, join: Int, miterLimit: LottieAnimated<[Double]>?)

    /// Most points a zig-zag makes of one contour: past it, fewer ridges a segment are drawn.
    static let zigZagPointLimit = 100_000
    /// Farthest a modifier moves a path, in points (a zig-zag's size, an offset's amount, a
    /// corner's radius; pucker/bloat at most ±10 000 %): larger values are clamped, so that a
    /// hostile file cannot make paths whose rasterisation needs gigabytes.
    static let distanceLimit = 100_000.0

    /// Whether any property changes over time (the paths are then sampled).
    var isAnimated: Bool {
        switch self {
        case .trim(let s, let e, let o, _): s.isAnimated || e.isAnimated || (o?.isAnimated ?? false)
        case .roundedCorners(let r): r.isAnimated
        case .puckerBloat(let a): a.isAnimated
        case .zigZag(let s, let r, let pt, _): s.isAnimated || r.isAnimated || (pt?.isAnimated ?? false)
        case .offset(let a, _, let ml): a.isAnimated || (ml?.isAnimated ?? false)
        }
    }

    /// The property keys of this modifier's numbers (under its JSON path), with each property.
    var properties: [(key: String, value: LottieAnimated<[Double]>)] {
        let all: [(String, LottieAnimated<[Double]>?)]
        switch self {
        case .trim(let s, let e, let o, _): all = [("s", s), ("e", e), ("o", o)]
        case .roundedCorners(let r): all = [("r", r)]
        case .puckerBloat(let a): all = [("a", a)]
        case .zigZag(let s, let r, let pt, _): all = [("s", s), ("r", r), ("pt", pt)]
        case .offset(let a, _, let ml): all = [("a", a), ("ml", ml)]
        }
        return all.compactMap { key, value in value.map { (key, $0) } }
    }

    /// A trim's kept ranges at frame `f` (fractions of the length; nil: everything, and for
    /// other modifiers). `scripted`: the values of properties whose expressions apply, by key.
    func trimRanges(at f: Double, scripted: [String: (Double) -> [Double]] = [:]) -> [(Double, Double)]? {
        guard case .trim(let s, let e, let o, _) = self else { return nil }
        func number(_ p: LottieAnimated<[Double]>?, _ key: String, _ d: Double) -> Double {
            guard let v = (scripted[key]?(f) ?? p?.value(at: f))?.first, v.isFinite else { return d }
            return v
        }
        return LottieTrimValues(start: number(s, "s", 0) / 100, end: number(e, "e", 100) / 100, offset: number(o, "o", 0) / 360).ranges
    }

    /// The contours changed by this modifier at frame `f` (a trim "individually" is applied
    /// across several paths by the compiler instead: LottieCompiler+Modifiers.swift).
    /// `scripted`: the values of properties whose expressions apply, by key.
    func apply(_ contours: [LottieBezier], at f: Double, scripted: [String: (Double) -> [Double]] = [:]) -> [LottieBezier] {
        func number(_ p: LottieAnimated<[Double]>?, _ key: String, _ d: Double, limit: Double = Self.distanceLimit) -> Double {
            guard let v = (scripted[key]?(f) ?? p?.value(at: f))?.first, v.isFinite else { return d }
            return min(max(v, -limit), limit)
        }
        switch self {
        case .trim:
            guard let ranges = trimRanges(at: f, scripted: scripted) else { return contours }
            return contours.compactMap { $0.trimmed(ranges) }
        case .roundedCorners(let r):
            let radius = number(r, "r", 0)
            guard radius > 0 else { return contours }
            return contours.map { $0.roundingCorners(radius: radius) }
        case .puckerBloat(let a):
            let amount = number(a, "a", 0, limit: 10_000) / 100
            guard amount != 0 else { return contours }
            return contours.map { $0.puckered(amount) }
        case .zigZag(let s, let r, let pt, let limit):
            let size = number(s, "s", 0)
            let ridges = Int(min(max(number(r, "r", 0, limit: .infinity).rounded(), 0), Double(limit)))
            guard size != 0 else { return contours }
            let smooth = number(pt, "pt", 1).rounded() == 2
            return contours.map { $0.zigZagged(size: size, ridges: ridges, smooth: smooth) }
        case .offset(let a, let join, let ml):
            let amount = number(a, "a", 0)
            guard amount != 0 else { return contours }
            return contours.compactMap { $0.offset(by: amount, join: join, miterLimit: number(ml, "ml", 4)) }
        }
    }
}

extension CGPoint {
    static func + (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
    static func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
    static func * (a: CGPoint, k: Double) -> CGPoint { CGPoint(x: a.x * k, y: a.y * k) }
    var length: Double { hypot(x, y) }
    /// The vector scaled to length 1 (zero stays zero).
    var unit: CGPoint { let l = length; return l > 0 ? CGPoint(x: x / l, y: y / l) : .zero }
    /// Whether both coordinates are within 10⁻⁹ of zero (the spec lets "similar values" be equal).
    var isNearlyZero: Bool { abs(x) < 1e-9 && abs(y) < 1e-9 }
}

extension Cubic {
    /// Whether both handles sit on their vertices (a straight line, unless it doubles back).
    var isStraight: Bool { (c1 - p0).isNearlyZero && (c2 - p3).isNearlyZero }

    /// The parameter of a straight cubic at `fraction` of its length (it travels 3t² − 2t³).
    static func straightParameter(_ fraction: Double) -> Double {
        var lo = 0.0, hi = 1.0
        for _ in 0..<50 {
            let t = (lo + hi) / 2
            if 3 * t * t - 2 * t * t * t < fraction { lo = t } else { hi = t }
        }
        return (lo + hi) / 2
    }

    /// The direction of travel at `t` (the derivative, or where the derivative vanishes at an
    /// end because a handle sits on its vertex, the direction towards the next distinct point).
    func direction(_ t: Double) -> CGPoint {
        let u = 1 - t
        let d = (c1 - p0) * (3 * u * u) + (c2 - c1) * (6 * u * t) + (p3 - c2) * (3 * t * t)
        if !d.isNearlyZero { return d.unit }
        let candidates = t < 0.5 ? [c2 - p0, p3 - p0] : [p3 - c1, p3 - p0]
        return candidates.first { !$0.isNearlyZero }?.unit ?? .zero
    }
}

extension LottieBezier {
    /// The elliptical constant E_t of lottie-spec 1.0: a quarter circle's handles are
    /// radius × E_t long.
    static let ellipseConstant = 0.5519150244935106

    /// Rounded corners (lottie-spec 1.0): a vertex with no tangents becomes two vertices `radius`
    /// along its two segments (at most half of each segment's length, so that neighbouring
    /// corners meet and never cross), joined by a curve whose handles point back at the old
    /// vertex, E_t of the distance to it long. An open contour's first and last vertex stay.
    func roundingCorners(radius: Double) -> LottieBezier {
        let n = vertices.count
        guard n > 1 else { return self }
        var out = LottieBezier(closed: closed, vertices: [], inTangents: [], outTangents: [])
        func toward(_ v: CGPoint, _ p: CGPoint) -> CGPoint {
            let d = (p - v).length
            return d > 0 ? v + (p - v) * (min(d / 2, radius) / d) : v
        }
        for i in 0..<n {
            let v = vertices[i]
            let end = !closed && (i == 0 || i == n - 1)
            guard !end, inTangents[i].isNearlyZero, outTangents[i].isNearlyZero else {
                out.vertices.append(v); out.inTangents.append(inTangents[i]); out.outTangents.append(outTangents[i])
                continue
            }
            let a = toward(v, vertices[(i + n - 1) % n]), b = toward(v, vertices[(i + 1) % n])
            out.vertices += [a, b]
            out.inTangents += [.zero, (v - b) * Self.ellipseConstant]
            out.outTangents += [(v - a) * Self.ellipseConstant, .zero]
        }
        return out
    }

    /// Pucker/bloat (lottie-spec 1.0): each vertex moves `amount` (a fraction; 1 = all the way)
    /// towards the mean of the contour's vertices, and each handle's end as far the other way.
    func puckered(_ amount: Double) -> LottieBezier {
        guard !vertices.isEmpty else { return self }
        var sum = CGPoint.zero
        for v in vertices { sum = sum + v }
        let center = sum * (1 / Double(vertices.count))
        var out = self
        for i in vertices.indices {
            let v = vertices[i]
            let moved = v + (center - v) * amount
            let inEnd = v + inTangents[i], outEnd = v + outTangents[i]
            out.vertices[i] = moved
            out.inTangents[i] = inEnd + (center - inEnd) * -amount - moved
            out.outTangents[i] = outEnd + (center - outEnd) * -amount - moved
        }
        return out
    }

    /// Zig-zag, as lottie-web draws it (lottie-spec 1.0 has no formula): every vertex and
    /// `ridges` points a segment, spread evenly along its length, move `size` off the path, to
    /// alternate sides — the first vertex to the right of the direction of travel (in y-down
    /// coordinates), then left, and so on. A vertex moves across the bisector of the segments
    /// meeting there (an open contour's ends across their one segment). Smooth points have
    /// handles along the path a (ridges + 1)·2-th of the segment's chord long; corner points none.
    func zigZagged(size: Double, ridges r0: Int, smooth: Bool) -> LottieBezier {
        let segs = segments
        guard !segs.isEmpty else { return self }
        let ridges = max(0, min(r0, LottiePathModifier.zigZagPointLimit / segs.count - 1))
        var out = LottieBezier(closed: closed, vertices: [], inTangents: [], outTangents: [])
        out.vertices.reserveCapacity(segs.count * (ridges + 1) + 1)
        var side = -1.0
        let share = 1 / (Double(ridges + 1) * 2)
        func add(_ p: CGPoint, _ direction: CGPoint, before: Double, after: Double) {
            // Right of the direction of travel in y-down coordinates: (−dy, dx).
            let normal = CGPoint(x: -direction.y, y: direction.x)
            out.vertices.append(p + normal * (-side * size))
            out.inTangents.append(smooth ? direction * -(before * share) : .zero)
            out.outTangents.append(smooth ? direction * (after * share) : .zero)
            side = -side
        }
        func chord(_ s: Cubic) -> Double { (s.p3 - s.p0).length }
        func corner(_ before: Cubic?, _ after: Cubic?) {
            let d: CGPoint
            switch (before, after) {
            case let (b?, a?):
                let sum = b.direction(1) + a.direction(0)
                d = sum.isNearlyZero ? a.direction(0) : sum.unit
            case let (b?, nil): d = b.direction(1)
            case let (nil, a?): d = a.direction(0)
            default: d = .zero
            }
            let lb = before.map(chord) ?? after.map(chord) ?? 0, la = after.map(chord) ?? lb
            add(after?.p0 ?? before!.p3, d, before: lb, after: la)
        }
        corner(closed ? segs.last : nil, segs[0])
        for (k, s) in segs.enumerated() {
            if ridges > 0 {
                let c = chord(s)
                if s.isStraight {
                    let d = (s.p3 - s.p0).unit
                    for j in 1...ridges { add(s.p0 + (s.p3 - s.p0) * (Double(j) / Double(ridges + 1)), d, before: c, after: c) }
                } else {
                    let table = s.lengths()
                    for j in 1...ridges {
                        let t = Self.parameter(table, table[16] * Double(j) / Double(ridges + 1))
                        add(s.point(t), s.direction(t), before: c, after: c)
                    }
                }
            }
            if k == segs.count - 1 && closed {
                // Back at the first vertex: drawn again only if the count of points is odd
                // (then it moves to the other side), as lottie-web does.
                if side != -1 { corner(s, segs[0]) }
            } else {
                corner(s, k + 1 < segs.count ? segs[k + 1] : nil)
            }
        }
        return out
    }
}
