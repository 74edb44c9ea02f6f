// Trim paths by the spec: start and end in percent of each contour's length plus an offset in
// degrees (360° = once around), wrapping across a closed contour's start; the kept part becomes
// an open contour. Lengths come from 16 chords a segment; splits are exact de Casteljau cuts.
import Foundation
import Strata

struct LottieTrimValues {
    var start: Double   // 0…1
    var end: Double
    var offset: Double  // fraction of a turn

    /// The kept ranges as fractions of the length (one, or two when it wraps); nil: everything.
    var ranges: [(Double, Double)]? {
        var s = min(max(start, 0), 1), e = min(max(end, 0), 1)
        if s > e { swap(&s, &e) }
        if e - s >= 1 { return nil }
        if e - s <= 0 { return [] }
        var a = (s + offset).truncatingRemainder(dividingBy: 1)
        if a < 0 { a += 1 }
        let b = a + (e - s)
        return b <= 1 ? [(a, b)] : [(a, 1), (0, b - 1)]
    }
}

struct Cubic {
    var p0: CGPoint, c1: CGPoint, c2: CGPoint, p3: CGPoint

    func point(_ t: Double) -> CGPoint {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return CGPoint(x: a * p0.x + b * c1.x + c * c2.x + d * p3.x, y: a * p0.y + b * c1.y + c * c2.y + d * p3.y)
    }

    /// The part between parameters t0 and t1.
    func split(_ t0: Double, _ t1: Double) -> Cubic {
        func lerp(_ a: CGPoint, _ b: CGPoint, _ t: Double) -> CGPoint { CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t) }
        func right(_ c: Cubic, _ t: Double) -> Cubic {   // [t, 1]
            let ab = lerp(c.p0, c.c1, t), bc = lerp(c.c1, c.c2, t), cd = lerp(c.c2, c.p3, t)
            let abc = lerp(ab, bc, t), bcd = lerp(bc, cd, t), m = lerp(abc, bcd, t)
            return Cubic(p0: m, c1: bcd, c2: cd, p3: c.p3)
        }
        func left(_ c: Cubic, _ t: Double) -> Cubic {    // [0, t]
            let ab = lerp(c.p0, c.c1, t), bc = lerp(c.c1, c.c2, t), cd = lerp(c.c2, c.p3, t)
            let abc = lerp(ab, bc, t), bcd = lerp(bc, cd, t), m = lerp(abc, bcd, t)
            return Cubic(p0: c.p0, c1: ab, c2: abc, p3: m)
        }
        let r = t0 > 0 ? right(self, t0) : self
        let t = t0 < 1 ? (t1 - t0) / (1 - t0) : 1
        return t < 1 ? left(r, t) : r
    }

    /// Cumulative chord lengths at t = i/16.
    func lengths() -> [Double] {
        var out = [0.0]
        var prev = p0
        for i in 1...16 {
            let p = point(Double(i) / 16)
            out.append(out[i - 1] + hypot(p.x - prev.x, p.y - prev.y))
            prev = p
        }
        return out
    }
}

extension LottieBezier {
    var segments: [Cubic] {
        let n = vertices.count
        guard n > 1 else { return [] }
        var out: [Cubic] = []
        func seg(_ a: Int, _ b: Int) {
            out.append(Cubic(p0: vertices[a], c1: CGPoint(x: vertices[a].x + outTangents[a].x, y: vertices[a].y + outTangents[a].y),
                             c2: CGPoint(x: vertices[b].x + inTangents[b].x, y: vertices[b].y + inTangents[b].y), p3: vertices[b]))
        }
        for k in 1..<n { seg(k - 1, k) }
        if closed { seg(n - 1, 0) }
        return out
    }

    init(cubics: [Cubic]) {
        self.init(closed: false, vertices: [], inTangents: [], outTangents: [])
        guard let first = cubics.first else { return }
        vertices = [first.p0]; inTangents = [.zero]; outTangents = []
        for c in cubics {
            outTangents.append(CGPoint(x: c.c1.x - c.p0.x, y: c.c1.y - c.p0.y))
            vertices.append(c.p3)
            inTangents.append(CGPoint(x: c.c2.x - c.p3.x, y: c.c2.y - c.p3.y))
        }
        outTangents.append(.zero)
    }

    /// The contour trimmed to `ranges` (fractions of its length, in order of travel).
    func trimmed(_ ranges: [(Double, Double)]) -> LottieBezier? {
        let segs = segments
        let tables = segs.map { $0.lengths() }
        let total = tables.reduce(0) { $0 + $1[16] }
        guard total > 0 else { return nil }
        var pieces: [Cubic] = []
        for (a, b) in ranges {
            let from = a * total, to = b * total
            var base = 0.0
            for (i, s) in segs.enumerated() {
                let len = tables[i][16]
                defer { base += len }
                let lo = max(from, base), hi = min(to, base + len)
                guard hi > lo || (len == 0 && lo == hi && from <= base && base < to) else { continue }
                guard len > 0 else { continue }
                pieces.append(s.split(Self.parameter(tables[i], lo - base), Self.parameter(tables[i], hi - base)))
            }
        }
        return pieces.isEmpty ? nil : LottieBezier(cubics: pieces)
    }

    /// The parameter at which a segment has travelled `distance` (from its chord table).
    static func parameter(_ table: [Double], _ distance: Double) -> Double {
        if distance <= 0 { return 0 }
        if distance >= table[16] { return 1 }
        var i = 1
        while i < 16 && table[i] < distance { i += 1 }
        let a = table[i - 1], b = table[i]
        return (Double(i - 1) + (b > a ? (distance - a) / (b - a) : 0)) / 16
    }

    func applying(_ t: CGAffineTransform) -> LottieBezier {
        func vec(_ p: CGPoint) -> CGPoint { CGPoint(x: t.a * p.x + t.c * p.y, y: t.b * p.x + t.d * p.y) }
        return LottieBezier(closed: closed, vertices: vertices.map { $0.applying(t) },
                            inTangents: inTangents.map(vec), outTangents: outTangents.map(vec))
    }
}

extension LottieBezier {
    /// The contour's length (16 chords a segment, as trimming measures it).
    var length: Double { segments.reduce(0) { $0 + $1.lengths()[16] } }
}

extension LottieTrimValues {
    /// The kept parts of one contour that spans `from…to` of a sequence `total` long (trim
    /// paths "individually", the spec's sequential mode: the kept ranges are fractions of the
    /// whole sequence), as fractions of the contour's own length, in order of travel.
    static func local(_ ranges: [(Double, Double)], from: Double, to: Double, total: Double) -> [(Double, Double)] {
        let length = to - from
        guard length > 0 else { return [] }
        return ranges.compactMap { a, b in
            let lo = max(a * total, from), hi = min(b * total, to)
            return hi > lo ? ((lo - from) / length, (hi - from) / length) : nil
        }
    }
}
