// Layers of a composition: each one a visibility node in the composition's time holding its
// parents' transforms (each in its parent's own time), then its own timing node, transform,
// masks and content; track mattes become the matted layer's `mask`.
import Foundation
import Strata

extension LottieCompiler {
    /// The root: the animation's top-level composition in a container whose local seconds ×
    /// frame rate are Lottie frames.
    func compileRoot() throws -> CALayer {
        let root = node()
        root.bounds = CGRect(x: 0, y: 0, width: animation.width, height: animation.height)
        let time = LottieTime(remap: nil, range: animation.inPoint...animation.outPoint)
        for l in try compile(animation.layers, time, depth: 0) { root.addSublayer(l) }
        noteExpressionsNotApplied()
        return root
    }

    /// Notes the expressions and loops of properties drawn from their keyframes alone (dash
    /// lengths): what the compiler neither animates nor samples through `sampler`. Null, hidden and unreadable layers draw nothing; expression
    /// controls are read by other expressions.
    private func noteExpressionsNotApplied() {
        let expressions = animation.expressions
        let all = Set(expressions.paths).union(expressions.loops.keys).sorted()
        for path in all where !appliedExpressions.contains(path) && !path.contains(".ef[") {
            if let owner = expressions.owner(of: path) {
                let l = expressions.layer(owner)
                if l.hidden { continue }
                switch l.content {
                case .null, .unsupported, .camera: continue
                default: break
                }
            }
            notes.add(path + ".x", "expression on a property drawn from its keyframes (the keyframes are used instead)")
        }
    }

    /// A composition's layers, bottom first (Lottie lists the top layer first).
    func compile(_ layers: [LottieLayerModel], _ time: LottieTime, depth: Int) throws -> [CALayer] {
        var out: [CALayer] = []
        var runs: [Int] = []
        // The composition's camera: the first in the list (After Effects uses the topmost); its 3D
        // layers see through it, its precompositions' layers through their own.
        let outerCamera = camera
        defer { camera = outerCamera }
        camera = nil
        for l in layers where !l.hidden {
            guard case .camera(let pe) = l.content else { continue }
            if camera != nil { notes.add(l.path, "a second camera (the first in the list is used)"); continue }
            camera = LottieCamera(path: l.path, perspective: pe, transform: l.transform)
            if l.parent != nil { notes.add(l.path + ".parent", "a camera's parent (ignored)") }
        }
        for (i, l) in layers.enumerated().reversed() where !l.isMatteSource && !l.hidden {
            guard let wrapper = try compileLayer(l, in: layers, time, depth: depth) else { continue }
            if let mode = l.matteMode {
                let source: LottieLayerModel? = l.matteParent.flatMap { p in layers.first { $0.index == p } }
                    ?? (i > 0 && layers[i - 1].isMatteSource ? layers[i - 1] : nil)
                if let source, (1...4).contains(mode) {
                    // A matte layer: Strata's MatteLayer masks by alpha, inverted alpha or luminance.
                    let matte = MatteLayer()
                    matte.anchorPoint = .zero
                    matte.bounds = .zero
                    matte.maskMode = [MaskMode.alpha, .alphaInverted, .luminance, .luminanceInverted][mode - 1]
                    if let content = try compileLayer(source, in: layers, time, depth: depth) { matte.addSublayer(content) }
                    wrapper.mask = matte
                } else if source == nil {
                    notes.add(l.path + ".tt", "track matte without a matte layer")
                }
            }
            // The blend mode composites the layer, its matte applied, onto the layers below it.
            if let filter = l.compositingFilter {
                wrapper.compositingFilter = filter == LottieLayerModel.hardMix ? LayerBlendModeFilter(.hardMix) : filter
            }
            out.append(wrapper)
            runs.append(l.transform.is3D ? (camera != nil || needsSpace(l.transform, path: l.path + ".ks") ? 2 : 1) : 0)
        }
        return stackedByDepth(out, runs)
    }

    /// The layers with each run of adjacent 3D layers (`kinds`: 0 a 2D layer, 1 a 3D layer, 2 one
    /// with a depth) that has a depth in a node of its own: as in After Effects, 3D layers are
    /// painted by depth among themselves, and a 2D layer between them keeps its place in the list.
    private func stackedByDepth(_ layers: [CALayer], _ kinds: [Int]) -> [CALayer] {
        guard kinds.contains(2) else { return layers }
        var out: [CALayer] = [], run: [CALayer] = [], deep = false
        func flush() {
            if deep {
                let stack = node()
                for l in run { stack.addSublayer(l) }
                out.append(stack)
            } else {
                out += run
            }
            run = []; deep = false
        }
        for (l, kind) in zip(layers, kinds) {
            if kind == 0 { flush(); out.append(l); continue }
            run.append(l)
            deep = deep || kind == 2
        }
        flush()
        return out
    }

    /// The time of a layer's own properties: its composition's frames (as rlottie and ThorVG
    /// evaluate them; the start time and stretch shift only a precomposition's content), over
    /// the frames where the layer is visible.
    private func layerTime(_ l: LottieLayerModel, _ compTime: LottieTime) -> LottieTime {
        if compTime.remap != nil { return compTime }
        let a = max(compTime.range.lowerBound, min(l.inPoint, compTime.range.upperBound))
        let b = max(a, min(compTime.range.upperBound, l.outPoint))
        return LottieTime(remap: nil, range: a...b)
    }

    func compileLayer(_ l: LottieLayerModel, in layers: [LottieLayerModel], _ time: LottieTime, depth: Int) throws -> CALayer? {
        if case .unsupported = l.content { return nil }
        if case .null = l.content { return nil }
        if case .camera = l.content { return nil }
        let wrapper = node()
        wrapper.name = l.name
        try visibility(wrapper, inPoint: l.inPoint, outPoint: l.outPoint, time, path: l.path)

        // Parents, outermost first (their transforms only: opacity is not inherited).
        var chain: [LottieLayerModel] = []
        var seen: Set<Int> = []
        var next = l.parent
        while let p = next {
            guard seen.insert(p).inserted, chain.count < layers.count else {
                throw LottieError(path: l.path + ".parent", "parenting forms a cycle")
            }
            guard let parent = layers.first(where: { $0.index == p }) else {
                notes.add(l.path + ".parent", "parent \(p) does not exist (ignored)")
                break
            }
            chain.insert(parent, at: 0)
            next = parent.parent
        }
        var host = wrapper
        // A layer drawn in 3D composes its parents' transforms in 3D before the projection.
        let inSpace = needsSpace(l.transform, path: l.path + ".ks") || (camera != nil && l.transform.is3D)
        for p in inSpace ? [] : chain {
            var t = p.transform
            t.opacity = nil
            let (o, i) = try transformNodes(t, layerTime(l, time), path: p.path + ".ks")
            host.addSublayer(o)
            host = i
        }
        let ltime = layerTime(l, time)
        let (o, inner) = try transformNodes(l.transform, ltime, path: l.path + ".ks", depthLayer: wrapper, camera: camera, parents: chain)
        host.addSublayer(o)

        let content = node()
        try compileContent(l, into: content, ltime, depth: depth)
        let masked = try applyMasks(l, to: content, ltime) ?? content
        inner.addSublayer(l.drawnEffects.isEmpty ? masked : try applyEffects(l, to: masked, ltime))
        return wrapper
    }

    private func compileContent(_ l: LottieLayerModel, into content: CALayer, _ time: LottieTime, depth: Int) throws {
        switch l.content {
        case .solid(let color, let w, let h):
            let s = CALayer()
            s.anchorPoint = .zero
            s.bounds = CGRect(x: 0, y: 0, width: w, height: h)
            s.backgroundColor = color
            content.addSublayer(s)
        case .image(let id):
            guard let asset = animation.images[id], let data = animation.layerImages[l.name] ?? asset.data else { return }
            let image: CGImage
            do { image = try CGImage.decode(data) } catch {
                throw LottieError(path: asset.path + ".p", "the image cannot be decoded (\(error))")
            }
            let s = CALayer()
            s.anchorPoint = .zero
            s.bounds = CGRect(x: 0, y: 0, width: asset.width > 0 ? asset.width : Double(image.width),
                              height: asset.height > 0 ? asset.height : Double(image.height))
            s.contents = image
            content.addSublayer(s)
        case .precomp(let id, let w, let h, let tm):
            guard let layers = animation.precomps[id] else { return }
            let clip = node()
            clip.bounds = CGRect(x: 0, y: 0, width: w, height: h)
            clip.masksToBounds = w > 0 && h > 0
            // The content's frame: (F − start) / stretch, or the remap (seconds) × rate / stretch.
            let inner: LottieTime
            let st = l.startTime, sr = l.stretch, rate = fr
            if let tm {
                let outer = time.remap
                let remap = sampler(tm, path: l.path + ".tm").value
                inner = LottieTime(remap: { g in remap(outer?(g) ?? g)[0] * rate / sr }, range: time.range)
            } else if let outer = time.remap {
                inner = LottieTime(remap: { g in (outer(g) - st) / sr }, range: time.range)
            } else {
                clip.beginTime = st / fr
                clip.speed = Float(1 / sr)
                let a = (time.range.lowerBound - st) / sr, b = (time.range.upperBound - st) / sr
                inner = LottieTime(remap: nil, range: min(a, b)...max(a, b))
            }
            for s in try compile(layers, inner, depth: depth + 1) { clip.addSublayer(s) }
            content.addSublayer(clip)
        case .shapes(let items):
            try compileShapes(items, into: content, time, path: l.path + ".shapes")
        case .text(let text):
            try compileText(text, into: content, time, path: l.path, masks: l.masks)
        case .null, .unsupported, .camera:
            break
        }
    }

    // MARK: Masks

    /// The content wrapped in mask stages, the masks combined in order as the spec says (M the
    /// mask so far, m this mask's coverage × opacity): add M + m − Mm, subtract M(1 − m),
    /// intersect Mm, lighten max(M, m), darken min(M, m), difference |M − m|. Stages multiply
    /// (each one the `mask` of a holder around the last); an add after other stages unites with
    /// all of them, a difference is M(1 − m) + m(1 − M). Lighten and darken are drawn as add and
    /// intersect, which are exact wherever M or m is 0 or 1: max(M, m) = M + m − Mm and
    /// min(M, m) = Mm when either is. A mask's opacity below 100 % makes its m partial, and M
    /// partial from then on; only a lighten or darken mask with a partial opacity after such a
    /// mask can differ (max(½, ½) = ½, not ¾). Such masks, up to `maxRegionMasks` of them on a
    /// layer, are drawn region by region instead (LottieCompiler+MaskRegions.swift); more are
    /// drawn as add and intersect, and noted.
    private func applyMasks(_ l: LottieLayerModel, to content: CALayer, _ time: LottieTime) throws -> CALayer? {
        let masks = l.masks.filter { $0.mode != .none }
        guard !masks.isEmpty else { return nil }
        var current = content
        if masks.count <= Self.maxRegionMasks, Self.lightenOrDarkenAfterPartial(masks[...]) {
            for m in masks where m.feather != nil {
                notes.add(m.path + ".f", "mask feather on a layer whose lighten or darken masks are drawn region by region (drawn sharp)")
            }
            let holder = node()
            current.mask = try maskRegions(masks, time)
            holder.addSublayer(current)
            return holder
        }
        for stage in try maskStages(masks[...], time, depth: 0) {
            let holder = node()
            current.mask = stage
            holder.addSublayer(current)
            current = holder
        }
        return current
    }

    /// The stages whose product is the combined coverage of `masks`.
    private func maskStages(_ masks: ArraySlice<LottieMask>, _ time: LottieTime, depth: Int) throws -> [CALayer] {
        var stages: [CALayer] = []
        var union: CALayer?
        // Whether the coverage so far may be partial: after any mask with a partial opacity.
        var partialSoFar = false
        for (i, m) in zip(masks.indices, masks) {
            let opacity = m.opacity ?? .fixed([100])
            let partial = opacity.isAnimated || opacity.initial[0] < 100
            defer { if partial { partialSoFar = true } }
            switch m.mode {
            case .add, .lighten:
                if m.mode == .lighten, partial, partialSoFar {
                    notes.add(m.path + ".mode", "lighten mask with an opacity below 100% after another such mask (drawn as add)")
                }
                if union == nil {
                    let u = node()
                    // Uniting with stages already there: the coverage so far is one part of the union.
                    if !stages.isEmpty { u.addSublayer(stack(stages)) }
                    stages = [u]
                    union = u
                }
                union?.addSublayer(try maskShape(m.shape, expansion: m.expansion, feather: m.feather, inverted: m.inverted, opacity: opacity, time, path: m.path))
            case .subtract:
                stages.append(try complement(m, opacity, time))
                union = nil
            case .intersect, .darken:
                if m.mode == .darken, partial, partialSoFar {
                    notes.add(m.path + ".mode", "darken mask with an opacity below 100% after another such mask (drawn as intersect)")
                }
                let stage = node()
                stage.addSublayer(try maskShape(m.shape, expansion: m.expansion, feather: m.feather, inverted: m.inverted, opacity: opacity, time, path: m.path))
                stages.append(stage)
                union = nil
            case .difference:
                if stages.isEmpty {
                    // |0 − m| = m.
                    let u = node()
                    u.addSublayer(try maskShape(m.shape, expansion: m.expansion, feather: m.feather, inverted: m.inverted, opacity: opacity, time, path: m.path))
                    stages = [u]
                    union = u
                    continue
                }
                guard depth < 4 else {
                    notes.add(m.path + ".mode", "more than 4 difference masks on one layer (the rest are ignored)")
                    continue
                }
                // M(1 − m): what there was, outside this mask…
                let outside = node()
                outside.addSublayer(stack(stages))
                outside.mask = try complement(m, opacity, time)
                // …and m(1 − M): this mask where there was nothing (M made again: a layer has one parent).
                let inside = node()
                inside.addSublayer(try maskShape(m.shape, expansion: m.expansion, feather: m.feather, inverted: m.inverted, opacity: opacity, time, path: m.path))
                let matte = MatteLayer()
                matte.anchorPoint = .zero
                matte.bounds = .zero
                matte.maskMode = .alphaInverted
                matte.addSublayer(stack(try maskStages(masks[..<i], time, depth: depth + 1)))
                inside.mask = matte
                let x = node()
                x.addSublayer(outside)
                x.addSublayer(inside)
                stages = [x]
                union = x
            case .none:
                break
            }
        }
        return stages
    }

    /// 1 − opacity × shape: the outside at full alpha, the inside at 1 − opacity.
    private func complement(_ m: LottieMask, _ opacity: LottieAnimated<[Double]>, _ time: LottieTime) throws -> CALayer {
        if let f = m.feather {
            // Feathered, the coverage is partial at the edge: the plane where opacity × coverage is not.
            let plane = stack([])
            plane.mask = Self.matte(.alphaInverted, try maskShape(m.shape, expansion: m.expansion, feather: f, inverted: m.inverted,
                                                                  opacity: opacity, time, path: m.path))
            let stage = node()
            stage.addSublayer(plane)
            return stage
        }
        let stage = node()
        stage.addSublayer(try maskShape(m.shape, expansion: m.expansion, inverted: !m.inverted, opacity: .fixed([100]), time, path: m.path))
        stage.addSublayer(try maskShape(m.shape, expansion: m.expansion, inverted: m.inverted, opacity: opacity.map { [100 - $0[0]] }, time, path: m.path))
        return stage
    }

    /// A layer whose alpha is the product of `stages`: a plane masked by each in turn.
    func stack(_ stages: [CALayer]) -> CALayer {
        let plane = CAShapeLayer()
        plane.anchorPoint = .zero
        plane.bounds = .zero
        plane.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        plane.path = CGPath(rect: CGRect(x: -1e5, y: -1e5, width: 2e5, height: 2e5), transform: nil)
        var current: CALayer = plane
        for stage in stages {
            let holder = node()
            current.mask = stage
            holder.addSublayer(current)
            current = holder
        }
        return current
    }

    /// One mask's coverage: its path (grown or shrunk by its expansion, softened by its feather), inverted or not, at its opacity.
    func maskShape(_ shape: LottieAnimated<LottieBezier>, expansion: LottieAnimated<[Double]>? = nil,
                   feather: LottieAnimated<[Double]>? = nil, inverted: Bool,
                   opacity: LottieAnimated<[Double]>, _ time: LottieTime, path: String) throws -> CALayer {
        if let feather {
            return try featheredMask(shape, feather: feather, expansion: expansion, inverted: inverted, opacity: opacity, time, path: path)
        }
        let s = CAShapeLayer()
        s.anchorPoint = .zero
        s.bounds = .zero
        s.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let big = CGRect(x: -1e5, y: -1e5, width: 2e5, height: 2e5)
        let curves = Self.curvedInAnyKeyframe(shape)
        let make: (LottieBezier) -> CGPath = { b in
            let p = CGMutablePath()
            if inverted { p.addRect(big) }
            b.add(to: p, curves: curves)
            return p
        }
        if inverted { s.fillRule = .evenOdd }
        if let x = expansion {
            return try expandedMask(shape, by: x, inverted: inverted, opacity: opacity, time, path: path)
        }
        try animate(s, "path", shape, time, path: path + ".pt", make)
        try animate(s, "opacity", opacity, time, path: path + ".o") { Float(min(max($0[0] / 100, 0), 1)) }
        return s
    }
}
