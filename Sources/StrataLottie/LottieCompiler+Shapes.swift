// Shape layers: a group is a node with its transform; paths (rectangle, ellipse, polystar, path)
// collect in list order and every fill, stroke or gradient fill becomes a CAShapeLayer (a
// CAGradientLayer masked by one) drawing the paths above it in its group and nested groups.
// Trim paths change the paths above them, whatever style draws them. The first item is on top.
import Foundation
import Strata

/// A path's contours at any frame of the layer.
struct PathSource {
    let contours: (Double) -> [LottieBezier]
    let isAnimated: Bool
    /// A lone `sh` path, untrimmed and untransformed: its keyframes can morph natively.
    var keyframed: LottieAnimated<LottieBezier>?
}

private struct TrimItem {
    let start: LottieAnimated<[Double]>, end: LottieAnimated<[Double]>, offset: LottieAnimated<[Double]>?
    var isAnimated: Bool { start.isAnimated || end.isAnimated || (offset?.isAnimated ?? false) }
    func values(_ f: Double) -> LottieTrimValues {
        LottieTrimValues(start: start.value(at: f)[0] / 100, end: end.value(at: f)[0] / 100, offset: (offset?.value(at: f)[0] ?? 0) / 360)
    }
}

extension LottieCompiler {
    func compileShapes(_ items: [LottieShapeItem], into parent: CALayer, _ time: LottieTime, path: String) throws {
        _ = try compileGroup(items, into: parent, time, trims: [], path: path)
    }

    private func trimsAfter(_ items: ArraySlice<LottieShapeItem>) -> [TrimItem] {
        items.compactMap { if case .trim(let s, let e, let o, _) = $0 { TrimItem(start: s, end: e, offset: o) } else { nil } }
    }

    /// Compiles a group's items into `parent`; returns its paths (in the group's coordinates,
    /// already trimmed) for the styles of the groups around it.
    private func compileGroup(_ items: [LottieShapeItem], into parent: CALayer, _ time: LottieTime, trims inherited: [TrimItem],
                              path: String) throws -> [PathSource] {
        var sources: [PathSource] = []
        var drawn: [CALayer] = []   // list order: the first is on top
        for (i, item) in items.enumerated() {
            let itemPath = "\(path)[\(i)]"
            let trims = trimsAfter(items[(i + 1)...]) + inherited
            switch item {
            case .group(let sub, let transform):
                let outer: CALayer, inner: CALayer
                // The group's transform is its last item ("tr"), after the `sub.count` others.
                if let transform { (outer, inner) = try transformNodes(transform, time, path: itemPath + ".it[\(sub.count)]") } else { outer = node(); inner = outer }
                let inside = try compileGroup(sub, into: inner, time, trims: trims, path: itemPath + ".it")
                drawn.append(outer)
                let animatedTransform = Self.transformIsAnimated(transform)
                for s in inside {
                    if let transform {
                        let fixed = Self.matrix(transform, at: 0)
                        sources.append(PathSource(contours: { f in
                            let m = animatedTransform ? Self.matrix(transform, at: f) : fixed
                            return s.contours(f).map { $0.applying(m) }
                        }, isAnimated: s.isAnimated || animatedTransform))
                    } else {
                        sources.append(PathSource(contours: s.contours, isAnimated: s.isAnimated))
                    }
                }
            case .rectangle, .ellipse, .path, .polystar:
                guard var source = Self.source(item) else { continue }
                if !trims.isEmpty {
                    let inner = source
                    source = PathSource(contours: { f in
                        var c = inner.contours(f)
                        for t in trims {
                            guard let ranges = t.values(f).ranges else { continue }
                            c = c.compactMap { $0.trimmed(ranges) }
                        }
                        return c
                    }, isAnimated: inner.isAnimated || trims.contains { $0.isAnimated })
                }
                sources.append(source)
            case .fill(let color, let opacity, let evenOdd):
                let s = try shapeLayer(sources, time, path: itemPath)
                s.strokeColor = nil
                s.fillRule = evenOdd ? .evenOdd : .nonZero
                try animate(s, "fillColor", color, time, path: itemPath + ".c", Self.color)
                if let opacity { try animate(s, "opacity", opacity, time, path: itemPath + ".o") { Float(min(max($0[0] / 100, 0), 1)) } }
                drawn.append(s)
            case .stroke(let color, let opacity, let width, let cap, let join, let miter, let dashes):
                let s = try shapeLayer(sources, time, path: itemPath)
                s.fillColor = nil
                try animate(s, "strokeColor", color, time, path: itemPath + ".c", Self.color)
                if let opacity { try animate(s, "opacity", opacity, time, path: itemPath + ".o") { Float(min(max($0[0] / 100, 0), 1)) } }
                try animate(s, "lineWidth", width, time, path: itemPath + ".w") { CGFloat(max($0[0], 0)) }
                s.lineCap = cap == 1 ? .butt : cap == 3 ? .square : .round
                s.lineJoin = join == 1 ? .miter : join == 3 ? .bevel : .round
                s.miterLimit = miter
                let lengths = dashes.filter { $0.kind != "o" }
                if !lengths.isEmpty {
                    if lengths.contains(where: { $0.value.isAnimated }) { notes.add(itemPath + ".d", "animated dash lengths (the first keyframe's are used)") }
                    var pattern = lengths.map { max($0.value.initial[0], 0) }
                    if pattern.count % 2 == 1 { pattern += pattern }
                    if pattern.contains(where: { $0 > 0 }) {
                        s.lineDashPattern = pattern.map { NSNumber(value: $0) }
                        if let o = dashes.first(where: { $0.kind == "o" }) {
                            try animate(s, "lineDashPhase", o.value, time, path: itemPath + ".d") { CGFloat($0[0]) }
                        }
                    }
                }
                drawn.append(s)
            case .gradientFill(let g, let evenOdd):
                drawn.append(try gradientLayer(g, sources, time, path: itemPath, margin: 2) { mask in
                    mask.fillRule = evenOdd ? .evenOdd : .nonZero
                    mask.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                })
            case .gradientStroke(let g, let width, let cap, let join, let miter):
                let widest = (width.isAnimated ? width.keyframes.map(\.value) : [width.initial]).compactMap(\.first).max() ?? 0
                var failure: Error?
                drawn.append(try gradientLayer(g, sources, time, path: itemPath, margin: widest * max(miter, 1) / 2 + 2) { mask in
                    mask.fillColor = nil
                    mask.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                    mask.lineCap = cap == 1 ? .butt : cap == 3 ? .square : .round
                    mask.lineJoin = join == 1 ? .miter : join == 3 ? .bevel : .round
                    mask.miterLimit = miter
                    do { try self.animate(mask, "lineWidth", width, time, path: itemPath + ".w") { CGFloat(max($0[0], 0)) } } catch { failure = error }
                })
                if let failure { throw failure }
            case .repeater(let r):
                // Everything above the repeater in its group is copied: the layers drawn so far
                // by a CAReplicatorLayer, the paths for the styles below it as geometry.
                let (holder, copies) = try repeater(r, drawn, time, path: itemPath)
                drawn = [holder]
                let inner = sources
                sources = [PathSource(contours: { f in
                    let c = inner.flatMap { $0.contours(f) }
                    return copies(f).flatMap { m in c.map { $0.applying(m) } }
                }, isAnimated: inner.contains(where: \.isAnimated) || Self.repeaterIsAnimated(r))]
            case .trim, .transform, .ignored:
                break
            }
        }
        for l in drawn.reversed() { parent.addSublayer(l) }
        return sources
    }

    static func transformIsAnimated(_ t: LottieTransform?) -> Bool {
        guard let t else { return false }
        return [t.anchor, t.position, t.positionX, t.positionY, t.scale, t.rotation, t.skew, t.skewAxis].contains { $0?.isAnimated ?? false }
    }

    static func color(_ v: [Double]) -> CGColor {
        // Some exporters write 0…255.
        let scale = v.prefix(3).contains { $0 > 1 } ? 255.0 : 1.0
        func c(_ i: Int) -> Double { i < v.count ? min(max(v[i] / scale, 0), 1) : 0 }
        return CGColor(red: c(0), green: c(1), blue: c(2), alpha: v.count > 3 ? min(max(v[3], 0), 1) : 1)
    }

    static func point(_ p: LottieAnimated<[Double]>, _ f: Double) -> CGPoint {
        let v = p.value(at: f)
        return CGPoint(x: v[0], y: v.count > 1 ? v[1] : 0)
    }

    static func source(_ item: LottieShapeItem) -> PathSource? {
        func num(_ p: LottieAnimated<[Double]>?, _ f: Double, _ d: Double = 0) -> Double { p?.value(at: f).first ?? d }
        switch item {
        case .path(let shape, let reversed):
            return PathSource(contours: { f in [reversed ? shape.value(at: f).reversed() : shape.value(at: f)] },
                              isAnimated: shape.isAnimated, keyframed: reversed ? nil : shape)
        case .rectangle(let p, let s, let r, let reversed):
            return PathSource(contours: { f in
                let size = s.value(at: f)
                let b = LottieShapes.rectangle(center: point(p, f), size: CGSize(width: size[0], height: size[1]), radius: num(r, f))
                return [reversed ? b.reversed() : b]
            }, isAnimated: p.isAnimated || s.isAnimated || (r?.isAnimated ?? false))
        case .ellipse(let p, let s, let reversed):
            return PathSource(contours: { f in
                let size = s.value(at: f)
                let b = LottieShapes.ellipse(center: point(p, f), size: CGSize(width: size[0], height: size[1]))
                return [reversed ? b.reversed() : b]
            }, isAnimated: p.isAnimated || s.isAnimated)
        case .polystar(let star, let p, let pt, let or, let ir, let os, let is_, let rot, let reversed):
            let animated = [p, pt, or, ir, os, is_, rot].contains { $0?.isAnimated ?? false }
            return PathSource(contours: { f in
                let b = LottieShapes.polystar(center: point(p, f), points: num(pt, f, 5), star: star, outerRadius: num(or, f),
                                       innerRadius: num(ir, f), outerRoundness: num(os, f), innerRoundness: num(is_, f), rotation: num(rot, f))
                return [reversed ? b.reversed() : b]
            }, isAnimated: animated)
        default:
            return nil
        }
    }

    /// The concatenated contours of `sources` as a CGPath (`curves`: LottieBezier.add(to:curves:)).
    static func cgPath(_ contours: [LottieBezier], curves: [Bool]? = nil) -> CGPath {
        let p = CGMutablePath()
        for c in contours { c.add(to: p, curves: curves) }
        return p
    }

    /// The segments drawn as curves in every keyframe of an animated path: those curved in any
    /// keyframe (nil when the keyframes' contours differ in their number of segments).
    static func curvedInAnyKeyframe(_ p: LottieAnimated<LottieBezier>) -> [Bool]? {
        let all = p.keyframes.map(\.value.curvedSegments)
        guard let first = all.first, all.allSatisfy({ $0.count == first.count }) else { return nil }
        return first.indices.map { i in all.contains { $0[i] } }
    }

    /// A shape layer drawing `sources`: a static path, native keyframes (a lone path), or sampled.
    private func shapeLayer(_ sources: [PathSource], _ time: LottieTime, path: String) throws -> CAShapeLayer {
        let s = CAShapeLayer()
        s.anchorPoint = .zero
        s.bounds = .zero
        try setPath(s, "path", sources, time, path: path)
        return s
    }

    private func setPath(_ layer: CALayer, _ key: String, _ sources: [PathSource], _ time: LottieTime, path: String) throws {
        if sources.count == 1, let k = sources[0].keyframed {
            let curves = Self.curvedInAnyKeyframe(k)
            try animate(layer, key, k, time, path: path) { b in Self.cgPath([b], curves: curves) }
        } else if sources.contains(where: \.isAnimated) {
            try animateSampled(layer, key, time, path: path) { f in Self.cgPath(sources.flatMap { $0.contours(f) }) }
        } else {
            layer.setValue(Self.cgPath(sources.flatMap { $0.contours(0) }), forKeyPath: key)
        }
    }

    // MARK: Repeaters

    static func repeaterIsAnimated(_ r: LottieRepeater) -> Bool {
        r.copies.isAnimated || (r.offset?.isAnimated ?? false) || transformIsAnimated(r.transform)
            || (r.startOpacity?.isAnimated ?? false) || (r.endOpacity?.isAnimated ?? false)
    }

    /// The repeater's step (the transform that turns copy k − 1 into copy k) at a frame: scale
    /// and rotation about the anchor point, then the position as an offset.
    static func repeaterStep(_ r: LottieRepeater, _ f: Double) -> CGAffineTransform {
        var t = r.transform
        t.opacity = nil
        let a = t.anchor?.value(at: f) ?? [0, 0]
        return matrix(t, at: f).concatenating(CGAffineTransform(translationX: a[0], y: a.count > 1 ? a[1] : 0))
    }

    static func power(_ m: CGAffineTransform, _ n: Int) -> CGAffineTransform {
        var out = CGAffineTransform.identity
        let step = n < 0 ? m.inverted() : m
        for _ in 0..<abs(n) { out = out.concatenating(step) }
        return out
    }

    /// A replicator of `drawn` (in a holder carrying the offset), and each copy's matrix at a frame.
    private func repeater(_ r: LottieRepeater, _ drawn: [CALayer], _ time: LottieTime, path: String) throws
        -> (CALayer, (Double) -> [CGAffineTransform]) {
        let holder = node()
        let rep = CAReplicatorLayer()
        rep.anchorPoint = .zero
        rep.bounds = .zero
        for l in drawn.reversed() { rep.addSublayer(l) }
        holder.addSublayer(rep)
        let limit = Double(animation.limits.repeaterCopies)
        let count: (Double) -> Int = { f in Int(min(max(r.copies.value(at: f)[0], 0), limit).rounded(.up)) }
        let offset: (Double) -> Int = { f in Int(min(max((r.offset?.value(at: f)[0] ?? 0), -limit), limit).rounded()) }
        if let o = r.offset, (o.isAnimated ? o.keyframes.map(\.value) : [o.initial]).contains(where: { $0[0] != $0[0].rounded() }) {
            notes.add(path + ".o", "a fractional repeater offset (rounded to whole copies)")
        }
        try animate(rep, "instanceCount", r.copies, time, path: path + ".c") { CGFloat(min(max($0[0], 0), limit).rounded(.up)) }
        let stepTransform: (Double) -> CATransform3D = { CATransform3DMakeAffineTransform(Self.repeaterStep(r, $0)) }
        let offsetTransform: (Double) -> CATransform3D = { f in CATransform3DMakeAffineTransform(Self.power(Self.repeaterStep(r, f), offset(f))) }
        let opacities: (Double) -> (Float, Float) = { f in
            let so = (r.startOpacity?.value(at: f)[0] ?? 100) / 100, eo = (r.endOpacity?.value(at: f)[0] ?? 100) / 100
            let n = count(f)
            return (Float(min(max(so, 0), 1)), n > 1 ? Float((eo - so) / Double(n - 1)) : 0)
        }
        if Self.repeaterIsAnimated(r) {
            try animateSampled(rep, "instanceTransform", time, path: path + ".tr") { stepTransform($0) }
            try animateSampled(holder, "transform", time, path: path + ".o") { offsetTransform($0) }
            try animateSampled(rep, "instanceColor", time, path: path + ".tr.so") { CGColor(red: 1, green: 1, blue: 1, alpha: CGFloat(opacities($0).0)) }
            try animateSampled(rep, "instanceAlphaOffset", time, path: path + ".tr.eo") { opacities($0).1 }
        } else {
            rep.instanceTransform = stepTransform(0)
            holder.transform = offsetTransform(0)
            let (alpha, step) = opacities(0)
            rep.instanceColor = CGColor(red: 1, green: 1, blue: 1, alpha: CGFloat(alpha))
            rep.instanceAlphaOffset = step
        }
        let copies: (Double) -> [CGAffineTransform] = { f in
            let step = Self.repeaterStep(r, f)
            var m = Self.power(step, offset(f))
            var out: [CGAffineTransform] = []
            for _ in 0..<count(f) { out.append(m); m = m.concatenating(step) }
            return out
        }
        return (holder, copies)
    }

    // MARK: Gradients

    /// A gradient fill or stroke: a CAGradientLayer over the paths' bounds (plus `margin`),
    /// masked by a shape layer of the paths that `style` fills or strokes.
    private func gradientLayer(_ g: LottieGradient, _ sources: [PathSource], _ time: LottieTime,
                               path: String, margin: Double, style: (CAShapeLayer) -> Void) throws -> CALayer {
        // Bounds: the paths over the layer's visible frames (sampled coarsely), with a margin.
        var box = CGRect.null
        let lo = time.range.lowerBound, hi = time.range.upperBound
        let steps = sources.contains(where: \.isAnimated) ? 24 : 0
        for i in 0...steps {
            let g0 = lo + (hi - lo) * Double(i) / Double(max(steps, 1))
            box = box.union(Self.cgPath(sources.flatMap { $0.contours(time.remap?(g0) ?? g0) }).boundingBox)
        }
        if box.isNull { box = CGRect(x: 0, y: 0, width: 0, height: 0) }
        box = box.insetBy(dx: -margin, dy: -margin)
        box.size = CGSize(width: max(box.width, 1), height: max(box.height, 1))
        let layer = CAGradientLayer()
        layer.anchorPoint = .zero
        layer.frame = box
        layer.type = g.type == 2 ? .radial : .axial
        let mask = CAShapeLayer()
        mask.anchorPoint = .zero
        mask.bounds = .zero
        mask.position = CGPoint(x: -box.minX, y: -box.minY)
        style(mask)
        try setPath(mask, "path", sources, time, path: path)
        layer.mask = mask
        let count = g.colorCount
        let stops: ([Double]) -> (colors: [CGColor], locations: [NSNumber]) = { v in Self.gradientStops(v, count: count) }
        try animate(layer, "colors", g.colors, time, path: path + ".g.k") { stops($0).colors }
        try animate(layer, "locations", g.colors, time, path: path + ".g.k") { stops($0).locations }
        let radial = g.type == 2
        let unit: (CGPoint) -> CGPoint = { p in CGPoint(x: (p.x - box.minX) / box.width, y: (p.y - box.minY) / box.height) }
        let ends: (Double) -> (CGPoint, CGPoint) = { f in
            let s = Self.point(g.start, f), e = Self.point(g.end, f)
            if radial {
                let r = hypot(e.x - s.x, e.y - s.y)
                return (unit(s), CGPoint(x: unit(s).x + r / box.width, y: unit(s).y + r / box.height))
            }
            return (unit(s), unit(e))
        }
        if g.start.isAnimated || g.end.isAnimated {
            try animateSampled(layer, "startPoint", time, path: path + ".s") { ends($0).0 }
            try animateSampled(layer, "endPoint", time, path: path + ".e") { ends($0).1 }
        } else {
            (layer.startPoint, layer.endPoint) = ends(0)
        }
        if let o = g.opacity { try animate(layer, "opacity", o, time, path: path + ".o") { Float(min(max($0[0] / 100, 0), 1)) } }
        return layer
    }

    /// Colour stops (offset, r, g, b per stop) merged with the opacity stops (offset, alpha)
    /// that may follow: every position of either list, the other interpolated there.
    static func gradientStops(_ v: [Double], count: Int) -> (colors: [CGColor], locations: [NSNumber]) {
        var colorStops: [(Double, [Double])] = []
        for i in 0..<count where i * 4 + 3 < v.count { colorStops.append((v[i * 4], Array(v[(i * 4 + 1)...(i * 4 + 3)]))) }
        var alphaStops: [(Double, Double)] = []
        var j = count * 4
        while j + 1 < v.count { alphaStops.append((v[j], v[j + 1])); j += 2 }
        func colorAt(_ x: Double) -> [Double] {
            guard let first = colorStops.first, let last = colorStops.last else { return [0, 0, 0] }
            if x <= first.0 { return first.1 }
            if x >= last.0 { return last.1 }
            for k in 1..<colorStops.count where colorStops[k].0 >= x {
                let a = colorStops[k - 1], b = colorStops[k]
                let t = b.0 > a.0 ? (x - a.0) / (b.0 - a.0) : 1
                return a.1.interpolated(to: b.1) { _ in t }
            }
            return last.1
        }
        func alphaAt(_ x: Double) -> Double {
            guard let first = alphaStops.first, let last = alphaStops.last else { return 1 }
            if x <= first.0 { return first.1 }
            if x >= last.0 { return last.1 }
            for k in 1..<alphaStops.count where alphaStops[k].0 >= x {
                let a = alphaStops[k - 1], b = alphaStops[k]
                let t = b.0 > a.0 ? (x - a.0) / (b.0 - a.0) : 1
                return a.1 + (b.1 - a.1) * t
            }
            return last.1
        }
        let positions = Array(Set(colorStops.map(\.0) + alphaStops.map(\.0))).sorted()
        let colors = positions.map { x -> CGColor in
            let c = colorAt(x)
            return CGColor(red: c[0], green: c[1], blue: c[2], alpha: min(max(alphaAt(x), 0), 1))
        }
        return (colors, positions.map { NSNumber(value: min(max($0, 0), 1)) })
    }
}
