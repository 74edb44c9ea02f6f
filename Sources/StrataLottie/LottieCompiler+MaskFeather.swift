// Mask feather (`f`, which After Effects exporters write; lottie-spec 1.0 has none): the mask's
// edge softened over f pixels, about half inside and half outside. Drawn as the mask's coverage
// blurred by a Gaussian of σ = 0.3 f (`sigmaPerFeather`): the blur's 5 % and 95 % levels lie
// 1.645 σ ≈ f / 2 either side of a straight edge, so the ramp is f wide, and 0.3 is the factor
// lottie-web and Skia's Skottie use for After Effects' blur sizes. None of the players we compare
// against draws feather (ThorVG, rlottie, lottie-web and lottie-android read no `f`).
//
// The blurred coverage is a shape layer's shadow, as Core Animation draws it: a layer with no fill
// whose `shadowPath` is the mask's path, `shadowRadius` σ (the renderer's Gaussian, in layer
// points), black at full opacity with no offset. A mask layer's shadow is part of the mask's
// alpha (the whole mask layer tree is composited for it, shadows included), and the path's blur
// is made once per frame for the whole frame, so that tiles and workers see the same values.
// An inverted mask is the plane where the feathered coverage is not (1 − blur(m), the blur of
// the complement); an expanded one blurs the path offset by the expansion with round joins (the
// offset outline, LottieOffsetPath.swift, which differs from the sharp expansion only where
// it folds over itself). The blur is one σ for both axes: when the feather's x and y differ,
// their mean is used and a note says so.
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

    /// σ for a feather value: 0.3 × the mean of its components (one when it has one), at least 0.
    static func featherSigma(_ v: [Double]) -> CGFloat {
        let parts = v.prefix(2).map { $0.isFinite ? max($0, 0) : 0 }
        guard !parts.isEmpty else { return 0 }
        return CGFloat(min(sigmaPerFeather * parts.reduce(0, +) / Double(parts.count), 10_000))
    }

    /// The coverage of a feathered mask: its path (offset by `expansion`) blurred by the
    /// feather's σ, inverted or not, at `opacity`.
    func featheredMask(_ shape: LottieAnimated<LottieBezier>, feather: LottieAnimated<[Double]>,
                       expansion: LottieAnimated<[Double]>?, inverted: Bool, opacity: LottieAnimated<[Double]>,
                       _ time: LottieTime, path: String) throws -> CALayer {
        let values = feather.isAnimated ? feather.keyframes.map(\.value) : [feather.initial]
        if values.contains(where: { $0.count >= 2 && $0[0] != $0[1] }) {
            notes.add(path + ".f", "mask feather with different x and y (drawn with their mean)")
        }
        let s = CAShapeLayer()
        s.anchorPoint = .zero
        s.bounds = .zero
        s.fillColor = nil
        s.shadowColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        s.shadowOpacity = 1
        s.shadowOffset = .zero
        let curves = Self.curvedInAnyKeyframe(shape)
        if let x = expansion {
            // The outline offset by the expansion (round joins, as the sharp expansion's corners).
            let scripted = animation.expressions.contains(path + ".x") || animation.loops[path + ".x"] != nil
            let amount = sampler(x, path: path + ".x").value
            func outline(_ b: LottieBezier, _ d: Double) -> CGPath {
                let p = CGMutablePath()
                let v = d.isFinite ? min(max(d, -100_000), 100_000) : 0
                (v == 0 ? b : b.offset(by: v, join: 2, miterLimit: 4))?.add(to: p, curves: v == 0 ? curves : nil)
                return p
            }
            if scripted || x.isAnimated || shape.isAnimated {
                // Offset outlines need not have matching points from keyframe to keyframe: sampled per frame.
                try animateSampled(s, "shadowPath", time, path: path + ".x", pointsPerSample: shape.initial.vertices.count * 4) { f in
                    outline(shape.value(at: f), amount(f).first ?? 0)
                }
            } else {
                let d = x.initial.first ?? 0
                try animate(s, "shadowPath", shape, time, path: path + ".pt") { outline($0, d) }
            }
        } else {
            try animate(s, "shadowPath", shape, time, path: path + ".pt") { b in
                let p = CGMutablePath()
                b.add(to: p, curves: curves)
                return p
            }
        }
        try animate(s, "shadowRadius", feather, time, path: path + ".f") { Self.featherSigma($0) }
        let out: CALayer
        if inverted {
            let plane = CAShapeLayer()
            plane.anchorPoint = .zero
            plane.bounds = .zero
            plane.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            plane.path = CGPath(rect: CGRect(x: -1e5, y: -1e5, width: 2e5, height: 2e5), transform: nil)
            plane.mask = Self.matte(.alphaInverted, s)
            out = plane
        } else {
            out = s
        }
        try animate(out, "opacity", opacity, time, path: path + ".o") { Float(min(max($0[0] / 100, 0), 1)) }
        return out
    }
}
