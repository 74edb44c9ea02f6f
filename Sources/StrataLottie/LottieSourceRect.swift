// `layer.sourceRectAtTime(t, includeExtents)`: the box of what a layer draws, in its own space,
// as After Effects answers it — what rigs use to size a box behind a text ("a lower third whose
// bar fits its name"), so that a text replaced by a template or a batch row resizes its box too.
//
// - Text: the ink of its glyphs (After Effects' box hugs the letters: it grows with a descender,
//   and is not the line's ascent-to-descent cell), of the document shown at `t` laid out as it is
//   drawn (LottieText.swift, LottieText+Glyphs.swift), the text given by the document's own
//   expression where it has one. `includeExtents` adds half the stroke's width. (lottie-web
//   answers the browser's `getBBox()` of its SVG text instead: the glyph cells.)
// - Shapes: the union of the rectangles, ellipses, stars and paths of its contents at `t`, each
//   group's transform applied, each property as expressions read it (its own expression
//   included: a box sized by a text, measured by a line that follows the box); `includeExtents`
//   adds half the widest stroke of each group. Modifiers (trim, repeater, offset …) are not
//   applied, and a path whose expression names or makes another is measured by its keyframes.
// - Solids, precompositions: `0, 0, width, height`; images: the asset's size; nulls: 100 × 100
//   (After Effects' null is a 100-pixel square source).
import Foundation
import Strata

extension LottieExpressions {
    /// A layer's source rectangle at `frame` (x right, y down: `top` is `minY`).
    func sourceRect(of ref: LayerRef, at frame: Double, includeExtents: Bool, _ run: LottieScriptRun) throws -> CGRect {
        let l = layer(ref)
        switch l.content {
        case .solid(_, let w, let h), .precomp(_, let w, let h, _):
            return CGRect(x: 0, y: 0, width: w, height: h)
        case .image(let id):
            let size = imageSizes[id] ?? [0, 0]
            return CGRect(x: 0, y: 0, width: size[0], height: size[1])
        case .null:
            return CGRect(x: 0, y: 0, width: 100, height: 100)
        case .text(let t):
            return try textRect(t, of: ref, at: frame, includeExtents: includeExtents, run)
        case .shapes(let items):
            try run.charge(items.count)
            let box = try shapeBounds(items, list: l.path + ".shapes", of: ref, at: frame, includeExtents: includeExtents, run)
            return box.isNull ? .zero : box
        case .camera, .unsupported:
            throw LottieScriptError("sourceRectAtTime of the layer '\(l.name)', which draws nothing After Effects measures")
        }
    }

    /// The ink of a text layer's document at `frame`.
    private func textRect(_ t: LottieText, of ref: LayerRef, at frame: Double, includeExtents: Bool, _ run: LottieScriptRun) throws -> CGRect {
        guard !t.documents.isEmpty else { return .zero }
        let index = t.documents.lastIndex { $0.time <= frame } ?? 0
        var d = t.documents[index].document
        d.text = try shownText(of: ref, at: frame, run)
        // Laying the text out is the cost: charged by its length, and kept for the pass.
        try run.charge(d.text.utf8.count / 8 + 1)
        let key = "\(layer(ref).path)\u{0}\(index)\u{0}\(includeExtents)\u{0}\(d.text)"
        if let known = run.cache.textRects[key] { return known }
        var box = CGRect.null
        if d.glyphs != nil {
            for g in LottieCompiler.glyphLines(d).joined() where !g.glyph.contours.isEmpty {
                box = box.union(g.glyph.path(size: d.size).boundingBoxOfPath.offsetBy(dx: g.origin.x, dy: g.origin.y))
            }
        } else {
            for line in try LottieCompiler.layOutLines(d) where !line.text.isEmpty {
                let ink = TextMetrics.outline(of: TextContent(attributedString: line.string)).boundingBoxOfPath
                if !ink.isNull { box = box.union(ink.offsetBy(dx: line.origin.x, dy: line.origin.y)) }
            }
        }
        if box.isNull { box = .zero }
        if includeExtents, d.stroke != nil, d.strokeWidth > 0 { box = box.insetBy(dx: -d.strokeWidth / 2, dy: -d.strokeWidth / 2) }
        if run.cache.textRects.count < LottieExpressionCache.capacity { run.cache.textRects[key] = box }
        return box
    }

    /// The bounds of shape items at `frame` in their parent's space (`CGRect.null`: none); `list`
    /// is the JSON path of their contents list (a layer's `shapes`, a group's `it`): item i is
    /// `list[i]`, a group's transform the element after its items. Each property is its value as
    /// an expression reads it: its keyframes, its loop or its own expression.
    private func shapeBounds(_ items: [LottieShapeItem], list: String, of ref: LayerRef, at f: Double,
                             includeExtents: Bool, _ run: LottieScriptRun) throws -> CGRect {
        func values(_ p: LottieAnimated<[Double]>, _ path: String) throws -> [Double] {
            try value(of: PropertyRef(path: path, property: p, owner: ref, raw: false), at: f, run)
        }
        var box = CGRect.null, pad = 0.0
        for (i, item) in items.enumerated() {
            let path = "\(list)[\(i)]"
            func point(_ p: LottieAnimated<[Double]>, _ key: String) throws -> CGPoint {
                let v = try values(p, path + "." + key)
                return CGPoint(x: v.first ?? 0, y: v.count > 1 ? v[1] : 0)
            }
            func number(_ p: LottieAnimated<[Double]>?, _ key: String) throws -> Double {
                guard let p else { return 0 }
                return try values(p, path + "." + key).first ?? 0
            }
            let outline: LottieBezier?
            switch item {
            case .group(let children, let transform):
                try run.charge(children.count)
                var b = try shapeBounds(children, list: path + ".it", of: ref, at: f, includeExtents: includeExtents, run)
                if !b.isNull, let transform {
                    // The group's transform: the element after its items.
                    let tr = "\(path).it[\(children.count)]"
                    var known: [String: [Double]] = [:]
                    for (key, p) in [("a", transform.anchor), ("s", transform.scale), ("sk", transform.skew), ("sa", transform.skewAxis),
                                     ("r", transform.rotation), ("p", transform.position)] {
                        if let p { known[key] = try values(p, tr + "." + key) }
                    }
                    b = b.applying(LottieCompiler.matrix(transform, at: f) { p, key in known[key] ?? p.value(at: f) })
                }
                box = box.union(b)
                outline = nil
            case .rectangle(let position, let size, let roundness, _):
                let s = try point(size, "s")
                outline = LottieShapes.rectangle(center: try point(position, "p"), size: CGSize(width: s.x, height: s.y),
                                                 radius: try number(roundness, "r"))
            case .ellipse(let position, let size, _):
                let s = try point(size, "s")
                outline = LottieShapes.ellipse(center: try point(position, "p"), size: CGSize(width: s.x, height: s.y))
            case .polystar(let star, let position, let points, let outer, let inner, let outerRoundness, let innerRoundness, let rotation, _):
                outline = LottieShapes.polystar(center: try point(position, "p"), points: try number(points, "pt"), star: star,
                                                outerRadius: try number(outer, "or"), innerRadius: try number(inner, "ir"),
                                                outerRoundness: try number(outerRoundness, "os"),
                                                innerRoundness: try number(innerRoundness, "is"), rotation: try number(rotation, "r"))
            case .path(let bezier, _):
                outline = bezier.value(at: f)
            case .stroke(_, _, let width, _, _, _, _), .gradientStroke(_, let width, _, _, _):
                if includeExtents { pad = max(pad, abs(try number(width, "w")) / 2) }
                outline = nil
            default:
                outline = nil
            }
            if let outline, !outline.vertices.isEmpty {
                try run.charge(outline.vertices.count)
                let path = CGMutablePath()
                outline.add(to: path)
                box = box.union(path.boundingBoxOfPath)
            }
        }
        return box.isNull || pad == 0 ? box : box.insetBy(dx: -pad, dy: -pad)
    }

    /// A text layer's text at `frame`: its document's expression's where it has one that runs
    /// (and is not being evaluated already, nor fails), else the document's own.
    func shownText(of ref: LayerRef, at frame: Double, _ run: LottieScriptRun) throws -> String {
        let l = layer(ref), path = l.path + ".t.d"
        guard let script = textScripts[path], !stoppedLayers.contains(l.path), !run.stack.contains(path) else {
            return documentText(of: ref, at: frame)
        }
        run.stack.append(path)
        defer { run.stack.removeLast() }
        do {
            return try evaluateText(script, at: path, owner: ref, frame: frame, run)
        } catch let error as LottieScriptError where !error.isLimit {
            // Drawn with the document's text where its expression fails (as the compiler does).
            return documentText(of: ref, at: frame)
        }
    }
}
