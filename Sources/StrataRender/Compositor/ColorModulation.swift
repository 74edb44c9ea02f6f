// A replicator instance's colour (`instanceColor` and the four offsets) multiplies every colour
// its subtree draws. The builder draws the subtree as usual and then multiplies the colours of
// the resulting items here: fills, borders, gradients and shadows directly, images through their
// `modulate` colour (so a backing store is shared by all instances), groups and 3D faces
// recursively. Masks are left alone: they only lend their alpha. Multiplying straight RGBA by
// (r, g, b, a) is multiplying premultiplied colour by (r·a, g·a, b·a, a), which is what is
// stored. Nested replicators multiply their colours.
import Foundation
import StrataCore

enum ColorModulation {
    /// The premultiplied multiplier of a straight colour.
    static func premultiplied(_ m: RGBA) -> SIMD4<Float> {
        let a = min(max(m.a, 0), 1)
        return SIMD4(min(max(m.r, 0), 1) * a, min(max(m.g, 0), 1) * a, min(max(m.b, 0), 1) * a, a)
    }
}

extension DisplayList {
    /// The list with every colour multiplied by the premultiplied `k`.
    func modulated(by k: SIMD4<Float>) -> DisplayList {
        var list = DisplayList(items: items.map { $0.modulated(by: k) })
        list.effects = effects   // (the effects then see the modulated colours)
        list.effectSlot = effectSlot.map { GroupEffectSlot(frame: $0.frame) }
        return list
    }
}

extension DrawItem {
    /// The item with every colour it draws multiplied by the premultiplied `k`.
    func modulated(by k: SIMD4<Float>) -> DrawItem {
        var item = self
        switch op {
        case .fill(let shape, let color):
            item.op = .fill(shape, color * k)
        case .ring(let outer, let inner, let color):
            item.op = .ring(outer: outer, inner: inner, color * k)
        case .image(var placement, let clip, let opacity):
            if let tint = placement.tint {
                placement.tint = tint * k
            } else {
                placement.modulate = (placement.modulate ?? SIMD4(1, 1, 1, 1)) * k
            }
            item.op = .image(placement, clip: clip, opacity: opacity)
        case .gradient(let paint, let clip):
            item.op = .gradient(GradientPaint(paint, modulatedBy: k), clip: clip)
        case .group(let list, let opacity, let mask):
            item.op = .group(list.modulated(by: k), opacity: opacity, mask: mask)
        case .mix(let from, let to, let t):
            item.op = .mix(from: from.modulated(by: k), to: to.modulated(by: k), t: t)
        case .depthComposite(let faces):
            item.op = .depthComposite(faces.map { DepthFace(items: $0.items.modulated(by: k), plane: $0.plane) })
        case .vector(let shape, let color):
            item.op = .vector(shape, color: color * k)
        case .glyphs(let placed, let color):
            item.op = .glyphs(placed, color: color * k)
        case .shadow(var shadow):
            shadow.color *= k
            item.op = .shadow(shadow)
        }
        return item
    }
}

extension GradientPaint {
    /// `paint` with its straight stop colours multiplied by the straight colour whose
    /// premultiplied form is `k` (so the premultiplied result is multiplied by `k`).
    init(_ paint: GradientPaint, modulatedBy k: SIMD4<Float>) {
        let a = k.w
        let straight = a > 0 ? SIMD4(k.x / a, k.y / a, k.z / a, a) : SIMD4<Float>(0, 0, 0, 0)
        kind = paint.kind
        sx = paint.sx; sy = paint.sy; ex = paint.ex; ey = paint.ey
        dx = paint.dx; dy = paint.dy; invLen2 = paint.invLen2
        rx = paint.rx; ry = paint.ry; baseAngle = paint.baseAngle
        focal = paint.focal; fx = paint.fx; fy = paint.fy; focalA = paint.focalA
        ramp = GradientRamp(stops: paint.stops, colors: paint.colors.map { $0 * straight })
        opacity = paint.opacity
    }
}
