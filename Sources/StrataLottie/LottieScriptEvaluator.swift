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
    /// An array of numbers (a vector: arithmetic works on it element by element).
    case vector([Double])
    /// An array holding anything else too (strings, arrays, objects, `null`): it can be read,
    /// indexed and grown, not computed with. `depth`: arrays inside one another, this one
    /// included (bounded, so that reading, printing and releasing one recurse only so deep).
    case list([LottieScriptValue], depth: Int)
    case string(String)
    case bool(Bool)
    case undefined
    case null
    case object(LottieScriptObject)
    /// A function, bound to the object it was read from (nil: a global one).
    case function(String, LottieScriptObject?)
    /// A method of a value (a string's `split`, an array's `slice`), bound to it.
    indirect case method(String, LottieScriptValue)
    /// A function the expression defines, with the variables it sees.
    case closure(LottieScript.Function, LottieScriptScope)

    /// Arrays inside one another an array may hold, itself included.
    static let maxArrayNesting = 16
    /// Elements an array may hold.
    static let maxArrayCount = 100_000
    /// Bytes a string may hold.
    static let maxStringLength = 1_000_000

    /// An array of these values: a vector when they are all numbers.
    static func array(_ items: [LottieScriptValue]) throws -> LottieScriptValue {
        guard items.count <= maxArrayCount else { throw LottieScriptError("an array of more than 100 000 elements") }
        var numbers: [Double] = []
        numbers.reserveCapacity(items.count)
        for item in items {
            guard case .number(let d) = item else {
                var depth = 1
                for item in items {
                    switch item {
                    case .vector: depth = max(depth, 2)
                    case .list(_, let d): depth = max(depth, d + 1)
                    default: break
                    }
                }
                guard depth <= maxArrayNesting else { throw LottieScriptError("arrays inside one another more than \(maxArrayNesting) deep") }
                return .list(items, depth: depth)
            }
            numbers.append(d)
        }
        return .vector(numbers)
    }

    /// The elements of an array (nil: not an array).
    var elements: [LottieScriptValue]? {
        switch self {
        case .vector(let x): return x.map { .number($0) }
        case .list(let items, _): return items
        default: return nil
        }
    }
}

/// The variables of the program or of one call of a function, inside those of where it was made.
final class LottieScriptScope {
    var variables: [String: LottieScriptValue] = [:]
    let parent: LottieScriptScope?
    init(parent: LottieScriptScope?) { self.parent = parent }

    /// The scope that holds `name`, this one or one it is inside.
    func holder(of name: String) -> LottieScriptScope? {
        var s: LottieScriptScope? = self
        while let scope = s {
            if scope.variables[name] != nil { return scope }
            s = scope.parent
        }
        return nil
    }
}

/// The objects an expression can reach.
indirect enum LottieScriptObject {
    case math
    case comp
    /// A composition found by `comp(name)`: a precomposition asset, by id ("" the top level).
    case composition(String)
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
    /// A text layer's text (`text`, with `.sourceText`).
    case text(LottieExpressions.LayerRef)
    /// A path made by `createPath(…)`: what a path's expression may give, and answers as a path.
    case bezier(LottieBezier)
    /// The composition's markers (`thisComp.marker`), and one of them (its index in time order).
    case markers
    case marker(Int)
    case property(LottieExpressions.PropertyRef)
    /// A keyframe of a property (its index from 0).
    case key(LottieExpressions.PropertyRef, Int)
    /// What `sourceRectAtTime` answers: `top`, `left`, `width`, `height` (`top` the rectangle's `minY`).
    case rect(CGRect)
}

/// Values of properties with expressions, by JSON path and frame, kept across the evaluations
/// of one pass over a file (a check pass, a compile): a rig's controls are read by many
/// expressions at the same frame. A value computed where a cycle was cut (a property reached
/// again gives its keyframes) depends on which properties were being evaluated around it, so
/// each value keeps the expressions its evaluation read (`touched`) and those it cut (`cuts`):
/// it is used again only where evaluating it anew would cut the same ones — where, of the
/// properties then being evaluated (and itself), exactly `cuts` are among `touched`. Not shared
/// between threads.
final class LottieExpressionCache {
    struct Key: Hashable {
        var path: String
        var frame: Double
    }
    struct Entry {
        var value: [Double]
        var touched: Set<String>
        var cuts: Set<String>
    }
    var values: [Key: Entry] = [:]
    /// Text layers' ink boxes (`sourceRectAtTime`), by layer, document, extents and text.
    var textRects: [String: CGRect] = [:]
    /// Values kept at most (past it, new ones are computed each time).
    static let capacity = 50_000
}

/// One evaluation's budget and the properties being evaluated, shared with the references it follows.
final class LottieScriptRun {
    let host: LottieExpressions
    /// Values already evaluated (this run's own, or a pass's shared by its runs).
    let cache: LottieExpressionCache
    var steps = 0
    /// Expression nodes being evaluated inside one another, across references.
    var depth = 0
    /// JSON paths of the properties whose expressions are being evaluated, outermost first.
    var stack: [String] = []
    /// Why the first `try` block that failed did (its catch block ran instead).
    var caught: String?
    /// What each evaluation in progress (innermost last) has read and cut so far (see
    /// `LottieExpressionCache`).
    var reads: [(touched: Set<String>, cuts: Set<String>)] = []

    /// Notes that the evaluations in progress read `path` (and, where `cut`, gave it its keyframes).
    func note(_ path: String, cut: Bool) {
        guard !reads.isEmpty else { return }
        reads[reads.count - 1].touched.insert(path)
        if cut { reads[reads.count - 1].cuts.insert(path) }
    }
    /// The value the last `throw` threw.
    var thrown: LottieScriptValue?
    /// The text `eval` was given, parsed, by text (a loop evaluates the same text again).
    var parsedTexts: [String: LottieScript] = [:]

    init(host: LottieExpressions, cache: LottieExpressionCache = LottieExpressionCache()) {
        self.host = host
        self.cache = cache
    }

    func step() throws {
        steps += 1
        guard steps <= LottieScript.maxSteps else { throw LottieScriptError("more than \(LottieScript.maxSteps) steps", limit: true) }
    }

    /// Work in proportion to the data it moves, as steps: a string or array made (a step a KiB
    /// or 64 elements), a text `eval` reads (a step per 16 bytes). So an evaluation copies at
    /// most some tens of MiB however its loops grow strings and arrays.
    func charge(_ units: Int) throws {
        steps += units
        guard steps <= LottieScript.maxSteps else { throw LottieScriptError("more than \(LottieScript.maxSteps) steps", limit: true) }
    }
}

/// The evaluation of one property's expression at one frame.
final class LottieScriptEvaluator {
    /// Names an expression may read without giving them a value.
    static let globals: Set<String> = Set([
        "time", "value", "index", "thisComp", "thisLayer", "thisProperty", "transform", "Math", "effect",
        "position", "anchorPoint", "scale", "rotation", "opacity", "inPoint", "outPoint", "startTime",
        "toComp", "toWorld", "fromComp", "fromWorld", "fromCompToSurface", "sourceRectAtTime", "parent", "hasParent", "content", "NaN", "Infinity", "undefined", "numKeys", "velocity", "speed", "key", "nearestKey", "velocityAtTime", "speedAtTime",
        "eval", "text", "marker",
    ]).union(LottieScriptLibrary.functions)

    let script: LottieScript
    let run: LottieScriptRun
    let path: String
    /// The property's keyframes (`value`, `valueAtTime`, loops read them, not the expression).
    let property: LottieAnimated<[Double]>
    let owner: LottieExpressions.LayerRef?
    /// The frame of the property's composition (`posterizeTime` rounds it down to its steps).
    var frame: Double
    /// The program's variables (`$bm_rt` among them) and its top-level functions.
    let global = LottieScriptScope(parent: nil)
    /// The variables where the evaluation is: the program's, or a called function's.
    var scope: LottieScriptScope
    /// The scopes of the calls made (emptied when the evaluation ends: a function declared in
    /// a scope and held by it makes a cycle of references).
    private var scopes: [LottieScriptScope] = []
    /// The last statement's value (outside functions).
    var completion: LottieScriptValue?
    /// The document's text before the expression, where the expression is a text's (`value`).
    var textValue: String?
    /// The expression is a path's (`value` and `thisProperty` are the path).
    var isPath = false
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
        scope = global
    }

    /// A `throw` statement's value on its way to a `catch` (the value itself waits in
    /// `run.thrown`: errors must be Sendable, values are not).
    struct Thrown: Error {
        let message: String
    }

    /// How a list of statements ended.
    enum Flow {
        case next
        case breakLoop
        case continueLoop
        case returned(LottieScriptValue)
    }

    /// The expression's value: `$bm_rt` if it was given one, else the last statement's.
    func evaluate() throws -> LottieScriptValue {
        defer {
            for s in scopes { s.variables = [:] }
            global.variables = [:]
        }
        do {
            declare(script.functions, in: global)
            _ = try execute(script.statements)
        } catch let thrown as Thrown {
            throw LottieScriptError("it throws \(thrown.message)")
        }
        if let r = global.variables["$bm_rt"], !r.isUndefined { return r }
        guard let completion else { throw LottieScriptError("no value (nothing is computed last)") }
        return completion
    }

    /// Functions declared in a body, made before its statements run.
    private func declare(_ functions: [LottieScript.Function], in scope: LottieScriptScope) {
        for f in functions {
            if let name = f.name { scope.variables[name] = .closure(f, scope) }
        }
    }

    /// Statements in order, one level deeper (blocks inside blocks and calls count against the
    /// recursion limit, as expression nodes do).
    private func execute(_ statements: [LottieScript.Statement]) throws -> Flow {
        try enter()
        defer { run.depth -= 1 }
        for s in statements {
            let flow = try execute(s)
            if case .next = flow { continue }
            return flow
        }
        return .next
    }

    /// One statement. As in `evaluate(_:)`, the cases are matched without their payloads and
    /// each family runs in a function of its own, so that this frame, one per level of blocks
    /// inside one another, stays small.
    private func execute(_ s: LottieScript.Statement) throws -> Flow {
        try run.step()
        switch s {
        case .declare, .expression, .returns, .raise: return try simple(s)
        case .conditional, .block: return try branch(s)
        case .attempt: return try attempt(s)
        case .loop: return try loop(s)
        case .choose: return try choice(s)
        case .breakLoop: return .breakLoop
        case .continueLoop: return .continueLoop
        }
    }

    @inline(never)
    private func simple(_ s: LottieScript.Statement) throws -> Flow {
        switch s {
        case .declare(let list):
            for (name, e) in list {
                if let e {
                    scope.variables[name] = try evaluate(e)
                } else if scope.variables[name] == nil {
                    scope.variables[name] = .undefined
                }
            }
        case .expression(let e):
            let v = try evaluate(e)
            if scope === global { completion = v }
        case .returns(let e):
            return .returned(try e.map { try evaluate($0) } ?? .undefined)
        case .raise(let e):
            let v = try evaluate(e)
            run.thrown = v
            throw Thrown(message: (try? text(v)).map { "'\($0.prefix(60))'" } ?? "a value")
        default: break
        }
        return .next
    }

    @inline(never)
    private func branch(_ s: LottieScript.Statement) throws -> Flow {
        switch s {
        case .conditional(let c, let a, let b): return try execute(truthy(try evaluate(c)) ? a : b)
        case .block(let body): return try execute(body)
        default: return .next
        }
    }

    @inline(never)
    private func attempt(_ s: LottieScript.Statement) throws -> Flow {
        guard case .attempt(let body, let name, let handler, let final) = s else { return .next }
        var flow: Flow
        do {
            flow = try execute(body)
        } catch let error as LottieScriptError where !error.isLimit {
            if run.caught == nil { run.caught = error.message }
            if let name { scope.variables[name] = .string(error.message) }
            flow = try execute(handler)
        } catch let thrown as Thrown {
            if run.caught == nil { run.caught = thrown.message }
            if let name { scope.variables[name] = run.thrown ?? .string(thrown.message) }
            flow = try execute(handler)
        }
        let after = try execute(final)
        if case .next = after { return flow }
        return after
    }

    @inline(never)
    private func loop(_ s: LottieScript.Statement) throws -> Flow {
        guard case .loop(let start, let condition, let step, let body, let testFirst) = s else { return .next }
        if case .returned(let v) = try execute(start) { return .returned(v) }
        var first = true
        while true {
            try run.step()
            if let condition, testFirst || !first, !truthy(try evaluate(condition)) { break }
            first = false
            switch try execute(body) {
            case .breakLoop: return .next
            case .returned(let v): return .returned(v)
            case .next, .continueLoop: break
            }
            if let step { _ = try evaluate(step) }
        }
        return .next
    }

    @inline(never)
    private func choice(_ s: LottieScript.Statement) throws -> Flow {
        guard case .choose(let value, let cases) = s else { return .next }
        let v = try resolved(try evaluate(value))
        // The first case strictly equal (their values evaluated in order until one is), else the default.
        var start: Int?
        for (i, c) in cases.enumerated() {
            guard let test = c.value else { continue }
            if try equal(v, try resolved(try evaluate(test)), strict: true) { start = i; break }
        }
        guard let first = start ?? cases.firstIndex(where: { $0.value == nil }) else { return .next }
        for c in cases[first...] {
            switch try execute(c.body) {
            case .next: continue
            case .breakLoop: return .next
            case let flow: return flow   // `continue` of a loop around it, `return`
            }
        }
        return .next
    }

    /// Calls a function the expression defines: its parameters and declared functions in a
    /// scope of their own inside the one it was made in.
    func call(_ f: LottieScript.Function, in outer: LottieScriptScope, _ args: [LottieScriptValue]) throws -> LottieScriptValue {
        let local = LottieScriptScope(parent: outer)
        scopes.append(local)
        for (i, name) in f.parameters.enumerated() { local.variables[name] = i < args.count ? args[i] : .undefined }
        declare(f.functions, in: local)
        let caller = scope
        scope = local
        defer { scope = caller }
        if case .returned(let v) = try execute(f.body) { return v }
        return .undefined
    }

    /// `eval(text)`: the text read as a program in this language, run where the call is (its
    /// variables seen and given), its value the last statement's.
    private func evaluateText(_ text: String) throws -> LottieScriptValue {
        let program: LottieScript
        if let known = run.parsedTexts[text] {
            program = known
        } else {
            try run.charge(text.utf8.count >> 4)
            program = try LottieScript.parse(text, seed: "", checkingNames: false)
            if run.parsedTexts.count < 64 { run.parsedTexts[text] = program }
        }
        declare(program.functions, in: scope)
        var last = LottieScriptValue.undefined
        for s in program.statements {
            if case .expression(let e) = s {
                last = try evaluate(e)
            } else if case .returned(let v) = try execute(s) {
                return v
            }
        }
        return last
    }

    func evaluate(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        try enter()
        defer { run.depth -= 1 }
        // The cases are matched without their payloads, each family evaluated in a function of
        // its own: this frame, one per level of the tree, stays small. Measured in a debug build,
        // a level of a + b + … costs 1.4 KiB of stack (7 KiB with the cases bound inline here).
        switch e.kind {
        case .number, .string, .bool, .null, .name, .array, .function: return try leaf(e)
        case .unary, .and, .or, .conditional: return try logical(e)
        case .binary: return try binary(e)
        case .member, .index: return try member(e)
        case .call: return try call(e)
        case .assign, .assignElement, .update, .sequence: return try effect(e)
        }
    }

    /// What changes a variable (`a = …`, `a += …`, `a++`, `--a`), and the comma operator.
    @inline(never)
    private func effect(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        switch e.kind {
        case .assign(let name, let op, let value):
            var v = try evaluate(value)
            if op != "" { v = try binary(op, try read(name), v) }
            assign(name, v)
            return v
        case .assignElement(let name, let index, let op, let value):
            let k = try position(try evaluate(index))
            var v = try evaluate(value)
            guard var items = try resolved(try read(name)).elements else { throw LottieScriptError("'\(name)[…] =' where '\(name)' is not an array") }
            guard k <= items.count + 1_000, items.count < 100_000 else { throw LottieScriptError("an array grown past 100 000 elements or by more than 1 000 at once") }
            if op != "" { v = try binary(op, k < items.count ? items[k] : .undefined, v) }
            while items.count <= k { items.append(.undefined) }
            items[k] = v
            assign(name, try makeArray(items))
            return v
        case .update(let name, let op, let prefix):
            let old = try resolved(try read(name))
            let before = try number(old)
            let after = op == "+" ? before + 1 : before - 1
            assign(name, .number(after))
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

    /// A variable given a value: where it is (this function's scope or one around it), else
    /// the program's (as JavaScript does with a name never declared).
    func assign(_ name: String, _ v: LottieScriptValue) {
        (scope.holder(of: name) ?? global).variables[name] = v
    }

    @inline(never)
    private func leaf(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        switch e.kind {
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .null: return .null
        case .name(let n): return try read(n)
        case .array(let items): return try array(items)
        case .function(let f): return .closure(f, scope)
        default: return .undefined
        }
    }

    /// An array literal: a vector when its items are numbers (booleans count as 0 and 1, as
    /// After Effects' arrays hold them), else a list.
    @inline(never)
    private func array(_ items: [LottieScript.Expr]) throws -> LottieScriptValue {
        var out: [LottieScriptValue] = []
        out.reserveCapacity(items.count)
        for item in items {
            switch try resolved(try evaluate(item)) {
            case .bool(let b): out.append(.number(b ? 1 : 0))
            case let v: out.append(v)
            }
        }
        return try makeArray(out)
    }

    /// A unary operator's value (apart, so that `logical`'s frame, one per level of nested
    /// expressions, stays small).
    @inline(never)
    private func unary(_ op: String, _ v: LottieScriptValue) throws -> LottieScriptValue {
        switch op {
        case "!": return .bool(!truthy(v))
        case "typeof": return .string(Self.typeName(v))
        case "instanceof Array": return .bool(v.elements != nil)
        case "instanceof Object":
            switch v {
            case .vector, .list, .object, .function, .method, .closure: return .bool(true)
            default: return .bool(false)
            }
        default:
            if case .vector(let x) = v { return .vector(op == "-" ? x.map { -$0 } : x) }
            return .number(op == "-" ? -(try number(v)) : try number(v))
        }
    }

    @inline(never)
    private func logical(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        switch e.kind {
        case .unary(let op, let a):
            return try unary(op, try resolved(try evaluate(a)))
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
        let k = try position(try evaluate(i))
        switch base {
        case .vector(let x) where k < x.count: return .number(x[k])
        case .list(let x, _) where k < x.count: return x[k]
        // Past the end: undefined, as in JavaScript (reading it as a number then fails).
        case .vector, .list: return .undefined
        case .number(let d) where k == 0: return .number(d)
        case .string(let s):
            // Reaching a character walks the string: charged as its length.
            try run.charge(s.utf8.count >> 10)
            guard k < s.count else { return .undefined }
            return .string(String(s[s.index(s.startIndex, offsetBy: k)]))
        default: throw LottieScriptError("indexing something that is not an array")
        }
    }

    /// An index: a whole number from 0.
    private func position(_ v: LottieScriptValue) throws -> Int {
        let k = try number(v)
        guard k >= 0, k < 1e9, k == k.rounded(.down) else { throw LottieScriptError("index \(k) is not a whole number ≥ 0") }
        return Int(k)
    }

    @inline(never)
    private func call(_ e: LottieScript.Expr) throws -> LottieScriptValue {
        guard case .call(let callee, let args) = e.kind else { return .undefined }
        // `list.push(x)`, `list.pop()`: they change the array the variable holds.
        if case .member(let base, let method) = callee.kind, method == "push" || method == "pop" || method == "unshift" || method == "shift",
           case .name(let name) = base.kind {
            let values = try args.map { try evaluate($0) }
            return try change(name, method, values)
        }
        let f = try evaluate(callee)
        let values = try args.map { try evaluate($0) }
        switch f {
        case .closure(let function, let outer): return try call(function, in: outer, values)
        case .method(let name, let receiver): return try LottieScriptLibrary.method(name, of: receiver, values, self)
        case .function("eval", nil):
            guard case .string(let text)? = values.first else { return values.first ?? .undefined }
            return try evaluateText(text)
        default: break
        }
        // effect("Slider Control")("Slider"): an effect called with the name of its value.
        if case .object(.effect(let layer, let i)) = f { return try LottieScriptLibrary.call("param", .effect(layer, i), values, self) }
        // thisLayer(4)("Slider")("Slider"), layer("ADBE Transform Group")("ADBE Position"): a
        // layer, its transform and its effects called with the name or index of what is in them.
        if case .object(let o) = f, let key = values.first, values.count == 1, let found = try host.part(of: o, key, self) { return found }
        guard case .function(let name, let receiver) = f else { throw LottieScriptError("calling something that is not a function") }
        return try LottieScriptLibrary.call(name, receiver, values, self)
    }

    /// `name.push(…)`, `.pop()`, `.unshift(…)`, `.shift()` on the array a variable holds.
    private func change(_ name: String, _ method: String, _ values: [LottieScriptValue]) throws -> LottieScriptValue {
        guard var items = try resolved(try read(name)).elements else { throw LottieScriptError("'\(name).\(method)' where '\(name)' is not an array") }
        let result: LottieScriptValue
        switch method {
        case "push", "unshift":
            guard items.count + values.count <= 100_000 else { throw LottieScriptError("an array grown past 100 000 elements") }
            let added = values.map { v -> LottieScriptValue in if case .bool(let b) = v { .number(b ? 1 : 0) } else { v } }
            items = method == "push" ? items + added : added + items
            result = .number(Double(items.count))
        case "pop": result = items.popLast() ?? .undefined
        default: result = items.isEmpty ? .undefined : items.removeFirst()
        }
        assign(name, try makeArray(items))
        return result
    }

    // MARK: Names and members

    func read(_ name: String) throws -> LottieScriptValue {
        if let v = scope.holder(of: name)?.variables[name] { return v }
        // A name the expression assigns, read before it does: an error, unless it is also one of
        // After Effects' (`$bm_rt = value = value` in a catch block).
        if script.variables.contains(name), name != "$bm_rt", !Self.globals.contains(name) {
            throw LottieScriptError("'\(name)' has no value yet where it is read")
        }
        switch name {
        case "time": return .number(time)
        case "value":
            if let textValue { return .string(textValue) }
            if isPath { return .object(.path(path)) }
            return host.vectorValue(property.value(at: frame))
        case "NaN": return .number(.nan)
        case "Infinity": return .number(.infinity)
        case "undefined": return .undefined
        case "Math": return .object(.math)
        case "thisComp": return .object(.comp)
        case "thisProperty": return isPath ? .object(.path(path)) : .object(.property(ownProperty))
        case "numKeys", "velocity", "speed", "key", "nearestKey", "velocityAtTime", "speedAtTime":
            return try host.member(.property(ownProperty), name, self)
        case "thisLayer": return .object(.layer(try ownLayer()))
        case "index", "transform", "position", "anchorPoint", "scale", "rotation", "opacity", "inPoint", "outPoint", "startTime", "text", "marker",
             "parent", "hasParent":
            return try member(.object(.layer(try ownLayer())), name)
        case "effect", "toComp", "toWorld", "fromComp", "fromWorld", "fromCompToSurface", "content", "sourceRectAtTime":
            return .function(name, .layer(try ownLayer()))
        case "eval": return .function(name, nil)
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
        case .list(let x, _) where name == "length": return .number(Double(x.count))
        case .string(let s) where name == "length":
            try run.charge(s.utf8.count >> 10)
            return .number(Double(s.count))
        case .object(let o): return try host.member(o, name, self)
        case .vector, .list, .string, .number:
            guard LottieScriptLibrary.methods.contains(name) else { throw LottieScriptError("no '\(name)' here") }
            return .method(name, base)
        default: throw LottieScriptError("no '\(name)' here")
        }
    }

    /// A property object as its value; anything else as it is.
    func resolved(_ v: LottieScriptValue) throws -> LottieScriptValue {
        if case .object(.property(let p)) = v { return host.vectorValue(try host.value(of: p, at: frame, run)) }
        return v
    }

    // MARK: Operators

    /// What JavaScript's `typeof` says of a value (arrays, `null` and the host's objects are objects).
    static func typeName(_ v: LottieScriptValue) -> String {
        switch v {
        case .number: return "number"
        case .string: return "string"
        case .bool: return "boolean"
        case .undefined: return "undefined"
        case .function, .method, .closure: return "function"
        case .vector, .list, .null, .object: return "object"
        }
    }

    func truthy(_ v: LottieScriptValue) -> Bool {
        switch v {
        case .number(let d): return d != 0 && !d.isNaN
        case .string(let s): return !s.isEmpty
        case .bool(let b): return b
        case .undefined, .null: return false
        case .vector, .list, .object, .function, .method, .closure: return true
        }
    }

    func number(_ v: LottieScriptValue) throws -> Double {
        switch try resolved(v) {
        case .number(let d): return d
        case .bool(let b): return b ? 1 : 0
        case .vector(let x) where x.count == 1: return x[0]
        case .vector, .list: throw LottieScriptError("an array where a number is needed")
        case .undefined: throw LottieScriptError("a variable without a value")
        case .null: return 0
        default: throw LottieScriptError("a string or an object where a number is needed")
        }
    }

    func vector(_ v: LottieScriptValue) throws -> [Double] {
        switch try resolved(v) {
        case .vector(let x): return x
        case .list: throw LottieScriptError("an array of other than numbers where numbers are needed")
        default: return [try number(v)]
        }
    }

    func binary(_ op: String, _ a: LottieScriptValue, _ b: LottieScriptValue) throws -> LottieScriptValue {
        let x = try resolved(a), y = try resolved(b)
        // Comparing or joining strings reads them: charged as their length.
        if case .string(let s) = x { try run.charge(s.utf8.count >> 10) }
        if case .string(let s) = y { try run.charge(s.utf8.count >> 10) }
        if op == "+", case .string(let s) = x { return .string(try bounded(s + (try text(y)))) }
        if op == "+", case .string(let s) = y { return .string(try bounded((try text(x)) + s)) }
        switch op {
        case "==": return .bool(try equal(x, y, strict: false))
        case "===": return .bool(try equal(x, y, strict: true))
        case "!=": return .bool(!(try equal(x, y, strict: false)))
        case "!==": return .bool(!(try equal(x, y, strict: true)))
        case "<", ">", "<=", ">=":
            if case .string(let s) = x, case .string(let t) = y {
                return .bool(op == "<" ? s < t : op == ">" ? s > t : op == "<=" ? s <= t : s >= t)
            }
            let p = try number(x), q = try number(y)
            return .bool(op == "<" ? p < q : op == ">" ? p > q : op == "<=" ? p <= q : p >= q)
        default: break
        }
        if case .list = x { throw LottieScriptError("'\(op)' of an array of other than numbers") }
        if case .list = y { throw LottieScriptError("'\(op)' of an array of other than numbers") }
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

    /// `==` (`strict` false: `null` and `undefined` equal each other) and `===`. Arrays compare
    /// by their elements (as After Effects' vectors are compared in practice).
    private func equal(_ x: LottieScriptValue, _ y: LottieScriptValue, strict: Bool) throws -> Bool {
        switch (x, y) {
        case (.string(let s), .string(let t)): return s == t
        case (.vector(let u), .vector(let v)): return u == v
        case (.undefined, .undefined), (.null, .null): return true
        case (.undefined, .null), (.null, .undefined): return !strict
        case (.undefined, _), (_, .undefined), (.null, _), (_, .null), (.string, _), (_, .string): return false
        case (.list, _), (_, .list), (.object, _), (_, .object), (.function, _), (_, .function), (.method, _), (_, .method),
             (.closure, _), (_, .closure):
            return false
        default: return try number(x) == number(y)
        }
    }

    /// A string, if it is no longer than a string may be (its making charged to the run).
    func bounded(_ s: String) throws -> String {
        let bytes = s.utf8.count
        guard bytes <= LottieScriptValue.maxStringLength else { throw LottieScriptError("a string of more than 1 000 000 bytes") }
        try run.charge(bytes >> 10)
        return s
    }

    /// An array of these values (its making charged to the run).
    func makeArray(_ items: [LottieScriptValue]) throws -> LottieScriptValue {
        try run.charge(items.count >> 6)
        return try .array(items)
    }

    func text(_ v: LottieScriptValue) throws -> String {
        switch v {
        case .string(let s): return s
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .bool(let b): return b ? "true" : "false"
        case .vector(let x): return try x.map { try text(.number($0)) }.joined(separator: ",")
        case .list(let x, _): return try bounded(try x.map { try text($0) }.joined(separator: ","))
        case .null: return "null"
        case .undefined: return "undefined"
        default: throw LottieScriptError("an object joined to a string")
        }
    }
}

extension LottieScriptValue {
    var isUndefined: Bool { if case .undefined = self { true } else { false } }
}
