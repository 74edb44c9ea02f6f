// The expressions of one animation and what they can reach: each property's own keyframes, its
// layer (`index`, `transform`, expression controls), and the other layers of its composition
// (`thisComp.layer("name" | index)`), whose properties are evaluated at the same frame — their
// keyframes, their loop, or their own expression. A reference cycle, or a chain of references
// more than `maxReferences` deep, is an error (reported, the keyframes used), never a hang.
// Evaluation is a pure function of the property and the frame: the compiler may sample frames
// in any order.
import Foundation
import Strata

struct LottieExpressions {
    /// A layer: its composition ("" for the top level, else the precomposition's asset id) and
    /// its position in that composition's list.
    struct LayerRef: Equatable {
        var comp: String
        var position: Int
    }

    /// A numeric property an expression refers to.
    struct PropertyRef {
        var path: String
        var property: LottieAnimated<[Double]>
        var owner: LayerRef?
        /// The keyframes only (`thisProperty` inside its own expression), not the expression.
        var raw: Bool
    }

    static let maxReferences = 16

    private(set) var scripts: [String: (script: LottieScript, property: LottieAnimated<[Double]>)]
    let loops: [String: LottieLoop]
    private let comps: [String: [LottieLayerModel]]
    /// Layers by JSON path.
    private let layerRefs: [String: LayerRef]
    /// The layer of each expression's property, found once.
    private var owners: [String: LayerRef] = [:]
    let frameRate: Double

    init(scripts: [String: (script: LottieScript, property: LottieAnimated<[Double]>)], loops: [String: LottieLoop],
         layers: [LottieLayerModel], precomps: [String: [LottieLayerModel]], frameRate: Double) {
        self.scripts = scripts
        self.loops = loops
        var comps = precomps
        comps[""] = layers
        self.comps = comps
        var refs: [String: LayerRef] = [:]
        for (id, list) in comps { for (i, l) in list.enumerated() { refs[l.path] = LayerRef(comp: id, position: i) } }
        layerRefs = refs
        self.frameRate = frameRate
        for path in scripts.keys { owners[path] = owner(of: path) }
    }

    /// Adds (or replaces) the expression of the property at `path`.
    mutating func add(_ path: String, _ script: LottieScript, _ property: LottieAnimated<[Double]>) {
        scripts[path] = (script, property)
        owners[path] = owner(of: path)
    }

    /// The JSON paths of the properties with an expression evaluated per frame, sorted.
    var paths: [String] { scripts.keys.sorted() }

    /// Whether the property at `path` has an expression evaluated per frame.
    func contains(_ path: String) -> Bool { scripts[path] != nil }

    /// Evaluates each expression once, at its layer's in point, and drops (noting why) those
    /// that fail: an unknown layer, effect or member, a wrong type, a reference cycle, a limit.
    mutating func check(_ notes: inout LottieNotes) {
        for path in scripts.keys.sorted() {
            guard let entry = scripts[path] else { continue }
            let frame = owner(of: path).map { layer($0).inPoint } ?? 0
            do {
                _ = try evaluate(path, entry.property, at: frame)
            } catch {
                let message = (error as? LottieScriptError)?.message ?? "\(error)"
                notes.add(path + ".x", "expression: \(message) (the keyframes are used instead)")
                scripts[path] = nil
            }
        }
    }

    /// The value of the expression at `path` at a frame of its composition, the property's
    /// keyframes being `property`.
    func evaluate(_ path: String, _ property: LottieAnimated<[Double]>, at frame: Double) throws -> [Double] {
        let run = LottieScriptRun(host: self)
        return try value(of: PropertyRef(path: path, property: property, owner: owners[path] ?? owner(of: path), raw: false), at: frame, run)
    }

    /// The layer a property's JSON path is in (nil: none, as for a slot's).
    func owner(of path: String) -> LayerRef? {
        var end = path.endIndex
        while let close = path[..<end].lastIndex(of: "]") {
            let prefix = String(path[...close])
            if let ref = layerRefs[prefix] { return ref }
            end = close
        }
        return nil
    }

    func layer(_ ref: LayerRef) -> LottieLayerModel { comps[ref.comp]![ref.position] }

    /// A property's value at a frame: its expression's (with the cycle guard), its loop's, or its keyframes'.
    func value(of p: PropertyRef, at frame: Double, _ run: LottieScriptRun) throws -> [Double] {
        try run.step()
        let keyframed = p.property.value(at: frame)
        // `thisProperty`, or the property named inside its own expression (`transform.rotation`
        // in the rotation's): the value before the expression, as After Effects gives it.
        if p.raw || run.stack.last == p.path { return keyframed }
        if let entry = scripts[p.path] {
            guard !run.stack.contains(p.path) else {
                throw LottieScriptError("expressions refer to each other in a cycle (\((run.stack + [p.path]).joined(separator: " → ")))")
            }
            guard run.stack.count < Self.maxReferences else {
                throw LottieScriptError("references more than \(Self.maxReferences) deep")
            }
            run.stack.append(p.path)
            defer { run.stack.removeLast() }
            let e = LottieScriptEvaluator(entry.script, run: run, path: p.path, property: p.property, owner: p.owner, frame: frame)
            let result = try e.vector(try e.evaluate())
            guard result.allSatisfy(\.isFinite) else { throw LottieScriptError("the value is not a finite number") }
            guard !result.isEmpty else { throw LottieScriptError("the value is an empty array") }
            if result.count == keyframed.count { return result }
            if result.count == 1, keyframed.count > 1 {
                throw LottieScriptError("a number where the property has \(keyframed.count) values")
            }
            // Fewer values than the property has: the rest keep the keyframes'; more: the first ones.
            return keyframed.indices.map { $0 < result.count ? result[$0] : keyframed[$0] }
        }
        if let loop = loops[p.path] {
            return try LottieScriptLibrary.loop(after: loop.after, loop.kind.rawValue, count: nil, duration: nil, p.property,
                                                at: frame, frameRate: frameRate)
        }
        return keyframed
    }

    /// A property's value as the expression language has it: one number, or an array.
    func vectorValue(_ v: [Double]) -> LottieScriptValue { v.count == 1 ? .number(v[0]) : .vector(v) }

    // MARK: Objects

    func member(_ o: LottieScriptObject, _ name: String, _ e: LottieScriptEvaluator) throws -> LottieScriptValue {
        switch o {
        case .math: return try LottieScriptLibrary.math(name)
        case .comp:
            switch name {
            case "layer": return .function("layer", .comp)
            case "frameDuration": return .number(1 / frameRate)
            case "numLayers": return .number(Double(comps[e.owner?.comp ?? ""]?.count ?? 0))
            default: throw LottieScriptError("no 'thisComp.\(name)'")
            }
        case .layer(let ref):
            let l = layer(ref)
            switch name {
            case "transform": return .object(.transform(ref))
            case "position", "anchorPoint", "scale", "rotation", "opacity": return try member(.transform(ref), name, e)
            case "index":
                guard let i = l.index else { throw LottieScriptError("the layer has no index (\"ind\")") }
                return .number(Double(i))
            case "name": return .string(l.name)
            case "inPoint": return .number(l.inPoint / frameRate)
            case "outPoint": return .number(l.outPoint / frameRate)
            case "startTime": return .number(l.startTime / frameRate)
            case "effect", "toComp", "toWorld", "fromComp", "fromWorld": return .function(name, .layer(ref))
            default: throw LottieScriptError("no 'layer.\(name)'")
            }
        case .transform(let ref):
            let l = layer(ref), t = l.transform, ks = l.path + ".ks"
            func property(_ p: LottieAnimated<[Double]>?, _ key: String, _ otherwise: [Double]) -> LottieScriptValue {
                .object(.property(PropertyRef(path: ks + "." + key, property: p ?? .fixed(otherwise), owner: ref, raw: false)))
            }
            switch name {
            case "position":
                if t.position == nil, let x = t.positionX, let y = t.positionY {
                    // Separate dimensions: each with its own keyframes or expression.
                    let px = try value(of: PropertyRef(path: ks + ".p.x", property: x, owner: ref, raw: false), at: e.frame, e.run)
                    let py = try value(of: PropertyRef(path: ks + ".p.y", property: y, owner: ref, raw: false), at: e.frame, e.run)
                    return .vector([px[0], py[0]])
                }
                return property(t.position, "p", [0, 0])
            case "xPosition": return property(t.positionX, "p.x", [t.position?.initial.first ?? 0])
            case "yPosition": return property(t.positionY, "p.y", [t.position.map { $0.initial.count > 1 ? $0.initial[1] : 0 } ?? 0])
            case "anchorPoint": return property(t.anchor, "a", [0, 0])
            case "scale": return property(t.scale, "s", [100, 100])
            case "rotation", "zRotation": return property(t.rotation, scripts[ks + ".rz"] != nil ? "rz" : "r", [0])
            case "opacity": return property(t.opacity, "o", [100])
            case "xRotation": return property(t.rotationX, "rx", [0])
            case "yRotation": return property(t.rotationY, "ry", [0])
            case "skew": return property(t.skew, "sk", [0])
            case "skewAxis": return property(t.skewAxis, "sa", [0])
            default: throw LottieScriptError("no 'transform.\(name)'")
            }
        case .effect(let ref, let i):
            guard name == "param" else { throw LottieScriptError("no 'effect.\(name)'") }
            return .function("param", .effect(ref, i))
        case .property(let p):
            switch name {
            case "value": return vectorValue(try value(of: p, at: e.frame, e.run))
            case "numKeys": return .number(Double(p.property.keyframes.count))
            case "velocity": return vectorValue(try velocity(of: p, at: e.frame, e.run))
            case "speed": return .number(Self.length(try velocity(of: p, at: e.frame, e.run)))
            case "valueAtTime", "loopOut", "loopIn", "loopOutDuration", "loopInDuration", "key", "nearestKey", "velocityAtTime", "speedAtTime":
                return .function(name, .property(p))
            default: throw LottieScriptError("no 'property.\(name)'")
            }
        case .key(let p, let i):
            let k = p.property.keyframes[i]
            switch name {
            case "time": return .number(k.time / frameRate)
            case "value": return vectorValue(k.value)
            case "index": return .number(Double(i + 1))
            default: throw LottieScriptError("no 'key.\(name)'")
            }
        }
    }

    /// The matrix from a layer's space to its composition's at a frame: its transform, then its
    /// parents' (their expressions applied; 3D rotations left out, as in a 2D composition).
    func toComp(_ ref: LayerRef, at frame: Double, _ run: LottieScriptRun) throws -> CGAffineTransform {
        var m = CGAffineTransform.identity
        var current: LayerRef? = ref
        var seen = 0
        while let r = current {
            seen += 1
            guard seen <= Self.maxReferences else { throw LottieScriptError("parents more than \(Self.maxReferences) deep") }
            let l = layer(r), t = l.transform, ks = l.path + ".ks"
            let rotationKey = scripts[ks + ".rz"] != nil ? "rz" : "r"
            var values: [String: [Double]] = [:]
            let properties = [("a", t.anchor), ("s", t.scale), ("sk", t.skew), ("sa", t.skewAxis), ("r", t.rotation),
                              ("p", t.position), ("p.x", t.positionX), ("p.y", t.positionY)]
            for (key, p) in properties {
                guard let p else { continue }
                let path = ks + "." + (key == "r" ? rotationKey : key)
                values[key] = try value(of: PropertyRef(path: path, property: p, owner: r, raw: false), at: frame, run)
            }
            m = m.concatenating(LottieCompiler.matrix(t, at: frame) { p, key in values[key] ?? p.value(at: frame) })
            current = l.parent.flatMap { p in comps[r.comp]?.firstIndex { $0.index == p } }.map { LayerRef(comp: r.comp, position: $0) }
        }
        return m
    }

    /// A property's velocity at a frame, per second: its change over the last thousandth of a second.
    func velocity(of p: PropertyRef, at frame: Double, _ run: LottieScriptRun) throws -> [Double] {
        let h = 0.001
        let a = try value(of: p, at: frame - h * frameRate, run), b = try value(of: p, at: frame, run)
        return b.indices.map { (b[$0] - (a.indices.contains($0) ? a[$0] : b[$0])) / h }
    }

    static func length(_ v: [Double]) -> Double { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }

    /// `thisComp.layer(name)` (the first layer of that name, top first) or `thisComp.layer(index)` (by "ind").
    func layer(named key: LottieScriptValue, near owner: LayerRef?, _ e: LottieScriptEvaluator) throws -> LayerRef {
        guard let owner, let list = comps[owner.comp] else { throw LottieScriptError("the property is not in a layer") }
        if case .string(let name) = key {
            guard let i = list.firstIndex(where: { $0.name == name }) else { throw LottieScriptError("no layer named '\(name)'") }
            return LayerRef(comp: owner.comp, position: i)
        }
        let index = try e.number(key)
        guard let i = list.firstIndex(where: { $0.index.map(Double.init) == index }) else {
            throw LottieScriptError("no layer with index \(index)")
        }
        return LayerRef(comp: owner.comp, position: i)
    }

    /// `layer.effect(name | index)`: an expression control, pseudo effect or drawn effect of the
    /// layer, by its name or match name, or by its place among all the layer's effects (from 1).
    func effect(_ key: LottieScriptValue, of ref: LayerRef, _ e: LottieScriptEvaluator) throws -> Int {
        let effects = layer(ref).effects
        if case .string(let name) = key {
            guard let i = effects.firstIndex(where: { $0.name == name || $0.matchName == name }) else {
                throw LottieScriptError("no effect named '\(name)' (effects Strata does not draw are not read)")
            }
            return i
        }
        let n = Self.position(try e.number(key)) + 1
        guard let i = effects.firstIndex(where: { $0.index == n }) else {
            throw LottieScriptError("no effect \(n < 1 ? "of that index" : "\(n)") (effects Strata does not draw are not read)")
        }
        return i
    }

    /// One value of an effect, by its name or match name, or by its place in the
    /// effect (from 1): its property, or for a layer control the layer it names.
    func effectParameter(_ key: LottieScriptValue, of ref: LayerRef, _ i: Int, _ e: LottieScriptEvaluator) throws -> LottieScriptValue {
        let control = layer(ref).effects[i]
        let found: LottieEffectControl.Value?
        if case .string(let name) = key {
            found = control.values.first { $0.name == name } ?? control.values.first { $0.matchName == name }
        } else {
            let k = Self.position(try e.number(key)) + 1
            found = control.values.first { $0.index == k }
        }
        guard let found else { throw LottieScriptError("the effect '\(control.name)' has no such value") }
        if found.isLayer {
            // A layer control's value is the index of a layer of the same composition (0: none).
            let index = found.value.initial.first ?? 0
            guard index >= 1 else { throw LottieScriptError("the layer control '\(control.name)' names no layer") }
            return .object(.layer(try layer(named: .number(index), near: ref, e)))
        }
        return .object(.property(PropertyRef(path: found.path, property: found.value, owner: ref, raw: false)))
    }

    /// A 1-based index as a 0-based position (−1 for anything that is not one).
    static func position(_ d: Double) -> Int { d.isFinite && d >= 1 && d < 1e9 ? Int(d) - 1 : -1 }
}
