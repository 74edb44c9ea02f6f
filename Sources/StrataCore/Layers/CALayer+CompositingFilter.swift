// A layer's `compositingFilter`, read as the blend mode the renderer composites the layer with.
// On iOS the property takes a Core Image filter; ported code sets a filter's name, which is what
// Strata reads: the W3C blend modes' filters (`multiplyBlendMode` … `luminosityBlendMode`) and two
// compositing filters (`additionCompositing`, `sourceOverCompositing`). Anything else is drawn
// source-over and reported in the snapshot's report (`SnapshotReport.notes`), naming the layer.
import Foundation

extension CALayer {
    /// The Core Image filter names `compositingFilter` takes, with the blend mode each draws:
    /// Core Image's `CI…BlendMode` filters use the W3C Compositing and Blending formulas, which
    /// `CGBlendMode`'s cases of the same names stand for here; `additionCompositing` is
    /// `plusLighter` (the sum, clamped), `sourceOverCompositing` is `normal`.
    public static let compositingFilterNames: [String: CGBlendMode] = [
        "multiplyBlendMode": .multiply, "screenBlendMode": .screen, "overlayBlendMode": .overlay,
        "darkenBlendMode": .darken, "lightenBlendMode": .lighten, "colorDodgeBlendMode": .colorDodge,
        "colorBurnBlendMode": .colorBurn, "hardLightBlendMode": .hardLight, "softLightBlendMode": .softLight,
        "differenceBlendMode": .difference, "exclusionBlendMode": .exclusion, "hueBlendMode": .hue,
        "saturationBlendMode": .saturation, "colorBlendMode": .color, "luminosityBlendMode": .luminosity,
        "additionCompositing": .plusLighter, "sourceOverCompositing": .normal,
    ]

    /// The blend mode a `compositingFilter` value names, or nil when Strata does not know it.
    /// nil (no filter) is `normal`; a name may carry Core Image's `CI` prefix
    /// (`"CIMultiplyBlendMode"`).
    public static func blendMode(compositingFilter value: Any?) -> CGBlendMode? {
        guard let value else { return .normal }
        guard let name = value as? String else { return nil }
        if let mode = compositingFilterNames[name] { return mode }
        if name.hasPrefix("CI"), name.count > 2 {
            let rest = name.dropFirst(2)
            return compositingFilterNames[rest.prefix(1).lowercased() + rest.dropFirst()]
        }
        return nil
    }

    /// The blend mode the snapshot carries: the filter's, or `normal` for one Strata does not
    /// know, which is recorded in the running build's report.
    func snapshotBlendMode() -> CGBlendMode {
        if let mode = CALayer.blendMode(compositingFilter: compositingFilter) { return mode }
        SnapshotReport.note("\(SnapshotReport.describe(self)): compositingFilter \(String(reflecting: compositingFilter!)) "
                            + "is not supported (a Core Image filter name such as \"multiplyBlendMode\" is); drawn source-over")
        return .normal
    }
}
