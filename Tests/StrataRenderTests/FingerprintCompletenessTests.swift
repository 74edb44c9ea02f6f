// Every field drawing reads must be part of a draw item's fingerprint: FrameHistory copies a tile
// from the previous frame when the fingerprints of its items match, so a field left out would
// silently leave stale pixels on screen. This test enumerates the stored properties of every
// draw item type by reflection (`Mirror`, recursively through nested structs, enum payloads,
// optionals, arrays and the shape, glyph and gradient-ramp classes), changes each field in turn
// and checks the fingerprint changes. A field the test does not know fails it by name, so adding
// a field to a draw item without fingerprinting it (and teaching the test to change it) cannot
// pass unnoticed.
// Fields that cannot change pixels on their own (caches and values derived from other fields
// in the only initialiser) are listed in `exempt` with the reason.
import XCTest
@testable import StrataCore
@testable import StrataRender

/// Where the check's failures go: XCTFail, or a log while the test checks the check itself.
private final class FailureLog: @unchecked Sendable { var messages: [String] = [] }
private enum Report { @TaskLocal static var log: FailureLog? }
private func fail(_ message: String) {
    if let log = Report.log { log.messages.append(message) } else { XCTFail(message) }
}

/// Variants of a value: each differs from the base in one field (named by its path).
private typealias Variants<T> = (_ base: T, _ path: String) -> [(String, T)]

/// How the test changes the fields of a `T`, found by reflection.
private struct Fields<T> {
    let type: String
    /// Field label → variants of the whole value with that field changed.
    let fields: [String: Variants<T>]
    /// Field label → why drawing never reads it on its own.
    var exempt: [String: String] = [:]

    func variants(of base: T, at path: String) -> [(String, T)] {
        var labels: [String] = []
        var m: Mirror? = Mirror(reflecting: base)
        while let mirror = m { labels += mirror.children.compactMap(\.label); m = mirror.superclassMirror }
        var out: [(String, T)] = []
        for label in labels where exempt[label] == nil {
            let p = "\(path).\(label)"
            guard let vary = fields[label] else {
                fail("\(p): \(type) has a field the fingerprint test does not know. If drawing reads it, add it to the "
                        + "fingerprint (Compositor/ItemFingerprints.swift) and teach FingerprintCompletenessTests to change it; "
                        + "if it cannot change pixels on its own, exempt it there, saying why.")
                continue
            }
            let vs = vary(base, p)
            if vs.isEmpty { fail("\(p): the test made no variant") }
            out += vs
        }
        for name in Set(fields.keys).union(exempt.keys) where !labels.contains(name) {
            fail("\(type).\(name): listed in FingerprintCompletenessTests but no longer a stored property")
        }
        return out
    }

    func callAsFunction(_ base: T, _ path: String) -> [(String, T)] { variants(of: base, at: path) }
}

/// `value` with the stored property at `kp` replaced (also `let` properties: through its offset).
private func setting<T, V>(_ value: T, _ kp: KeyPath<T, V>, to new: V) -> T {
    guard let offset = MemoryLayout<T>.offset(of: kp) else { fatalError("\(kp) is not a stored property") }
    var copy = value
    withUnsafeMutableBytes(of: &copy) { ($0.baseAddress! + offset).assumingMemoryBound(to: V.self).pointee = new }
    return copy
}

/// Variants of `T` from the variants of its field at `kp`.
private func field<T, V>(_ kp: KeyPath<T, V>, _ vary: @escaping Variants<V>) -> Variants<T> {
    { base, path in vary(base[keyPath: kp], path).map { ($0.0, setting(base, kp, to: $0.1)) } }
}

/// Variants from a list of changed values.
private func leaf<V>(_ values: @escaping (V) -> [V]) -> Variants<V> {
    { base, path in values(base).enumerated().map { ("\(path)#\($0.offset)", $0.element) } }
}

private func number<V: Numeric>() -> Variants<V> { leaf { [$0 + 1] } }
private var bool: Variants<Bool> {
leaf { [!$0] }
}
private var simd4: Variants<SIMD4<Float>> {
leaf { v in (0..<4).map { var c = v; c[$0] += 0.25; return c } }
}
private var simd4d: Variants<SIMD4<Double>> {
leaf { v in (0..<4).map { var c = v; c[$0] += 0.25; return c } }
}
/// Another image object (fingerprints know images by identity, never reused).
private var image: Variants<CGImage> {
leaf { [CGImage(bitmap: $0.bitmap)] }
}

private func optional<V>(_ sample: V, _ inner: @escaping Variants<V>) -> Variants<V?> {
    { base, path in
        guard let v = base else { return [("\(path)=some", sample)] }
        return [("\(path)=nil", nil)] + inner(v, path).map { ($0.0, Optional($0.1)) }
    }
}

/// An element appended, the last removed, and each variant of the first element.
private func array<V>(_ extra: V, _ inner: @escaping Variants<V>) -> Variants<[V]> {
    { base, path in
        var out: [(String, [V])] = [("\(path)+1", base + [extra])]
        if let first = base.first {
            out.append(("\(path)-1", Array(base.dropLast())))
            out += inner(first, "\(path)[0]").map { ($0.0, [$0.1] + base.dropFirst()) }
        }
        return out
    }
}

private var cgRect: Variants<CGRect> {
leaf { r in
    [CGRect(x: r.minX + 1, y: r.minY, width: r.width, height: r.height), CGRect(x: r.minX, y: r.minY + 1, width: r.width, height: r.height),
     CGRect(x: r.minX, y: r.minY, width: r.width + 1, height: r.height), CGRect(x: r.minX, y: r.minY, width: r.width, height: r.height + 1)]
}
}

private var pixelRect: Fields<PixelRect> {
Fields<PixelRect>(type: "PixelRect", fields: [
    "x0": field(\.x0, number()), "y0": field(\.y0, number()), "x1": field(\.x1, number()), "y1": field(\.y1, number()),
])
}

private var homography: Fields<Homography> {
Fields<Homography>(type: "Homography", fields: [
    "m": leaf { h in
        (0..<9).map { i in
            var c = h
            withUnsafeMutableBytes(of: &c.m) { $0.bindMemory(to: Double.self)[i] += 0.5 }
            return c
        }
    },
])
}

private var roundedRect: Fields<RoundedRect> {
Fields<RoundedRect>(type: "RoundedRect", fields: [
    "rect": field(\.rect, cgRect),
    "radii": leaf { r in
        (0..<4).map { i in
            var c = r
            withUnsafeMutableBytes(of: &c.radii) { $0.bindMemory(to: Double.self)[i] += 1 }
            return c
        }
    },
])
}

private var planeMap: Fields<PlaneMap> {
Fields<PlaneMap>(type: "PlaneMap", fields: [
    "toScreen": field(\.toScreen, homography.variants), "fromScreen": field(\.fromScreen, homography.variants),
    "antialiased": field(\.antialiased, bool),
])
}

private var clipShape: Fields<ClipShape> {
Fields<ClipShape>(type: "ClipShape", fields: [
    "plane": field(\.plane, planeMap.variants), "shape": field(\.shape, roundedRect.variants),
    "bounds": field(\.bounds, pixelRect.variants),
])
}

private var screenQuad: Fields<ScreenQuad> {
Fields<ScreenQuad>(type: "ScreenQuad", fields: ["xs": field(\.xs, simd4d), "ys": field(\.ys, simd4d)])
}

private var blendMode: Variants<ItemBlendMode> {
leaf { m in
    switch m {  // exhaustive: a new mode must be added here
    case .sourceOver: [.additive, .blend(.multiply)]
    case .additive: [.sourceOver]
    case .blend(let mode): [.sourceOver, .blend(mode == .multiply ? .screen : .multiply)]
    }
}
}

private var imagePlacement: Fields<ImagePlacement> {
Fields<ImagePlacement>(type: "ImagePlacement", fields: [
    "image": field(\.image, image), "destination": field(\.destination, cgRect), "source": field(\.source, cgRect),
    "nearest": field(\.nearest, bool), "sprite": field(\.sprite, bool),
    "cell": field(\.cell, optional(CGRect(x: 1, y: 1, width: 3, height: 3), cgRect)),
    "coverage": field(\.coverage, optional(CGRect(x: 0, y: 0, width: 5, height: 5), cgRect)),
    "blend": field(\.blend, optional((image: Samples.image, weight: 0.5)) { b, p in
        image(b.image, "\(p).image").map { ($0.0, (image: $0.1, weight: b.weight)) }
            + [("\(p).weight", (image: b.image, weight: b.weight + 0.25))]
    }),
    "tint": field(\.tint, optional(SIMD4<Float>(0.5, 0, 0, 0.5), simd4)),
    "modulate": field(\.modulate, optional(SIMD4<Float>(0.5, 0.5, 0, 0.5), simd4)),
], exempt: ["spriteTexels": "a copy of `image`'s texels with a border repeating its edge (SpriteBorder.bordered): the kernels "
            + "read the same texels from it as from the image, so the image's fingerprint covers it"])
}

private var gradientPaint: Fields<GradientPaint> {
Fields<GradientPaint>(type: "GradientPaint", fields: [
    "kind": field(\.kind, leaf { k in
        switch k {  // exhaustive: a new kind must be added here
        case .axial: [.radial, .conic]
        case .radial: [.axial, .conic]
        case .conic: [.axial, .radial]
        }
    }),
    "sx": field(\.sx, number()), "sy": field(\.sy, number()), "ex": field(\.ex, number()), "ey": field(\.ey, number()),
    "dx": field(\.dx, number()), "dy": field(\.dy, number()), "invLen2": field(\.invLen2, number()),
    "rx": field(\.rx, number()), "ry": field(\.ry, number()), "baseAngle": field(\.baseAngle, number()),
    "focal": field(\.focal, bool), "fx": field(\.fx, number()), "fy": field(\.fy, number()),
    "focalA": field(\.focalA, number()),
    "ramp": field(\.ramp, gradientRamp.variants),
    "opacity": field(\.opacity, number()),
])
}

/// A ramp is an immutable object made from its stops and colours: each variant is a new one.
private var gradientRamp: Fields<GradientRamp> {
Fields<GradientRamp>(type: "GradientRamp", fields: [
    "stops": { b, p in array(1, number())(b.stops, p).map { ($0.0, GradientRamp(stops: $0.1, colors: b.colors)) } },
    "colors": { b, p in
        array(SIMD4<Float>(0, 0, 1, 1), simd4)(b.colors, p).map { ($0.0, GradientRamp(stops: b.stops, colors: $0.1)) }
    },
], exempt: [
    "kernelStops": "`stops` as Float, made from them in the only initialiser",
    "kernelColors": "`colors` flattened, made from them in the only initialiser",
])
}

private var shapeContent: Fields<ShapeContent> {
Fields<ShapeContent>(type: "ShapeContent", fields: [
    "path": field(\.path, leaf { path in
        let e = path.elements
        var moved = e
        if case .addLineToPoint(let p) = moved[1] { moved[1] = .addLineToPoint(CGPoint(x: p.x + 1, y: p.y)) }
        var curved = e
        curved[1] = .addQuadCurveToPoint(CGPoint(x: 5, y: 5), CGPoint(x: 10, y: 0))
        return [CGPath(elements: e + [.addLineToPoint(CGPoint(x: 3, y: 9))]), CGPath(elements: moved), CGPath(elements: curved),
                CGPath(elements: Array(e.dropLast()))]  // the same outline, open
    }),
    "fillRule": field(\.fillRule, leaf { [$0 == .evenOdd ? .winding : .evenOdd] }),
    "lineWidth": field(\.lineWidth, number()),
    "lineCap": field(\.lineCap, leaf { c in [.butt, .round, .square].filter { $0 != c } }),
    "lineJoin": field(\.lineJoin, leaf { j in [.miter, .round, .bevel].filter { $0 != j } }),
    "miterLimit": field(\.miterLimit, number()),
    "dashPattern": field(\.dashPattern, array(2, number())),
    "dashPhase": field(\.dashPhase, number()),
    "strokeStart": field(\.strokeStart, number()), "strokeEnd": field(\.strokeEnd, number()),
], exempt: [
    "fillColor": "a .vector item draws in the op's `color`; VectorShape reads only the geometry",
    "strokeColor": "a .vector item draws in the op's `color`; VectorShape reads only the geometry",
])
}

private var vectorShape: Fields<VectorShape> {
Fields<VectorShape>(type: "VectorShape", fields: [
    "content": { b, p in shapeContent(b.content, p).map { ($0.0, VectorShape(content: $0.1, part: b.part, toScreen: b.toScreen, scale: b.scale, region: b.region)) } },
    "part": { b, p in [(p, VectorShape(content: b.content, part: b.part == .fill ? .stroke : .fill, toScreen: b.toScreen, scale: b.scale, region: b.region))] },
    "toScreen": { b, p in homography(b.toScreen, p).map { ($0.0, VectorShape(content: b.content, part: b.part, toScreen: $0.1, scale: b.scale, region: b.region)) } },
    "scale": { b, p in [(p, VectorShape(content: b.content, part: b.part, toScreen: b.toScreen, scale: b.scale * 2, region: b.region))] },
    "region": { b, p in pixelRect(b.region, p).map { ($0.0, VectorShape(content: b.content, part: b.part, toScreen: b.toScreen, scale: b.scale, region: $0.1)) } },
], exempt: [
    "strips": "the coverage strips, computed by rasterize() from the other fields",
    "rowCount": "rasterisation cache, computed from the other fields",
    "rowTable": "rasterisation cache (row starts and column bounds, pooled), computed from the other fields",
    "isRasterized": "whether the cache is filled; the cache is a function of the other fields",
    "isClaimed": "whether a rasterisation job was given the shape (bookkeeping of the cache)",
])
}

/// PlacedGlyphs keeps only what its initialiser made of masks and positions: the variants are
/// made from those inputs.
private struct GlyphInput: Sendable { var masks: [GlyphMask]; var xs: [Int]; var ys: [Int] }

private var glyphMask: Fields<GlyphMask> {
Fields<GlyphMask>(type: "GlyphMask", fields: [
    "serial": leaf { m in
        let pixels = Array(UnsafeBufferPointer(m.coverage))
        return [GlyphMask(serial: m.serial + 1000, left: m.left, top: m.top, width: m.width, height: m.height, coverage: pixels)]
    },
], exempt: [
    "left": "the glyph's position on screen is `xs`/`ys` of PlacedGlyphs, which includes it",
    "top": "the glyph's position on screen is `xs`/`ys` of PlacedGlyphs, which includes it",
    "width": "fixed by the serial (unique among masks ever made)",
    "height": "fixed by the serial (unique among masks ever made)",
    "coverage": "fixed by the serial (unique among masks ever made)",
])
}

private func placedGlyphs(_ input: GlyphInput) -> Fields<PlacedGlyphs> {
    let make = { (i: GlyphInput) in PlacedGlyphs(masks: i.masks, xs: i.xs, ys: i.ys) }
    return Fields<PlacedGlyphs>(type: "PlacedGlyphs", fields: [
        "masks": { _, p in
            var out: [(String, PlacedGlyphs)] = []
            for (name, m) in glyphMask(input.masks[0], "\(p)[0]") { var i = input; i.masks[0] = m; out.append((name, make(i))) }
            var more = input
            more.masks.append(Samples.mask(serial: 77)); more.xs.append(20); more.ys.append(3)
            out.append(("\(p)+1", make(more)))
            return out
        },
        "glyphs": { _, p in
            var x = input; x.xs[1] += 1
            var y = input; y.ys[1] += 1
            return [("\(p)[1].x", make(x)), ("\(p)[1].y", make(y))]
        },
    ], exempt: [
        "bounds": "the union of the glyphs' rectangles, made from masks and positions in the only initialiser",
    ])
}

private var displayList: Fields<DisplayList> {
Fields<DisplayList>(type: "DisplayList", fields: [
    "items": field(\.items, array(Samples.item(.fill(Samples.rounded, SIMD4(0, 0, 1, 1)))) { drawItem($0, $1) }),
    "maskMode": field(\.maskMode, leaf { [$0 == .alpha ? .luminance : .alpha] }),
    // A layer's effects: each case added, and each of its values changed in turn.
    "effects": field(\.effects, leaf { base in
        let c = SIMD4<Float>(0.2, 0.4, 0.6, 1), d = SIMD4<Float>(0.3, 0.4, 0.6, 1)
        let one: [[GroupEffect]] = [
            [.fill(color: c, opacity: 0.5)], [.fill(color: d, opacity: 0.5)], [.fill(color: c, opacity: 0.25)],
            [.tint(black: c, white: c, amount: 0.5)], [.tint(black: d, white: c, amount: 0.5)],
            [.tint(black: c, white: d, amount: 0.5)], [.tint(black: c, white: c, amount: 0.25)],
            [.tritone(highlights: c, midtones: c, shadows: c, blend: 0)], [.tritone(highlights: d, midtones: c, shadows: c, blend: 0)],
            [.tritone(highlights: c, midtones: d, shadows: c, blend: 0)], [.tritone(highlights: c, midtones: c, shadows: d, blend: 0)],
            [.tritone(highlights: c, midtones: c, shadows: c, blend: 0.5)],
            [.blur(sigmaX: 2, sigmaY: 2)], [.blur(sigmaX: 3, sigmaY: 2)], [.blur(sigmaX: 2, sigmaY: 3)],
        ]
        func ramp(_ h: Homography = .identity, _ a: SIMD2<Double> = [0, 0], _ b: SIMD2<Double> = [1, 1], _ c0: SIMD4<Float>? = nil,
                  _ c1: SIMD4<Float>? = nil, radial: Bool = false, blend: Float = 0) -> [GroupEffect] {
            [.ramp(toLayer: h, start: a, end: b, startColor: c0 ?? c, endColor: c1 ?? c, radial: radial, blend: blend)]
        }
        let ramps: [[GroupEffect]] = [
            ramp(), ramp(Homography(2, 0, 0, 0, 1, 0, 0, 0, 1)), ramp(.identity, [1, 0]), ramp(.identity, [0, 1]),
            ramp(.identity, [0, 0], [2, 1]), ramp(.identity, [0, 0], [1, 2]), ramp(.identity, [0, 0], [1, 1], d),
            ramp(.identity, [0, 0], [1, 1], c, d), ramp(radial: true), ramp(blend: 0.5),
        ]
        return (one + ramps).map { base + $0 }
    }),
], exempt: [
    "effectSlot": "a cache of the group's pixels with its effects, a function of the other fields, filled while the tiles are drawn",
])
}

private var shadowPaint: Fields<ShadowPaint> {
Fields<ShadowPaint>(type: "ShadowPaint", fields: [
    "source": field(\.source, displayList.variants), "color": field(\.color, simd4),
    "dx": field(\.dx, number()), "dy": field(\.dy, number()),
    "sigma": { b, p in [(p, ShadowPaint(source: b.source, color: b.color, dx: b.dx, dy: b.dy, sigma: b.sigma + 1))] },
], exempt: ["kernel": "a function of `sigma`, made from it in the only initialiser",
            "maskSlot": "a cache of the blurred silhouette, a function of the other fields, filled while the tiles are drawn"])
}

private var depthPlane: Fields<DepthPlane> {
Fields<DepthPlane>(type: "DepthPlane", fields: [
    "mapper": field(\.mapper, homography.variants),
    "zu": field(\.zu, number()), "zv": field(\.zv, number()), "z0": field(\.z0, number()),
    "wu": field(\.wu, number()), "wv": field(\.wv, number()), "w0": field(\.w0, number()),
])
}

private var depthFace: Fields<DepthFace> {
Fields<DepthFace>(type: "DepthFace", fields: [
    "items": field(\.items, displayList.variants), "plane": field(\.plane, depthPlane.variants),
])
}

/// The enum payloads: Mirror shows the case and the labels of its payload.
private func payloadLabels(_ op: DrawOp) -> (String, [String]) {
    guard let child = Mirror(reflecting: op).children.first else { return ("?", []) }
    let payload = Mirror(reflecting: child.value)
    return (child.label ?? "?", payload.displayStyle == .tuple ? payload.children.map { $0.label ?? "?" } : ["single"])
}

private func drawOp(_ op: DrawOp, _ path: String) -> [(String, DrawOp)] {
    let (name, labels) = payloadLabels(op)
    let p = "\(path).\(name)"
    func expect(_ known: [String]) {
        XCTAssertEqual(labels, known, "\(p): DrawOp.\(name) has a payload the fingerprint test does not know; fingerprint the new part "
                                        + "(Compositor/ItemFingerprints.swift) and teach FingerprintCompletenessTests to change it")
    }
    func each<V>(_ v: V, _ label: String, _ vary: Variants<V>, _ rebuild: (V) -> DrawOp) -> [(String, DrawOp)] {
        vary(v, "\(p).\(label)").map { ($0.0, rebuild($0.1)) }
    }
    switch op {  // exhaustive: a new case must be added here (and to OpCase, which needs a sample)
    case .fill(let r, let c):
        expect([".0", ".1"])
        return each(r, "0", roundedRect.variants) { .fill($0, c) } + each(c, "1", simd4) { .fill(r, $0) }
    case .ring(let outer, let inner, let c):
        expect(["outer", "inner", ".2"])
        return each(outer, "outer", roundedRect.variants) { .ring(outer: $0, inner: inner, c) }
            + each(inner, "inner", roundedRect.variants) { .ring(outer: outer, inner: $0, c) }
            + each(c, "2", simd4) { .ring(outer: outer, inner: inner, $0) }
    case .image(let placement, let clip, let opacity):
        expect([".0", "clip", "opacity"])
        return each(placement, "0", imagePlacement.variants) { .image($0, clip: clip, opacity: opacity) }
            + each(clip, "clip", optional(Samples.rounded, roundedRect.variants)) { .image(placement, clip: $0, opacity: opacity) }
            + each(opacity, "opacity", number()) { .image(placement, clip: clip, opacity: $0) }
    case .gradient(let paint, let clip):
        expect([".0", "clip"])
        return each(paint, "0", gradientPaint.variants) { .gradient($0, clip: clip) }
            + each(clip, "clip", roundedRect.variants) { .gradient(paint, clip: $0) }
    case .group(let list, let opacity, let mask):
        expect([".0", "opacity", "mask"])
        return each(list, "0", displayList.variants) { .group($0, opacity: opacity, mask: mask) }
            + each(opacity, "opacity", number()) { .group(list, opacity: $0, mask: mask) }
            + each(mask, "mask", optional(Samples.list, displayList.variants)) { .group(list, opacity: opacity, mask: $0) }
    case .mix(let from, let to, let t):
        expect(["from", "to", "t"])
        return each(from, "from", displayList.variants) { .mix(from: $0, to: to, t: t) }
            + each(to, "to", displayList.variants) { .mix(from: from, to: $0, t: t) }
            + each(t, "t", number()) { .mix(from: from, to: to, t: $0) }
    case .depthComposite(let faces):
        expect(["single"])
        return each(faces, "0", array(Samples.face, depthFace.variants)) { .depthComposite($0) }
    case .shadow(let s):
        expect(["single"])
        return each(s, "0", shadowPaint.variants) { .shadow($0) }
    case .vector(let shape, let c):
        expect([".0", "color"])
        return each(shape, "0", vectorShape.variants) { .vector($0, color: c) }
            + each(c, "color", simd4) { .vector(shape, color: $0) }
    case .glyphs(let placed, let c):
        expect([".0", "color"])
        return each(placed, "0", placedGlyphs(Samples.glyphInput).variants) { .glyphs($0, color: c) }
            + each(c, "color", simd4) { .glyphs(placed, color: $0) }
    }
}

private enum OpCase: CaseIterable { case fill, ring, image, gradient, group, mix, depthComposite, shadow, vector, glyphs }

private func opCase(_ op: DrawOp) -> OpCase {
    switch op {  // exhaustive: a new DrawOp case fails to compile until it has an OpCase (and so a sample)
    case .fill: .fill
    case .ring: .ring
    case .image: .image
    case .gradient: .gradient
    case .group: .group
    case .mix: .mix
    case .depthComposite: .depthComposite
    case .shadow: .shadow
    case .vector: .vector
    case .glyphs: .glyphs
    }
}

private func drawItem(_ base: DrawItem, _ path: String) -> [(String, DrawItem)] {
    Fields<DrawItem>(type: "DrawItem", fields: [
        "op": field(\.op, drawOp),
        "plane": field(\.plane, planeMap.variants),
        "bounds": field(\.bounds, pixelRect.variants),
        "clips": field(\.clips, array(Samples.clip, clipShape.variants)),
        "outline": field(\.outline, optional(Samples.quad, screenQuad.variants)),
        "blendMode": field(\.blendMode, blendMode),
    ]).variants(of: base, at: path)
}

/// Sample values, every field set to something distinct.
private enum Samples {
    static let image = CGImage(bitmap: Bitmap(width: 4, height: 4))
    static let rounded = RoundedRect(rect: CGRect(x: 1, y: 2, width: 30, height: 20), radii: (1, 2, 3, 4))
    static let homography = Homography(1.5, 0.1, 0.001, 0.2, 1.25, 0.002, 7, 9, 1)
    static let plane = PlaneMap(toScreen: homography, fromScreen: Homography(0.5, 0, 0, 0, 0.5, 0, -3, -4, 1), antialiased: true)
    static let clip = ClipShape(plane: plane, shape: rounded, bounds: PixelRect(x0: 1, y0: 2, x1: 40, y1: 30))
    static let quad = ScreenQuad(xs: SIMD4(1, 30, 31, 2), ys: SIMD4(2, 3, 20, 21))
    static func item(_ op: DrawOp, clips: [ClipShape] = [clip], outline: ScreenQuad? = quad) -> DrawItem {
        DrawItem(op: op, plane: plane, bounds: PixelRect(x0: 0, y0: 1, x1: 48, y1: 32), clips: clips, outline: outline)
    }
    static let list = DisplayList(items: [item(.fill(rounded, SIMD4(1, 0, 0, 1)))])
    static let face = DepthFace(items: list, plane: DepthPlane(fromScreen: homography, layerTo3D: CATransform3DMakeTranslation(1, 2, 3)))
    static func mask(serial: UInt64) -> GlyphMask {
        GlyphMask(serial: serial, left: 1, top: 2, width: 3, height: 2, coverage: [0, 0.5, 1, 1, 0.5, 0])
    }
    static let glyphInput = GlyphInput(masks: [mask(serial: 5), mask(serial: 6)], xs: [4, 9], ys: [7, 7])
    static let shape = ShapeContent(path: CGPath(elements: [.moveToPoint(CGPoint(x: 0, y: 0)), .addLineToPoint(CGPoint(x: 20, y: 0)),
                                                            .addLineToPoint(CGPoint(x: 10, y: 15)), .closeSubpath]),
                                    fillColor: RGBA(r: 1, g: 0, b: 0, a: 1), fillRule: .evenOdd, strokeColor: RGBA(r: 0, g: 0, b: 1, a: 1),
                                    lineWidth: 2, lineCap: .round, lineJoin: .bevel, miterLimit: 4, dashPattern: [3, 1], dashPhase: 0.5,
                                    strokeStart: 0.1, strokeEnd: 0.9)
    static let gradient = GradientPaint(GradientSnapshot(type: .axial, colors: [RGBA(r: 1, g: 0, b: 0, a: 1), RGBA(r: 0, g: 1, b: 0, a: 0.5)],
                                                         locations: [0, 1], startPoint: CGPoint(x: 0, y: 0), endPoint: CGPoint(x: 1, y: 0.5)),
                                        bounds: CGRect(x: 0, y: 0, width: 40, height: 20), opacity: 0.75)!

    /// One item per kind of op, and the optional parts both set and unset.
    static var items: [DrawItem] {
        let full = ImagePlacement(image: image, destination: CGRect(x: 0, y: 0, width: 10, height: 8), source: CGRect(x: 0, y: 0, width: 4, height: 4),
                                  nearest: false, cell: CGRect(x: 0, y: 0, width: 5, height: 4), coverage: CGRect(x: 0, y: 0, width: 10, height: 9),
                                  blend: (image: CGImage(bitmap: Bitmap(width: 2, height: 2)), weight: 0.25),
                                  tint: SIMD4(0, 0, 0, 0.5), modulate: SIMD4(0.25, 0.5, 0.75, 1))
        let bare = ImagePlacement(image: image, destination: CGRect(x: 0, y: 0, width: 10, height: 8),
                                  source: CGRect(x: 0, y: 0, width: 4, height: 4), nearest: true)
        var additive = item(.image(full, clip: rounded, opacity: 0.5))
        additive.blendMode = .additive
        var multiplied = item(.group(list, opacity: 1, mask: nil))
        multiplied.blendMode = .blend(.multiply)
        let ops: [DrawOp] = [
            .fill(rounded, SIMD4(1, 0.5, 0.25, 1)),
            .ring(outer: rounded, inner: rounded.inset(by: 2), SIMD4(0, 0, 1, 1)),
            .image(full, clip: rounded, opacity: 0.5),
            .image(bare, clip: nil, opacity: 1),
            .gradient(gradient, clip: rounded),
            .group(list, opacity: 0.5, mask: list),
            .group(list, opacity: 1, mask: nil),
            .mix(from: list, to: DisplayList(items: [item(.fill(rounded, SIMD4(0, 1, 0, 1)))]), t: 0.25),
            .depthComposite([face, face]),
            .shadow(ShadowPaint(source: list, color: SIMD4(0, 0, 0, 0.5), dx: 2, dy: 3, sigma: 1.5)),
            .vector(VectorShape(content: shape, part: .fill, toScreen: homography, scale: 1.5, region: PixelRect(x0: 0, y0: 1, x1: 48, y1: 32)),
                    color: SIMD4(1, 0, 0, 1)),
            .vector(VectorShape(content: shape, part: .stroke, toScreen: homography, scale: 1.5, region: PixelRect(x0: 0, y0: 1, x1: 48, y1: 32)),
                    color: SIMD4(0, 0, 1, 1)),
            .glyphs(PlacedGlyphs(masks: glyphInput.masks, xs: glyphInput.xs, ys: glyphInput.ys), color: SIMD4(0, 0, 0, 1)),
        ]
        return ops.map { item($0) } + [additive, multiplied, item(.fill(rounded, SIMD4(1, 1, 1, 1)), clips: [], outline: nil)]
    }
}

final class FingerprintCompletenessTests: XCTestCase {
    private func words(_ item: DrawItem) -> [UInt64] { ItemFingerprints(DisplayList(items: [item])).words }

    /// Every field of every kind of draw item, changed alone, changes the item's fingerprint.
    func testEveryFieldDrawingReadsIsFingerprinted() {
        let samples = Samples.items
        XCTAssertEqual(Set(samples.map { opCase($0.op) }), Set(OpCase.allCases), "a sample for every kind of op")
        var checked = 0
        for (n, item) in samples.enumerated() {
            let base = words(item)
            XCTAssertEqual(words(item), base, "fingerprints are deterministic")
            for (path, variant) in drawItem(item, "items[\(n)]") {
                XCTAssertTrue(words(variant) != base, "\(path) changed but the fingerprint did not: FrameHistory would reuse stale tiles")
                checked += 1
            }
        }
        // A floor, so that the reflection cannot quietly find nothing.
        XCTAssertGreaterThan(checked, 400)
        print("FingerprintCompletenessTests: \(checked) single-field variants of \(samples.count) sample items checked")
    }

    /// The check itself fails on a field it does not know and on an entry for a field that is gone.
    func testTheCheckFailsOnAnUnknownOrVanishedField() {
        struct Probe { var known = 1.0; var unknown = 2.0 }
        let partial = Fields<Probe>(type: "Probe", fields: ["known": field(\.known, number()), "gone": field(\.known, number())])
        let log = FailureLog()
        let vs = Report.$log.withValue(log) { partial.variants(of: Probe(), at: "probe") }
        XCTAssertEqual(vs.count, 1)
        XCTAssertEqual(log.messages.count, 2, "\(log.messages)")
        XCTAssertTrue(log.messages.contains { $0.hasPrefix("probe.unknown: Probe has a field the fingerprint test does not know") }, "\(log.messages)")
        XCTAssertTrue(log.messages.contains { $0.hasPrefix("Probe.gone: listed in FingerprintCompletenessTests") }, "\(log.messages)")
        // The variants differ from the base in the one field only.
        let all = Fields<Probe>(type: "Probe", fields: ["known": field(\.known, number()), "unknown": field(\.unknown, number())])
        let both = all.variants(of: Probe(), at: "probe")
        XCTAssertEqual(both.map(\.1.known), [2, 1])
        XCTAssertEqual(both.map(\.1.unknown), [2, 3])
    }
}
