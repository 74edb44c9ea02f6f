// Masks drawn region by region: where a lighten or darken mask with a partial opacity follows
// another mask with a partial opacity, max(M, m) and min(M, m) are not products and sums of the
// masks' coverages, so the stages of LottieCompiler+Layers.swift cannot draw them. With each
// mask's shape taken as covering a point or not, the combined coverage is a function of which
// shapes cover it: the plane is cut into the 2ⁿ regions inside some shapes and outside the
// others (each a plane masked by each shape or its complement), and each region drawn at the
// coverage the spec's formulas give there, the regions side by side (they do not overlap, so
// their sum is the union). Exact but at the shapes' anti-aliased edges, where the regions' edge
// pixels add up as coverages do. The coverages follow the masks' opacities: fixed values when
// no opacity moves, else sampled twice a frame. At most `maxRegionMasks` masks (16 regions).
import Foundation
import Strata

extension LottieCompiler {
    /// The most masks on one layer drawn region by region (2ⁿ regions of n stages each).
    static let maxRegionMasks = 4

    /// Whether a lighten or darken mask with a partial opacity follows a mask with a partial
    /// opacity (where add and intersect would not be exact).
    static func lightenOrDarkenAfterPartial(_ masks: ArraySlice<LottieMask>) -> Bool {
        var partialSoFar = false
        for m in masks {
            let o = m.opacity ?? .fixed([100])
            let partial = o.isAnimated || o.initial[0] < 100
            if partial, partialSoFar, m.mode == .lighten || m.mode == .darken { return true }
            if partial { partialSoFar = true }
        }
        return false
    }

    /// The combined coverage where the shapes `inside` cover a point and the others do not, at
    /// the masks' opacities `alphas` (0…1): the first mask gives m (1 − m when it subtracts),
    /// then add M + m − Mm, subtract M(1 − m), intersect Mm, lighten max(M, m), darken
    /// min(M, m), difference |M − m|.
    static func regionCoverage(_ masks: [LottieMask], inside: [Bool], alphas: [Double]) -> Double {
        var total = 0.0
        for (i, m) in masks.enumerated() {
            let v = inside[i] ? alphas[i] : 0
            if i == 0 {
                total = m.mode == .subtract ? 1 - v : v
                continue
            }
            switch m.mode {
            case .add: total = total + v - total * v
            case .subtract: total *= 1 - v
            case .intersect: total *= v
            case .lighten: total = max(total, v)
            case .darken: total = min(total, v)
            case .difference: total = abs(total - v)
            case .none: break
            }
        }
        return min(max(total, 0), 1)
    }

    /// The coverage of `masks` (at most `maxRegionMasks`) drawn region by region.
    func maskRegions(_ masks: [LottieMask], _ time: LottieTime) throws -> CALayer {
        // Each mask's opacity through its expression, if it has one (LottieCompiler.sampler).
        let opacities = masks.map { sampler($0.opacity ?? .fixed([100]), path: $0.path + ".o") }
        func alphas(at f: Double) -> [Double] {
            opacities.map { min(max(($0.value(f).first ?? 100) / 100, 0), 1) }
        }
        let moves = opacities.contains { $0.isAnimated }
        let fixed = alphas(at: time.range.lowerBound)
        let union = node()
        for region in 0..<(1 << masks.count) {
            let inside = masks.indices.map { region & (1 << $0) != 0 }
            let first = Self.regionCoverage(masks, inside: inside, alphas: fixed)
            if !moves && first == 0 { continue }
            // The region: the plane inside each shape that covers it and outside the others.
            let stages = try masks.enumerated().map { i, m -> CALayer in
                let stage = node()
                stage.addSublayer(try maskShape(m.shape, expansion: m.expansion, inverted: inside[i] ? m.inverted : !m.inverted,
                                                opacity: .fixed([100]), time, path: m.path))
                return stage
            }
            let area = stack(stages)
            if moves {
                try animateSampled(area, "opacity", time, path: masks[0].path + ".o") { f in
                    Float(Self.regionCoverage(masks, inside: inside, alphas: alphas(at: f)))
                }
            } else {
                area.opacity = Float(first)
            }
            union.addSublayer(area)
        }
        return union
    }
}
