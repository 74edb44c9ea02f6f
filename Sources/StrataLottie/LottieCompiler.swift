// Compiles a parsed Lottie into ordinary Core Animation layers and keyframe animations, as
// lottie-ios's Core Animation engine does: every layer's time is a CALayer's time (`beginTime`
// = start time, `speed` = 1 / time stretch), keyframes become CAKeyframeAnimations (easing →
// timing functions, hold → a jump, per-dimension easing and motion-path curves → values
// pre-sampled per frame), visibility (in/out points) a discrete `hidden` animation. Inside a
// time-remapped precomposition every value is sampled per frame through the remap.
import Foundation
import Strata

/// Where a compiled layer's animations live in time: how a Core Animation layer's local frame
/// (seconds × frame rate) maps to the Lottie frame its properties are evaluated at.
struct LottieTime {
    /// CA-local frame → Lottie frame; nil: they are the same.
    var remap: ((Double) -> Double)?
    /// CA-local frames worth sampling (where the layer can be seen).
    var range: ClosedRange<Double>
}

final class LottieCompiler {
    let animation: LottieAnimation
    let fr: Double
    var notes = LottieNotes()
    /// The JSON paths of the expressions (loops too) the compiled layers follow.
    private(set) var appliedExpressions: Set<String> = []
    /// Values of expressions at the frames sampled so far (a rig's controls are read by many).
    private let expressionCache = LottieExpressionCache()
    private var samples = 0
    /// Path points held by pre-sampled paths so far (bounded by `limits.sampledPathPoints`).
    private var pathPoints = 0
    /// The steps merge paths took so far (LottiePathBoolean), against `mergeStepsInAll`.
    var mergeSteps = 0
    /// Lines of text made so far (bounded by the layer limit).
    var textLines = 0
    /// The camera of the composition being compiled, if it has one (its 3D layers see through it).
    var camera: LottieCamera?
    /// Samples a frame where Core Animation's curves cannot follow the spec's.
    let samplesPerFrame = 2.0
    static let jump = 1e-4   // frames: a hold's jump happens this long before the next keyframe

    init(_ animation: LottieAnimation) {
        self.animation = animation
        fr = animation.frameRate
    }

    // MARK: Animations

    /// A zero-size layer anchored at its origin: a node of the transform tree.
    func node() -> CALayer {
        let l = CALayer()
        l.anchorPoint = .zero
        l.bounds = .zero
        return l
    }

    private func begin(_ frame: Double) -> CFTimeInterval {
        let t = frame / fr
        return t == 0 ? 1e-100 : t   // 0 would mean "now" to add(_:forKey:)
    }

    func countSamples(_ n: Int, _ path: String) throws {
        samples += n
        guard samples <= animation.limits.samples else {
            throw LottieError(path: path, "more than \(animation.limits.samples) pre-sampled values in all, over the limit")
        }
    }

    /// Adds a keyframe animation through (frame, value, timing function into it) points,
    /// repeated as a loop expression asks: loopOut repeats it for ever after its end (pingpong:
    /// autoreversing; offset: cumulative), loopIn(cycle) starts it whole cycles early so that it
    /// has cycled from the start of `earliest` when the first keyframe comes.
    private func addKeyframes(_ layer: CALayer, _ key: String, _ points: [(Double, Any, CAMediaTimingFunction?)],
                              loop: LottieLoop? = nil, earliest: Double = 0) {
        guard let first = points.first, let last = points.last else { return }
        layer.setValue(first.1, forKeyPath: key)
        guard points.count > 1, last.0 > first.0 else { return }
        let a = CAKeyframeAnimation(keyPath: key)
        a.values = points.map(\.1)
        let span = last.0 - first.0
        a.keyTimes = points.map { NSNumber(value: min(max(($0.0 - first.0) / span, 0), 1)) }
        a.timingFunctions = points.dropFirst().map { $0.2 ?? CAMediaTimingFunction(name: .linear) }
        a.beginTime = begin(first.0)
        a.duration = span / fr
        a.fillMode = .both
        a.isRemovedOnCompletion = false
        if let loop {
            if loop.after {
                a.repeatCount = .infinity
                a.autoreverses = loop.kind == .pingpong
                a.isCumulative = loop.kind == .offset
            } else if earliest < first.0 {
                let cycles = ((first.0 - earliest) / span).rounded(.up)
                a.beginTime = begin(first.0 - cycles * span)
                a.repeatCount = Float(cycles + 1)
            }
        }
        layer.add(a, forKey: key)
    }

    /// Values sampled per frame over the time's range (for remapped time and curves CA lacks).
    /// `pointsPerSample` (a path's points at the first sample) counts towards the sampled path
    /// points' limit, checked before any sample is made.
    func animateSampled(_ layer: CALayer, _ key: String, _ time: LottieTime, path: String, pointsPerSample: Int = 0,
                        _ value: (Double) -> Any) throws {
        let lo = time.range.lowerBound, hi = time.range.upperBound
        let wanted = ((hi - lo) * samplesPerFrame).rounded(.up)
        try countSamples(wanted.isFinite && wanted < 1e9 ? Int(wanted) + 1 : Int(1e9), path)
        let steps = max(1, Int(wanted))
        if pointsPerSample > 0 {
            let (points, overflow) = pointsPerSample.multipliedReportingOverflow(by: steps + 1)
            pathPoints = overflow ? Int.max : pathPoints.addingReportingOverflow(points).overflow ? Int.max : pathPoints + points
            guard pathPoints <= animation.limits.sampledPathPoints else {
                throw LottieError(path: path, "more than \(animation.limits.sampledPathPoints) path points pre-sampled in all, over the limit")
            }
        }
        var points: [(Double, Any, CAMediaTimingFunction?)] = []
        for i in 0...steps {
            let g = lo + (hi - lo) * Double(i) / Double(steps)
            points.append((g, value(time.remap?(g) ?? g), nil))
        }
        addKeyframes(layer, key, points)
    }

    /// The CA-local frames `animateSampled` samples at over the time's range, counting
    /// `valuesPerFrame` values at each against the pre-sampling limit.
    func sampleFrames(_ time: LottieTime, valuesPerFrame: Int, path: String) throws -> [Double] {
        let lo = time.range.lowerBound, hi = time.range.upperBound
        let wanted = ((hi - lo) * samplesPerFrame).rounded(.up)
        let steps = wanted.isFinite && wanted < 1e9 ? max(1, Int(wanted)) : Int(1e9)
        let total = Double(steps + 1) * Double(max(valuesPerFrame, 0))
        try countSamples(total < 1e15 ? Int(total) : Int(1e15), path)
        return (0...steps).map { lo + (hi - lo) * Double($0) / Double(steps) }
    }

    /// Animates `key` of `layer` through `values` at CA-local `frames`, linearly between them;
    /// a fixed value when they are all equal (`same` compares two). A run of equal values keeps
    /// only its ends (linear between equal values is that value), so a character that changes
    /// for a few frames of a long text animation has a few keyframes, not one a sample.
    func addSampled<V>(_ layer: CALayer, _ key: String, frames: [Double], values: [V], same: (V, V) -> Bool,
                       _ convert: (V) -> Any) {
        guard let first = values.first else { return }
        if values.allSatisfy({ same($0, first) }) {
            layer.setValue(convert(first), forKeyPath: key)
            return
        }
        var points: [(Double, Any, CAMediaTimingFunction?)] = []
        for i in values.indices {
            let inside = i > 0 && i < values.count - 1 && same(values[i - 1], values[i]) && same(values[i], values[i + 1])
            if !inside { points.append((frames[i], convert(values[i]), nil)) }
        }
        addKeyframes(layer, key, points)
    }

    /// Animates `key` of `layer` by a Lottie property: its keyframes as CA keyframes where CA's
    /// curves say the same thing, pre-sampled segments where they do not.
    func animate<V>(_ layer: CALayer, _ key: String, _ p: LottieAnimated<V>, _ time: LottieTime, path: String,
                    _ convert: @escaping (V) -> Any) throws {
        if animation.expressions.contains(path), let numeric = p as? LottieAnimated<[Double]> {
            // An expression: its value sampled over the frames where the layer shows.
            try animateSampled(layer, key, time, path: path) { f in
                let v = expressionValue(path, numeric, at: f)
                return (v as? V).map(convert) ?? convert(p.value(at: f))
            }
            return
        }
        guard p.isAnimated else {
            layer.setValue(convert(p.initial), forKeyPath: key)
            return
        }
        let k = p.keyframes
        let loop = animation.loops[path]
        if loop != nil { appliedExpressions.insert(path) }
        if time.remap != nil {
            // Sampled through the remap, loops evaluated by their definition.
            let first = k[0], last = k[k.count - 1]
            try animateSampled(layer, key, time, path: path) { f in
                guard let loop else { return convert(p.value(at: f)) }
                let (g, cycles) = loop.map(f, first: first.time, last: last.time)
                let v = p.value(at: g)
                if loop.kind == .offset, cycles != 0, let vector = v as? [Double], let a = first.value as? [Double],
                   let b = last.value as? [Double] {
                    // Each whole cycle adds the change from the first keyframe to the last.
                    let moved = (0..<vector.count).map { i in
                        vector[i] + Double(cycles) * ((i < b.count ? b[i] : 0) - (i < a.count ? a[i] : 0))
                    }
                    if let m = moved as? V { return convert(m) }
                }
                return convert(v)
            }
            return
        }
        var points: [(Double, Any, CAMediaTimingFunction?)] = [(k[0].time, convert(k[0].value), nil)]
        for i in 0..<(k.count - 1) {
            let a = k[i], b = k[i + 1]
            let span = b.time - a.time
            if span <= 0 {
                points.append((b.time, convert(b.value), nil))
                continue
            }
            if a.hold {
                let jump = min(Self.jump, span / 2)
                points.append((b.time - jump, convert(a.value), nil))
                points.append((b.time, convert(b.value), nil))
                continue
            }
            let vectorDims = (a.value as? [Double])?.count ?? 1
            let uniform = a.easing.map { $0.isUniform || vectorDims == 1 } ?? true
            if a.hasSpatialCurve || !uniform {
                let wanted = (span * samplesPerFrame).rounded(.up)
                try countSamples(wanted > 1e9 ? Int(1e9) : Int(max(wanted, 0)), path)
                let n = max(2, Int(wanted))
                // The segment's motion path made once for all its samples (each sample lies
                // inside it: the value `p.value(at:)` gives).
                let curve = LottieAnimated<V>.spatialCurve(from: a, to: b)
                for j in 1...n {
                    let t = a.time + span * Double(j) / Double(n)
                    points.append((t, convert(j == n ? b.value : LottieAnimated.value(from: a, to: b, at: t, curve: curve)), nil))
                }
                continue
            }
            points.append((b.time, convert(b.value), a.easing?.timingFunction(0)))
        }
        addKeyframes(layer, key, points, loop: loop, earliest: time.range.lowerBound)
    }

    /// A numeric property as a function of the frame — its expression's or loop's value where it
    /// has one, else its keyframes' — and whether it changes.
    func sampler(_ p: LottieAnimated<[Double]>, path: String) -> (value: (Double) -> [Double], isAnimated: Bool) {
        guard animation.expressions.contains(path) || animation.loops[path] != nil else { return (p.value(at:), p.isAnimated) }
        appliedExpressions.insert(path)
        return ({ f in self.expressionValue(path, p, at: f) }, true)
    }

    /// The value of the expression of the property at `path` at a frame; where it fails (a
    /// limit, a wrong type on some branch), the keyframes' value, and a note.
    func expressionValue(_ path: String, _ property: LottieAnimated<[Double]>, at frame: Double) -> [Double] {
        appliedExpressions.insert(path)
        do {
            return try animation.expressions.evaluate(path, property, at: frame, cache: expressionCache)
        } catch {
            let message = (error as? LottieScriptError)?.message ?? "\(error)"
            notes.add(path + ".x", "expression: \(message) (the keyframes are used where it fails)")
            return property.value(at: frame)
        }
    }

    /// Visible from `inPoint` until `outPoint` (Lottie frames of the comp the layer is in).
    func visibility(_ layer: CALayer, inPoint: Double, outPoint: Double, _ time: LottieTime, path: String) throws {
        layer.isHidden = true
        if let remap = time.remap {
            let lo = time.range.lowerBound, hi = time.range.upperBound
            let wanted = (hi - lo).rounded(.up)
            try countSamples(wanted.isFinite && wanted < 1e9 ? Int(wanted) + 1 : Int(1e9), path)
            let steps = max(1, Int(wanted))
            var times: [Double] = [], values: [Bool] = []
            for i in 0...steps {
                let g = lo + Double(i)
                let f = remap(min(g, hi))
                let hidden = !(f >= inPoint && f < outPoint)
                if values.last != hidden { times.append(g); values.append(hidden) }
            }
            guard values.contains(false) else { return }
            let start = times[0] - 1
            addDiscrete(layer, [start] + times + [max(hi, times[times.count - 1]) + 1], [true] + values)
            return
        }
        let j = Self.jump
        addDiscrete(layer, [inPoint - j - 1, inPoint - j, outPoint - j, outPoint - j + 1], [true, false, true])
    }

    private func addDiscrete(_ layer: CALayer, _ times: [Double], _ values: [Bool]) {
        let first = times[0], span = times[times.count - 1] - first
        let a = CAKeyframeAnimation(keyPath: "hidden")
        a.calculationMode = .discrete
        a.values = values
        a.keyTimes = times.map { NSNumber(value: ($0 - first) / span) }
        a.beginTime = begin(first)
        a.duration = span / fr
        a.fillMode = .both
        a.isRemovedOnCompletion = false
        layer.add(a, forKey: "hidden")
    }

    // MARK: Transforms

    /// Nested nodes for a transform: position → auto-orient → rotation → skew → scale → −anchor.
    /// Returns the outermost (which also carries the opacity) and the innermost node.
    /// A 3D layer moved in depth, turned by `or` or seen through `camera` is turned, moved and
    /// projected by one node (`spaceNode`), with its `parents`' transforms (outermost first) in
    /// 3D, its depth animated on `depthLayer`'s zPosition; the caller then adds no parent nodes.
    func transformNodes(_ t: LottieTransform, _ time: LottieTime, path: String, depthLayer: CALayer? = nil,
                        camera: LottieCamera? = nil, parents: [LottieLayerModel] = []) throws -> (outer: CALayer, inner: CALayer) {
        let pos = node()
        let space = needsSpace(t, path: path) || (camera != nil && t.is3D)
        let seenBy = t.is3D ? camera : nil
        if space {
            // The space node holds the position.
        } else if let p = t.position {
            try animate(pos, "position", p, time, path: path + ".p") { CGPoint(x: $0[0], y: $0.count > 1 ? $0[1] : 0) }
        } else if let x = t.positionX, let y = t.positionY {
            try animate(pos, "position.x", x, time, path: path + ".p.x") { CGFloat($0[0]) }
            try animate(pos, "position.y", y, time, path: path + ".p.y") { CGFloat($0[0]) }
        }
        if let o = t.opacity { try animate(pos, "opacity", o, time, path: path + ".o") { Float(min(max($0[0] / 100, 0), 1)) } }
        var inner = pos
        func chain(_ l: CALayer) { inner.addSublayer(l); inner = l }
        func scripted(_ key: String) -> Bool { animation.expressions.contains(path + "." + key) }
        let heading = t.autoOrient ? headingFollowingExpressions(t, path: path) ?? Self.heading(t) : nil
        if !space, let heading {
            let l = node()
            try animateSampled(l, "transform.rotation.z", time, path: path + ".p") { CGFloat(heading($0)) }
            chain(l)
        }
        // Rotation is "r", or "rz" in a 3D layer: its expression or loop is under the key the file used.
        let rotationKey = scripted("rz") || animation.loops[path + ".rz"] != nil ? "rz" : "r"
        if space {
            chain(try spaceNode(t, time, path: path, seenBy: seenBy, depthLayer: depthLayer, heading: heading, parents: parents))
        } else if let r = t.rotation, r.isAnimated || r.initial[0] != 0 || scripted(rotationKey) {
            let l = node()
            try animate(l, "transform.rotation.z", r, time, path: path + "." + rotationKey) { CGFloat($0[0] * .pi / 180) }
            chain(l)
        }
        if !space, t.rotationX?.hasNonZero(dimension: 0) == true || t.rotationY?.hasNonZero(dimension: 0) == true
            || scripted("rx") || scripted("ry") {
            // A 3D layer turned about x or y: seen from 1 024 points in front of its plane, the
            // distance both reference players use for a composition without a camera.
            let l = node()
            let rx = t.rotationX ?? .fixed([0]), ry = t.rotationY ?? .fixed([0])
            let x = sampler(rx, path: path + ".rx"), y = sampler(ry, path: path + ".ry")
            if x.isAnimated || y.isAnimated {
                try animateSampled(l, "transform", time, path: path + ".rx") { Self.tilt(x: x.value($0)[0], y: y.value($0)[0]) }
            } else {
                l.transform = Self.tilt(x: rx.initial[0], y: ry.initial[0])
            }
            chain(l)
        }
        if let sk = t.skew, sk.isAnimated || sk.initial[0] != 0 || scripted("sk") {
            let l = node()
            let axis = t.skewAxis ?? .fixed([0])
            let skew = sampler(sk, path: path + ".sk"), angle = sampler(axis, path: path + ".sa")
            if skew.isAnimated || angle.isAnimated {
                try animateSampled(l, "transform", time, path: path + ".sk") {
                    CATransform3DMakeAffineTransform(Self.skewMatrix(skew.value($0)[0], angle.value($0)[0]))
                }
            } else {
                l.transform = CATransform3DMakeAffineTransform(Self.skewMatrix(sk.initial[0], axis.initial[0]))
            }
            chain(l)
        }
        if let s = t.scale, s.isAnimated || s.initial.prefix(2) != [100, 100] || scripted("s") {
            // x and y on nodes of their own: a virtual key sets its field of the decomposed
            // transform, so neither then depends on how the other decomposes (a mirror, a 0).
            let x = node(), y = node()
            if s.isAnimated, !scripted("s"), s.keyframes.contains(where: { $0.easing.map { !$0.isUniform } ?? false }) {
                // Per-dimension easing: each animation with its own dimension's curve.
                try animate(x, "transform.scale.x", s.map { [$0[0]] }, time, path: path + ".s") { CGFloat($0[0] / 100) }
                try animate(y, "transform.scale.y", s.map { [$0.count > 1 ? $0[1] : $0[0]] }, dimension: 1, time, path: path + ".s") { CGFloat($0[0] / 100) }
            } else {
                try animate(x, "transform.scale.x", s, time, path: path + ".s") { CGFloat($0[0] / 100) }
                try animate(y, "transform.scale.y", s, time, path: path + ".s") { CGFloat(($0.count > 1 ? $0[1] : $0[0]) / 100) }
            }
            chain(x)
            chain(y)
        }
        if let a = t.anchor, a.isAnimated || a.initial.prefix(2).contains(where: { $0 != 0 }) || scripted("a") {
            let l = node()
            try animate(l, "position", a, time, path: path + ".a") { CGPoint(x: -$0[0], y: $0.count > 1 ? -$0[1] : 0) }
            chain(l)
        }
        return (pos, inner)
    }

    /// Auto-orient along a position with an expression or loop: the direction from the value
    /// 0.01 frames earlier to the value now (0 where it does not move). Nil when the position
    /// has neither (`heading(_:)` follows its keyframes).
    func headingFollowingExpressions(_ t: LottieTransform, path: String) -> ((Double) -> Double)? {
        let keys = t.position != nil ? ["p"] : ["p.x", "p.y"]
        guard keys.contains(where: { animation.expressions.contains(path + "." + $0) || animation.loops[path + "." + $0] != nil }) else {
            return nil
        }
        let at: (Double) -> (Double, Double)
        if let p = t.position {
            let s = sampler(p, path: path + ".p")
            at = { f in let v = s.value(f); return (v[0], v.count > 1 ? v[1] : 0) }
        } else if let x = t.positionX, let y = t.positionY {
            let sx = sampler(x, path: path + ".p.x"), sy = sampler(y, path: path + ".p.y")
            at = { f in (sx.value(f)[0], sy.value(f)[0]) }
        } else {
            return nil
        }
        return { f in
            let a = at(f - 0.01), b = at(f)
            return atan2(b.1 - a.1, b.0 - a.0)
        }
    }

    /// Auto-orient: the angle (radians, y down) of the direction of travel along the position's
    /// path at a frame, as lottie-web turns the layer: from the value 0.01 frames
    /// earlier to the value now; before the first keyframe from it to 0.01 frames after it, after
    /// the last from 0.05 frames before it to it; 0 where the layer does not move (atan2(0, 0)).
    /// Nil when the position is not animated (nothing turns).
    static func heading(_ t: LottieTransform) -> ((Double) -> Double)? {
        let at: (Double) -> (Double, Double)
        let times: [Double]
        if let p = t.position, p.isAnimated {
            at = { let v = p.value(at: $0); return (v[0], v.count > 1 ? v[1] : 0) }
            times = p.keyframes.map(\.time)
        } else if let x = t.positionX, let y = t.positionY, x.isAnimated || y.isAnimated {
            at = { (x.value(at: $0)[0], y.value(at: $0)[0]) }
            times = (x.keyframes + y.keyframes).map(\.time)
        } else {
            return nil
        }
        let first = times.min() ?? 0, last = times.max() ?? 0
        return { f in
            let (from, to): (Double, Double)
            if f <= first { (from, to) = (first, first + 0.01) }
            else if f >= last { (from, to) = (last - 0.05, last) }
            else { (from, to) = (f - 0.01, f) }
            let a = at(from), b = at(to)
            return atan2(b.1 - a.1, b.0 - a.0)
        }
    }

    /// The matrix of a transform at a frame (for paths in nested groups styled by an outer group,
    /// and a repeater's step), each property's value given by `value` (from the
    /// property and its key: "a", "s", "sk", "sa", "r", "p", "p.x", "p.y").
    static func matrix(_ t: LottieTransform?, at f: Double, _ value: (LottieAnimated<[Double]>, String) -> [Double]) -> CGAffineTransform {
        guard let t else { return .identity }
        let a = t.anchor.map { value($0, "a") } ?? [0, 0]
        var m = CGAffineTransform(translationX: -a[0], y: a.count > 1 ? -a[1] : 0)
        if let s = t.scale.map({ value($0, "s") }) { m = m.concatenating(CGAffineTransform(scaleX: s[0] / 100, y: (s.count > 1 ? s[1] : s[0]) / 100)) }
        if let sk = t.skew.map({ value($0, "sk")[0] }), sk != 0 { m = m.concatenating(skewMatrix(sk, t.skewAxis.map { value($0, "sa")[0] } ?? 0)) }
        if let r = t.rotation.map({ value($0, "r")[0] }) { m = m.concatenating(CGAffineTransform(rotationAngle: r * .pi / 180)) }
        let p: [Double]
        if let pp = t.position { p = value(pp, "p") } else if let x = t.positionX, let y = t.positionY { p = [value(x, "p.x")[0], value(y, "p.y")[0]] } else { p = [0, 0] }
        return m.concatenating(CGAffineTransform(translationX: p[0], y: p.count > 1 ? p[1] : 0))
    }

    /// A transform's matrix as a function of the frame, its properties' expressions applied
    /// (`path`: the transform's JSON path), and whether it changes.
    func matrix(_ t: LottieTransform, path: String) -> (value: (Double) -> CGAffineTransform, isAnimated: Bool) {
        var samplers: [String: (Double) -> [Double]] = [:]
        var animated = false
        let rotationKey = animation.expressions.contains(path + ".rz") || animation.loops[path + ".rz"] != nil ? "rz" : "r"
        let properties = [("a", t.anchor), ("s", t.scale), ("sk", t.skew), ("sa", t.skewAxis), ("r", t.rotation),
                          ("p", t.position), ("p.x", t.positionX), ("p.y", t.positionY)]
        for (key, p) in properties {
            guard let p else { continue }
            let s = sampler(p, path: path + "." + (key == "r" ? rotationKey : key))
            samplers[key] = s.value
            animated = animated || s.isAnimated
        }
        return ({ f in Self.matrix(t, at: f) { p, key in samplers[key]?(f) ?? p.value(at: f) } }, animated)
    }

    /// The plane of a 3D layer turned `x` degrees about its x axis, then `y` degrees about its y
    /// axis, as seen by an eye 1 024 points in front of it on the z axis: a projective map of
    /// the plane (m14 and m24 divide by the depth), so nested layers flatten it exactly.
    static func tilt(x: Double, y: Double) -> CATransform3D {
        let d = 1.0 / 1024
        let ax = x * .pi / 180, ay = y * .pi / 180
        var rotateX = CATransform3DIdentity
        rotateX.m22 = CGFloat(cos(ax)); rotateX.m24 = CGFloat(-sin(ax) * d)
        var rotateY = CATransform3DIdentity
        rotateY.m11 = CGFloat(cos(ay)); rotateY.m14 = CGFloat(-sin(ay) * d)
        return CATransform3DConcat(rotateX, rotateY)
    }

    /// Skew by `skew` degrees along the axis at `axis` degrees: rotate to the axis, shear, rotate back.
    static func skewMatrix(_ skew: Double, _ axis: Double) -> CGAffineTransform {
        let a = axis * .pi / 180, c = cos(a), s = sin(a)
        let toAxis = CGAffineTransform(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
        let shear = CGAffineTransform(a: 1, b: 0, c: tan(-skew * .pi / 180), d: 1, tx: 0, ty: 0)
        let back = CGAffineTransform(a: c, b: -s, c: s, d: c, tx: 0, ty: 0)
        return toAxis.concatenating(shear).concatenating(back)
    }
}

extension LottieAnimated where Value == [Double] {
    /// Whether dimension `d` (0: x) is other than 0 anywhere: its fixed value or any keyframe's.
    func hasNonZero(dimension d: Int) -> Bool {
        switch self {
        case .fixed(let v): v.count > d && v[d] != 0
        case .keyframes(let k): k.contains { $0.value.count > d && $0.value[d] != 0 }
        }
    }

    /// The same keyframes with values mapped (easing kept).
    func map(_ f: ([Double]) -> [Double]) -> LottieAnimated<[Double]> {
        switch self {
        case .fixed(let v): .fixed(f(v))
        case .keyframes(let k): .keyframes(k.map { var c = $0; c.value = f(c.value); return c })
        }
    }
}

extension LottieCompiler {
    /// One dimension of a vector property with that dimension's easing.
    func animate(_ layer: CALayer, _ key: String, _ p: LottieAnimated<[Double]>, dimension: Int, _ time: LottieTime, path: String,
                 _ convert: @escaping ([Double]) -> Any) throws {
        let q: LottieAnimated<[Double]>
        switch p {
        case .fixed: q = p
        case .keyframes(let k):
            q = .keyframes(k.map { kf in
                var c = kf
                if let e = kf.easing {
                    let (a, b, cc, d) = e.controlPoints(dimension)
                    c.easing = LottieEasing(outX: [a], outY: [b], inX: [cc], inY: [d])
                }
                return c
            })
        }
        try animate(layer, key, q, time, path: path, convert)
    }
}
