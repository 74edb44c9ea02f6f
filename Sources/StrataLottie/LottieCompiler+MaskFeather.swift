// Mask feather (`f`, which After Effects exporters write; lottie-spec 1.0 has none): the mask's
// edge softened over f pixels, about half inside and half outside. Drawn as the mask's coverage
// blurred by a Gaussian of σ = 0.3 f (`sigmaPerFeather`): the blur's 5 % and 95 % levels lie
// 1.645 σ ≈ f / 2 either side of a straight edge, so the ramp is f wide, and 0.3 is the factor
// lottie-web and Skia's Skottie use for After Effects' blur sizes. Neither player we compare
// against draws feather (ThorVG's loader reads no `f`; rlottie draws sharp masks or none).
//
// The blurred coverage is a shape layer's shadow, as Core Animation draws it: a layer with no fill
// whose `shadowPath` is the mask's path, `shadowRadius` σ (the renderer's Gaussian, in layer
// points), black at full opacity with no offset. A mask layer's shadow is part of the mask's
// alpha (the whole mask layer tree is composited for it, shadows included), and the path's blur
// is made once per frame for the whole frame, so that tiles and workers see the same values.
// An inverted mask is the plane where the feathered coverage is not (1 − blur(m), the blur of
// the complement); an expanded one blurs the path offset by the expansion with round joins (the
// offset outline, LottieOffsetPath.swift, which differs from the sharp expansion only where
// it folds over itself). Core Animation's blur has one σ: a feather whose x and y differ is
// blurred by the smaller σ in a layer stretched along the other axis by their ratio, its path
// squeezed back by the same ratio — a Gaussian of σ blurred then stretched k times along an
// axis is the Gaussian of kσ along it, so the result is the blur of σx × σy (the ratio held
// within 16: the smaller σ is at least 1/16 of the larger, under a pixel for a feather under 53).
import Foundation
import Strata

extension LottieCompiler {
    /// σ of the Gaussian per pixel of feather.
    static let sigmaPerFeather = 0.3

    /// Whether a feather value softens anything (a non-zero component, or keyframes).
    static func feathers(_ f: LottieAnimated<[Double]>?) -> Bool {
        guard let f else { return false }
        return f.isAnimated || f.initial.contains { $0 != 0 }
    }

    /// σ along x and y for a feather value (x, y; one value for both), 0 for a negative or
    /// non-finite one, at most 10 000 (a blur that wide leaves nothing of a frame-sized mask).
    static func featherSigmas(_ v: [Double]) -> (x: Double, y: Double) {
        func sigma(_ f: Double) -> Double { f.isFinite ? min(sigmaPerFeather * max(f, 0), 10_000) : 0 }
        guard let fx = v.first else { return (0, 0) }
        return (sigma(fx), sigma(v.count > 1 ? v[1] : fx))
    }

    /// The blur for σx × σy as one σ (`radius`) in a layer stretched by (`kx`, `ky`): the
    /// smaller σ (at least 1/16 of the larger, which bounds the stretched layer's extra pixels), and
    /// each axis' ratio to it.
    static func featherStretch(_ v: [Double]) -> (radius: Double, kx: Double, ky: Double) {
        let (sx, sy) = featherSigmas(v)
        let base = max(min(sx, sy), max(sx, sy) / 16)
        guard base > 0 else { return (0, 1, 1) }
        return (base, max(sx, base) / base, max(sy, base) / base)
    }

    /// The coverage of a feathered mask: its path (offset by `expansion`) blurred by the
    /// feather's σ along each axis, inverted or not, at `opacity`.
    func featheredMask(_ shape: LottieAnimated<LottieBezier>, feather: LottieAnimated<[Double]>,
                       expansion: LottieAnimated<[Double]>?, inverted: Bool, opacity: LottieAnimated<[Double]>,
                       _ time: LottieTime, path: String) throws -> CALayer {
        let values = feather.isAnimated ? feather.keyframes.map(\.value) : [feather.initial]
        let featherScripted = animation.expressions.contains(path + ".f") || animation.loops[path + ".f"] != nil
        let featherAt = sampler(feather, path: path + ".f").value
        // Whether the two axes' σ ever differ (an expression may make them), and whether the ratio moves.
        let stretched = featherScripted || values.contains { let (x, y) = Self.featherSigmas($0); return x != y }
        let stretchMoves = stretched && (featherScripted || Set(values.map { Self.featherStretch($0).kx }).count > 1
                                         || Set(values.map { Self.featherStretch($0).ky }).count > 1)
        let s = CAShapeLayer()
        s.anchorPoint = .zero
        s.bounds = .zero
        s.fillColor = nil
        s.shadowColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        s.shadowOpacity = 1
        s.shadowOffset = .zero
        let curves = Self.curvedInAnyKeyframe(shape)
        /// The mask's outline (offset by `d`) squeezed by (1/kx, 1/ky).
        func outline(_ b: LottieBezier, _ d: Double, _ kx: Double, _ ky: Double) -> CGPath {
            let p = CGMutablePath()
            let v = d.isFinite ? min(max(d, -100_000), 100_000) : 0
            let squeeze = CGAffineTransform(scaleX: 1 / kx, y: 1 / ky)
            (v == 0 ? b : b.offset(by: v, join: 2, miterLimit: 4))?.add(to: p, transform: squeeze, curves: v == 0 ? curves : nil)
            return p
        }
        // The expansion (the outline offset with round joins, as the sharp expansion's corners).
        let expansionScripted = expansion.map { _ in animation.expressions.contains(path + ".x") || animation.loops[path + ".x"] != nil } ?? false
        let amount = expansion.map { sampler($0, path: path + ".x").value } ?? { _ in [0] }
        if stretchMoves {
            // The ratio changes: path, radius and stretch sampled each frame together.
            try animateSampled(s, "shadowPath", time, path: path + ".f", pointsPerSample: shape.initial.vertices.count * 4) { f in
                let k = Self.featherStretch(featherAt(f))
                return outline(shape.value(at: f), amount(f).first ?? 0, k.kx, k.ky)
            }
            try animateSampled(s, "shadowRadius", time, path: path + ".f") { f in CGFloat(Self.featherStretch(featherAt(f)).radius) }
            try animateSampled(s, "transform", time, path: path + ".f") { f in
                let k = Self.featherStretch(featherAt(f))
                return CATransform3DMakeScale(CGFloat(k.kx), CGFloat(k.ky), 1)
            }
        } else {
            let k = stretched ? Self.featherStretch(values[0]) : (radius: 0, kx: 1, ky: 1)
            if let x = expansion, expansionScripted || x.isAnimated || shape.isAnimated {
                // Offset outlines need not have matching points from keyframe to keyframe: sampled per frame.
                try animateSampled(s, "shadowPath", time, path: path + ".x", pointsPerSample: shape.initial.vertices.count * 4) { f in
                    outline(shape.value(at: f), amount(f).first ?? 0, k.kx, k.ky)
                }
            } else {
                let d = expansion?.initial.first ?? 0
                try animate(s, "shadowPath", shape, time, path: path + ".pt") { outline($0, d, k.kx, k.ky) }
            }
            if stretched {
                s.transform = CATransform3DMakeScale(CGFloat(k.kx), CGFloat(k.ky), 1)
                try animate(s, "shadowRadius", feather, time, path: path + ".f") { CGFloat(Self.featherStretch($0).radius) }
            } else {
                try animate(s, "shadowRadius", feather, time, path: path + ".f") { CGFloat(Self.featherSigmas($0).x) }
            }
        }
        let out: CALayer
        if inverted {
            // The plane where the coverage is not.
            let plane = stack([])
            plane.mask = Self.matte(.alphaInverted, s)
            out = plane
        } else {
            out = s
        }
        try animate(out, "opacity", opacity, time, path: path + ".o") { Float(min(max($0[0] / 100, 0), 1)) }
        return out
    }
}
