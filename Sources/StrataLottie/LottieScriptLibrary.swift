// The functions an expression can call, as After Effects documents them: `Math`, interpolation
// (`linear`, `ease`, `easeIn`, `easeOut`), vector math (`add`, `sub`, `mul`, `div`, `length`,
// `normalize`, `dot`, `clamp`) and Bodymovin's `$bm_*` operators, time conversion
// (`framesToTime`, `timeToFrames`, `posterizeTime`), the property's own keyframes
// (`valueAtTime`, `velocityAtTime`, `key`, `nearestKey`, `loopOut`, `loopIn`, `loopOutDuration`,
// `loopInDuration` with cycle, pingpong, offset and continue), expression controls' values, and
// noise: `wiggle` and `seedRandom`/`random`, drawn from the property's JSON path, the seed and
// the frame, so the same file always gives the same values at a frame whatever was evaluated
// before. (After Effects' own noise is not published: the values differ from After Effects'.)
import Foundation
import Strata

enum LottieScriptLibrary {
    /// Global functions.
    static let functions: Set<String> = [
        "clamp", "wiggle", "degreesToRadians", "radiansToDegrees", "linear", "ease", "easeIn", "easeOut",
        "length", "normalize", "dot", "add", "sub", "mul", "div", "sum",
        "$bm_sum", "$bm_sub", "$bm_mul", "$bm_div", "$bm_mod", "mod", "$bm_neg", "$bm_isInstanceOfArray", "isNaN", "parseInt",
        "parseFloat", "comp", "createPath", "Array",
        "valueAtTime", "loopOut", "loopIn", "loopOutDuration", "loopInDuration",
        "framesToTime", "timeToFrames", "seedRandom", "random", "posterizeTime",
    ]

    static let mathFunctions: Set<String> = ["sin", "cos", "tan", "asin", "acos", "atan", "atan2", "abs", "sqrt", "min", "max",
                                             "floor", "ceil", "round", "pow", "exp", "log", "sign", "hypot", "random"]

    /// `Math.<name>`.
    static func math(_ name: String) throws -> LottieScriptValue {
        switch name {
        case "PI": return .number(.pi)
        case "E": return .number(M_E)
        case "SQRT2": return .number(2.0.squareRoot())
        case "LN2": return .number(M_LN2)
        case "LN10": return .number(M_LN10)
        default:
            guard mathFunctions.contains(name) else { throw LottieScriptError("no 'Math.\(name)'") }
            return .function(name, .math)
        }
    }

    static func call(_ name: String, _ receiver: LottieScriptObject?, _ args: [LottieScriptValue],
                     _ e: LottieScriptEvaluator) throws -> LottieScriptValue {
        func n(_ i: Int, _ otherwise: Double? = nil) throws -> Double {
            if i < args.count, !args[i].isUndefined { return try e.number(args[i]) }
            guard let otherwise else { throw LottieScriptError("\(name) needs \(i + 1) or more arguments") }
            return otherwise
        }
        func v(_ i: Int) throws -> [Double] {
            guard i < args.count else { throw LottieScriptError("\(name) needs \(i + 1) or more arguments") }
            return try e.vector(args[i])
        }
        func each(_ f: (Double) -> Double) throws -> LottieScriptValue {
            guard let first = args.first else { throw LottieScriptError("\(name) needs an argument") }
            switch try e.resolved(first) {
            case .vector(let x): return .vector(x.map(f))
            default: return .number(f(try e.number(first)))
            }
        }
        switch receiver {
        case let receiver? where name == "propertyGroup":
            return try e.host.propertyGroup(of: receiver, args.isEmpty ? 1 : try n(0))
        case .math?:
            switch name {
            case "sin": return .number(sin(try n(0)))
            case "cos": return .number(cos(try n(0)))
            case "tan": return .number(tan(try n(0)))
            case "asin": return .number(asin(try n(0)))
            case "acos": return .number(acos(try n(0)))
            case "atan": return .number(atan(try n(0)))
            case "atan2": return .number(atan2(try n(0), try n(1)))
            case "abs": return try each(abs)
            case "sqrt": return try each { $0.squareRoot() }
            case "floor": return try each { $0.rounded(.down) }
            case "ceil": return try each { $0.rounded(.up) }
            case "round": return try each { ($0 + 0.5).rounded(.down) }   // JavaScript rounds halves up
            case "sign": return try each { $0 > 0 ? 1 : $0 < 0 ? -1 : $0 }
            case "exp": return .number(exp(try n(0)))
            case "log": return .number(log(try n(0)))
            case "pow": return .number(pow(try n(0), try n(1)))
            case "hypot": return .number(try args.indices.map { try n($0) }.reduce(0) { $0 + $1 * $1 }.squareRoot())
            case "min": return .number(try args.indices.map { try n($0) }.min() ?? .infinity)
            case "max": return .number(try args.indices.map { try n($0) }.max() ?? -.infinity)
            case "random": return .number(draw(e))
            default: throw LottieScriptError("no 'Math.\(name)'")
            }
        case .comp?:
            guard name == "layer", let first = args.first else { throw LottieScriptError("thisComp.\(name)() is not supported") }
            return .object(.layer(try e.host.layer(named: first, near: e.owner, e)))
        case .composition(let id)?:
            guard name == "layer", let first = args.first else { throw LottieScriptError("comp.\(name)() is not supported") }
            return .object(.layer(try e.host.layer(named: first, in: id, e)))
        case .layer(let ref)? where name == "sourceRectAtTime":
            // (t = time, includeExtents = false): the box of what the layer draws, in its space.
            let f = args.isEmpty ? e.frame : try frame(n(0), e)
            let extents = args.count > 1 ? e.truthy(args[1]) : false
            return .object(.rect(try e.host.sourceRect(of: ref, at: f, includeExtents: extents, e.run)))
        case .layer(let ref)?:
            guard let first = args.first else { throw LottieScriptError("layer.\(name)() needs an argument") }
            switch name {
            case "effect": return .object(.effect(ref, try e.host.effect(first, of: ref, e)))
            case "content": return .object(.shape(try e.host.item(first, in: try e.host.layerContents(ref))))
            case "toComp", "toWorld", "fromComp", "fromWorld", "fromCompToSurface":
                // A point from the layer's space to the composition's, or back.
                var m = try e.host.toComp(ref, at: e.frame, e.run)
                if name.hasPrefix("from") {
                    guard abs(m.a * m.d - m.b * m.c) > 1e-12 else { throw LottieScriptError("\(name) of a layer scaled to nothing") }
                    m = m.inverted()
                }
                let v = try e.vector(first)
                guard !v.isEmpty else { throw LottieScriptError("\(name) of an empty array") }
                let p = CGPoint(x: v[0], y: v.count > 1 ? v[1] : 0).applying(m)
                return .vector([Double(p.x), Double(p.y)] + v.dropFirst(2))
            default: throw LottieScriptError("layer.\(name)() is not supported")
            }
        case .effect(let ref, let i)?:
            guard let first = args.first else { throw LottieScriptError("an effect's value needs its name or index") }
            return try e.host.effectParameter(first, of: ref, i, e)
        case .property(let p)?:
            switch name {
            case "valueAtTime":
                return e.host.vectorValue(try e.host.value(of: p, at: try frame(n(0), e), e.run))
            case "loopOut", "loopIn", "loopOutDuration", "loopInDuration":
                guard p.path == e.path else { throw LottieScriptError("\(name) of another property") }
                return try call(name, nil, args, e)
            case "velocityAtTime":
                return e.host.vectorValue(try e.host.velocity(of: p, at: try frame(n(0), e), e.run))
            case "speedAtTime":
                return .number(LottieExpressions.length(try e.host.velocity(of: p, at: try frame(n(0), e), e.run)))
            case "key":
                let k = p.property.keyframes
                let i = LottieExpressions.position(try n(0))
                guard k.indices.contains(i) else { throw LottieScriptError("no key \(try n(0)) (the property has \(k.count))") }
                return .object(.key(p, i))
            case "nearestKey":
                let k = p.property.keyframes
                guard !k.isEmpty else { throw LottieScriptError("nearestKey of a property without keyframes") }
                let f = try frame(n(0), e)
                var best = 0
                for i in k.indices where abs(k[i].time - f) < abs(k[best].time - f) { best = i }
                return .object(.key(p, best))
            default: throw LottieScriptError("property.\(name)() is not supported")
            }
        case .shape(let item)? where name == "content":
            guard let first = args.first else { throw LottieScriptError("content() needs a name or an index") }
            return .object(.shape(try e.host.item(first, in: item + ".it")))
        case .path(let path)?:
            return try pathFunction(name, path, args, e)
        case .bezier(let bezier)?:
            return try pathFunction(name, bezier, args, e)
        case .markers?:
            return try e.host.marker(name, args, e)
        case .transform?, .key?, .effects?, .contents?, .shape?, .text?, .marker?, .rect?:
            throw LottieScriptError("\(name)() is not supported here")
        case nil:
            break
        }
        switch name {
        case "clamp":
            let x = try v(0), lo = try v(1), hi = try v(2)
            guard !lo.isEmpty, !hi.isEmpty else { throw LottieScriptError("clamp between empty arrays") }
            let out = x.indices.map { i in min(max(x[i], lo[min(i, lo.count - 1)]), hi[min(i, hi.count - 1)]) }
            return out.count == 1 && !isArray(args[0], e) ? .number(out[0]) : .vector(out)
        case "degreesToRadians": return .number(try n(0) * .pi / 180)
        case "radiansToDegrees": return .number(try n(0) * 180 / .pi)
        case "linear": return try interpolate(args, e) { $0 }
        case "ease": return try interpolate(args, e, curve: (0.33, 0, 0.667, 1))
        case "easeIn": return try interpolate(args, e, curve: (0.333, 0, 0.833, 0.833))
        case "easeOut": return try interpolate(args, e, curve: (0.167, 0.167, 0.667, 1))
        case "length":
            let a = try v(0), b = args.count > 1 ? try v(1) : []
            return .number((0..<max(a.count, b.count)).reduce(0.0) { s, i in
                let d = (i < a.count ? a[i] : 0) - (i < b.count ? b[i] : 0)
                return s + d * d
            }.squareRoot())
        case "normalize":
            let a = try v(0)
            let l = a.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return .vector(a.map { l > 0 ? $0 / l : 0 })
        case "dot":
            let a = try v(0), b = try v(1)
            return .number(zip(a, b).reduce(0) { $0 + $1.0 * $1.1 })
        case "add", "sum", "$bm_sum": return try e.binary("+", arg(args, 0), arg(args, 1))
        case "sub", "$bm_sub": return try e.binary("-", arg(args, 0), arg(args, 1))
        case "mul", "$bm_mul": return try e.binary("*", arg(args, 0), arg(args, 1))
        case "div", "$bm_div": return try e.binary("/", arg(args, 0), arg(args, 1))
        case "$bm_mod", "mod": return try e.binary("%", arg(args, 0), arg(args, 1))
        case "createPath": return .object(.bezier(try createPath(args, e)))
        case "comp":
            guard case .string(let s)? = args.first else { throw LottieScriptError("comp() needs a composition's name") }
            return .object(.composition(try e.host.composition(named: s)))
        case "Array":
            // Array(n): n empty places (a whole number up to the array limit); Array(a, b, …)
            // and Array(x) of anything but a number: those elements.
            if args.count == 1, case .number(let n) = try e.resolved(args[0]) {
                guard n >= 0, n == n.rounded(), n <= Double(LottieScriptValue.maxArrayCount) else {
                    throw LottieScriptError("Array(\(n)): a length must be a whole number from 0 to \(LottieScriptValue.maxArrayCount)")
                }
                try e.run.charge(Int(n) / 8)
                return try LottieScriptValue.array(Array(repeating: .undefined, count: Int(n)))
            }
            return try LottieScriptValue.array(try args.map { try e.resolved($0) })
        case "isNaN":
            // JavaScript's: what does not convert to a number is not a number.
            guard let first = args.first else { return .bool(true) }
            if case .string(let s) = try e.resolved(first) { return .bool(Double(s.trimmingCharacters(in: .whitespaces)) == nil) }
            do {
                return .bool(try e.number(first).isNaN)
            } catch let error as LottieScriptError where !error.isLimit {
                return .bool(true)
            }
        case "parseInt", "parseFloat":
            guard let first = args.first else { return .number(.nan) }
            if case .string(let s) = try e.resolved(first) { return .number(parseNumber(s, whole: name == "parseInt")) }
            let d: Double
            do { d = try e.number(first) } catch let error as LottieScriptError where !error.isLimit { d = .nan }
            return .number(name == "parseInt" ? d.rounded(.towardZero) : d)
        case "$bm_neg": return try e.binary("*", arg(args, 0), .number(-1))
        case "$bm_isInstanceOfArray": return .bool(isArray(try arg(args, 0), e))
        case "valueAtTime": return e.host.vectorValue(e.property.value(at: try frame(n(0), e)))
        case "framesToTime": return .number(try n(0) / n(1, e.frameRate))
        case "timeToFrames": return .number((try n(0, e.time) * n(1, e.frameRate) + 1e-9).rounded(.down))
        case "loopOut", "loopIn", "loopOutDuration", "loopInDuration":
            var type = "cycle"
            if let first = args.first, !first.isUndefined {
                guard case .string(let s) = first else { throw LottieScriptError("\(name)'s type is not a string") }
                type = s
            }
            let amount = try n(1, 0)
            let byDuration = name.hasSuffix("Duration")
            return e.host.vectorValue(try loop(after: name.hasPrefix("loopOut"), type, count: byDuration ? nil : amount,
                                               duration: byDuration ? amount : nil, e.property, at: e.frame, frameRate: e.frameRate))
        case "posterizeTime":
            // The rest of the expression sees time in steps of 1/fps seconds (0 or less: unchanged).
            let fps = try n(0)
            if fps > 0, fps.isFinite {
                e.frame = ((e.time * fps + 1e-9).rounded(.down) / fps) * e.frameRate
            }
            return .undefined
        case "seedRandom":
            e.randomSeed = try n(0)
            e.timeless = args.count > 1 && e.truthy(args[1])
            e.draws = 0
            return .undefined
        case "random":
            switch args.count {
            case 0: return .number(draw(e))
            case 1:
                if case .vector(let hi) = try e.resolved(args[0]) { return .vector(hi.map { $0 * draw(e) }) }
                return .number(try n(0) * draw(e))
            default:
                let lo = try v(0), hi = try v(1)
                guard !lo.isEmpty, !hi.isEmpty else { throw LottieScriptError("random between empty arrays") }
                let out = (0..<max(lo.count, hi.count)).map { i -> Double in
                    let a = lo[min(i, lo.count - 1)], b = hi[min(i, hi.count - 1)]
                    return a + (b - a) * draw(e)
                }
                return out.count == 1 && !isArray(args[0], e) ? .number(out[0]) : .vector(out)
            }
        case "wiggle":
            return e.host.vectorValue(wiggle(frequency: try n(0), amplitude: try n(1), octaves: try n(2, 1), multiplier: try n(3, 0.5),
                                             at: try n(4, e.time), e))
        default:
            throw LottieScriptError("no function '\(name)'")
        }
    }

    /// The frame of a time in seconds; throws for a time that is not a finite number.
    private static func frame(_ seconds: Double, _ e: LottieScriptEvaluator) throws -> Double {
        let f = seconds * e.frameRate
        guard f.isFinite else { throw LottieScriptError("a time that is not a finite number") }
        return f
    }

    private static func arg(_ args: [LottieScriptValue], _ i: Int) throws -> LottieScriptValue {
        guard i < args.count else { throw LottieScriptError("an operator needs two arguments") }
        return args[i]
    }

    private static func isArray(_ v: LottieScriptValue, _ e: LottieScriptEvaluator) -> Bool {
        (try? e.resolved(v))?.elements != nil
    }

    /// The number a string starts with, as `parseInt` (`whole`) and `parseFloat` read it: NaN
    /// when it starts with none.
    static func parseNumber(_ s: String, whole: Bool) -> Double {
        let t = Array(s.drop { $0.isWhitespace }.unicodeScalars)
        var end = 0
        if end < t.count, t[end] == "-" || t[end] == "+" { end += 1 }
        let digitsStart = end
        while end < t.count, t[end].properties.numericType == .decimal, t[end].isASCII { end += 1 }
        if !whole, end < t.count, t[end] == "." {
            end += 1
            while end < t.count, t[end].properties.numericType == .decimal, t[end].isASCII { end += 1 }
        }
        guard end > digitsStart, let d = Double(String(String.UnicodeScalarView(t[0..<end]))) else { return .nan }
        return d
    }

    /// What a path (`content("Shape").path`) answers.
    static let pathFunctions: Set<String> = ["points", "inTangents", "outTangents", "isClosed", "pointOnPath", "tangentOnPath",
                                             "normalOnPath"]

    /// A path's vertices, tangents and closedness (`points(t)`, …, `isClosed()`), and the point,
    /// unit tangent or unit normal (the tangent turned a quarter, as lottie-web turns it) a
    /// fraction of its length along it (`pointOnPath(fraction, t)`: 0 its start, 1 its end),
    /// its keyframes' shape at time `t` (seconds; now by default).
    static func pathFunction(_ name: String, _ path: String, _ args: [LottieScriptValue],
                             _ e: LottieScriptEvaluator) throws -> LottieScriptValue {
        guard let shape = e.host.shapes.paths[path] else { throw LottieScriptError("no path at \(path)") }
        let timeArgument = name.hasSuffix("OnPath") ? 1 : 0
        var at = e.frame
        if args.count > timeArgument, !args[timeArgument].isUndefined { at = try frame(e.number(args[timeArgument]), e) }
        return try pathFunction(name, shape.value(at: at), args, e)
    }

    /// The same questions of a path's shape (a time argument, if any, is not used: the shape is
    /// the one it is).
    static func pathFunction(_ name: String, _ bezier: LottieBezier, _ args: [LottieScriptValue],
                             _ e: LottieScriptEvaluator) throws -> LottieScriptValue {
        func list(_ points: [CGPoint]) throws -> LottieScriptValue {
            try e.makeArray(points.map { .vector([Double($0.x), Double($0.y)]) })
        }
        switch name {
        case "points": return try list(bezier.vertices)
        case "inTangents": return try list(bezier.inTangents)
        case "outTangents": return try list(bezier.outTangents)
        case "isClosed": return .bool(bezier.closed)
        default:
            let fraction = args.first.map { try? e.number($0) } ?? 0.5
            guard let f = fraction, f.isFinite else { throw LottieScriptError("\(name) needs a fraction that is a finite number") }
            guard let (point, tangent) = LottiePathMeasure(bezier).point(atFraction: min(max(f, 0), 1)) else {
                throw LottieScriptError("\(name) of a path without points")
            }
            switch name {
            case "pointOnPath": return .vector([Double(point.x), Double(point.y)])
            case "tangentOnPath": return .vector([Double(tangent.x), Double(tangent.y)])
            default: return .vector([Double(-tangent.y), Double(tangent.x)])
            }
        }
    }

    /// Vertices a path made by `createPath` may have.
    static let maxCreatedPoints = 100_000

    /// `createPath(points, inTangents = [], outTangents = [], isClosed = true)`: a path from its
    /// vertices and their tangents (relative to each vertex), arrays of [x, y].
    static func createPath(_ args: [LottieScriptValue], _ e: LottieScriptEvaluator) throws -> LottieBezier {
        func points(_ i: Int, _ what: String) throws -> [CGPoint]? {
            guard i < args.count, !args[i].isUndefined else { return nil }
            guard let items = try e.resolved(args[i]).elements else { throw LottieScriptError("createPath's \(what) is not an array") }
            guard items.count <= maxCreatedPoints else { throw LottieScriptError("createPath with more than \(maxCreatedPoints) points") }
            try e.run.charge(items.count >> 6)
            return try items.map { item in
                let v = try e.vector(item)
                guard v.count >= 2, v[0].isFinite, v[1].isFinite else { throw LottieScriptError("createPath's \(what) holds other than [x, y] points") }
                return CGPoint(x: v[0], y: v[1])
            }
        }
        guard let vertices = try points(0, "points") else { throw LottieScriptError("createPath needs its points") }
        let zeros = Array(repeating: CGPoint.zero, count: vertices.count)
        let inT = try points(1, "inTangents").flatMap { $0.isEmpty ? nil : $0 } ?? zeros
        let outT = try points(2, "outTangents").flatMap { $0.isEmpty ? nil : $0 } ?? zeros
        guard inT.count == vertices.count, outT.count == vertices.count else {
            throw LottieScriptError("createPath's tangents (\(inT.count), \(outT.count)) are not one a point (\(vertices.count))")
        }
        let closed = args.count > 3 && !args[3].isUndefined ? e.truthy(try e.resolved(args[3])) : true
        return LottieBezier(closed: closed, vertices: vertices, inTangents: inT, outTangents: outT)
    }

    /// Methods of strings, arrays and numbers.
    static let methods: Set<String> = ["split", "indexOf", "slice", "substring", "substr", "toUpperCase", "toLowerCase",
                                       "charAt", "concat", "join", "toString", "toFixed"]

    /// `value.name(args)`: a method of a string, an array or a number.
    static func method(_ name: String, of receiver: LottieScriptValue, _ args: [LottieScriptValue],
                       _ e: LottieScriptEvaluator) throws -> LottieScriptValue {
        func n(_ i: Int, _ otherwise: Double) throws -> Double {
            i < args.count && !args[i].isUndefined ? try e.number(args[i]) : otherwise
        }
        /// `slice`'s bounds: from the end when negative, clamped to the count.
        func bounds(_ count: Int) throws -> (Int, Int) {
            func place(_ d: Double) -> Int {
                let k = d < 0 ? Double(count) + d.rounded(.towardZero) : d.rounded(.towardZero)
                return k.isNaN ? 0 : Int(min(max(k, 0), Double(count)))
            }
            let a = place(try n(0, 0)), b = place(try n(1, Double(count)))
            return (a, max(a, b))
        }
        switch (receiver, name) {
        case (_, "toString"): return .string(try e.text(receiver))
        case (.number(let d), "toFixed"):
            let digits = Int(min(max(try n(0, 0), 0), 20))
            return .string(String(format: "%.\(digits)f", d))
        case (.string(let s), _):
            try e.run.charge(s.utf8.count >> 10)
            let c = Array(s)
            switch name {
            case "split":
                guard case .string(let separator)? = args.first else { return try e.makeArray([.string(s)]) }
                let parts = separator.isEmpty ? c.map { String($0) } : s.components(separatedBy: separator)
                try e.run.charge(s.utf8.count >> 10)
                return try e.makeArray(parts.map { .string($0) })
            case "indexOf":
                guard case .string(let t)? = args.first else { return .number(-1) }
                guard let r = s.range(of: t) else { return .number(-1) }
                return .number(Double(s.distance(from: s.startIndex, to: r.lowerBound)))
            case "slice", "substring", "substr":
                var (a, b) = try bounds(c.count)
                if name == "substr" { b = min(c.count, a + max(0, Int(min(max(try n(1, Double(c.count)), 0), Double(c.count))))) }
                return .string(String(c[a..<max(a, b)]))
            case "toUpperCase": return .string(s.uppercased())
            case "toLowerCase": return .string(s.lowercased())
            case "charAt":
                let k = Int(min(max(try n(0, 0), -1), Double(c.count)))
                return .string(k >= 0 && k < c.count ? String(c[k]) : "")
            case "concat": return .string(try e.bounded(s + (try args.map { try e.text($0) }.joined())))
            default: break
            }
        default:
            guard let items = receiver.elements else { break }
            try e.run.charge(items.count >> 6)
            switch name {
            case "indexOf":
                guard let first = args.first else { return .number(-1) }
                for (i, item) in items.enumerated() where (try? e.binary("===", item, first)).map(e.truthy) == true {
                    return .number(Double(i))
                }
                return .number(-1)
            case "slice":
                let (a, b) = try bounds(items.count)
                return try e.makeArray(Array(items[a..<b]))
            case "concat":
                var out = items
                for a in args { out += (try e.resolved(a)).elements ?? [a] }
                return try e.makeArray(out)
            case "join":
                var separator = ","
                if case .string(let t)? = args.first { separator = t }
                return .string(try e.bounded(try items.map { try e.text($0) }.joined(separator: separator)))
            default: break
            }
        }
        throw LottieScriptError("no '\(name)' of this value")
    }

    /// `linear(t, tMin, tMax, v1, v2)` or `linear(t, v1, v2)` (t in 0…1), with the fraction
    /// through `curve`: v1 before tMin, v2 after tMax.
    private static func interpolate(_ args: [LottieScriptValue], _ e: LottieScriptEvaluator,
                                    curve: (Double, Double, Double, Double)) throws -> LottieScriptValue {
        let f = CAMediaTimingFunction(controlPoints: Float(curve.0), Float(curve.1), Float(curve.2), Float(curve.3))
        return try interpolate(args, e) { Double(f.evaluate($0)) }
    }

    private static func interpolate(_ args: [LottieScriptValue], _ e: LottieScriptEvaluator,
                                    _ curve: (Double) -> Double) throws -> LottieScriptValue {
        let t: Double, tMin: Double, tMax: Double, a: LottieScriptValue, b: LottieScriptValue
        switch args.count {
        case 3: (t, tMin, tMax, a, b) = (try e.number(args[0]), 0, 1, args[1], args[2])
        case 5: (t, tMin, tMax, a, b) = (try e.number(args[0]), try e.number(args[1]), try e.number(args[2]), args[3], args[4])
        default: throw LottieScriptError("an interpolation needs 3 or 5 arguments")
        }
        let fraction = tMax == tMin ? (t < tMin ? 0 : 1) : min(max((t - tMin) / (tMax - tMin), 0), 1)
        let s = fraction <= 0 ? 0 : fraction >= 1 ? 1 : curve(fraction)
        let x = try e.vector(a), y = try e.vector(b)
        let out = (0..<max(x.count, y.count)).map { i -> Double in
            let p = i < x.count ? x[i] : 0, q = i < y.count ? y[i] : 0
            return s == 1 ? q : p + (q - p) * s
        }
        return out.count == 1 && !isArray(a, e) ? .number(out[0]) : .vector(out)
    }

    /// The property's keyframed value at the frame, looped outside its keyframes as After
    /// Effects' `loopOut`/`loopIn` do: over the last (loopIn: first) `count` + 1 keyframes, or
    /// `duration` seconds (0 or nothing: all of them). cycle repeats, pingpong goes back and
    /// forth, offset adds the change of each cycle, continue goes on at the velocity of the
    /// last (first) keyframe.
    static func loop(after: Bool, _ type: String, count: Double?, duration: Double?, _ p: LottieAnimated<[Double]>,
                     at f: Double, frameRate: Double) throws -> [Double] {
        guard ["cycle", "pingpong", "offset", "continue"].contains(type) else { throw LottieScriptError("loop type '\(type)'") }
        let k = p.keyframes
        guard k.count > 1 else { return p.value(at: f) }
        let n = k.count
        var first = k[0].time, last = k[n - 1].time
        if let duration, duration > 0, duration.isFinite {
            if after { first = max(first, last - duration * frameRate) } else { last = min(last, first + duration * frameRate) }
        } else if let count, count >= 1, count < Double(n - 1) {
            if after { first = k[n - 1 - Int(count)].time } else { last = k[Int(count)].time }
        }
        if after ? f <= last : f >= first { return p.value(at: f) }
        if type == "continue" {
            // The velocity at the end keyframe, measured over a thousandth of a frame.
            let h = 0.001
            let edge = after ? last : first
            let a = p.value(at: edge), b = p.value(at: after ? edge - h : edge + h)
            return a.indices.map { i in a[i] + (a[i] - (i < b.count ? b[i] : a[i])) / h * abs(f - edge) }
        }
        let span = last - first
        guard span > 0 else { return p.value(at: f) }
        let cycles = min(max(((f - first) / span).rounded(.down), -1e9), 1e9)
        let local = f - first - cycles * span
        switch type {
        case "pingpong":
            return p.value(at: Int(cycles) % 2 != 0 ? last - local : first + local)
        case "offset":
            let x = p.value(at: first + local), a = p.value(at: first), b = p.value(at: last)
            return x.indices.map { i in x[i] + cycles * ((i < b.count ? b[i] : 0) - (i < a.count ? a[i] : 0)) }
        default:
            return p.value(at: first + local)
        }
    }

    /// A number in [0, 1) from the property's seed, `seedRandom`'s, the frame (unless timeless)
    /// and how many were drawn before in this evaluation.
    static func draw(_ e: LottieScriptEvaluator) -> Double {
        e.draws &+= 1
        var z = e.script.seed ^ (e.randomSeed.bitPattern &* 0x9E37_79B9_7F4A_7C15)
        if !e.timeless { z ^= (e.frame.bitPattern &* 0xC2B2_AE3D_27D4_EB4F) }
        z &+= e.draws &* 0x9E37_79B9_7F4A_7C15
        return Double(mix(z) >> 11) / Double(1 << 53)
    }

    private static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `value` plus, per dimension, a smooth noise in about −amplitude…amplitude with about
    /// `frequency` wiggles a second: per octave a sum of three sines whose phases come from the
    /// seed, each octave twice the frequency and `multiplier` times the amplitude of the one before.
    static func wiggle(frequency: Double, amplitude: Double, octaves: Double, multiplier: Double, at t: Double,
                       _ e: LottieScriptEvaluator) -> [Double] {
        var state = e.script.seed
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            return Double(mix(state) >> 11) / Double(1 << 53)
        }
        let levels = Int(min(max(octaves.isFinite ? octaves : 1, 1), 10))
        return e.property.value(at: e.frame).map { v in
            var noise = 0.0, scale = 1.0, rate = frequency
            for _ in 0..<levels {
                for (k, weight) in [(1.0, 0.6), (2.1, 0.3), (4.3, 0.1)] {
                    noise += scale * weight * sin(2 * .pi * (rate * k * t + next()))
                }
                scale *= multiplier
                rate *= 2
            }
            return v + amplitude * noise
        }
    }
}
