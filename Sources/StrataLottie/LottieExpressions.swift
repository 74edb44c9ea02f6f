// The expressions of one animation and what they can reach: each property's own keyframes, its
// layer (`index`, `transform`, expression controls), and the other layers of its composition
// (`thisComp.layer("name" | index)`), whose properties are evaluated at the same frame — their
// keyframes, their loop, or their own expression. In a reference cycle the property reached
// again gives its value before its expression; a chain of references more than
// `maxReferences` deep is an error (reported, the keyframes used), never a hang.
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
    /// Shape items and numeric properties by JSON path (`content(…)`, `propertyGroup(…)`).
    let shapes: LottieShapeIndex
    /// Properties whose expression is not run (not read, or dropped by `check`): their
    /// keyframes are not what After Effects gives, so expressions that read them fail too.
    private(set) var unrun: Set<String>
    /// Layers (by JSON path) that run no expression, as one of theirs is not run (`check`).
    private(set) var stoppedLayers: Set<String> = []
    /// Expressions on paths, by the path's JSON path (see `pathLinks`).
    let pathScripts: [String: LottieScript]
    /// The composition's markers in time order (`thisComp.marker`; the top level's only: a
    /// Lottie file keeps no others).
    var markers: [LottieMarker] = []
    /// Image assets' sizes by id (`sourceRectAtTime` of an image layer).
    var imageSizes: [String: [Double]] = [:]
    /// Expressions on text documents (Source Text), by the document's JSON path (`….t.d`): the
    /// text another expression reads of the layer (`text.sourceText`, `sourceRectAtTime`).
    var textScripts: [String: LottieScript] = [:]
    let frameRate: Double

    init(scripts: [String: (script: LottieScript, property: LottieAnimated<[Double]>)], loops: [String: LottieLoop],
         layers: [LottieLayerModel], precomps: [String: [LottieLayerModel]], shapes: LottieShapeIndex = LottieShapeIndex(),
         pathScripts: [String: LottieScript] = [:], unrun: Set<String> = [], frameRate: Double) {
        self.scripts = scripts
        self.unrun = unrun
        self.shapes = shapes
        self.pathScripts = pathScripts
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
    /// that fail: an unknown layer, effect or member, a wrong type, a limit,
    /// or a reference to a property whose own expression is not run (its keyframes are not
    /// what After Effects would give) — passes until none more fails, as each dropped one may
    /// fail others that read it.
    mutating func check(_ notes: inout LottieNotes) {
        // A layer with an expression that is not run runs none: its parts keep their keyframes
        // together (a rig half evaluated — its limbs' trims but not their transforms — draws
        // parts where neither After Effects nor the keyframes put them).
        func stop(layerOf path: String) {
            guard let ref = owner(of: path) else { return }
            let layerPath = layer(ref).path
            guard stoppedLayers.insert(layerPath).inserted else { return }
            for other in scripts.keys.sorted() where owner(of: other).map({ layer($0).path }) == layerPath {
                notes.add(other + ".x", "expression: not run, as another expression of its layer is not (the keyframes are used instead)")
                scripts[other] = nil
                unrun.insert(other)
            }
        }
        for path in unrun.sorted() { stop(layerOf: path) }
        for _ in 0..<Self.maxCheckPasses {
            var failures: [(path: String, message: String)] = []
            var caught: [(path: String, reason: String)] = []
            // Values shared by the pass's evaluations (the expressions do not change during it),
            // each expression itself evaluated anew, so that its own try blocks are seen.
            let cache = LottieExpressionCache()
            for path in scripts.keys.sorted() {
                guard let entry = scripts[path] else { continue }
                let frame = owner(of: path).map { layer($0).inPoint } ?? 0
                let run = LottieScriptRun(host: self, cache: cache)
                do {
                    try run.step()
                    _ = try evaluateAndKeep(entry, PropertyRef(path: path, property: entry.property, owner: owners[path] ?? owner(of: path), raw: false),
                                            at: frame, run)
                    if let reason = run.caught { caught.append((path, reason)) }
                } catch {
                    failures.append((path, (error as? LottieScriptError)?.message ?? "\(error)"))
                }
            }
            for f in failures where scripts[f.path] != nil {
                notes.add(f.path + ".x", "expression: \(f.message) (the keyframes are used instead)")
                scripts[f.path] = nil
                unrun.insert(f.path)
                stop(layerOf: f.path)
            }
            if failures.isEmpty {
                for c in caught {
                    notes.add(c.path + ".x", "expression: its try block fails (\(c.reason)), so its catch block is used, as a player's is when the block fails")
                }
                return
            }
        }
        // Failures still reaching further: bounded, so a hostile file cannot make this quadratic.
        for path in scripts.keys.sorted() {
            notes.add(path + ".x", "expression: not run, as failing expressions reach it through more than \(Self.maxCheckPasses) others (the keyframes are used instead)")
            scripts[path] = nil
            unrun.insert(path)
        }
    }

    /// Passes of `check`: how far a failure reaches through expressions that read the failing
    /// ones, or share a layer with them.
    static let maxCheckPasses = 8

    /// What the expressions on paths say: each one that names a path — `content("Shape 1")
    /// .content("Path 1").path`, its own (the keyframes) or another's (whose keyframes it then
    /// takes, followed through other such links) — at the layer's in and out points alike;
    /// or that makes one (`createPath(…)`) at both; the others are noted, their keyframes used.
    /// Returns the links, by the linked path, and the paths whose expression makes them
    /// (evaluated at every frame by `madePath`).
    func pathLinks(_ notes: inout LottieNotes) -> (links: [String: String], made: [String]) {
        var direct: [String: String] = [:]
        var made: [String] = []
        for path in pathScripts.keys.sorted() {
            guard let script = pathScripts[path] else { continue }
            let owner = owners[path] ?? owner(of: path)
            if let o = owner, stoppedLayers.contains(layer(o).path) {
                notes.add(path + ".x", "expression on a path: not run, as another expression of its layer is not (the keyframes are used instead)")
                continue
            }
            let frames: [Double] = owner.map { [layer($0).inPoint, max(layer($0).inPoint, layer($0).outPoint - 1)] } ?? [0]
            do {
                var targets: Set<String> = []
                var makes = 0
                for frame in frames {
                    let run = LottieScriptRun(host: self)
                    run.stack.append(path)
                    let e = LottieScriptEvaluator(script, run: run, path: path, property: .fixed([]), owner: owner, frame: frame)
                    e.isPath = true
                    switch try e.evaluate() {
                    case .object(.path(let target)): targets.insert(target)
                    case .object(.bezier): makes += 1
                    default: throw LottieScriptError("it gives other than a path (a path named, as content(…).path, or made by createPath)")
                    }
                }
                if makes == frames.count {
                    made.append(path)
                    continue
                }
                guard makes == 0 else { throw LottieScriptError("it names a path at some times and makes one at others") }
                guard targets.count == 1, let target = targets.first else { throw LottieScriptError("it names different paths at different times") }
                if target != path { direct[path] = target }
            } catch {
                let message = (error as? LottieScriptError)?.message ?? "\(error)"
                notes.add(path + ".x", "expression on a path: \(message) (the keyframes are used instead)")
            }
        }
        // Followed to the end of each chain; a chain that comes back to itself is noted.
        var links: [String: String] = [:]
        for start in direct.keys.sorted() {
            var seen = [start], current = start
            while let next = direct[current], seen.count <= Self.maxReferences {
                guard !seen.contains(next) else { break }
                seen.append(next)
                current = next
            }
            if let next = direct[current] {
                notes.add(start + ".x", "expression on a path: paths name each other in a cycle or more than \(Self.maxReferences) deep (through \(next)) (the keyframes are used instead)")
            } else {
                links[start] = current
            }
        }
        return (links, made)
    }

    /// The value of the expression at `path` at a frame of its composition, the property's
    /// keyframes being `property`; `cache` keeps values for the evaluations that follow (a
    /// compile's), valid while the expressions do not change.
    func evaluate(_ path: String, _ property: LottieAnimated<[Double]>, at frame: Double,
                  cache: LottieExpressionCache = LottieExpressionCache()) throws -> [Double] {
        let run = LottieScriptRun(host: self, cache: cache)
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
        // `thisProperty`, or the property named inside its own expression (`transform.rotation`
        // in the rotation's): the value before the expression, as After Effects gives it. So is
        // a property reached again through a cycle of expressions reading each other (lottie-web
        // gives a property its value before the expression when its evaluation comes back to
        // it: RubberHose rigs read their layer's rotation through `toComp` while computing it).
        if p.raw || run.stack.last == p.path { return p.property.value(at: frame) }
        if run.stack.contains(p.path) {
            run.note(p.path, cut: true)
            return p.property.value(at: frame)
        }
        if unrun.contains(p.path) { throw LottieScriptError("it reads \(p.path), whose expression is not run") }
        if let entry = scripts[p.path] {
            // Each property's value at a frame is evaluated once (rigs read the same controls
            // through many paths), where the cycles it cuts are the same (see
            // LottieExpressionCache).
            if let known = run.cache.values[LottieExpressionCache.Key(path: p.path, frame: frame)], holds(known, for: p.path, in: run) {
                if !run.reads.isEmpty {
                    run.reads[run.reads.count - 1].touched.formUnion(known.touched)
                    run.reads[run.reads.count - 1].touched.insert(p.path)
                    run.reads[run.reads.count - 1].cuts.formUnion(known.cuts.subtracting([p.path]))
                }
                return known.value
            }
            return try evaluateAndKeep(entry, p, at: frame, run)
        }
        if let loop = loops[p.path] {
            return try LottieScriptLibrary.loop(after: loop.after, loop.kind.rawValue, count: nil, duration: nil, p.property,
                                                at: frame, frameRate: frameRate)
        }
        return p.property.value(at: frame)
    }

    /// Whether a kept value of `path` is what evaluating it now would give: of the properties
    /// being evaluated (and `path` itself, which its evaluation adds), those its evaluation read
    /// are exactly those it cut.
    private func holds(_ known: LottieExpressionCache.Entry, for path: String, in run: LottieScriptRun) -> Bool {
        if known.cuts.isEmpty, known.touched.isEmpty { return true }
        if known.touched.contains(path) != known.cuts.contains(path) { return false }
        for s in run.stack where known.touched.contains(s) != known.cuts.contains(s) { return false }
        return known.cuts.allSatisfy { $0 == path || run.stack.contains($0) }
    }

    /// A property's expression evaluated at a frame and kept in the run's cache, with what it
    /// read and cut; those reads are the reads of the evaluation around it too (its own cut of
    /// itself, inside its evaluation, is not).
    private func evaluateAndKeep(_ entry: (script: LottieScript, property: LottieAnimated<[Double]>), _ p: PropertyRef,
                                 at frame: Double, _ run: LottieScriptRun) throws -> [Double] {
        run.reads.append(([], []))
        var result: [Double]?
        defer {
            let reads = run.reads.removeLast()
            if let result, run.cache.values.count < LottieExpressionCache.capacity {
                run.cache.values[LottieExpressionCache.Key(path: p.path, frame: frame)] =
                    LottieExpressionCache.Entry(value: result, touched: reads.touched, cuts: reads.cuts)
            }
            if !run.reads.isEmpty {
                run.reads[run.reads.count - 1].touched.formUnion(reads.touched)
                run.reads[run.reads.count - 1].touched.insert(p.path)
                run.reads[run.reads.count - 1].cuts.formUnion(reads.cuts.subtracting([p.path]))
            }
        }
        result = try evaluate(entry, p, at: frame, run)
        return result ?? []
    }

    /// A property's expression evaluated at a frame (one deeper in the run's stack).
    private func evaluate(_ entry: (script: LottieScript, property: LottieAnimated<[Double]>), _ p: PropertyRef,
                          at frame: Double, _ run: LottieScriptRun) throws -> [Double] {
        let keyframed = p.property.value(at: frame)
        guard run.stack.count < Self.maxReferences else {
            throw LottieScriptError("references more than \(Self.maxReferences) deep", limit: true)
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

    /// A property's value as the expression language has it: one number, or an array.
    func vectorValue(_ v: [Double]) -> LottieScriptValue { v.count == 1 ? .number(v[0]) : .vector(v) }

    // MARK: Objects

    func member(_ o: LottieScriptObject, _ name: String, _ e: LottieScriptEvaluator) throws -> LottieScriptValue {
        switch o {
        case .math: return try LottieScriptLibrary.math(name)
        case .comp, .composition:
            switch name {
            case "layer": return .function("layer", o)
            case "frameDuration": return .number(1 / frameRate)
            case "numLayers":
                if case .composition(let id) = o { return .number(Double(comps[id]?.count ?? 0)) }
                return .number(Double(comps[e.owner?.comp ?? ""]?.count ?? 0))
            case "marker": return .object(.markers)
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
            case "name", "_name": return .string(l.name)
            case "text":
                guard case .text = l.content else { throw LottieScriptError("the layer '\(l.name)' is not a text layer") }
                return .object(.text(ref))
            case "marker": throw LottieScriptError("a layer's markers (a Lottie file keeps the composition's only)")
            case "inPoint": return .number(l.inPoint / frameRate)
            case "outPoint": return .number(l.outPoint / frameRate)
            case "startTime": return .number(l.startTime / frameRate)
            case "effect", "toComp", "toWorld", "fromComp", "fromWorld", "fromCompToSurface", "content", "sourceRectAtTime":
                return .function(name, .layer(ref))
            case "hasParent": return .bool(parent(of: ref) != nil)
            case "active":
                // Shown now: not hidden, and the frame (of the layer's composition) within its in and out points.
                return .bool(!l.hidden && e.frame >= l.inPoint && e.frame < l.outPoint)
            case "parent":
                guard let p = parent(of: ref) else { throw LottieScriptError("the layer '\(l.name)' has no parent") }
                return .object(.layer(p))
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
        case .effects:
            throw LottieScriptError("no 'effects.\(name)'")
        case .path, .bezier:
            guard LottieScriptLibrary.pathFunctions.contains(name) else { throw LottieScriptError("no 'path.\(name)'") }
            return .function(name, o)
        case .text(let ref):
            guard name == "sourceText" else { throw LottieScriptError("no 'text.\(name)'") }
            return .string(try shownText(of: ref, at: e.frame, e.run))
        case .rect(let r):
            switch name {
            case "top": return .number(Double(r.minY))
            case "left": return .number(Double(r.minX))
            case "width": return .number(Double(r.width))
            case "height": return .number(Double(r.height))
            default: throw LottieScriptError("no 'sourceRect.\(name)' (it has top, left, width and height)")
            }
        case .markers:
            switch name {
            case "numKeys": return .number(Double(markers(seenBy: e).count))
            case "key", "nearestKey": return .function(name, o)
            default: throw LottieScriptError("no 'marker.\(name)'")
            }
        case .marker(let i):
            let m = markers[i]
            switch name {
            case "time": return .number(m.frame / frameRate)
            case "duration": return .number(m.duration / frameRate)
            case "index": return .number(Double(i + 1))
            case "comment", "name": return .string(m.name)
            default: throw LottieScriptError("no 'marker key.\(name)'")
            }
        case .property(let p):
            switch name {
            case "value": return vectorValue(try value(of: p, at: e.frame, e.run))
            case "numKeys": return .number(Double(p.property.keyframes.count))
            case "velocity": return vectorValue(try velocity(of: p, at: e.frame, e.run))
            case "speed": return .number(Self.length(try velocity(of: p, at: e.frame, e.run)))
            case "valueAtTime", "loopOut", "loopIn", "loopOutDuration", "loopInDuration", "key", "nearestKey", "velocityAtTime", "speedAtTime",
                 "propertyGroup":
                return .function(name, .property(p))
            case "propertyIndex":
                guard let i = shapes.properties[p.path]?.index else { throw LottieScriptError("no 'property.propertyIndex' (the property has no \"ix\")") }
                return .number(i)
            default: throw LottieScriptError("no 'property.\(name)'")
            }
        case .contents(let list):
            switch name {
            case "numProperties": return .number(Double(shapes.contents[list]?.count ?? 0))
            case "propertyGroup": return .function(name, o)
            default: throw LottieScriptError("no 'contents.\(name)'")
            }
        case .shape(let item):
            let info = shapes.items[item]
            switch name {
            case "name", "_name": return .string(info?.name ?? "")
            case "propertyIndex":
                guard let i = info?.index else { throw LottieScriptError("no 'shape.propertyIndex' (the item has no \"ix\")") }
                return .number(i)
            case "content", "propertyGroup": return .function(name, o)
            case "numProperties" where info?.type == "gr": return .number(Double(shapes.contents[item + ".it"]?.count ?? 0))
            case "transform" where info?.type == "gr":
                guard let t = shapes.transforms[item] else { throw LottieScriptError("the group '\(info?.name ?? "")' has no transform") }
                return .object(.shape(t))
            case "path" where info?.type == "sh":
                return .object(.path(item + ".ks"))
            default:
                guard let key = info.flatMap({ LottieShapeIndex.members[$0.type]?[name] }) else {
                    throw LottieScriptError("no '\(info?.type ?? "shape").\(name)'")
                }
                return try shapeProperty(item, key)
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
            guard seen <= Self.maxReferences else { throw LottieScriptError("parents more than \(Self.maxReferences) deep", limit: true) }
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
            current = parent(of: r)
        }
        return m
    }

    /// What a layer, its transform or its effects hold under a name or an index, as After
    /// Effects' property groups are called (lottie-web's indices: a layer's transform is 1 or 6,
    /// its effects 4, its contents 2; a transform's anchor point 1, position 2, scale 6,
    /// rotation 10, opacity 11); nil: the object is not one of these.
    func part(of o: LottieScriptObject, _ key: LottieScriptValue, _ e: LottieScriptEvaluator) throws -> LottieScriptValue? {
        let name: String?, number: Double?
        switch key {
        case .string(let s): name = s; number = nil
        case .number(let d): name = nil; number = d
        default: throw LottieScriptError("a property group called with other than a name or an index")
        }
        switch o {
        case .layer(let ref):
            switch name ?? "" {
            case "ADBE Transform Group", "Transform", "transform": return .object(.transform(ref))
            case "ADBE Effect Parade", "Effects", "effects": return .object(.effects(ref))
            case "ADBE Root Vectors Group", "Contents": return .object(.contents(try layerContents(ref)))
            case "ADBE Text Properties": throw LottieScriptError("no 'layer.text'")
            default: break
            }
            switch number {
            case 1, 6: return .object(.transform(ref))
            case 4: return .object(.effects(ref))
            case 2: return .object(.contents(try layerContents(ref)))
            default: throw LottieScriptError("the layer has no property group \(name.map { "'\($0)'" } ?? "\(number ?? 0)")")
            }
        case .transform:
            let member: String?
            switch name ?? "" {
            case "ADBE Anchor Point", "ADBE AnchorPoint", "Anchor Point", "anchorPoint": member = "anchorPoint"
            case "ADBE Position", "Position", "position": member = "position"
            case "ADBE Position_0": member = "xPosition"
            case "ADBE Position_1": member = "yPosition"
            case "ADBE Scale", "Scale", "scale": member = "scale"
            case "ADBE Rotate Z", "ADBE Rotation", "Rotation", "rotation", "Z Rotation": member = "rotation"
            case "ADBE Rotate X", "X Rotation": member = "xRotation"
            case "ADBE Rotate Y", "Y Rotation": member = "yRotation"
            case "ADBE Opacity", "Opacity", "opacity": member = "opacity"
            default:
                switch number {
                case 1: member = "anchorPoint"
                case 2: member = "position"
                case 6: member = "scale"
                case 10: member = "rotation"
                case 11: member = "opacity"
                default: member = nil
                }
            }
            guard let member else { throw LottieScriptError("the transform has no property \(name.map { "'\($0)'" } ?? "\(number ?? 0)")") }
            return try self.member(o, member, e)
        case .effects(let ref):
            return .object(.effect(ref, try effect(key, of: ref, e)))
        case .contents(let list):
            return .object(.shape(try item(key, in: list)))
        case .shape(let item):
            let info = shapes.items[item]
            if info?.type == "gr" {
                switch name ?? "" {
                case "ADBE Vectors Group", "Contents": return .object(.contents(item + ".it"))
                case "ADBE Vector Transform Group", "Transform": return try member(o, "transform", e)
                default: break
                }
                switch number {
                case 2: return .object(.contents(item + ".it"))
                case 3: return try member(o, "transform", e)
                default: throw LottieScriptError("the group '\(info?.name ?? "")' has no property group \(name.map { "'\($0)'" } ?? "\(number ?? 0)")")
                }
            }
            if info?.type == "sh", name == "Path" || name == "ADBE Vector Shape" || (number != nil && shapes.pathIndices[item + ".ks"] == number) {
                return .object(.path(item + ".ks"))
            }
            // A shape's property by its index (`ix`) or its name.
            if let number {
                let keys = (LottieShapeIndex.members[info?.type ?? ""] ?? [:]).values
                if let key = keys.first(where: { shapes.properties[item + "." + $0]?.index == number }) { return try shapeProperty(item, key) }
                throw LottieScriptError("the \(info?.type ?? "shape") '\(info?.name ?? "")' has no property \(number)")
            }
            let lowered = (name ?? "").replacingOccurrences(of: " ", with: "")
            let member = (LottieShapeIndex.members[info?.type ?? ""] ?? [:]).keys.first { $0.lowercased() == lowered.lowercased() }
            return try self.member(o, member ?? (name ?? ""), e)
        default:
            return nil
        }
    }

    /// A layer's shape contents (its `shapes`).
    func layerContents(_ ref: LayerRef) throws -> String {
        let l = layer(ref)
        guard case .shapes = l.content else { throw LottieScriptError("the layer '\(l.name)' has no shape contents") }
        return l.path + ".shapes"
    }

    /// An item of a contents list by its name, match name, index (`ix`) or place (from 1).
    func item(_ key: LottieScriptValue, in list: String) throws -> String {
        let paths = shapes.contents[list] ?? []
        switch key {
        case .string(let name):
            if let p = paths.first(where: { shapes.items[$0]?.name == name || shapes.items[$0]?.matchName == name }) { return p }
            throw LottieScriptError("no shape named '\(name)' in the contents")
        case .number(let d):
            if let p = paths.first(where: { shapes.items[$0]?.index == d }) { return p }
            let i = Self.position(d)
            guard paths.indices.contains(i) else { throw LottieScriptError("no shape \(d) in the contents") }
            return paths[i]
        default:
            throw LottieScriptError("contents called with other than a name or an index")
        }
    }

    /// A shape item's numeric property (`key` of its JSON), as a property object.
    func shapeProperty(_ item: String, _ key: String) throws -> LottieScriptValue {
        let path = item + "." + key
        guard let p = shapes.properties[path] else { throw LottieScriptError("no property '\(key)' in the \(shapes.items[item]?.type ?? "shape") '\(shapes.items[item]?.name ?? "")'") }
        return .object(.property(PropertyRef(path: path, property: p.value, owner: owner(of: path), raw: false)))
    }

    /// `propertyGroup(n)`: the group `n` levels above a property, a shape item or a contents
    /// list, as lottie-web climbs them — a property's shape item, an item's contents list (a
    /// group's transform: the group), a list's group, up to the layer's contents.
    func propertyGroup(of o: LottieScriptObject, _ levels: Double) throws -> LottieScriptValue {
        guard levels >= 1, levels < 100, levels == levels.rounded() else { throw LottieScriptError("propertyGroup(\(levels)): expected a whole number ≥ 1") }
        var current = o
        for _ in 0..<Int(levels) {
            switch current {
            case .property(let p):
                guard let dot = p.path.lastIndex(of: "."), shapes.items[String(p.path[..<dot])] != nil else {
                    throw LottieScriptError("no 'property.propertyGroup' (the property is not in a shape)")
                }
                current = .shape(String(p.path[..<dot]))
            case .shape(let item):
                guard let list = LottieShapeIndex.container(of: item) else { throw LottieScriptError("no group above the shape") }
                if shapes.items[item]?.type == "tr", let dot = list.lastIndex(of: ".") {
                    current = .shape(String(list[..<dot]))
                } else {
                    current = .contents(list)
                }
            case .contents(let list):
                guard list.hasSuffix(".it"), let dot = list.lastIndex(of: ".") else {
                    throw LottieScriptError("no 'propertyGroup' above a layer's contents")
                }
                current = .shape(String(list[..<dot]))
            default:
                throw LottieScriptError("no 'propertyGroup' here")
            }
        }
        return .object(current)
    }

    /// A layer's parent (`parent`: the layer of its composition with that "ind").
    func parent(of ref: LayerRef) -> LayerRef? {
        layer(ref).parent.flatMap { p in comps[ref.comp]?.firstIndex { $0.index == p } }.map { LayerRef(comp: ref.comp, position: $0) }
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
        guard let owner else { throw LottieScriptError("the property is not in a layer") }
        return try layer(named: key, in: owner.comp, e)
    }

    /// A layer of a composition ("" the top level, else a precomposition asset's id) by its
    /// name (the first from the top) or its index (`ind`).
    func layer(named key: LottieScriptValue, in comp: String, _ e: LottieScriptEvaluator) throws -> LayerRef {
        guard let list = comps[comp] else { throw LottieScriptError("no composition '\(comp)'") }
        if case .string(let name) = key {
            guard let i = list.firstIndex(where: { $0.name == name }) else { throw LottieScriptError("no layer named '\(name)'") }
            return LayerRef(comp: comp, position: i)
        }
        let index = try e.number(key)
        guard let i = list.firstIndex(where: { $0.index.map(Double.init) == index }) else {
            throw LottieScriptError("no layer with index \(index)")
        }
        return LayerRef(comp: comp, position: i)
    }

    /// `comp(name)`: the composition of the precomposition layer of that name (in any
    /// composition, the top level searched first, then the assets by id), as lottie-web finds
    /// it; After Effects' project names, which Lottie files do not keep, are not known.
    func composition(named name: String) throws -> String {
        for id in comps.keys.sorted(by: { ($0.isEmpty ? 0 : 1, $0) < ($1.isEmpty ? 0 : 1, $1) }) {
            for l in comps[id] ?? [] where l.name == name {
                if case .precomp(let asset, _, _, _) = l.content, comps[asset] != nil { return asset }
            }
        }
        throw LottieScriptError("no composition named '\(name)' (a precomposition layer of that name)")
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

// MARK: Markers

extension LottieExpressions {
    /// The markers an expression sees: the top level's, for a property in a layer of the top
    /// level (a precomposition's layers see none: the file keeps no markers of theirs).
    func markers(seenBy e: LottieScriptEvaluator) -> [LottieMarker] {
        (e.owner?.comp ?? "").isEmpty ? markers : []
    }

    /// `thisComp.marker.key(n | "name")` (n from 1, in time order) and `.nearestKey(t)` (t in
    /// seconds).
    func marker(_ name: String, _ args: [LottieScriptValue], _ e: LottieScriptEvaluator) throws -> LottieScriptValue {
        let list = markers(seenBy: e)
        guard let first = args.first else { throw LottieScriptError("marker.\(name)() needs an argument") }
        if name == "nearestKey" {
            guard !list.isEmpty else { throw LottieScriptError("nearestKey of a composition without markers") }
            let f = try e.number(first) * frameRate
            var best = 0
            for i in list.indices where abs(list[i].frame - f) < abs(list[best].frame - f) { best = i }
            return .object(.marker(best))
        }
        if case .string(let s) = first {
            guard let i = list.firstIndex(where: { $0.name == s }) else { throw LottieScriptError("no marker named '\(s)'") }
            return .object(.marker(i))
        }
        let n = try e.number(first)
        guard n >= 1, n <= Double(list.count), n == n.rounded() else { throw LottieScriptError("no marker \(n) (the composition has \(list.count))") }
        return .object(.marker(Int(n) - 1))
    }
}

// MARK: Paths made by expressions

extension LottieExpressions {
    /// The path an expression on a path makes at a frame (`createPath(…)`; `value` and
    /// `thisProperty` are the path's keyframes' shape).
    func madePath(at path: String, frame: Double, cache: LottieExpressionCache) throws -> LottieBezier {
        guard let script = pathScripts[path] else { throw LottieScriptError("no expression at \(path)") }
        let run = LottieScriptRun(host: self, cache: cache)
        run.stack.append(path)
        let e = LottieScriptEvaluator(script, run: run, path: path, property: .fixed([]), owner: owners[path] ?? owner(of: path), frame: frame)
        e.isPath = true
        guard case .object(.bezier(let b)) = try e.evaluate() else { throw LottieScriptError("it gives other than a path made by createPath") }
        return b
    }
}

// MARK: Text documents

extension LottieExpressions {
    /// A text layer's text at a frame, before any expression: the document shown then (the
    /// first before its first keyframe).
    func documentText(of ref: LayerRef, at frame: Double) -> String {
        guard case .text(let t) = layer(ref).content, let first = t.documents.first else { return "" }
        return (t.documents.last { $0.time <= frame } ?? first).document.text
    }

    /// The text an expression on a text document (After Effects' Source Text) gives at a frame,
    /// `value` being the document's text then. A number or an array becomes text as JavaScript
    /// writes it (`15`, `0.5`, `1,2`).
    func text(of script: LottieScript, at path: String, owner: LayerRef, frame: Double, cache: LottieExpressionCache) throws -> String {
        let run = LottieScriptRun(host: self, cache: cache)
        run.stack.append(path)
        return try evaluateText(script, at: path, owner: owner, frame: frame, run)
    }

    /// Evaluates the expression of the text document at `path` within `run`.
    func evaluateText(_ script: LottieScript, at path: String, owner: LayerRef, frame: Double, _ run: LottieScriptRun) throws -> String {
        let e = LottieScriptEvaluator(script, run: run, path: path, property: .fixed([]), owner: owner, frame: frame)
        e.textValue = documentText(of: owner, at: frame)
        let v = try e.evaluate()
        switch v {
        case .string(let s): return s
        case .number, .vector, .bool, .list: return try e.bounded(try e.text(v))
        default: throw LottieScriptError("the value is not text")
        }
    }
}
