// Colour and blur stages a layer's composited pixels (its content and sublayers, masked) pass
// through before they are blended with what is beneath: After Effects' and Lottie's layer effects
// Fill, Tint, Tritone, Gradient Ramp and Gaussian Blur. Not Core Animation API — Apple's `CALayer.filters` takes
// Core Image filters, which Strata does not have (RemainingLayerInterface.swift) — so the list is
// package-level: a subclass sets it on its snapshot in `completeSnapshot` (StrataLottie's
// compiled effect layers do), and the renderer draws such a layer as an offscreen group.
import Foundation

/// One stage of a layer's effects, applied to every pixel of the layer's group in order.
/// Colours are straight sRGB (gamma-encoded, as everything else is blended); L below is a
/// pixel's luminance, 0.2126 R + 0.7152 G + 0.0722 B of its straight colour. No stage changes a
/// pixel's alpha but the blur, and a transparent pixel stays transparent under the others.
package enum LayerEffect: Sendable, Hashable {
    /// Fill: the colour C becomes C + (color − C) · opacity (opacity 0…1), the alpha kept.
    case fill(color: RGBA, opacity: Float)
    /// Tint: T = black + (white − black) · L, then C + (T − C) · amount (amount 0…1).
    case tint(black: RGBA, white: RGBA, amount: Float)
    /// Tritone: T = shadows + (midtones − shadows) · 2L below L = ½, midtones + (highlights −
    /// midtones) · (2L − 1) from it; then T + (C − T) · blend (blend with the original, 0…1).
    case tritone(highlights: RGBA, midtones: RGBA, shadows: RGBA, blend: Float)
    /// Gradient Ramp: G = startColor + (endColor − startColor) · t, t in 0…1 the place of the
    /// pixel's centre along the ramp — linear: its projection on the line from `start` to `end`
    /// over that line's length; `radial`: its distance from `start` over the distance from
    /// `start` to `end` — both points in the layer's own coordinates (t 0 where they coincide);
    /// then G + (C − G) · blend (blend with the original, 0…1), the alpha kept.
    case gradientRamp(start: SIMD2<Double>, end: SIMD2<Double>, startColor: RGBA, endColor: RGBA, radial: Bool, blend: Float)
    /// Gaussian blur of the premultiplied pixels with standard deviations `sigmaX` and
    /// `sigmaY`, in the layer's own points along its x and y axes (0: not blurred that way).
    case blur(sigmaX: Double, sigmaY: Double)
}
