// Evaluates a parsed expression at one frame: its statements in order, variables in a table of
// its own, values as After Effects' expression language has them — numbers, arrays (vectors),
// strings, booleans and the objects `thisComp`, layers, their `transform` and properties.
// Arithmetic follows After Effects (and Bodymovin's `$bm_sum` family): arrays add and subtract
// element by element, a number added to an array changes its first element, arrays times or
// divided by a number scale every element. Each node evaluated is a step of the run's budget;
// nothing is kept from one frame to the next, so any frame can be evaluated in any order.
import Foundation

/// A value of the expression language.
enum LottieScriptValue {
    case number(Double)
    case vector([Double])
    case string(String)
    case bool(Bool)
    case undefined
    case object(LottieScriptObject)
    /// A function, bound to the object it was read from (nil: a global one).
    case function(String, LottieScriptObject?)
}

/// The objects an expression can reach.
indirect enum LottieScriptObject {
    case math
    case comp
    case layer(LottieExpressions.LayerRef)
    case transform(LottieExpressions.LayerRef)
    /// A layer's effect whose values expressions read (its index in the layer's `effects`).
    case effect(LottieExpressions.LayerRef, Int)
    /// A layer's effects as a group (`thisLayer(4)`, `thisLayer("ADBE Effect Parade")`).
    case effects(LottieExpressions.LayerRef)
    /// A contents list of shape items (a layer's `shapes`, a group's `it`), by JSON path.
    case contents(String)
    /// A shape item (group, rectangle, fill, a group's transform, …), by JSON path.
    case shape(String)
    /// A path (a shape's `ks`, a mask's `pt`), by JSON path: what a path's expression may give.
    case path(String)
    case property(LottieExpressions.PropertyRef)
    /// A keyframe of a property (its index from 0).
    case key(LottieExpressions.PropertyRef, Int)
}

/// One evaluation's budget and the properties being evaluated, shared with the references it follows.
final class LottieScriptRun {
    let host: LottieExpressions
    var steps = 0
    /// Expression nodes being evaluated inside one another, across references.
    var depth = 0
    /// JSON paths of the properties whose expressions are being evaluated, outermost first.
    var stack: [String] = []
    /// Why the first `try` block that failed did (its catch block ran instead).
    var caught: String?

    init(host: LottieExpressions) { self.host = host }

    func step() throws {
        steps += 1
        guard steps <= LottieScript.maxSteps else { throw LottieScriptError("more than \(LottieScript.maxSteps) steps", limit: true) }
    }
}

/// The evaluation of one property's expression at one frame.
final class LottieScriptEvaluator {
    /// Names an expression may read without giving them a value.
    static let globals: Set<String> = Set([
        "time", "value", "index", "thisComp", "thisLayer", "thisProperty", "transform", "Math", "effect",
        "position", "anchorPoint", "scale", "rotation", "opacity", "inPoint", "outPoint", "startTime",
        "toComp", "toWorld", "fromComp", "fromWorld", "parent", "hasParent", "content", "NaN", "Infinity", "undefined", "numKeys", "velocity", "speed", "key", "nearestKey", "velocityAtTime", "speedAtTime",
    ]).union(LottieScriptLibrary.functions)

    let script: LottieScript
    let run: LottieScriptRun
    let path: String
    /// The property's keyframes (`value`, `valueAtTime`, loops read them, not the expression).
    let property: LottieAnimated<[Double]>
    let owner: LottieExpressions.LayerRef?
    /// The frame of the property's composition (`posterizeTime` rounds it down to its steps).
    var frame: Double
    var variables: [String: LottieScriptValue] = [:]
    /// The last statement's value.
    var completion: LottieScriptValue?
    /// `seedRandom`'s seed and whether it ignores the frame; draws made so far this evaluation.
    var randomSeed: Double = 0
    var timeless = false
    var draws: UInt64 = 0

    var host: LottieExpressions { run.host }
    var frameRate: Double { host.frameRate }
    var time: Double { frame / frameRate }

    init(_ script: LottieScript, run: LottieScriptRun, path: String, property: LottieAnimated<[Double]>,
         owner: LottieExpressions.LayerRef?, frame: Double) {
        self.script = script
        self.run = run
        self.path = path
        self.property = property
        self.owner = owner
        self.frame = frame
    }

    /// The expression's value: `$bm_rt` if it was given one, else the last statement's.
    func evaluate() throws -> LottieScriptValue {
        try execute(script.statements)
        if let r = variables["$bm_rt"], !r.isUndefined { return r }
        guard let completion else { throw LottieScriptError("no value (nothing is computed last)") }
        return completion
    }

    private func execute(_ statements: [LottieScript.Statement]) throws {
        for s in statements {
            try run.step()
            switch s {
            case .declare(let list):
                for (name, e) in list {
                    if let e { variables[name] = try evaluate(e) } else if variables[name] == nil { variables[name] = .undefined }
                }
            case .expression(let e):
                completion = try evaluate(e)
            case .conditional(let c, let a, let b):
                try execute(truthy(try evaluate(c)) ? a : b)
            case .block(let body):
                try execute(body)
            case .attempt(let body, let name, let handler, let final):
                do {
                    try execute(body)
                } catch let error as LottieScriptError where !error.isLimit {
                    if run.caught == nil { run.caught = error.message }
                    if let name { variables[name] = .string(error.message) }
                    try execute(handler)
                }
                try execute(final)
            }
        }
    }

    func evaluate(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        try enter()
        defer { run.depth -= 1 }
        // The cases are matched without their payloads, each family evaluated in a function of
        // its own: this frame, one per level of the tree, stays small. Measured in a debug build,
        // a level of a + b + … costs 1.4 KiB of stack (7 KiB with the cases bound inline here).
        switch e.kind {
        case .number, .string, .bool, .name, .array: return try leaf(e)
        case .unary, .and, .or, .conditional: return try logical(e)
        case .binary: return try binary(e)
        case .member, .index: return try member(e)
        case .call: return try call(e)
        case .assign, .update, .sequence: return try effect(e)
        }
    }

    /// What changes a variable (`a = …`, `a += …`, `a++`, `--a`), and the comma operator.
    @inline(never)
    private func effect(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        switch e.kind {
        case .assign(let name, let op, let value):
            var v = try evaluate(value)
            if op != "" { v = try binary(op, try read(name), v) }
            variables[name] = v
            return v
        case .update(let name, let op, let prefix):
            let old = try resolved(try read(name))
            let before = try number(old)
            let after = op == "+" ? before + 1 : before - 1
            variables[name] = .number(after)
            return .number(prefix ? after : before)
        case .sequence(let items):
            var last = LottieScriptValue.undefined
            for item in items { last = try evaluate(item) }
            return last
        default: return .undefined
        }
    }

    /// A step, one level deeper.
    @inline(never)
    private func enter() throws {
        try run.step()
        run.depth += 1
        guard run.depth <= LottieScript.maxRecursion else {
            run.depth -= 1
            throw LottieScriptError("nested more than \(LottieScript.maxRecursion) deep across references", limit: true)
        }
    }

    @inline(never)
    private func leaf(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        switch e.kind {
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .name(let n): return try read(n)
        case .array(let items): return try array(items)
        default: return .undefined
        }
    }

    @inline(never)
    private func array(_ items: [LottieScript.Expr]) throws -> LottieScriptValue {
        var out: [Double] = []
        for item in items {
            switch try resolved(try evaluate(item)) {
            case .number(let d): out.append(d)
            case .bool(let b): out.append(b ? 1 : 0)
            default: throw LottieScriptError("an array inside an array, or of other than numbers")
            }
        }
        return .vector(out)
    }

    @inline(never)
    private func logical(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        switch e.kind {
        case .unary(let op, let a):
            let v = try resolved(try evaluate(a))
            if op == "!" { return .bool(!truthy(v)) }
            if case .vector(let x) = v { return .vector(op == "-" ? x.map { -$0 } : x) }
            return .number(op == "-" ? -(try number(v)) : try number(v))
        case .and(let a, let b):
            let x = try evaluate(a)
            return truthy(x) ? try evaluate(b) : x
        case .or(let a, let b):
            let x = try evaluate(a)
            return truthy(x) ? x : try evaluate(b)
        case .conditional(let c, let a, let b):
            return truthy(try evaluate(c)) ? try evaluate(a) : try evaluate(b)
        default: return .undefined
        }
    }

    @inline(never)
    private func binary(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        guard case .binary(let op, let a, let b) = e.kind else { return .undefined }
        let x = try evaluate(a)
        return try binary(op, x, try evaluate(b))
    }

    @inline(never)
    private func member(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        switch e.kind {
        case .member(let a, let name): return try member(try evaluate(a), name)
        case .index(let a, let i): return try index(a, i)
        default: return .undefined
        }
    }

    private func index(_ a: LottieScript.Expr, _ i: LottieScript.Expr) throws -> LottieScriptValue {
        let base = try resolved(try evaluate(a))
        let k = try number(try evaluate(i))
        guard k >= 0, k < 1e9, k == k.rounded(.down) else { throw LottieScriptError("index \(k) is not a whole number ≥ 0") }
        switch base {
        case .vector(let x) where Int(k) < x.count: return .number(x[Int(k)])
        case .vector: throw LottieScriptError("index \(Int(k)) is past the end of an array")
        case .number(let d) where k == 0: return .number(d)
        case .string(let s) where Int(k) < s.count: return .string(String(s[s.index(s.startIndex, offsetBy: Int(k))]))
        default: throw LottieScriptError("indexing something that is not an array")
        }
    }

    @inline(never)
    private func call(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        guard case .call(let callee, let args) = e.kind else { return .undefined }
        let f = try evaluate(callee)
        let values = try args.map { try evaluate($0) }
        // effect("Slider Control")("Slider"): an effect called with the name of its value.
        if case .object(.effect(let layer, let i)) = f { return try LottieScriptLibrary.call("param", .effect(layer, i), values, self) }
        // thisLayer(4)("Slider")("Slider"), layer("ADBE Transform Group")("ADBE Position"): a
        // layer, its transform and its effects called with the name or index of what is in them.
        if case .object(let o) = f, let key = values.first, values.count == 1, let found = try host.part(of: o, key, self) { return found }
        guard case .function(let name, let receiver) = f else { throw LottieScriptError("calling something that is not a function") }
        return try LottieScriptLibrary.call(name, receiver, values, self)
    }

    // MARK: Names and members

    func read(_ name: String) throws -> LottieScriptValue {
        if let v = variables[name] { return v }
        // A name the expression assigns, read before it does: an error, unless it is also one of
        // After Effects' (`$bm_rt = value = value` in a catch block).
        if script.variables.contains(name), name != "$bm_rt", !Self.globals.contains(name) {
            throw LottieScriptError("'\(name)' has no value yet where it is read")
        }
        switch name {
        case "time": return .number(time)
        case "value": return host.vectorValue(property.value(at: frame))
        case "NaN": return .number(.nan)
        case "Infinity": return .number(.infinity)
        case "undefined": return .undefined
        case "Math": return .object(.math)
        case "thisComp": return .object(.comp)
        case "thisProperty": return .object(.property(ownProperty))
        case "numKeys", "velocity", "speed", "key", "nearestKey", "velocityAtTime", "speedAtTime":
            return try host.member(.property(ownProperty), name, self)
        case "thisLayer": return .object(.layer(try ownLayer()))
        case "index", "transform", "position", "anchorPoint", "scale", "rotation", "opacity", "inPoint", "outPoint", "startTime",
             "parent", "hasParent":
            return try member(.object(.layer(try ownLayer())), name)
        case "effect", "toComp", "toWorld", "fromComp", "fromWorld", "content": return .function(name, .layer(try ownLayer()))
        case "$bm_rt": return .undefined
        default:
            if LottieScriptLibrary.functions.contains(name) { return .function(name, nil) }
            throw LottieScriptError("unknown name '\(name)'")
        }
    }

    /// The property itself, before its expression (`thisProperty`, `key`, `velocity`).
    var ownProperty: LottieExpressions.PropertyRef {
        LottieExpressions.PropertyRef(path: path, property: property, owner: owner, raw: true)
    }

    func ownLayer() throws -> LottieExpressions.LayerRef {
        guard let owner else { throw LottieScriptError("the property is not in a layer") }
        return owner
    }

    func member(_ base: LottieScriptValue, _ name: String) throws -> LottieScriptValue {
        switch base {
        case .vector(let x) where name == "length": return .number(Double(x.count))
        case .string(let s) where name == "length": return .number(Double(s.count))
        case .object(let o): return try host.member(o, name, self)
        default: throw LottieScriptError("no '\(name)' here")
        }
    }

    /// A property object as its value; anything else as it is.
    func resolved(_ v: LottieScriptValue) throws -> LottieScriptValue {
        if case .object(.property(let p)) = v { return host.vectorValue(try host.value(of: p, at: frame, run)) }
        return v
    }

    // MARK: Operators

    func truthy(_ v: LottieScriptValue) -> Bool {
        switch v {
        case .number(let d): return d != 0 && !d.isNaN
        case .string(let s): return !s.isEmpty
        case .bool(let b): return b
        case .undefined: return false
        case .vector, .object, .function: return true
        }
    }

    func number(_ v: LottieScriptValue) throws -> Double {
        switch try resolved(v) {
        case .number(let d): return d
        case .bool(let b): return b ? 1 : 0
        case .vector(let x) where x.count == 1: return x[0]
        case .vector: throw LottieScriptError("an array where a number is needed")
        case .undefined: throw LottieScriptError("a variable without a value")
        default: throw LottieScriptError("a string or an object where a number is needed")
        }
    }

    func vector(_ v: LottieScriptValue) throws -> [Double] {
        if case .vector(let x) = try resolved(v) { return x }
        return [try number(v)]
    }

    func binary(_ op: String, _ a: LottieScriptValue, _ b: LottieScriptValue) throws -> LottieScriptValue {
        let x = try resolved(a), y = try resolved(b)
        if op == "+", case .string(let s) = x { return .string(s + (try text(y))) }
        if op == "+", case .string(let s) = y { return .string((try text(x)) + s) }
        switch op {
        case "==", "===": return .bool(try equal(x, y))
        case "!=", "!==": return .bool(!(try equal(x, y)))
        case "<", ">", "<=", ">=":
            if case .string(let s) = x, case .string(let t) = y {
                return .bool(op == "<" ? s < t : op == ">" ? s > t : op == "<=" ? s <= t : s >= t)
            }
            let p = try number(x), q = try number(y)
            return .bool(op == "<" ? p < q : op == ">" ? p > q : op == "<=" ? p <= q : p >= q)
        default: break
        }
        switch (x, y) {
        case (.vector(let u), .vector(let v)):
            switch op {
            case "+", "-":
                return .vector((0..<max(u.count, v.count)).map { i in
                    let p = i < u.count ? u[i] : 0, q = i < v.count ? v[i] : 0
                    return op == "+" ? p + q : p - q
                })
            default: throw LottieScriptError("'\(op)' between two arrays")
            }
        case (.vector(var u), _):
            let q = try number(y)
            switch op {
            case "+": if !u.isEmpty { u[0] += q }; return .vector(u)
            case "-": if !u.isEmpty { u[0] -= q }; return .vector(u)
            case "*": return .vector(u.map { $0 * q })
            case "/": return .vector(u.map { $0 / q })
            default: return .vector(u.map { $0.truncatingRemainder(dividingBy: q) })
            }
        case (_, .vector(var v)):
            let p = try number(x)
            switch op {
            case "+": if !v.isEmpty { v[0] = p + v[0] }; return .vector(v)
            case "-": if !v.isEmpty { v[0] = p - v[0] }; return .vector(v)
            case "*": return .vector(v.map { p * $0 })
            default: throw LottieScriptError("'\(op)' of a number by an array")
            }
        default:
            let p = try number(x), q = try number(y)
            switch op {
            case "+": return .number(p + q)
            case "-": return .number(p - q)
            case "*": return .number(p * q)
            case "/": return .number(p / q)
            default: return .number(p.truncatingRemainder(dividingBy: q))
            }
        }
    }

    private func equal(_ x: LottieScriptValue, _ y: LottieScriptValue) throws -> Bool {
        switch (x, y) {
        case (.string(let s), .string(let t)): return s == t
        case (.vector(let u), .vector(let v)): return u == v
        case (.undefined, .undefined): return true
        case (.undefined, _), (_, .undefined), (.string, _), (_, .string): return false
        default: return try number(x) == number(y)
        }
    }

    private func text(_ v: LottieScriptValue) throws -> String {
        switch v {
        case .string(let s): return s
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .bool(let b): return b ? "true" : "false"
        case .vector(let x): return try x.map { try text(.number($0)) }.joined(separator: ",")
        default: throw LottieScriptError("an object joined to a string")
        }
    }
}

extension LottieScriptValue {
    var isUndefined: Bool { if case .undefined = self { true } else { false } }
}
