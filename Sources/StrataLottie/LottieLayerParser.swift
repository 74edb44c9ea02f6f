// Reads layers, transforms, masks and shape items from JSON into the model, noting what Strata
// does not render (effects, expressions, blend modes, luma mattes, merge paths, …) with its path.
import Foundation
import Strata

struct LayerParser {
    var notes: LottieNotes
    let limits: LottieLimits
    /// Colours, images and texts put in by name or slot id.
    var replacements = LottieReplacements()
    /// The file's slots by id (`sid` properties take their value from them).
    var slots: [String: JSONNode] = [:]
    /// Font names (`fName`) → "Family Style" for the text stack.
    var fonts: [String: String] = [:]
    /// Font names (`fName`) → their family (`fFamily`).
    var fontFamilies: [String: String] = [:]
    /// Font names (`fName`) → their style (`fStyle`).
    var fontStyles: [String: String] = [:]
    /// Font names (`fName`) → their ascent (`ascent`, hundredths of the size).
    var fontAscents: [String: Double] = [:]
    /// The file's embedded glyphs (`chars`).
    var glyphs = LottieGlyphTable()
    /// The names replacements can use, and those they used.
    var index = ReplacementIndex()
    /// The names of the layer and groups being read, outermost first.
    var scope: [String] = []
    /// Characters of the text documents read so far (bounded by `limits.textCharacters`).
    var textCharacters = 0
    /// Loop expressions by the JSON path of their property.
    var loops: [String: LottieLoop] = [:]
    /// Other expressions (numeric properties) with their property's keyframes, by the JSON path of their property.
    var scripts: [String: (script: LottieScript, property: LottieAnimated<[Double]>)] = [:]
    /// Shape items and numeric properties as expressions reach them.
    var shapeIndex = LottieShapeIndex()
    /// Expressions on paths (a shape's `ks`, a mask's `pt`), by the path's JSON path.
    var pathScripts: [String: LottieScript] = [:]
    /// Expressions on text documents (Source Text), by the document's JSON path (`…t.d`).
    var textScripts: [String: LottieScript] = [:]
    /// Numeric properties whose expression cannot be read, by JSON path.
    var unrunScripts: Set<String> = []
    /// The expression controls read so far, in the file's order.
    var controls: [LottieExpressionControl] = []

    /// Reads a property's expression: a loop Core Animation repeats, an expression evaluated
    /// per frame (numeric properties only), or a note of why it is not run.
    /// `usedAt`: the JSON path of the property that uses this value (a slot's user; nil: the value's own).
    mutating func expression(_ property: JSONNode, numeric: Bool = true, usedAt: String? = nil) throws {
        guard let x = try property.optional("x"), let source = try? x.string() else { return }
        let path = usedAt ?? property.path
        if let loop = LottieLoop.parse(source), loop.after || loop.kind == .cycle {
            loops[path] = loop
        } else if numeric {
            do {
                let script = try LottieScript.parse(source, seed: path)
                guard let value = try? property.vectorValue() else { return }
                scripts[path] = (script, value)
            } catch let error as LottieScriptError {
                notes.add(x.path, "expression: \(error.message) (the keyframes are used instead)")
                unrunScripts.insert(path)
            }
        } else {
            // A path's expression: kept if it names a path (its own, or another to follow).
            do {
                pathScripts[path] = try LottieScript.parse(source, seed: path)
            } catch let error as LottieScriptError {
                notes.add(x.path, "expression on a path: \(error.message) (the keyframes are used instead)")
            }
        }
    }

    /// A property that some exporters write as a plain number (`"pt": 2`) and others as an
    /// animatable property (`"pt": {"k": 2}`); nil when absent.
    mutating func numberOrProp(_ node: JSONNode, _ key: String) throws -> LottieAnimated<[Double]>? {
        guard let p = try node.optional(key) else { return nil }
        return p.isObject ? try prop(node, key) : .fixed([try p.number()])
    }

    mutating func prop(_ node: JSONNode, _ key: String) throws -> LottieAnimated<[Double]>? {
        guard let p = try node.optional(key) else { return nil }
        // A slot (the slots spec): the property's value is the slot's "p".
        if p.isObject, let sid = try p.string("sid"), let slot = slots[sid] {
            let value = try slot.required("p")
            // The slot's expression runs for each property using it, under that property's path.
            try expression(value, usedAt: p.path)
            let v = try value.vectorValue()
            shapeIndex.properties[p.path] = (try? p.optional("ix")?.number(), v)
            return v
        }
        try expression(p)
        let v = try node.vector(key)
        if let v { shapeIndex.properties[p.path] = (p.isObject ? try? p.optional("ix")?.number() : nil, v) }
        return v
    }

    /// A fill's or stroke's colour: replaced when its own name, a group or layer around it, or
    /// its slot id is a key of `replacements.colors` (the innermost name first).
    mutating func color(_ s: JSONNode) throws -> LottieAnimated<[Double]>? {
        let c = try s.optional("c")
        let sid = try c.flatMap { $0.isObject ? try $0.string("sid") : nil }
        let names = [try s.string("nm")].compactMap { $0 } + scope.reversed() + [sid].compactMap { $0 }
        for n in names { index.colorNames.insert(n) }
        if let key = names.first(where: { replacements.colors[$0] != nil }), let color = replacements.colors[key] {
            return .fixed(color.lottieComponents)
        }
        return try prop(s, "c")
    }

    mutating func layers(_ node: JSONNode) throws -> [LottieLayerModel] {
        try node.elements().map { try layer($0) }
    }

    mutating func layer(_ l: JSONNode) throws -> LottieLayerModel {
        guard l.isObject else { throw l.error("expected a layer object") }
        let ty = try l.required("ty").number()
        let name = try l.string("nm") ?? ""
        scope = [name]
        defer { scope = [] }
        let inPoint = try l.required("ip").number(), outPoint = try l.required("op").number()
        let stretch = try l.number("sr", default: 1)
        guard abs(stretch) >= 0.001 && abs(stretch) <= 1000 else {
            throw LottieError(path: l.path + ".sr", "a time stretch of \(stretch) (expected 0.001…1000, or negative)")
        }
        // Blend modes 1…17 are the W3C modes, the linear dodge and the hard mix a layer's compositingFilter draws.
        var compositingFilter: String?
        if let bm = try l.optional("bm"), try bm.number() != 0 {
            let mode = JSONNode.clampedInt(try bm.number())
            if let name = LottieLayerModel.compositingFilters[mode] { compositingFilter = name } else { notes.add(bm.path, "blend mode \(mode)") }
        }
        var effects: [LottieEffectControl] = []
        var drawnEffects: [LottieDrawnEffect] = []
        if let ef = try l.optional("ef"), ef.isArray {
            for (i, e) in try ef.elements().enumerated() {
                if let control = try effectControl(e, index: i + 1) {
                    effects.append(control)
                    controls.append(LottieExpressionControl(path: control.path, name: control.name, matchName: control.matchName))
                    continue
                }
                // A disabled effect (`en` 0) draws nothing in After Effects either.
                if e.isObject, let en = try e.optional("en"), (try? en.number()) == 0 { continue }
                if let drawn = try drawnEffect(e, motionBlur: (try? l.bool("mb")) ?? false) {
                    drawnEffects.append(drawn)
                    // Expressions read a drawn effect's values as a control's.
                    effects.append(try readable(drawn, e, index: i + 1))
                }
            }
        }
        if let sy = try l.optional("sy"), sy.isArray, !(try sy.elements().isEmpty) { notes.add(sy.path, "layer styles") }
        let matteMode = try l.int("tt")
        if let m = matteMode {
            switch m {
            case 1...4: break
            default: notes.add(l.path + ".tt", "track matte mode \(m)")
            }
        }
        var masks: [LottieMask] = []
        if let list = try l.optional("masksProperties") {
            for m in try list.elements() {
                let modeText = try m.string("mode") ?? "a"
                guard let mode = LottieMask.Mode(rawValue: modeText) else { throw LottieError(path: m.path + ".mode", "unknown mask mode '\(modeText)'") }
                let x = try prop(m, "x")
                // A feather (`f`, which After Effects exporters write; lottie-spec 1.0 has none).
                let f = try prop(m, "f")
                let pt = try m.required("pt")
                try expression(pt, numeric: false)
                let shape = try LottieAnimated.parse(pt, LottieBezier.parse)
                shapeIndex.paths[pt.path] = shape
                masks.append(LottieMask(path: m.path, mode: mode, inverted: try m.bool("inv"),
                                        shape: shape, opacity: try prop(m, "o"),
                                        expansion: x.flatMap { $0.isAnimated || ($0.initial.first ?? 0) != 0 ? $0 : nil },
                                        feather: LottieCompiler.feathers(f) ? f : nil))
            }
        }
        var layerTransform = try transform(try l.optional("ks"), layer: true)
        layerTransform.autoOrient = try l.bool("ao")
        layerTransform.is3D = try l.bool("ddd")
        let content: LottieLayerModel.Content
        switch JSONNode.clampedInt(ty) {
        case 0:
            let tm = try prop(l, "tm")
            content = .precomp(assetID: try l.required("refId").string(), width: try size(l, "w", default: 0),
                               height: try size(l, "h", default: 0), timeRemap: tm)
        case 1:
            let hex = try l.required("sc").string()
            index.colorNames.insert(name)
            // An empty colour (some exporters write one) is drawn transparent.
            guard let color = replacements.colors[name] ?? (hex.isEmpty ? CGColor(red: 0, green: 0, blue: 0, alpha: 0) : CGColor(hex: hex)) else {
                throw LottieError(path: l.path + ".sc", "expected a colour like \"#ff8000\"")
            }
            content = .solid(color: color, width: try size(l, "sw", default: nil), height: try size(l, "sh", default: nil))
        case 2: content = .image(assetID: try l.required("refId").string())
        case 3: content = .null
        case 4: content = .shapes(try shapes(try l.required("shapes")))
        case 5: content = .text(try text(l, name: name))
        case 13:
            // A camera: its zoom (`pe`) must be a distance in front of the viewer.
            guard let pe = try prop(l, "pe") else { throw LottieError(path: l.path + ".pe", "a camera needs a perspective (zoom) \"pe\"") }
            let values = pe.isAnimated ? pe.keyframes.map(\.value) : [pe.initial]
            for v in values {
                guard let d = v.first, d.isFinite, d > 0, d <= 1_000_000 else {
                    throw LottieError(path: l.path + ".pe", "a camera's perspective of \(v.first.map { "\($0)" } ?? "nothing") (expected a distance in 0…1000000, above 0)")
                }
            }
            content = .camera(perspective: pe)
            if layerTransform.autoOrient { notes.add(l.path + ".ao", "camera auto-orient (the point of interest and rotations are used)") }
        default:
            notes.add(l.path + ".ty", "layer type \(JSONNode.clampedInt(ty)) (not rendered)")
            content = .unsupported
        }
        return LottieLayerModel(path: l.path, name: name, index: try l.int("ind"), parent: try l.int("parent"),
                                inPoint: inPoint, outPoint: outPoint, startTime: try l.number("st", default: 0), stretch: stretch,
                                hidden: try l.bool("hd"), transform: layerTransform,
                                masks: masks, matteMode: matteMode, isMatteSource: try l.bool("td"), matteParent: try l.int("tp"),
                                compositingFilter: compositingFilter, content: content, effects: effects, drawnEffects: drawnEffects)
    }

    /// An expression control (a slider, angle, point, colour, checkbox, dropdown or layer
    /// control) or a pseudo effect: values expressions read, nothing drawn; nil for an effect
    /// that draws. `index`: its place among the layer's effects, from 1.
    mutating func effectControl(_ e: JSONNode, index: Int) throws -> LottieEffectControl? {
        guard e.isObject else { return nil }
        let matchName = try e.string("mn") ?? ""
        guard let list = try e.optional("ef"), list.isArray else { return nil }
        let items = try list.elements()
        let kinds = try items.map { $0.isObject ? try $0.number("ty", default: -1) : -1 }
        let type = try e.number("ty", default: -1)
        // Without a match name (older exports): a custom effect (5) whose values are all of the
        // controls' kinds (0 slider, 1 angle, 2 colour, 3 point, 4 checkbox, 7 dropdown, 10 layer).
        let control = LottieEffectControl.isControl(matchName: matchName)
            || (matchName.isEmpty && type == 5 && !kinds.isEmpty && kinds.allSatisfy { (0...4).contains($0) || $0 == 7 || $0 == 10 })
        guard control else { return nil }
        var values: [LottieEffectControl.Value] = []
        for (i, item) in items.enumerated() where item.isObject {
            // Group markers (6) and parameters without a readable value hold nothing to read.
            guard kinds[i] != 6, let v = try? prop(item, "v") else { continue }
            values.append(LottieEffectControl.Value(name: try item.string("nm") ?? "", matchName: try item.string("mn") ?? "",
                                                    index: i + 1, path: item.path + ".v", value: v, isLayer: kinds[i] == 10))
        }
        return LottieEffectControl(name: try e.string("nm") ?? "", matchName: matchName, path: e.path, index: index, values: values)
    }

    /// The values of drawn effect `drawn` (read from `e`, the layer's effect `index` from 1) as
    /// expressions read them: by name, match name or place.
    func readable(_ drawn: LottieDrawnEffect, _ e: JSONNode, index: Int) throws -> LottieEffectControl {
        var values: [LottieEffectControl.Value] = []
        if let list = try e.optional("ef"), list.isArray {
            for (j, item) in try list.elements().enumerated() where j < drawn.parameters.count {
                guard let p = drawn.parameters[j] else { continue }
                values.append(LottieEffectControl.Value(name: try item.string("nm") ?? "", matchName: try item.string("mn") ?? "", index: j + 1,
                                                        path: p.path, value: p.value, isLayer: try item.number("ty", default: -1) == 10))
            }
        }
        return LottieEffectControl(name: try e.string("nm") ?? "", matchName: try e.string("mn") ?? "", path: e.path, index: index, values: values)
    }

    /// An effect Strata draws (Fill, Tint, Tritone, Drop Shadow, Gaussian Blur, Stroke,
    /// Transform, Gradient Ramp) with its parameters; nil, and a note naming it, for any other effect, or one
    /// whose drawn parameters are missing or malformed. Parameters it does not draw are noted
    /// when set. `motionBlur`: the layer's motion blur switch (`mb`).
    mutating func drawnEffect(_ e: JSONNode, motionBlur: Bool) throws -> LottieDrawnEffect? {
        let name = e.isObject ? (try? e.string("nm")).flatMap { $0 } ?? "" : ""
        let label = name.isEmpty ? "" : " '\(name)'"
        let mn = e.isObject ? (try? e.string("mn")).flatMap { $0 } ?? "" : ""
        guard e.isObject, let ty = try? e.number("ty", default: -1),
              let kind = LottieDrawnEffect.Kind(type: JSONNode.clampedInt(ty), matchName: mn) else {
            // Named by its match name (After Effects' id of the effect), else its type.
            let ty = e.isObject ? (try? e.number("ty", default: -1)).map { " (type \(JSONNode.clampedInt($0)))" } ?? "" : ""
            notes.add(e.path, "layer effect\(label)\(mn.isEmpty ? ty : " (\(mn))") (not rendered)")
            return nil
        }
        var parameters: [(path: String, value: LottieAnimated<[Double]>)?] = []
        if let list = try e.optional("ef"), list.isArray {
            for item in try list.elements() {
                guard item.isObject, let v = try item.optional("v"), v.isObject, let p = try? prop(item, "v") else {
                    parameters.append(nil); continue
                }
                parameters.append((item.path + ".v", p))
            }
        }
        for (i, count) in kind.parameters {
            let values = i < parameters.count ? parameters[i].map { $0.value.isAnimated ? $0.value.keyframes.map(\.value) : [$0.value.initial] } : nil
            guard let values, values.allSatisfy({ $0.count >= count && $0.prefix(count).allSatisfy(\.isFinite) }) else {
                notes.add(e.path, "\(kind.name) effect\(label) without a readable parameter \(i + 1) (not rendered)")
                return nil
            }
        }
        // Parameters set that are not drawn.
        func any(_ i: Int, _ test: (Double) -> Bool) -> Bool {
            guard i < parameters.count, let p = parameters[i]?.value else { return false }
            return (p.isAnimated ? p.keyframes.map(\.value) : [p.initial]).contains { $0.first.map(test) ?? false }
        }
        func isSet(_ i: Int) -> Bool { any(i) { $0 != 0 } }
        switch kind {
        case .fill:
            if isSet(0) || isSet(1) { notes.add(e.path, "Fill effect\(label) limited to masks (the whole layer is filled)") }
            if isSet(3) { notes.add(e.path, "Fill effect\(label) inverted (drawn not inverted)") }
        case .dropShadow:
            if isSet(5) { notes.add(e.path, "Drop Shadow effect\(label) 'shadow only' (the layer is drawn too)") }
        case .gaussianBlur:
            if isSet(2) { notes.add(e.path, "Gaussian Blur effect\(label) 'repeat edge pixels' (the blur fades at the edges)") }
        case .stroke:
            // Hardness below 100 % softens the brush's edge; spacing of 100 % or more of the
            // brush's diameter parts its dabs (below that they overlap: a solid line).
            if any(5, { $0 < 100 }) { notes.add(e.path, "Stroke effect\(label) brush hardness below 100 % (drawn hard)") }
            if any(9, { $0 >= 100 }) { notes.add(e.path, "Stroke effect\(label) brush spacing of 100 % or more (drawn solid)") }
            if isSet(2) { notes.add(e.path, "Stroke effect\(label) drawn sequentially (drawn on every mask at once)") }
        case .transform:
            // Its own motion blur, only where the layer's motion blur is on (After Effects: "relevant"
            // with motion blur enabled for the layer and composition): at the composition's
            // shutter angle ("use composition's shutter angle", 9), else at its own (10) above 0.
            if motionBlur && (isSet(9) || any(10) { $0 > 0 }) {
                notes.add(e.path, "Transform effect\(label) motion blur (drawn without)")
            }
        case .gradientRamp:
            if any(5, { $0 > 0 }) { notes.add(e.path, "Gradient Ramp effect\(label) ramp scatter (drawn without)") }
        case .tint, .tritone:
            break
        }
        return LottieDrawnEffect(kind: kind, path: e.path, parameters: parameters)
    }

    /// A layer's width or height: 0…10⁶ points.
    func size(_ l: JSONNode, _ key: String, default d: Double?) throws -> Double {
        guard let n = try l.optional(key) else {
            if let d { return d }
            throw LottieError(path: l.path + "." + key, "missing")
        }
        let v = try n.number()
        guard v >= 0 && v <= 1_000_000 else { throw n.error("\(v) is not a size in 0…1000000") }
        return v
    }

    mutating func transform(_ node: JSONNode?, layer: Bool) throws -> LottieTransform {
        var t = LottieTransform()
        guard let node else { return t }
        guard node.isObject else { throw node.error("expected a transform object") }
        t.anchor = try prop(node, "a")
        if let p = try node.optional("p"), p.isObject, try p.bool("s") {
            t.positionX = try prop(p, "x")
            t.positionY = try prop(p, "y")
            if t.positionX == nil || t.positionY == nil { throw p.error("separated position needs \"x\" and \"y\"") }
            t.positionZ = try prop(p, "z")
        } else {
            t.position = try prop(node, "p")
        }
        t.scale = try prop(node, "s")
        t.rotation = try prop(node, "r") ?? prop(node, "rz")
        t.opacity = try prop(node, "o")
        t.skew = try prop(node, "sk")
        t.skewAxis = try prop(node, "sa")
        t.rotationX = try prop(node, "rx")
        t.rotationY = try prop(node, "ry")
        t.orientation = try prop(node, "or")
        return t
    }

    mutating func shapes(_ node: JSONNode) throws -> [LottieShapeItem] {
        let elements = try node.elements()
        let items = try elements.map { try shape($0) }
        shapeIndex.contents[node.path] = elements.map(\.path).filter { shapeIndex.items[$0].map { $0.type != "tr" } ?? false }
        return items
    }

    mutating func shape(_ s: JSONNode) throws -> LottieShapeItem {
        guard s.isObject else { throw s.error("expected a shape object") }
        shapeIndex.items[s.path] = LottieShapeIndex.Item(type: (try? s.string("ty")) ?? "", name: (try? s.string("nm")) ?? "",
                                                         matchName: (try? s.string("mn")) ?? "", index: try? s.optional("ix")?.number())
        if try s.bool("hd") { return .ignored }
        let ty = try s.required("ty").string()
        // Direction 3 draws a path the other way ("d" is a stroke's dash list instead).
        let reversed = try ["rc", "el", "sh", "sr"].contains(ty) && s.number("d", default: 1) == 3
        func req(_ key: String) throws -> LottieAnimated<[Double]> {
            guard let p = try prop(s, key) else { throw LottieError(path: s.path + "." + key, "missing") }
            return p
        }
        func check(_ p: LottieAnimated<[Double]>, _ key: String, count: Int) throws -> LottieAnimated<[Double]> {
            let values = p.isAnimated ? p.keyframes.map(\.value) : [p.initial]
            for (i, v) in values.enumerated() where v.count < count {
                let where_ = p.isAnimated ? "\(s.path).\(key).k[\(i)].s" : "\(s.path).\(key).k"
                throw LottieError(path: where_, "expected \(count) numbers, got \(v.count)")
            }
            return p
        }
        switch ty {
        case "gr":
            scope.append(try s.string("nm") ?? "")
            defer { scope.removeLast() }
            let list = try s.optional("it") ?? JSONNode(value: [Any](), path: s.path + ".it")
            var items = try shapes(list)
            if let last = try list.elements().last, shapeIndex.items[last.path]?.type == "tr" { shapeIndex.transforms[s.path] = last.path }
            var t: LottieTransform?
            if let last = items.last, case .transform(let tr) = last { t = tr; items.removeLast() }
            return .group(items: items, transform: t)
        case "tr": return .transform(try transform(s, layer: false))
        case "rc": return .rectangle(position: try check(try req("p"), "p", count: 2), size: try check(try req("s"), "s", count: 2),
                                     roundness: try prop(s, "r"), reversed: reversed)
        case "el": return .ellipse(position: try check(try req("p"), "p", count: 2), size: try check(try req("s"), "s", count: 2), reversed: reversed)
        case "sh":
            let ks = try s.required("ks")
            try expression(ks, numeric: false)
            let shape = try LottieAnimated.parse(ks, LottieBezier.parse)
            shapeIndex.paths[ks.path] = shape
            shapeIndex.pathIndices[ks.path] = try? ks.optional("ix")?.number()
            return .path(shape, reversed: reversed)
        case "sr":
            let star = try s.number("sy", default: 1) == 1
            return .polystar(star: star, position: try check(try req("p"), "p", count: 2), points: try req("pt"), outerRadius: try req("or"),
                             innerRadius: star ? try req("ir") : nil, outerRoundness: try prop(s, "os"),
                             innerRoundness: star ? try prop(s, "is") : nil, rotation: try prop(s, "r"), reversed: reversed)
        case "fl":
            guard let c = try color(s) else { throw LottieError(path: s.path + ".c", "missing") }
            return .fill(color: try check(c, "c", count: 3), opacity: try prop(s, "o"), evenOdd: try s.number("r", default: 1) == 2)
        case "st":
            var dashes: [(String, LottieAnimated<[Double]>)] = []
            if let d = try s.optional("d") {
                for e in try d.elements() {
                    let kind = try e.string("n") ?? "d"
                    guard let v = try prop(e, "v") else { throw LottieError(path: e.path + ".v", "missing") }
                    dashes.append((kind, v))
                }
            }
            guard let c = try color(s) else { throw LottieError(path: s.path + ".c", "missing") }
            return .stroke(color: try check(c, "c", count: 3), opacity: try prop(s, "o"), width: try req("w"),
                           cap: JSONNode.clampedInt(try s.number("lc", default: 2)), join: JSONNode.clampedInt(try s.number("lj", default: 2)),
                           miterLimit: try s.number("ml", default: 4), dashes: dashes)
        case "gf", "gs":
            let g = try s.required("g")
            let count = try g.required("p").number()
            guard count >= 1 && count <= 1000 else { throw LottieError(path: g.path + ".p", "expected a number of colour stops in 1…1000") }
            try expression(try g.required("k"))
            let colors = try LottieAnimated.parse(try g.required("k")) { try $0.numbers() }
            let type = JSONNode.clampedInt(try s.number("t", default: 1))
            for (i, v) in (colors.isAnimated ? colors.keyframes.map(\.value) : [colors.initial]).enumerated() where v.count < Int(count) * 4 {
                throw LottieError(path: g.path + (colors.isAnimated ? ".k.k[\(i)].s" : ".k.k"), "expected \(Int(count) * 4) numbers for \(Int(count)) colour stops, got \(v.count)")
            }
            let gradient = LottieGradient(type: type, colorCount: Int(count), colors: colors,
                                          start: try check(try req("s"), "s", count: 2), end: try check(try req("e"), "e", count: 2),
                                          opacity: try prop(s, "o"),
                                          highlightLength: type == 2 ? try prop(s, "h") : nil,
                                          highlightAngle: type == 2 ? try prop(s, "a") : nil)
            if ty == "gs" {
                if let d = try s.optional("d"), d.isArray, !(try d.elements().isEmpty) { notes.add(d.path, "dashes of a gradient stroke (drawn solid)") }
                return .gradientStroke(gradient, width: try req("w"), cap: JSONNode.clampedInt(try s.number("lc", default: 2)),
                                       join: JSONNode.clampedInt(try s.number("lj", default: 2)), miterLimit: try s.number("ml", default: 4))
            }
            return .gradientFill(gradient, evenOdd: try s.number("r", default: 1) == 2)
        case "tm":
            let individually = try s.number("m", default: 1) == 2
            return .modifier(.trim(start: try req("s"), end: try req("e"), offset: try prop(s, "o"), individually: individually))
        case "rd":
            return .modifier(.roundedCorners(radius: try req("r")))
        case "pb":
            return .modifier(.puckerBloat(amount: try req("a")))
        case "zz":
            let ridges = try req("r")
            let most = (ridges.isAnimated ? ridges.keyframes.map(\.value) : [ridges.initial]).compactMap(\.first).max() ?? 0
            if most > Double(limits.zigZagRidges) {
                throw LottieError(path: s.path + ".r", "\(most) ridges a segment, over the limit of \(limits.zigZagRidges)")
            }
            return .modifier(.zigZag(size: try req("s"), ridges: ridges, points: try numberOrProp(s, "pt"), ridgeLimit: limits.zigZagRidges))
        case "op":
            // After Effects' defaults: a miter join, limit 4.
            return .modifier(.offset(amount: try req("a"), join: JSONNode.clampedInt(try s.number("lj", default: 1)),
                                     miterLimit: try numberOrProp(s, "ml")))
        case "rp":
            if let c = try prop(s, "c") {
                let most = (c.isAnimated ? c.keyframes.map(\.value) : [c.initial]).compactMap(\.first).max() ?? 0
                if most > Double(limits.repeaterCopies) {
                    throw LottieError(path: s.path + ".c", "\(most) copies, over the limit of \(limits.repeaterCopies)")
                }
            }
            guard let copies = try prop(s, "c") else { throw LottieError(path: s.path + ".c", "missing") }
            if try s.number("m", default: 1) == 2 { notes.add(s.path + ".m", "repeater copies composited below (drawn above)") }
            let tr = try s.optional("tr")
            return .repeater(LottieRepeater(copies: copies, offset: try prop(s, "o"), transform: try transform(tr, layer: false),
                                            startOpacity: try tr.flatMap { try prop($0, "so") }, endOpacity: try tr.flatMap { try prop($0, "eo") }))
        case "mm":
            // 1 merge (a compound path), 2 add, 3 subtract, 4 intersect, 5 exclude intersections.
            let raw = try s.number("mm", default: 1)
            guard let mode = LottieMergeMode(rawValue: JSONNode.clampedInt(raw)), Double(mode.rawValue) == raw else {
                notes.add(s.path + ".mm", "merge paths mode \(raw == raw.rounded() ? "\(JSONNode.clampedInt(raw))" : "\(raw)") (not rendered)")
                return .ignored
            }
            return .merge(mode)
        default:
            let names = ["tw": "twist"]
            notes.add(s.path, "\(names[ty] ?? "shape type '\(ty)'") (not rendered)")
            return .ignored
        }
    }
}
