// Shape layers: a group is a node with its transform; paths (rectangle, ellipse, polystar, path)
// collect in list order and every fill, stroke or gradient fill becomes a CAShapeLayer (a
// CAGradientLayer masked by one) drawing the paths above it in its group and nested groups.
// Modifiers (trim paths, rounded corners, pucker/bloat, zig-zag, offset path) change the paths
// above them, whatever style draws them (LottiePathModifiers.swift). Merge paths (modes 2…5)
// replace the paths above them with their combined outline (LottiePathBoolean.swift), which the
// styles and modifiers below them then draw and change. The first item is on top.
import Foundation
import Strata

/// The last frame a merge paths computed, and its outline.
final class MergedFrame {
    var frame = 0.0
    var contours: [LottieBezier]?
}

/// A path's contours at any frame of the layer.
struct PathSource {
    let contours: (Double) -> [LottieBezier]
    let isAnimated: Bool
    /// A lone `sh` path, untrimmed and untransformed: its keyframes can morph natively.
    var keyframed: LottieAnimated<LottieBezier>?
}

extension LottieCompiler {
    func compileShapes(_ items: [LottieShapeItem], into parent: CALayer, _ time: LottieTime, path: String) throws {
        let chains = ModifierChains()
        registerSequentialTrims(items, inherited: [], path: path, into: chains)
        _ = try compileGroup(items, into: parent, time, modifiers: [], chains: chains, path: path)
        // Every path was made above (the animated ones pre-sampled): a merge's limit shows now.
        if let failure = chains.failure { throw failure }
    }

    /// Compiles a group's items into `parent`; returns its paths (in the group's coordinates,
    /// already modified) for the styles of the groups around it. `inherited` are the modifiers
    /// below the group in the groups around it, nearest first.
    private func compileGroup(_ items: [LottieShapeItem], into parent: CALayer, _ time: LottieTime, modifiers inherited: [ModifierLink],
                              chains: ModifierChains, path: String) throws -> [PathSource] {
        var sources: [PathSource] = []
        var drawn: [CALayer] = []   // list order: the first is on top
        let links = modifierLinks(items, path: path)
        let merges = Self.mergeIndices(items)
        for (i, item) in items.enumerated() {
            let itemPath = "\(path)[\(i)]"
            // Every modifier below the item changes its paths, nearest first, then the
            // enclosing groups' (the spec's Modifier(…(Modifier(shape)))), up to a merge paths
            // below it, which takes its paths in (the modifiers below the merge change the result).
            let below = Self.links(below: i, links, inherited, until: merges.first { $0 > i })
            switch item {
            case .group(let sub, let transform):
                let outer: CALayer, inner: CALayer
                // The group's transform is its last item ("tr"), after the `sub.count` others.
                if let transform { (outer, inner) = try transformNodes(transform, time, path: itemPath + ".it[\(sub.count)]") } else { outer = node(); inner = outer }
                let inside = try compileGroup(sub, into: inner, time, modifiers: below, chains: chains, path: itemPath + ".it")
                drawn.append(outer)
                let groupMatrix = transform.map { matrix($0, path: itemPath + ".it[\(sub.count)]") }
                let animatedTransform = groupMatrix?.isAnimated ?? false
                for s in inside {
                    if let groupMatrix {
                        let fixed = groupMatrix.value(0)
                        sources.append(PathSource(contours: { f in
                            let m = animatedTransform ? groupMatrix.value(f) : fixed
                            return s.contours(f).map { $0.applying(m) }
                        }, isAnimated: s.isAnimated || animatedTransform))
                    } else {
                        sources.append(PathSource(contours: s.contours, isAnimated: s.isAnimated))
                    }
                }
            case .rectangle, .ellipse, .path, .polystar:
                guard var source = source(item, path: itemPath) else { continue }
                if !below.isEmpty {
                    let inner = source
                    source = PathSource(contours: { f in
                        chains.apply(below[...], inner.contours(f), at: f, member: itemPath)
                    }, isAnimated: inner.isAnimated || chains.isAnimated(below[...], member: itemPath))
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
                try dash(s, dashes, time, path: itemPath)
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
                let (holder, copies, animated) = try repeater(r, drawn, time, path: itemPath)
                drawn = [holder]
                let inner = sources
                sources = [PathSource(contours: { f in
                    let c = inner.flatMap { $0.contours(f) }
                    return copies(f).flatMap { m in c.map { $0.applying(m) } }
                }, isAnimated: inner.contains(where: \.isAnimated) || animated)]
            case .merge(.merge):
                // One compound path of the paths above (what a style over them draws anyway),
                // which a merge further down takes as one path.
                if sources.count > 1 {
                    let inner = sources
                    sources = [PathSource(contours: { f in inner.flatMap { $0.contours(f) } }, isAnimated: inner.contains(where: \.isAnimated))]
                }
            case .merge(let mode):
                let merged = mergedSource(sources, mode, path: itemPath, chains: chains)
                if below.contains(where: \.isSequentialTrim) {
                    notes.add(itemPath, "merged paths under trim paths 'individually' (the merged outline is trimmed on its own)")
                }
                sources = below.isEmpty ? [merged] : [PathSource(contours: { f in
                    chains.apply(below[...], merged.contours(f), at: f, member: itemPath)
                }, isAnimated: merged.isAnimated || chains.isAnimated(below[...], member: itemPath))]
            case .modifier, .transform, .ignored:
                break
            }
        }
        for l in drawn.reversed() { parent.addSublayer(l) }
        return sources
    }

    /// The outline merge paths (mode `mode`, at JSON `path`) makes of `operands` (each path
    /// above it, in order) at any frame: computed once when nothing is animated, else once a
    /// frame (a fill and a stroke below it share the result). A limit passed is recorded in
    /// `chains` (and that frame has no outline).
    private func mergedSource(_ operands: [PathSource], _ mode: LottieMergeMode, path: String, chains: ModifierChains) -> PathSource {
        let limits = animation.limits
        let last = MergedFrame()
        let outline: (Double) -> [LottieBezier] = { [weak chains] f in
            if let c = last.contours, last.frame == f { return c }
            var boolean = LottiePathBoolean()
            boolean.segmentLimit = limits.mergeSegments
            let left = max(limits.mergeStepsInAll - self.mergeSteps, 0)
            boolean.stepLimit = min(limits.mergeSteps, left)
            var result: [LottieBezier] = []
            do {
                result = try boolean.combine(operands.map { $0.contours(f) }, mode: mode)
            } catch LottiePathBoolean.Failure.segments(let n) {
                chains?.fail(LottieError(path: path, "merge paths: \(n) segments (curves flattened), over the limit of \(limits.mergeSegments)"))
            } catch {
                chains?.fail(LottieError(path: path, left < limits.mergeSteps
                    ? "merge paths: more than \(limits.mergeStepsInAll) steps in all merge paths, over the limit"
                    : "merge paths: more than \(limits.mergeSteps) steps to combine the paths, over the limit"))
            }
            self.mergeSteps += boolean.stepsTaken
            (last.frame, last.contours) = (f, result)
            return result
        }
        guard !operands.contains(where: \.isAnimated) else { return PathSource(contours: outline, isAnimated: true) }
        let fixed = outline(0)
        return PathSource(contours: { _ in fixed }, isAnimated: false)
    }

    static func color(_ v: [Double]) -> CGColor {
        // Some exporters write 0…255.
        let scale = v.prefix(3).contains { $0 > 1 } ? 255.0 : 1.0
        func c(_ i: Int) -> Double { i < v.count ? min(max(v[i] / scale, 0), 1) : 0 }
        return CGColor(red: c(0), green: c(1), blue: c(2), alpha: v.count > 3 ? min(max(v[3], 0), 1) : 1)
    }

    /// A shape's contours at any frame, its properties' expressions applied (`path`: the item's JSON path).
    func source(_ item: LottieShapeItem, path: String) -> PathSource? {
        typealias Sampled = (value: (Double) -> [Double], isAnimated: Bool)
        func sampled(_ p: LottieAnimated<[Double]>?, _ key: String) -> Sampled? { p.map { sampler($0, path: path + "." + key) } }
        func num(_ p: Sampled?, _ f: Double, _ d: Double = 0) -> Double { p?.value(f).first ?? d }
        func point(_ p: Sampled, _ f: Double) -> CGPoint { let v = p.value(f); return CGPoint(x: v[0], y: v.count > 1 ? v[1] : 0) }
        func animated(_ list: [Sampled?]) -> Bool { list.contains { $0?.isAnimated ?? false } }
        switch item {
        case .path(let shape, let reversed):
            return PathSource(contours: { f in [reversed ? shape.value(at: f).reversed() : shape.value(at: f)] },
                              isAnimated: shape.isAnimated, keyframed: reversed ? nil : shape)
        case .rectangle(let p, let s, let r, let reversed):
            let p = sampler(p, path: path + ".p"), s = sampler(s, path: path + ".s"), r = sampled(r, "r")
            return PathSource(contours: { f in
                let size = s.value(f)
                let b = LottieShapes.rectangle(center: point(p, f), size: CGSize(width: size[0], height: size.count > 1 ? size[1] : size[0]),
                                               radius: num(r, f))
                return [reversed ? b.reversed() : b]
            }, isAnimated: animated([p, s, r]))
        case .ellipse(let p, let s, let reversed):
            let p = sampler(p, path: path + ".p"), s = sampler(s, path: path + ".s")
            return PathSource(contours: { f in
                let size = s.value(f)
                let b = LottieShapes.ellipse(center: point(p, f), size: CGSize(width: size[0], height: size.count > 1 ? size[1] : size[0]))
                return [reversed ? b.reversed() : b]
            }, isAnimated: animated([p, s]))
        case .polystar(let star, let p, let pt, let or, let ir, let os, let is_, let rot, let reversed):
            let p = sampler(p, path: path + ".p"), pt = sampled(pt, "pt"), or = sampled(or, "or"), ir = sampled(ir, "ir")
            let os = sampled(os, "os"), is_ = sampled(is_, "is"), rot = sampled(rot, "r")
            return PathSource(contours: { f in
                let b = LottieShapes.polystar(center: point(p, f), points: num(pt, f, 5), star: star, outerRadius: num(or, f),
                                       innerRadius: num(ir, f), outerRoundness: num(os, f), innerRoundness: num(is_, f), rotation: num(rot, f))
                return [reversed ? b.reversed() : b]
            }, isAnimated: animated([p, pt, or, ir, os, is_, rot]))
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
            // Every sample holds the whole path: its points count towards a limit (a zig-zag
            // multiplies a path's points by up to its ridges + 1).
            let first = sources.reduce(0) { n, s in s.contours(time.range.lowerBound).reduce(n) { $0 + $1.vertices.count } }
            try animateSampled(layer, key, time, path: path, pointsPerSample: first) { f in Self.cgPath(sources.flatMap { $0.contours(f) }) }
        } else {
            layer.setValue(Self.cgPath(sources.flatMap { $0.contours(0) }), forKeyPath: key)
        }
    }

    // MARK: Repeaters

    /// The repeater's step (the transform that turns copy k − 1 into copy k) as a function of
    /// the frame, its expressions applied: scale and rotation about the anchor point, then the
    /// position as an offset; and whether it changes.
    func repeaterStep(_ r: LottieRepeater, path: String) -> (value: (Double) -> CGAffineTransform, isAnimated: Bool) {
        var t = r.transform
        t.opacity = nil
        let m = matrix(t, path: path + ".tr")
        let anchor = t.anchor.map { sampler($0, path: path + ".tr.a") }
        return ({ f in
            let a = anchor?.value(f) ?? [0, 0]
            return m.value(f).concatenating(CGAffineTransform(translationX: a[0], y: a.count > 1 ? a[1] : 0))
        }, m.isAnimated)
    }

    static func power(_ m: CGAffineTransform, _ n: Int) -> CGAffineTransform {
        var out = CGAffineTransform.identity
        let step = n < 0 ? m.inverted() : m
        for _ in 0..<abs(n) { out = out.concatenating(step) }
        return out
    }

    /// A replicator of `drawn` (in a holder carrying the offset), each copy's matrix at a frame,
    /// and whether they change.
    private func repeater(_ r: LottieRepeater, _ drawn: [CALayer], _ time: LottieTime, path: String) throws
        -> (CALayer, (Double) -> [CGAffineTransform], Bool) {
        let holder = node()
        let rep = CAReplicatorLayer()
        rep.anchorPoint = .zero
        rep.bounds = .zero
        for l in drawn.reversed() { rep.addSublayer(l) }
        holder.addSublayer(rep)
        let limit = Double(animation.limits.repeaterCopies)
        // Copies, offset, opacities and the step transform ("tr"), each with its expression.
        let copiesValue = sampler(r.copies, path: path + ".c"), offsetValue = r.offset.map { sampler($0, path: path + ".o") }
        let startValue = r.startOpacity.map { sampler($0, path: path + ".tr.so") }, endValue = r.endOpacity.map { sampler($0, path: path + ".tr.eo") }
        let count: (Double) -> Int = { f in Int(min(max(copiesValue.value(f)[0], 0), limit).rounded(.up)) }
        let offset: (Double) -> Int = { f in Int(min(max((offsetValue?.value(f)[0] ?? 0), -limit), limit).rounded()) }
        if let o = r.offset, (o.isAnimated ? o.keyframes.map(\.value) : [o.initial]).contains(where: { $0[0] != $0[0].rounded() }) {
            notes.add(path + ".o", "a fractional repeater offset (rounded to whole copies)")
        }
        try animate(rep, "instanceCount", r.copies, time, path: path + ".c") { CGFloat(min(max($0[0], 0), limit).rounded(.up)) }
        let step = repeaterStep(r, path: path)
        let stepTransform: (Double) -> CATransform3D = { CATransform3DMakeAffineTransform(step.value($0)) }
        let offsetTransform: (Double) -> CATransform3D = { f in CATransform3DMakeAffineTransform(Self.power(step.value(f), offset(f))) }
        let opacities: (Double) -> (Float, Float) = { f in
            let so = (startValue?.value(f)[0] ?? 100) / 100, eo = (endValue?.value(f)[0] ?? 100) / 100
            let n = count(f)
            return (Float(min(max(so, 0), 1)), n > 1 ? Float((eo - so) / Double(n - 1)) : 0)
        }
        let animated = step.isAnimated || [copiesValue, offsetValue, startValue, endValue].contains { $0?.isAnimated ?? false }
        if animated {
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
            let step = step.value(f)
            var m = Self.power(step, offset(f))
            var out: [CGAffineTransform] = []
            for _ in 0..<count(f) { out.append(m); m = m.concatenating(step) }
            return out
        }
        return (holder, copies, animated)
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
        let start = sampler(g.start, path: path + ".s"), end = sampler(g.end, path: path + ".e")
        func point(_ v: [Double]) -> CGPoint { CGPoint(x: v[0], y: v.count > 1 ? v[1] : 0) }
        let ends: (Double) -> (CGPoint, CGPoint) = { f in
            let s = point(start.value(f)), e = point(end.value(f))
            if radial {
                let r = hypot(e.x - s.x, e.y - s.y)
                return (unit(s), CGPoint(x: unit(s).x + r / box.width, y: unit(s).y + r / box.height))
            }
            return (unit(s), unit(e))
        }
        if start.isAnimated || end.isAnimated {
            try animateSampled(layer, "startPoint", time, path: path + ".s") { ends($0).0 }
            try animateSampled(layer, "endPoint", time, path: path + ".e") { ends($0).1 }
        } else {
            (layer.startPoint, layer.endPoint) = ends(0)
        }
        if radial, let highlight = g.highlightLength, highlight.isAnimated || highlight.hasNonZero(dimension: 0)
            || animation.expressions.contains(path + ".h") {
            // The highlight: the focal point h % of the radius from the centre, in the direction
            // of the end point turned by a degrees (lottie-web's and ThorVG's; h clamped to
            // ±99 % as lottie-web does, a focus on the circle having no gradient outside it).
            let length = sampler(highlight, path: path + ".h")
            let angle = g.highlightAngle.map { sampler($0, path: path + ".a") }
            let focus: (Double) -> CGPoint = { f in
                let s = point(start.value(f)), e = point(end.value(f))
                let r = hypot(e.x - s.x, e.y - s.y)
                let h = min(max((length.value(f).first ?? 0) / 100, -Self.highlightLimit), Self.highlightLimit)
                let a = atan2(e.y - s.y, e.x - s.x) + (angle?.value(f).first ?? 0) * .pi / 180
                return unit(CGPoint(x: s.x + cos(a) * h * r, y: s.y + sin(a) * h * r))
            }
            if start.isAnimated || end.isAnimated || length.isAnimated || angle?.isAnimated == true {
                try animateSampled(layer, CAGradientLayer.focalPointKey, time, path: path + ".h") { focus($0) }
            } else {
                layer.focalPoint = focus(0)
            }
        }
        if let o = g.opacity { try animate(layer, "opacity", o, time, path: path + ".o") { Float(min(max($0[0] / 100, 0), 1)) } }
        return layer
    }

    /// A stroke's dashes (`d`: dash and gap lengths, and an offset, each a property of its own,
    /// animated or with an expression): the lengths become `lineDashPattern`, sampled every frame
    /// where any of them changes (each length clamped at 0; an odd count repeated, as SVG and
    /// Core Graphics repeat it), the offset `lineDashPhase`. A pattern of zeros is solid, as
    /// before any dash is drawn.
    func dash(_ s: CAShapeLayer, _ dashes: [(kind: String, value: LottieAnimated<[Double]>)], _ time: LottieTime, path: String) throws {
        let lengths = dashes.indices.filter { dashes[$0].kind != "o" }.map { i in
            sampler(dashes[i].value, path: path + ".d[\(i)].v")
        }
        guard !lengths.isEmpty else { return }
        func pattern(_ f: Double) -> [NSNumber] {
            var p = lengths.map { max($0.value(f).first ?? 0, 0) }
            if p.count % 2 == 1 { p += p }
            return p.contains(where: { $0 > 0 }) ? p.map { NSNumber(value: $0) } : []
        }
        if lengths.contains(where: \.isAnimated) {
            try animateSampled(s, "lineDashPattern", time, path: path + ".d") { pattern($0) }
        } else {
            let p = pattern(0)
            guard !p.isEmpty else { return }
            s.lineDashPattern = p
        }
        if let i = dashes.firstIndex(where: { $0.kind == "o" }) {
            try animate(s, "lineDashPhase", dashes[i].value, time, path: path + ".d[\(i)].v") { CGFloat($0.first ?? 0) }
        }
    }

    /// The largest highlight length drawn, as a fraction of the radius (lottie-web's clamp).
    static let highlightLimit = 0.99

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
