// Layer effects (`ef`), drawn after the layer's masks and before its transform's opacity, track
// matte and blend mode, each on the result of the ones before it (After Effects' order): a node
// around the layer's masked content for each effect, the first innermost. Fill, Tint, Tritone,
// Gradient Ramp and Gaussian Blur are the stages of a LottieEffectLayer (consecutive ones share
// one), whose snapshot carries them to the renderer's offscreen group (GroupEffects.swift); Drop
// Shadow is a node's own Core Animation shadow; Transform a node's transform and opacity; Stroke
// shape layers of the mask paths, over the layer, alone or as its mask. The parameters animate
// like any property (keyframes, expressions), on keys of the nodes.
import Foundation
import Strata
import StrataCore

extension LottieCompiler {
    /// Gaussian Blur's blurriness → σ (points): 0.3, lottie-web's factor ("matching AE's blur
    /// appearance") and ThorVG's nominal one. (ThorVG draws the Gaussian as box passes, two at
    /// its default quality, whose σ is about 0.8 of that: measured with thorvg-python 1.1.3, an
    /// edge blurred with blurriness 20 rises from 10 % to 90 % over 12.2 px, σ 4.7, where a
    /// Gaussian of σ 6 takes 15.4 px.)
    static let blurToSigma = 0.3

    /// Drop Shadow's softness → σ (points): ¼, lottie-web's (its feGaussianBlur's
    /// stdDeviation); ThorVG's box passes draw σ ≈ 0.24 × softness (0.3 nominal), within 5 %.
    static let softnessToSigma = 0.25

    /// `content` inside one node for each of the layer's drawn effects, the first innermost.
    func applyEffects(_ l: LottieLayerModel, to content: CALayer, _ time: LottieTime) throws -> CALayer {
        var current = content
        var stages: LottieEffectLayer?
        for (i, e) in l.drawnEffects.enumerated() {
            if e.kind == .dropShadow {
                stages = nil
                let holder = node()
                try dropShadow(e, on: holder, time)
                holder.addSublayer(current)
                current = holder
                continue
            }
            if e.kind == .stroke {
                stages = nil
                current = try stroke(e, of: l, on: current, time)
                continue
            }
            if e.kind == .transform {
                stages = nil
                let holder = node()
                try transformEffect(e, on: holder, time)
                holder.addSublayer(current)
                current = holder
                // After Effects draws a layer's effects into a buffer of the layer's own size, which
                // the Transform does not grow: what it moves off a solid, image or precomposition
                // is cut off (unless an effect before it grew the buffer: a blur, a shadow).
                let grown = l.drawnEffects[..<i].contains { $0.kind == .gaussianBlur || $0.kind == .dropShadow }
                if !grown, let size = effectBounds(of: l) {
                    let clip = node()
                    clip.bounds = CGRect(origin: .zero, size: size)
                    clip.masksToBounds = true
                    clip.addSublayer(current)
                    current = clip
                }
                continue
            }
            let holder: LottieEffectLayer
            if let s = stages {
                holder = s
            } else {
                holder = LottieEffectLayer()
                holder.anchorPoint = .zero
                holder.bounds = .zero
                holder.addSublayer(current)
                current = holder
                stages = holder
            }
            holder.stages.append(try stage(e, number: i, on: holder, time))
        }
        return current
    }

    /// The size of the buffer After Effects draws a layer's effects into, where it is the
    /// layer's own (a solid's, an image's, a precomposition's); nil for shape and text layers,
    /// whose bounds follow their content (Strata does not clip them).
    func effectBounds(of l: LottieLayerModel) -> CGSize? {
        switch l.content {
        case .solid(_, let w, let h), .precomp(_, let w, let h, _):
            return w > 0 && h > 0 ? CGSize(width: w, height: h) : nil
        case .image(let id):
            guard let a = animation.images[id], a.width > 0, a.height > 0 else { return nil }
            return CGSize(width: a.width, height: a.height)
        default:
            return nil
        }
    }

    /// Animates a colour parameter (its first three numbers; its alpha is not drawn) on `key`.
    private func animateColor(_ layer: CALayer, _ key: String, _ p: (path: String, value: LottieAnimated<[Double]>),
                              _ time: LottieTime) throws {
        try animate(layer, key, p.value, time, path: p.path) { v in
            CGColor(red: min(max(v[0], 0), 1), green: min(max(v[1], 0), 1), blue: min(max(v[2], 0), 1), alpha: 1)
        }
    }

    /// Animates a point parameter (its first two numbers) on `key`.
    private func animatePoint(_ layer: CALayer, _ key: String, _ p: (path: String, value: LottieAnimated<[Double]>),
                              _ time: LottieTime) throws {
        try animate(layer, key, p.value, time, path: p.path) { v in CGPoint(x: v[0], y: v.count > 1 ? v[1] : 0) }
    }

    /// Animates a number parameter, scaled by `factor`, on `key`.
    private func animateNumber(_ layer: CALayer, _ key: String, _ p: (path: String, value: LottieAnimated<[Double]>),
                               _ time: LottieTime, factor: Double = 1) throws {
        try animate(layer, key, p.value, time, path: p.path) { CGFloat($0[0] * factor) }
    }

    /// A colour or blur stage of effect `e` (the layer's effect `number`), its parameters
    /// animated on keys of `layer`.
    private func stage(_ e: LottieDrawnEffect, number: Int, on layer: CALayer, _ time: LottieTime) throws -> LottieEffectLayer.Stage {
        let k = "lottieEffect\(number)"
        switch e.kind {
        case .fill:
            try animateColor(layer, k + "Color", e.parameter(2), time)
            try animateNumber(layer, k + "Opacity", e.parameter(6), time)
            return .fill(color: k + "Color", opacity: k + "Opacity")
        case .tint:
            try animateColor(layer, k + "Black", e.parameter(0), time)
            try animateColor(layer, k + "White", e.parameter(1), time)
            try animateNumber(layer, k + "Amount", e.parameter(2), time, factor: 0.01)
            return .tint(black: k + "Black", white: k + "White", amount: k + "Amount")
        case .tritone:
            try animateColor(layer, k + "Highlights", e.parameter(0), time)
            try animateColor(layer, k + "Midtones", e.parameter(1), time)
            try animateColor(layer, k + "Shadows", e.parameter(2), time)
            try animateNumber(layer, k + "Blend", e.parameter(3), time, factor: 0.01)
            return .tritone(highlights: k + "Highlights", midtones: k + "Midtones", shadows: k + "Shadows", blend: k + "Blend")
        case .gaussianBlur:
            try animateNumber(layer, k + "Sigma", e.parameter(0), time, factor: Self.blurToSigma)
            try animateNumber(layer, k + "Dimensions", e.parameter(1), time)
            return .blur(sigma: k + "Sigma", dimensions: k + "Dimensions")
        case .gradientRamp:
            try animatePoint(layer, k + "Start", e.parameter(0), time)
            try animateColor(layer, k + "StartColor", e.parameter(1), time)
            try animatePoint(layer, k + "End", e.parameter(2), time)
            try animateColor(layer, k + "EndColor", e.parameter(3), time)
            try animateNumber(layer, k + "Shape", e.parameter(4), time)
            try animateNumber(layer, k + "Blend", e.parameter(6), time, factor: 0.01)
            return .ramp(start: k + "Start", end: k + "End", startColor: k + "StartColor", endColor: k + "EndColor",
                         shape: k + "Shape", blend: k + "Blend")
        case .dropShadow, .stroke, .transform:
            preconditionFailure("drop shadows, strokes and transforms are nodes of their own")
        }
    }

    /// Drop Shadow as `holder`'s shadow: its colour, opacity (0…255), the offset `distance`
    /// points towards `direction` degrees clockwise from up — (d·sin θ, −d·cos θ), y down, in
    /// the layer's own coordinates, so it turns with the layer as in After Effects and ThorVG —
    /// and σ = softness / 4.
    private func dropShadow(_ e: LottieDrawnEffect, on holder: CALayer, _ time: LottieTime) throws {
        try animateColor(holder, "shadowColor", e.parameter(0), time)
        let opacity = e.parameter(1)
        try animate(holder, "shadowOpacity", opacity.value, time, path: opacity.path) { Float(min(max($0[0] / 255, 0), 1)) }
        let softness = e.parameter(4)
        // Core Animation's shadowRadius is the Gaussian's σ (Strata's shadows: σ = shadowRadius).
        try animate(holder, "shadowRadius", softness.value, time, path: softness.path) { CGFloat(max($0[0], 0) * Self.softnessToSigma) }
        let direction = e.parameter(2), distance = e.parameter(3)
        let angle = sampler(direction.value, path: direction.path), length = sampler(distance.value, path: distance.path)
        func offset(_ f: Double) -> CGSize {
            let a = angle.value(f)[0] * .pi / 180, d = length.value(f)[0]
            return CGSize(width: d * sin(a), height: -d * cos(a))
        }
        if angle.isAnimated || length.isAnimated || time.remap != nil {
            try animateSampled(holder, "shadowOffset", time, path: direction.path) { offset($0) }
        } else {
            holder.shadowOffset = offset(time.range.lowerBound)
        }
    }
}

extension LottieCompiler {
    /// The Transform effect's matrix (layer space to layer space): −anchor, scale (width and
    /// height in %, both the height with uniform scale on), skew along the skew axis, rotation
    /// (degrees clockwise), then position — a layer's own transform (`matrix(_:at:_:)`), as
    /// Skia's Skottie draws the effect. (lottie-web's TransformEffect turns before it skews, and
    /// about the skew axis + 90°: a vertical shear at axis 0, where After Effects' documentation
    /// gives the effect's skew the layer's meaning; ThorVG and rlottie do not draw the effect.)
    /// `v`: the parameters by place.
    static func transformEffectMatrix(_ v: (Int) -> [Double]) -> CGAffineTransform {
        func n(_ i: Int, _ k: Int = 0) -> Double { let p = v(i); return k < p.count ? p[k] : 0 }
        let height = n(3), width = n(2) != 0 ? height : n(4)
        return CGAffineTransform(translationX: -n(0), y: -n(0, 1))
            .concatenating(CGAffineTransform(scaleX: width / 100, y: height / 100))
            .concatenating(skewMatrix(n(5), n(6)))
            .concatenating(CGAffineTransform(rotationAngle: n(7) * .pi / 180))
            .concatenating(CGAffineTransform(translationX: n(1), y: n(1, 1)))
    }

    /// Transform as `holder`'s transform (its anchor point and position at the layer's origin,
    /// so the matrix maps the layer's content in its own coordinates) and opacity: sampled
    /// twice a frame where a parameter animates or has an expression.
    func transformEffect(_ e: LottieDrawnEffect, on holder: CALayer, _ time: LottieTime) throws {
        let samplers = (0..<8).map { i in sampler(e.parameter(i).value, path: e.parameter(i).path) }
        // Each parameter read once a sample (an expression's evaluation is not cheap).
        func matrix(_ f: Double) -> CATransform3D {
            let values = samplers.map { $0.value(f) }
            return CATransform3DMakeAffineTransform(Self.transformEffectMatrix { values[$0] })
        }
        if samplers.contains(where: \.isAnimated) || time.remap != nil {
            try animateSampled(holder, "transform", time, path: e.parameter(1).path) { matrix($0) }
        } else {
            holder.transform = matrix(time.range.lowerBound)
        }
        let opacity = e.parameter(8)
        try animate(holder, "opacity", opacity.value, time, path: opacity.path) { Float(min(max($0[0] / 100, 0), 1)) }
    }

    /// Stroke: the layer's mask paths (its mask number `path`, 1 the first, or all masks)
    /// stroked with round caps and joins, 2 × brush size wide, in its colour and opacity, from
    /// start to end (%, as trim paths: the smaller to the larger), painted by its paint style:
    /// 1 over the layer, 2 alone (the layer not drawn), 3 revealing the layer where it strokes
    /// (the strokes its alpha mask). No mask: nothing is stroked.
    func stroke(_ e: LottieDrawnEffect, of l: LottieLayerModel, on current: CALayer, _ time: LottieTime) throws -> CALayer {
        let all = (e.parameter(1).value.initial.first ?? 0) != 0
        let number = JSONNode.clampedInt(e.parameter(0).value.initial.first ?? 0)
        let masks = all ? Array(l.masks.indices) : (l.masks.indices.contains(number - 1) ? [number - 1] : [])
        let strokes = node()
        for i in masks {
            let m = l.masks[i]
            let s = CAShapeLayer()
            s.anchorPoint = .zero
            s.bounds = .zero
            s.fillColor = nil
            s.lineCap = .round
            s.lineJoin = .round
            let curves = Self.curvedInAnyKeyframe(m.shape)
            try animate(s, "path", m.shape, time, path: m.path + ".pt") { b -> CGPath in
                let p = CGMutablePath()
                b.add(to: p, curves: curves)
                return p
            }
            let color = e.parameter(3), size = e.parameter(4), opacity = e.parameter(6), start = e.parameter(7), end = e.parameter(8)
            try animate(s, "strokeColor", color.value, time, path: color.path) { v in
                CGColor(red: min(max(v[0], 0), 1), green: min(max(v[1], 0), 1), blue: min(max(v[2], 0), 1), alpha: 1)
            }
            try animate(s, "lineWidth", size.value, time, path: size.path) { CGFloat(max($0[0], 0) * 2) }
            try animate(s, "opacity", opacity.value, time, path: opacity.path) { Float(min(max($0[0], 0), 1)) }
            let a = sampler(start.value, path: start.path), b = sampler(end.value, path: end.path)
            func ends(_ f: Double) -> (CGFloat, CGFloat) {
                let x = min(max(a.value(f)[0] / 100, 0), 1), y = min(max(b.value(f)[0] / 100, 0), 1)
                return (CGFloat(min(x, y)), CGFloat(max(x, y)))
            }
            if a.isAnimated || b.isAnimated || time.remap != nil {
                try animateSampled(s, "strokeStart", time, path: start.path) { ends($0).0 }
                try animateSampled(s, "strokeEnd", time, path: end.path) { ends($0).1 }
            } else {
                (s.strokeStart, s.strokeEnd) = ends(time.range.lowerBound)
            }
            strokes.addSublayer(s)
        }
        let holder = node()
        switch JSONNode.clampedInt(e.parameter(10).value.initial.first ?? 1) {
        case 2:
            holder.addSublayer(strokes)
        case 3:
            holder.addSublayer(current)
            holder.mask = strokes
        default:
            holder.addSublayer(current)
            holder.addSublayer(strokes)
        }
        return holder
    }
}

/// A node of a compiled layer whose pixels pass through layer effects (Fill, Tint, Tritone,
/// Gradient Ramp, Gaussian Blur): each stage's parameters are animatable values under keys of the layer, read
/// when it is snapshotted, so keyframes and expressions drive them as any property.
final class LottieEffectLayer: CALayer {
    /// A stage and the keys of its parameters.
    enum Stage {
        /// The colour (a CGColor) and the opacity (0…1).
        case fill(color: String, opacity: String)
        /// The two colours and the amount (0…1).
        case tint(black: String, white: String, amount: String)
        /// The three colours and the blend with the original (0…1).
        case tritone(highlights: String, midtones: String, shadows: String, blend: String)
        /// σ in points, and the dimensions: 1 both, 2 horizontal, 3 vertical.
        case blur(sigma: String, dimensions: String)
        /// Gradient Ramp: the start and end points (CGPoints in the layer's coordinates) and
        /// colours, the shape (1 linear, any other radial: After Effects writes 2, and Skottie
        /// reads every other value as radial) and the blend with the original (0…1).
        case ramp(start: String, end: String, startColor: String, endColor: String, shape: String, blend: String)
    }
    var stages: [Stage] = []

    override init() { super.init() }

    /// **Strata:** no archives.
    required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A copy of `layer`'s properties (presentation copies).
    override init(layer: Any) {
        super.init(layer: layer)
        if let l = layer as? LottieEffectLayer { stages = l.stages }
    }

    private func number(_ key: String) -> Double {
        let v = Double(animatableValue(forKey: key)?.number ?? 0)
        return v.isFinite ? v : 0
    }

    private func point(_ key: String) -> SIMD2<Double> {
        if case .point(let p)? = animatableValue(forKey: key) { return SIMD2(Double(p.x), Double(p.y)) }
        return SIMD2(0, 0)
    }

    private func color(_ key: String) -> RGBA {
        if case .color(let c)? = animatableValue(forKey: key), let rgba = RGBA(c) { return rgba }
        return .black
    }

    override func completeSnapshot(_ snapshot: inout LayerSnapshot) {
        super.completeSnapshot(&snapshot)
        snapshot.effects = stages.map { stage -> LayerEffect in
            switch stage {
            case .fill(let c, let o):
                return .fill(color: color(c), opacity: Float(number(o)))
            case .tint(let b, let w, let a):
                return .tint(black: color(b), white: color(w), amount: Float(number(a)))
            case .tritone(let h, let m, let s, let b):
                return .tritone(highlights: color(h), midtones: color(m), shadows: color(s), blend: Float(number(b)))
            case .blur(let s, let d):
                let sigma = max(number(s), 0), dimensions = number(d).rounded()
                return .blur(sigmaX: dimensions == 3 ? 0 : sigma, sigmaY: dimensions == 2 ? 0 : sigma)
            case .ramp(let a, let b, let c0, let c1, let shape, let blend):
                return .gradientRamp(start: point(a), end: point(b), startColor: color(c0), endColor: color(c1),
                                     radial: number(shape).rounded() != 1, blend: Float(number(blend)))
            }
        }
    }
}
