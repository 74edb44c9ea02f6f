// Mask expansion (`x`): a mask's area grown by x points (positive) or shrunk by −x (negative).
// Grown, every point within x of the mask's path is added; shrunk, every point within −x of it
// is taken away — the area's sum with, or difference from, a disc of that radius. That is what
// After Effects draws (an expanded rectangle's corners rounded with radius x, a shrunk one's
// left sharp) and what the offset path with round joins (LottieOffsetPath.swift, ThorVG's mask
// expansion) outlines where it does not fold over itself; drawn here from the path itself, so
// that it stays exact where an offset outline folds (a mask shrunk past its narrowest part leaves
// nothing there, a notch narrower than 2x fills):
//
// - the band: the points within |x| of the path, each piece of it stroked 2|x| wide with round
//   caps on its own (a line one piece, a curve sixteen chords, 0.0012 of its radius off a
//   circle's arc), so that no wide stroke's inner side folds into a hole;
// - grown: the path's fill and the band; shrunk: the fill where the band is not (a MatteLayer by
//   the band's inverted alpha); an amount that changes sign: both, each band as wide as its side
//   of zero asks.
//
// The path and the width are keyframe animations (the path morphs as an unexpanded mask's; the
// width follows x's keyframes), sampled per frame only for an amount that changes sign or has
// an expression. An inverted mask is the plane masked by the inverted alpha of all that.
import Foundation
import Strata

extension LottieCompiler {
    /// The coverage of a mask whose path is expanded by `x`, inverted or not, at `opacity`.
    func expandedMask(_ shape: LottieAnimated<LottieBezier>, by x: LottieAnimated<[Double]>, inverted: Bool,
                      opacity: LottieAnimated<[Double]>, _ time: LottieTime, path: String) throws -> CALayer {
        let values: [Double]
        switch x {
        case .fixed(let v): values = [v.first ?? 0]
        case .keyframes(let k): values = k.map { $0.value.first ?? 0 }
        }
        // The expansion through its expression, if it has one (LottieCompiler.sampler).
        let scripted = animation.expressions.contains(path + ".x") || animation.loops[path + ".x"] != nil
        let amount = sampler(x, path: path + ".x").value
        let sampled = scripted || !(values.allSatisfy { $0 >= 0 } || values.allSatisfy { $0 <= 0 })
        let curves = Self.curvedInAnyKeyframe(shape)
        let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)

        /// The mask's path filled, or (`stroke`) its band's pieces stroked with round caps.
        func outline(fill: Bool, stroke: Bool) throws -> CAShapeLayer {
            let s = CAShapeLayer()
            s.anchorPoint = .zero
            s.bounds = .zero
            s.fillColor = fill ? black : nil
            s.strokeColor = stroke ? black : nil
            s.lineCap = .round
            try animate(s, "path", shape, time, path: path + ".pt") { b in
                let p = CGMutablePath()
                if stroke { Self.addBandPieces(of: b, curves: curves, to: p) } else { b.add(to: p, curves: curves) }
                return p
            }
            return s
        }
        /// The stroke's width: twice the amount on the side of zero `sign` picks (0 on the other).
        func width(_ s: CAShapeLayer, _ sign: Double) throws {
            func w(_ v: Double) -> CGFloat { CGFloat(2 * min(max(sign * v, 0), 100_000)) }
            if sampled {
                try animateSampled(s, "lineWidth", time, path: path + ".x") { f in
                    let v = amount(f)
                    return w(v.first ?? 0)
                }
            } else {
                try animate(s, "lineWidth", x, time, path: path + ".x") { w($0.first ?? 0) }
            }
        }
        /// The path's fill where its stroke (as wide as the shrinking asks) is not.
        func shrunk() throws -> CALayer {
            let n = node()
            n.addSublayer(try outline(fill: true, stroke: false))
            let band = try outline(fill: false, stroke: true)
            try width(band, -1)
            n.mask = Self.matte(.alphaInverted, band)
            return n
        }

        let coverage: CALayer
        if sampled {
            coverage = node()
            coverage.addSublayer(try shrunk())
            let band = try outline(fill: false, stroke: true)
            try width(band, 1)
            coverage.addSublayer(band)
        } else if values.allSatisfy({ $0 >= 0 }) {
            coverage = node()
            coverage.addSublayer(try outline(fill: true, stroke: false))
            let band = try outline(fill: false, stroke: true)
            try width(band, 1)
            coverage.addSublayer(band)
        } else {
            coverage = try shrunk()
        }
        let out: CALayer
        if inverted {
            // The plane where the coverage is not.
            let plane = stack([])
            plane.mask = Self.matte(.alphaInverted, coverage)
            out = plane
        } else {
            out = coverage
        }
        try animate(out, "opacity", opacity, time, path: path + ".o") { Float(min(max($0[0] / 100, 0), 1)) }
        return out
    }

    /// The pieces of `b` (and of the line closing it when it is open) as separate open subpaths: a straight segment one, a curved one
    /// (as `curves` says, else by its handles) sixteen chords, so that a keyframed path's pieces
    /// match from keyframe to keyframe.
    static func addBandPieces(of b: LottieBezier, curves: [Bool]?, to path: CGMutablePath) {
        if b.vertices.count == 1, let v = b.vertices.first {
            path.move(to: v)
            path.addLine(to: v)
            return
        }
        for (i, c) in b.segments.enumerated() {
            let curved = curves.map { i < $0.count && $0[i] } ?? (c.c1 != c.p0 || c.c2 != c.p3)
            let n = curved ? 16 : 1
            for k in 0..<n {
                path.move(to: c.point(Double(k) / Double(n)))
                path.addLine(to: c.point(Double(k + 1) / Double(n)))
            }
        }
        // The area a mask covers is closed even when its path is not (by a line, as a fill
        // closes it): so is its band.
        if !b.closed, let first = b.vertices.first, let last = b.vertices.last {
            path.move(to: last)
            path.addLine(to: first)
        }
    }

    /// A matte of `mode` holding `content`, at the origin.
    static func matte(_ mode: MaskMode, _ content: CALayer) -> MatteLayer {
        let m = MatteLayer()
        m.anchorPoint = .zero
        m.bounds = .zero
        m.maskMode = mode
        m.addSublayer(content)
        return m
    }
}
