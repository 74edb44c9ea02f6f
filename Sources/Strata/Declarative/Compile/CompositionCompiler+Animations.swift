// Animations and timelines of a composition: a layer's own animations start at their delay;
// timeline steps start where their place in a chain, parallel, stagger, loop or marker puts them.
// The pending animations then become Core Animation animations per layer and key path, in the
// order they start (fill modes and missing start values as the file header of
// CompositionCompiler.swift says).
import Foundation
import StrataCore

extension CompositionCompiler {
    mutating func scheduleAnimations(of node: Node, layer: CALayer, path: String) {
        // A series' transitions start with the series; a section's contents with the section.
        let outerOffset = timeOffset
        defer { timeOffset = outerOffset }
        if node.type == .sections { scheduleSeries(layer) }
        if let start = sectionStarts[ObjectIdentifier(layer)] { timeOffset += start }
        for (i, spec) in node.animations.enumerated() {
            let start = spec.delay?.seconds(at: fps) ?? 0
            add(Pending(layer: layer, spec: spec, start: start, path: "\(path).animations[\(i)]", order: nextOrder()))
        }
        if !node.timeline.isEmpty {
            _ = scheduleChain(node.timeline, start: 0, owner: (layer, node), path: "\(path).timeline")
        }
        var children = Array(zip(node.children, layer.sublayers ?? []))
        if let m = node.mask.first, let ml = layer.mask { children.append((m, ml)) }
        for (i, (child, childLayer)) in children.enumerated() {
            let p = i < node.children.count ? "\(path).children[\(i)]" : "\(path).mask"
            scheduleAnimations(of: child, layer: childLayer, path: p)
        }
    }

    mutating func nextOrder() -> Int { order += 1; return order }

    mutating func add(_ p: Pending) {
        // A counter's `value` and a reveal's `revealed` animate a scratch layer (+TextDrivers).
        guard let p = routeTextDriverAnimation(p) else { return }
        // Inside a section, times count from the section's start.
        guard timeOffset != 0 else { pending.append(p); return }
        var moved = Pending(layer: p.layer, spec: p.spec, start: p.start + timeOffset, path: p.path, order: p.order)
        moved.isSet = p.isSet
        pending.append(moved)
    }

    /// Schedules steps one after another from `start`; returns their total length.
    mutating func scheduleChain(_ steps: [TimelineStep], start: Double, owner: (CALayer, Node)?, path: String) -> Double {
        var t = start
        for (i, step) in steps.enumerated() {
            t += schedule(step, start: t, owner: owner, path: "\(path)[\(i)]")
        }
        return t - start
    }

    mutating func target(_ id: String?, owner: (CALayer, Node)?, path: String) -> (CALayer, Node)? {
        if let id {
            guard let found = layersByID[id] else {
                issue("\(path).target", "no layer has the id \"\(id)\" (ids: \(layersByID.keys.sorted().joined(separator: ", ")))")
                return nil
            }
            return found
        }
        guard let owner else {
            issue("\(path).target", "a step of the scene's timeline needs a target (the id of a layer)")
            return nil
        }
        return owner
    }

    /// Counts one scheduled step; false once the composition has run `limits.timelineSteps`
    /// (reported once, at the step that went over).
    mutating func countStep(_ path: String) -> Bool {
        guard !stepsExhausted else { return false }
        stepCount += 1
        guard stepCount > limits.timelineSteps else { return true }
        stepsExhausted = true
        issue(path, limits.exceededMessage("the timelines run more steps (loops unrolled)", name: "timeline-steps"))
        return false
    }

    /// Whether `passes` more passes of a loop whose first pass ran `perPass` steps fit in the
    /// steps left; reports the loop at `path` when they do not. A loop is refused before it
    /// runs, not after a billion passes.
    mutating func loopFits(passes: Int, perPass: Int, total: Int?, path: String) -> Bool {
        let (needed, overflow) = perPass.multipliedReportingOverflow(by: passes)
        guard overflow || stepCount + needed > limits.timelineSteps else { return true }
        stepsExhausted = true
        let times = total.map { "\($0) times" } ?? "until the scene ends, \(passes) more times"
        let all = overflow ? "more than \(Int.max)" : "\(stepCount + needed)"
        issue(path, limits.exceededMessage("the loop runs \(times), \(perPass) step\(perPass == 1 ? "" : "s") a pass (\(all) timeline steps in all)",
                                           name: "timeline-steps"))
        return false
    }

    /// Schedules one step at `start`; returns its length.
    mutating func schedule(_ step: TimelineStep, start: Double, owner: (CALayer, Node)?, path: String) -> Double {
        guard countStep(path) else { return 0 }
        switch step {
        case .animate(let id, let spec):
            guard let (layer, _) = target(id, owner: owner, path: path) else { return 0 }
            let begin = start + (spec.delay?.seconds(at: fps) ?? 0)
            add(Pending(layer: layer, spec: spec, start: begin, path: path, order: nextOrder()))
            return begin - start + activeLength(spec, from: begin)
        case .set(let id, let properties):
            guard let (layer, _) = target(id, owner: owner, path: path) else { return 0 }
            for key in properties.keys.sorted() {
                var p = Pending(layer: layer, spec: AnimationSpec(property: key, to: properties[key], duration: .seconds(1e-6)),
                                start: start, path: "\(path).properties.\(key)", order: nextOrder())
                p.isSet = true
                add(p)
            }
            return 0
        case .transition(let id, let state, let d, let timing):
            guard let (layer, node) = target(id, owner: owner, path: path) else { return 0 }
            guard let values = node.states[state] else {
                issue("\(path).state", "the layer has no state \"\(state)\" (states: \(node.states.keys.sorted().joined(separator: ", ")))")
                return 0
            }
            let length = d.seconds(at: fps)
            for key in values.keys.sorted() {
                let spec = AnimationSpec(property: key, to: values[key], duration: d, timing: timing)
                add(Pending(layer: layer, spec: spec, start: start, path: "\(path).state.\(key)", order: nextOrder()))
            }
            return length
        case .chain(let steps):
            return scheduleChain(steps, start: start, owner: owner, path: "\(path).steps")
        case .parallel(let steps):
            var longest = 0.0
            for (i, s) in steps.enumerated() { longest = max(longest, schedule(s, start: start, owner: owner, path: "\(path).steps[\(i)]")) }
            return longest
        case .stagger(let interval, let steps):
            let gap = interval.seconds(at: fps)
            var end = 0.0
            for (i, s) in steps.enumerated() {
                let offset = gap * Double(i)
                end = max(end, offset + schedule(s, start: start + offset, owner: owner, path: "\(path).steps[\(i)]"))
            }
            return end
        case .wait(let d):
            return max(0, d.seconds(at: fps))
        case .loop(let count, let body):
            // The first pass tells how many steps a pass runs: the passes left must fit in the
            // steps left (`limits.timelineSteps`). A pass that runs no step changes nothing.
            if let count {
                // Iterations that start after the scene ends show nothing, and one that takes no
                // time repeats the one before it at the same time: neither is scheduled, so a count
                // of 1e9 costs only what the scene shows. The loop still takes count × length. The
                // passes that can start before the end must fit in the steps left.
                var t = start, done = 0, length = 0.0
                while done < count, t < duration {
                    let before = stepCount
                    length = scheduleChain(body, start: t, owner: owner, path: "\(path).steps")
                    done += 1
                    t += length
                    if stepsExhausted || length <= 0 { break }
                    if done == 1, t < duration, count > 1 {
                        let left = min(Double(count - 1), ((duration - t) / length).rounded(.up))
                        guard loopFits(passes: left < Double(Int.max / 2) ? Int(left) : Int.max / 2, perPass: stepCount - before,
                                       total: left < Double(count - 1) ? nil : count, path: path) else { break }
                    }
                }
                return t - start + Double(max(0, count - done)) * length
            }
            var t = start
            var pass = 0
            while t < duration {
                let before = stepCount
                let length = scheduleChain(body, start: t, owner: owner, path: "\(path).steps")
                if stepsExhausted { break }
                guard length > 0 else {
                    issue(path, "a loop that runs until the scene ends needs steps that take time")
                    break
                }
                t += length
                if pass == 0, t < duration {
                    let left = ((duration - t) / length).rounded(.up)
                    guard loopFits(passes: left < Double(Int.max / 2) ? Int(left) : Int.max / 2, perPass: stepCount - before,
                                   total: nil, path: path) else { break }
                }
                pass += 1
            }
            return max(0, duration - start)
        case .marker(let name):
            // Kept in scene time (a marker in a section is at the section's start plus start).
            markers[name] = start + timeOffset
            return 0
        case .at(let marker, let time, let steps):
            let begin: Double
            if let marker {
                guard let m = markers[marker] else {
                    issue("\(path).marker", "the marker \"\(marker)\" is not defined before this step (markers: \(markers.keys.sorted().joined(separator: ", ")))")
                    return 0
                }
                // Relative to the section being scheduled, as every time in it (add() adds
                // the section's start back).
                begin = m - timeOffset
            } else if let time {
                begin = time.seconds(at: fps)
            } else {
                issue(path, "an \"at\" step needs a marker or a time")
                return 0
            }
            _ = scheduleChain(steps, start: begin, owner: owner, path: "\(path).steps")
            return 0
        }
    }

    /// How long an animation runs from `start` (all its cycles; forever: to the scene's end).
    func activeLength(_ spec: AnimationSpec, from start: Double) -> Double {
        var cycle = spec.timing.flatMap(springSettling) ?? spec.duration.seconds(at: fps)
        if spec.autoreverses == true { cycle *= 2 }
        let count = spec.repeatCount ?? 1
        if count.isInfinite { return max(0, duration - start) }
        return cycle * max(count, 1)
    }

    func springSettling(_ timing: TimingCurve) -> Double? {
        switch timing {
        case .spring(let d, let b):
            return CASpringAnimation(perceptualDuration: d, bounce: CGFloat(b)).settlingDuration
        case .physicalSpring(let m, let s, let d, let v):
            let a = CASpringAnimation()
            a.mass = CGFloat(m); a.stiffness = CGFloat(s); a.damping = CGFloat(d); a.initialVelocity = CGFloat(v)
            return a.settlingDuration
        default:
            return nil
        }
    }

    /// Makes the pending animations, per layer and key path in the order they start.
    mutating func finishAnimations() {
        var groups: [String: [Pending]] = [:]
        var groupOrder: [String] = []
        for p in pending {
            let key = "\(ObjectIdentifier(p.layer).hashValue)|\(p.spec.property)"
            if groups[key] == nil { groupOrder.append(key) }
            groups[key, default: []].append(p)
        }
        var serial = 0
        for key in groupOrder {
            let list = groups[key]!.sorted { $0.start != $1.start ? $0.start < $1.start : $0.order < $1.order }
            guard let first = list.first else { continue }
            guard let kind = first.layer.animatableKind(forKeyPath: first.spec.property),
                  var tracked = first.layer.animatableValue(forKeyPath: first.spec.property) else {
                for p in list {
                    issue("\(p.path).property", "\"\(p.spec.property)\" is not an animatable property of \(type(of: p.layer))")
                }
                continue
            }
            for (i, p) in list.enumerated() {
                do {
                    let (animation, end) = try makeAnimation(p, kind: kind, current: tracked)
                    animation.beginTime = p.start
                    animation.fillMode = i == 0 && p.spec.additive != true && !p.isSet ? .both : .forwards
                    animation.isRemovedOnCompletion = false
                    serial += 1
                    p.layer.add(animation, forKey: "strata.\(serial)")
                    tracked = end
                } catch let m as PropertyDecoding.Mismatch {
                    issue(p.path, m.expected)
                } catch {
                    issue(p.path, "\(error)")
                }
            }
        }
    }

    func value(_ v: PropertyValue, _ kind: AnimatableValue.Kind, _ field: String) throws -> AnimatableValue {
        do { return try PropertyDecoding.animatable(v, kind: kind) } catch let m as PropertyDecoding.Mismatch {
            throw PropertyDecoding.Mismatch(expected: "\(field): expected \(m.expected), got \(v)")
        }
    }

    /// The Core Animation animation of a pending one, and the value it leaves the property at.
    func makeAnimation(_ p: Pending, kind: AnimatableValue.Kind, current: AnimatableValue) throws -> (CAAnimation, AnimatableValue) {
        let spec = p.spec
        let seconds = spec.duration.seconds(at: fps)
        guard seconds > 0, seconds.isFinite else { throw PropertyDecoding.Mismatch(expected: "duration: expected a length > 0, got \(seconds) s") }
        let timing = try spec.timing.flatMap(timingFunction)
        // Of the properties whose values do not interpolate, only a text layer's `string` is
        // animated (discretely) by the model.
        guard kind != .discrete || (spec.property == "string" && p.layer is CATextLayer) else {
            throw PropertyDecoding.Mismatch(expected: "\"\(spec.property)\" cannot be animated (set it on the layer instead)")
        }
        var end: AnimatableValue
        let animation: CAPropertyAnimation
        if let values = spec.values {
            guard !values.isEmpty else { throw PropertyDecoding.Mismatch(expected: "values: expected at least one value") }
            let converted = try values.enumerated().map { try value($1, kind, "values[\($0)]") }
            let k = CAKeyframeAnimation(keyPath: spec.property)
            k.values = converted.map { $0.anyValue as Any }
            if let times = spec.keyTimes {
                guard times.count == values.count, times.allSatisfy({ $0 >= 0 && $0 <= 1 }), zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                    throw PropertyDecoding.Mismatch(expected: "keyTimes: expected \(values.count) ascending times in 0…1, got \(times)")
                }
                k.keyTimes = times.map { NSNumber(value: $0) }
            }
            k.timingFunction = timing
            // Values that cannot be interpolated (a text layer's `string`) each hold until the next.
            if kind == .discrete { k.calculationMode = .discrete }
            end = spec.autoreverses == true ? converted[0] : converted[converted.count - 1]
            animation = k
            k.duration = seconds
        } else {
            let to = try spec.to.map { try value($0, kind, "to") }
            let by = try spec.by.map { try value($0, kind, "by") }
            var from = try spec.from.map { try value($0, kind, "from") }
            if from == nil, let to, let by { from = AnimatableValue.subtract(to, by) }
            let start = from ?? current
            let target = to ?? by.flatMap { AnimatableValue.add(start, $0) } ?? current
            if p.isSet {
                let b = CABasicAnimation(keyPath: spec.property)
                b.fromValue = target.anyValue
                b.toValue = target.anyValue
                b.duration = seconds
                return (b, target)
            }
            let basic: CABasicAnimation
            if let spring = spec.timing, spring.isSpring {
                let s: CASpringAnimation
                switch spring {
                case .spring(let d, let bounce):
                    s = CASpringAnimation(perceptualDuration: d, bounce: CGFloat(bounce))
                    s.keyPath = spec.property
                case .physicalSpring(let m, let st, let d, let v):
                    s = CASpringAnimation(keyPath: spec.property)
                    s.mass = CGFloat(m); s.stiffness = CGFloat(st); s.damping = CGFloat(d); s.initialVelocity = CGFloat(v)
                default:
                    s = CASpringAnimation(keyPath: spec.property)
                }
                s.duration = s.settlingDuration
                basic = s
            } else {
                basic = CABasicAnimation(keyPath: spec.property)
                basic.duration = seconds
                basic.timingFunction = timing
            }
            basic.fromValue = start.anyValue
            basic.toValue = target.anyValue
            end = spec.autoreverses == true ? start : target
            animation = basic
        }
        if let r = spec.repeatCount { animation.repeatCount = Float(r) }
        if spec.autoreverses == true { animation.autoreverses = true }
        if spec.additive == true {
            animation.isAdditive = true
            end = current
        }
        return (animation, end)
    }

    /// Core Animation's timing function for a curve (springs are made as CASpringAnimation).
    func timingFunction(_ curve: TimingCurve) throws -> CAMediaTimingFunction? {
        switch curve {
        case .named(let name):
            let names = CAMediaTimingFunctionName.allNames
            guard names.contains(CAMediaTimingFunctionName(rawValue: name)) else {
                throw PropertyDecoding.Mismatch(expected: "timing: unknown curve \"\(name)\" (expected \(names.map(\.rawValue).joined(separator: ", ")), steps(n) or a spring)")
            }
            return CAMediaTimingFunction(name: CAMediaTimingFunctionName(rawValue: name))
        case .bezier(let a, let b, let c, let d):
            guard [a, b, c, d].allSatisfy(\.isFinite) else { throw PropertyDecoding.Mismatch(expected: "timing: bezier control points must be finite") }
            return CAMediaTimingFunction(controlPoints: Float(a), Float(b), Float(c), Float(d))
        case .steps(let n):
            guard n >= 1 else { throw PropertyDecoding.Mismatch(expected: "timing: steps needs at least 1 step, got \(n)") }
            return CAMediaTimingFunction.steps(n, .jumpEnd)
        case .spring, .physicalSpring:
            return nil
        }
    }
}
