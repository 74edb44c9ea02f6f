import Foundation
import StrataCore

/// The pixels of each row of a region lying well inside a rounded rectangle seen through the
/// item's map: a conservative run (a pixel of margin on each side beyond the half-pixel box), so
/// every pixel in it has its whole box inside the straight part of the shape and `coverage`
/// returns exactly 1. Through a perspective map, u = (m0·X + m3·Y + m6) / w with w linear, so
/// "|u − cu| ≤ a" is still two linear inequalities in X along a row (w > 0 over the region); the
/// margin uses a bound of the pixel size over the region:
/// |∇u| = |(m0, m3) − u·(m2, m5)| / w ≤ (|(m0, m3)| + |u|·|(m2, m5)|) / min w.
///
/// Through an affine map the run also reaches into the rounded corners: the shape inset by a
/// margin m is itself a rounded rectangle (half-extents hw − m, hh − m, radius r − m), the
/// union of two slabs and four discs of radius r − m about the corners' centres, and being
/// convex it meets a row in one interval — the span of the six pieces' intervals. Inside it a
/// straight part's pixel is at least m from the edge along each axis and a corner's pixel at
/// least m from the arc, where coverage needs ½·g: m = 1.5·g leaves a pixel of margin, with g
/// the map's largest stretch (local units a pixel in any direction; gu and gv for a similarity).
struct InteriorRuns {
    let m0: Double, m1: Double, m2: Double, m3: Double, m4: Double, m5: Double, m6: Double, m7: Double, m8: Double
    let cu: Double, cv: Double
    /// Half-extents of the two slabs whose union is certainly inside: full width × height
    /// without the corners, and width without the corners × full height.
    let a1: Double, b1: Double, a2: Double, b2: Double
    /// The corner discs (affine maps only; rho 0 when not used): centres at (±du, ±dv) from
    /// (cu, cv), radius rho.
    let du: Double, dv: Double, rho: Double

    init?(_ s: RoundedRect, _ mapper: PixelMapper, over region: PixelRect) {
        let hw = Double(s.rect.width) * 0.5, hh = Double(s.rect.height) * 0.5
        guard hw > 0, hh > 0, !region.isEmpty else { return nil }
        let m = mapper.inv.m
        m0 = m.0; m1 = m.1; m2 = m.2; m3 = m.3; m4 = m.4; m5 = m.5; m6 = m.6; m7 = m.7; m8 = m.8
        cu = Double(s.rect.minX) + hw; cv = Double(s.rect.minY) + hh
        var gu = mapper.gu, gv = mapper.gv
        if !mapper.affine {
            // w is linear: its minimum over the region's pixel centres is at a corner.
            let xs = [Double(region.x0) + 0.5, Double(region.x1) - 0.5], ys = [Double(region.y0) + 0.5, Double(region.y1) - 0.5]
            var wMin = Double.infinity
            for x in xs { for y in ys { wMin = min(wMin, m2 * x + m5 * y + m8) } }
            guard wMin > 0 else { return nil }
            let persp = (m2 * m2 + m5 * m5).squareRoot()
            gu = ((m0 * m0 + m3 * m3).squareRoot() + (abs(cu) + hw) * persp) / wMin
            gv = ((m1 * m1 + m4 * m4).squareRoot() + (abs(cv) + hh) * persp) / wMin
        }
        guard gu.isFinite, gv.isFinite, gu < hw, gv < hh else { return nil }
        let r = max(s.radii.0, s.radii.1, s.radii.2, s.radii.3)
        // The map's largest stretch (spectral norm of its Jacobian) bounds gu, gv and the
        // gradient along any direction.
        let frobenius = gu * gu + gv * gv, det = m.0 * m.4 - m.1 * m.3
        let margin = 1.5 * ((frobenius + max(0, frobenius * frobenius - 4 * det * det).squareRoot()) / 2).squareRoot()
        if r == 0, m.0 == 1, m.1 == 0, m.2 == 0, m.3 == 0, m.4 == 1, m.5 == 0, m.8 == 1,
           InteriorRuns.exactInFloat(m.6), InteriorRuns.exactInFloat(m.7), InteriorRuns.exactInFloat(cu),
           InteriorRuns.exactInFloat(cv), InteriorRuns.exactInFloat(hw), InteriorRuns.exactInFloat(hh),
           InteriorRuns.exactInFloat(Double(region.x0)), InteriorRuns.exactInFloat(Double(region.x1)),
           InteriorRuns.exactInFloat(Double(region.y0)), InteriorRuns.exactInFloat(Double(region.y1)) {
            // A rectangle moved by a translation only, every number (the pixels' too) a multiple
            // of 1/256 below 2^14: the kernels' arithmetic on it is exact, and a pixel's coverage is exactly 1
            // when its square lies inside (|u − cu| + ½ ≤ hw and |v − cv| + ½ ≤ hh at its
            // centre). Rows take that as it is; along a row `inward` steps one pixel in from each
            // end, so the slab is a pixel wider. The runs then hold precisely those pixels — the
            // edge pixels of a full-frame background included, so its tiles count as opaque.
            a1 = hw + 0.5; b1 = hh - 0.5; a2 = a1; b2 = b1
            du = 0; dv = 0; rho = 0
        } else if mapper.affine, r > margin, r <= min(hw, hh) {
            // The inset shape: slabs and discs (see above).
            a1 = hw - margin; b1 = hh - r
            a2 = hw - r; b2 = hh - margin
            du = hw - r; dv = hh - r; rho = r - margin
        } else {
            // One more pixel of margin (gu, gv) than the half-pixel box needs.
            a1 = hw - 1.5 * gu; b1 = hh - r - 1.5 * gv
            a2 = hw - r - 1.5 * gu; b2 = hh - 1.5 * gv
            du = 0; dv = 0; rho = 0
        }
    }

    /// Whether `v` is a multiple of 1/256 below 2^14 in magnitude: sums and differences of such
    /// numbers and pixel centres are exact in Float.
    static func exactInFloat(_ v: Double) -> Bool {
        abs(v) < 16384 && (v * 256).rounded() == v * 256
    }

    /// The interior run of row `y` within `lo..<hi` (inside the region), nil when empty.
    @inline(__always)
    func columns(row y: Int, _ lo: Int, _ hi: Int) -> (Int, Int)? {
        let Y = Double(y) + 0.5
        // Along the row: u − cu = (ku·X + bu) / w, v − cv = (kv·X + bv) / w, w = m2·X + h.
        let h = Y * m5 + m8
        let ku = m0 - cu * m2, bu = Y * m3 + m6 - cu * h
        let kv = m1 - cv * m2, bv = Y * m4 + m7 - cv * h
        if rho > 0 {
            // The span of the pieces of a convex set (affine: w = 1, m2 = 0).
            var xlo = Double.infinity, xhi = -Double.infinity
            func include(_ piece: (Double, Double)?) {
                if let (l, u) = piece, l <= u { xlo = min(xlo, l); xhi = max(xhi, u) }
            }
            func slabPiece(_ a: Double, _ b: Double) -> (Double, Double)? {
                guard a > 0, b > 0, let (ua, ub) = InteriorRuns.slab(ku, bu, a, m2, h),
                      let (va, vb) = InteriorRuns.slab(kv, bv, b, m2, h) else { return nil }
                return (max(ua, va), min(ub, vb))
            }
            include(slabPiece(a1, b1)); include(slabPiece(a2, b2))
            for corner in 0..<4 {
                let su = corner & 1 == 0 ? 1.0 : -1.0, sv = corner < 2 ? 1.0 : -1.0
                include(InteriorRuns.disc(ku, bu - su * du, kv, bv - sv * dv, rho))
            }
            return InteriorRuns.inward(xlo, xhi, lo, hi)
        }
        let first = run(ku, bu, kv, bv, a1, b1, h, lo, hi)
        let second = run(ku, bu, kv, bv, a2, b2, h, lo, hi)
        switch (first, second) {
        case (nil, nil): return nil
        case (let f?, nil): return f
        case (nil, let g?): return g
        case (let f?, let g?): return g.1 - g.0 > f.1 - f.0 ? g : f
        }
    }

    /// The pixels of the row within `lo..<hi` inside one slab (|u − cu| ≤ a, |v − cv| ≤ b),
    /// one pixel in from its ends.
    @inline(__always)
    private func run(_ ku: Double, _ bu: Double, _ kv: Double, _ bv: Double, _ a: Double, _ b: Double, _ h: Double,
                     _ lo: Int, _ hi: Int) -> (Int, Int)? {
        guard a > 0, b > 0, let (ua, ub) = InteriorRuns.slab(ku, bu, a, m2, h),
              let (va, vb) = InteriorRuns.slab(kv, bv, b, m2, h) else { return nil }
        return InteriorRuns.inward(max(ua, va), min(ub, vb), lo, hi)
    }

    /// The pixels within `lo..<hi` whose centres lie in [xlo, xhi], one pixel in from its ends.
    @inline(__always)
    static func inward(_ xlo: Double, _ xhi: Double, _ lo: Int, _ hi: Int) -> (Int, Int)? {
        guard xlo.isFinite || xlo < 0, xhi.isFinite || xhi > 0 else { return nil }
        // Clamped on both sides: an end far right (or left) of any frame rounds to an empty run
        // instead of trapping in the conversion.
        let first = xlo < -1e15 ? lo : Int(min(1e15, max(-1e15, xlo - 0.5)).rounded(.up)) + 1
        let last = xhi > 1e15 ? hi - 1 : Int(max(-1e15, min(1e15, xhi - 0.5)).rounded(.down)) - 1
        let x0 = max(lo, first), x1 = min(hi, last + 1)
        return x0 < x1 ? (x0, x1) : nil
    }

    /// The X interval where (ku·X + bu)² + (kv·X + bv)² ≤ rho², nil when empty.
    @inline(__always)
    static func disc(_ ku: Double, _ bu: Double, _ kv: Double, _ bv: Double, _ rho: Double) -> (Double, Double)? {
        let a = ku * ku + kv * kv, b = ku * bu + kv * bv, c = bu * bu + bv * bv - rho * rho
        guard a > 0 else { return nil }
        let d = b * b - a * c
        guard d >= 0 else { return nil }
        let root = d.squareRoot()
        return ((-b - root) / a, (-b + root) / a)
    }

    /// The X interval where |k·X + b| ≤ a·(g·X + h) (w = g·X + h > 0 there; g = 0, h = 1 for
    /// affine maps), nil when empty: k·X + b ≤ a·w and −(k·X + b) ≤ a·w.
    @inline(__always)
    static func slab(_ k: Double, _ b: Double, _ a: Double, _ g: Double, _ h: Double) -> (Double, Double)? {
        var lo = -Double.infinity, hi = Double.infinity
        // c·X ≤ d for both inequalities.
        let c1 = k - a * g, d1 = a * h - b, c2 = -k - a * g, d2 = a * h + b
        if c1 > 0 { hi = min(hi, d1 / c1) } else if c1 < 0 { lo = max(lo, d1 / c1) } else if d1 < 0 { return nil }
        if c2 > 0 { hi = min(hi, d2 / c2) } else if c2 < 0 { lo = max(lo, d2 / c2) } else if d2 < 0 { return nil }
        return lo <= hi ? (lo, hi) : nil
    }
}
