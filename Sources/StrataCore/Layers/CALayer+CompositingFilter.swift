// A layer's `compositingFilter`, read as the blend mode the renderer composites the layer with.
// On iOS the property takes a Core Image filter; ported code sets a filter's name, which is what
// Strata reads: the W3C blend modes' filters (`multiplyBlendMode` … `luminosityBlendMode`), the
// linear dodge (`linearDodgeBlendMode`, After Effects' and Lottie's "add") and two compositing
// filters (`additionCompositing`, `sourceOverCompositing`). Anything else is drawn source-over and
// reported in the snapshot's report (`SnapshotReport.notes`), naming the layer.
import Foundation

/// How a layer with its subtree combines with what is beneath it (its `compositingFilter`): a
/// Core Image blend or compositing filter. (Not `CGBlendMode`: Apple's enum has no linear dodge,
/// and must not grow a case ported code's switches would miss.)
public enum LayerBlendMode: Int, Sendable, Hashable, CaseIterable {
    /// Source-over (no filter, `sourceOverCompositing`).
    case normal
    /// The W3C Compositing and Blending modes (Core Image's `CI…BlendMode` filters of the same names).
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight, difference, exclusion
    /// The W3C non-separable modes.
    case hue, saturation, color, luminosity
    /// `additionCompositing`: the premultiplied colours added, clamped to 1.
    case addition
    /// `linearDodgeBlendMode`: the separable blend B(Cb, Cs) = min(1, Cb + Cs), composited with
    /// the W3C formula (After Effects' and Lottie's "add"; ThorVG draws Lottie's the same way).
    case linearDodge
    /// After Effects' hard mix (Lottie's `bm` 17): the separable blend B(Cb, Cs) = 1 where
    /// Cb + Cs ≥ 1, else 0, composited with the W3C formula. Core Image has no filter of it, so
    /// no `compositingFilter` name draws it: the Lottie importer sets a `LayerBlendModeFilter`.
    case hardMix
}

/// **Strata (package only):** a `compositingFilter` value naming a `LayerBlendMode` directly,
/// for the modes Core Image has no filter name of (hard mix, which Lottie files use).
package struct LayerBlendModeFilter: Sendable, Hashable, CustomStringConvertible {
    package let mode: LayerBlendMode
    package init(_ mode: LayerBlendMode) { self.mode = mode }
    package var description: String { "LayerBlendModeFilter(\(mode))" }
}

extension CALayer {
    /// The Core Image filter names `compositingFilter` takes, with the blend mode each draws:
    /// Core Image's `CI…BlendMode` filters use the W3C Compositing and Blending formulas, which
    /// `LayerBlendMode`'s cases of the same names stand for here; `additionCompositing` is
    /// `addition` (the sum, clamped), `linearDodgeBlendMode` is `linearDodge`,
    /// `sourceOverCompositing` is `normal`.
    public static let compositingFilterNames: [String: LayerBlendMode] = [
        "multiplyBlendMode": .multiply, "screenBlendMode": .screen, "overlayBlendMode": .overlay,
        "darkenBlendMode": .darken, "lightenBlendMode": .lighten, "colorDodgeBlendMode": .colorDodge,
        "colorBurnBlendMode": .colorBurn, "hardLightBlendMode": .hardLight, "softLightBlendMode": .softLight,
        "differenceBlendMode": .difference, "exclusionBlendMode": .exclusion, "hueBlendMode": .hue,
        "saturationBlendMode": .saturation, "colorBlendMode": .color, "luminosityBlendMode": .luminosity,
        "linearDodgeBlendMode": .linearDodge, "additionCompositing": .addition, "sourceOverCompositing": .normal,
    ]

    /// The blend mode a `compositingFilter` value names, or nil when Strata does not know it.
    /// nil (no filter) is `normal`; a name may carry Core Image's `CI` prefix
    /// (`"CIMultiplyBlendMode"`).
    public static func blendMode(compositingFilter value: Any?) -> LayerBlendMode? {
        guard let value else { return .normal }
        if let filter = value as? LayerBlendModeFilter { return filter.mode }
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
    func snapshotBlendMode() -> LayerBlendMode {
        if let mode = CALayer.blendMode(compositingFilter: compositingFilter) { return mode }
        SnapshotReport.note("\(SnapshotReport.describe(self)): compositingFilter \(String(reflecting: compositingFilter!)) "
                            + "is not supported (a Core Image filter name such as \"multiplyBlendMode\" is); drawn source-over")
        return .normal
    }
}
