// Sections that follow each other with transitions (a `sections` node and its `section`
// children), compiled to ordinary Core Animation animations — no drawing of its own:
//
// - Times. Section i starts where the one before it ends minus the transition into section i
//   (Remotion's TransitionSeries): start(0) = 0, start(i) = start(i−1) + duration(i−1) − d(i).
//   The series lasts Σ durations − Σ transitions. A section is hidden (`isHidden`) outside
//   [start, start + duration) by one `hidden` animation; what is inside a section (its own
//   animations and timelines) counts time from the section's start.
// - Transitions animate the two section layers during the overlap [start(i), start(i) + d(i)),
//   with the transition's timing function and fill mode `removed`, so at rest every section is
//   untouched (position at the centre, opacity 1, identity transform, mask uncovering all).
//   Every length is a fraction of the series' bounds, so a re-layout at another size keeps them.
//     fade        the new section's opacity 0 → 1 (over the old one)
//     moveIn      the new section's position from one side to the centre
//     push        both move: the old one out, the new one in (the same offsets as the renderer's
//                 CATransition push, CORE_ANIMATION.md: `fromLeft` enters from the left)
//     reveal      the old section moves out on top (zPosition) of the new one
//     slide       the new one moves in; the old one a third of the way out
//     wipe        the new section's mask (a plain layer) moves in from the side
//     radialWipe  the new section's mask (a disc) scales 0 → 1 about `center`
//     clockWipe   the new section's mask (a conic gradient about the centre, opaque then clear
//                 with a hard stop) has locations [0, p, p, 1]: clockwise from 12 o'clock
//     iris        the new section's mask (a ring about the centre) widens from nothing, so the
//                 old section shows through a hole of radius R·(1 − p) that closes
//     zoom        the old section, on top, scales 1 → 2 and fades out; the new one scales 0.5 → 1
//     blurDissolve a cross-fade while both are drawn rasterized at a scale going 1 → 1/4 → 1/12 → 1/4 → 1
//                 (and grown by the texel a blurred edge spreads over, × 1 + 2.4 / (scale × shorter side))
//     flip        both turn by 180° about the centre (transform.rotation.y or .x), back faces
//                 hidden (doubleSided false), under the series' perspective
//     cube        both turn by 90° about an axis half a side behind them (anchorPointZ), under
//                 the series' perspective
import Foundation
import StrataCore

/// Names of the section keys the series reads.
enum SectionSeries {
    /// The properties of a section that are its series' (not the layer's).
    static let sectionKeys: Set<String> = ["duration", "transition"]
    /// The smallest rasterization scale a blur-dissolve reaches (1/12: a soft blur).
    static let blurScale: CGFloat = 1.0 / 12
    /// How far the old section moves in a slide (a third of the way).
    static let slideParallax: Double = 1.0 / 3
}

/// Where a section of a series starts (relative to the series), how long it is shown, and
/// the transition into it (nil: a cut, or the first section).
struct SectionTiming {
    let start: Double
    let duration: Double
    let overlap: Double
    let transition: SectionTransition?
}

/// An animation of a series, with its begin time relative to the series' start.
struct SeriesAnimation {
    let layer: CALayer
    let animation: CAAnimation
}

extension CompositionCompiler {
    /// The times of a series' sections (and the problems with them, by path): where each
    /// starts relative to the series, how long it is shown, and the transition into it.
    func seriesTiming(_ node: Node, path: String) -> (sections: [SectionTiming], issues: [CompositionIssue]) {
        var out: [SectionTiming] = []
        var issues: [CompositionIssue] = []
        func issue(_ p: String, _ m: String) { issues.append(CompositionIssue(path: p, message: m)) }
        var previous: SectionTiming?
        for (i, child) in node.children.enumerated() {
            let p = "\(path).children[\(i)]"
            guard child.type == .section else {
                issue("\(p).type", "a sections layer holds section layers, got a \(child.type.rawValue) layer (put it in a section)")
                out.append(SectionTiming(start: 0, duration: 0, overlap: 0, transition: nil))
                continue
            }
            var duration = 0.0
            if let v = child.properties["duration"] {
                do { duration = try PropertyDecoding.time(v, fps: fps) } catch {
                    issue("\(p).duration", "expected a length of time (seconds, \"12f\"), got \(v)")
                }
                if !(duration > 0 && duration.isFinite) { issue("\(p).duration", "expected a length of time > 0, got \(v)"); duration = 0 }
            } else {
                issue("\(p).duration", "a section needs a duration (how long it is shown, transitions included)")
            }
            var transition: SectionTransition?
            if let v = child.properties["transition"] {
                do { transition = try SectionTransition.decode(v) } catch let m as PropertyDecoding.Mismatch {
                    issue("\(p).transition", m.expected)
                } catch {
                    issue("\(p).transition", "\(error)")
                }
            }
            var start = 0.0, overlap = 0.0
            if let prev = previous {
                if let t = transition {
                    overlap = t.duration.seconds(at: fps)
                    if !(overlap > 0 && overlap.isFinite) {
                        issue("\(p).transition.duration", "expected a length of time > 0, got \(overlap) s"); overlap = 0
                    } else if overlap > duration || overlap + prev.overlap > prev.duration {
                        let room = min(duration, prev.duration - prev.overlap)
                        issue("\(p).transition.duration", "the transition (\(Self.seconds(overlap))) is longer than the sections it overlaps allow (at most \(Self.seconds(max(0, room))): a transition overlaps the end of the section before and the start of this one, and may not overlap another transition)")
                        overlap = 0
                    }
                }
                start = prev.start + prev.duration - overlap
            } else if transition != nil {
                issue("\(p).transition", "the first section has no section before it to replace (give the transition to the second)")
                transition = nil
            }
            let timing = SectionTiming(start: start, duration: duration, overlap: overlap, transition: overlap > 0 ? transition : nil)
            out.append(timing)
            previous = timing
        }
        return (out, issues)
    }

    /// Times the sections of a series, hides each outside its time, and makes the transitions'
    /// animations (kept until the series' start time is known, `scheduleSeries`).
    mutating func compileSections(_ node: Node, layer: CALayer, children: [(Node, CALayer, String)], path: String) {
        layer.masksToBounds = true
        let size = layer.bounds.size
        let (timings, problems) = seriesTiming(node, path: path)
        issues += problems
        var animations: [SeriesAnimation] = []
        var blocks: [(Double, () -> Void)] = []
        var previousLayer: CALayer?
        for ((child, section, p), timing) in zip(children, timings) where child.type == .section {
            // Sections take the scene's background unless they have their own, so a fade mixes
            // two opaque pictures (as Core Animation's fade transition does).
            if child.properties["backgroundColor"] == nil, let bg = composition.background, let c = try? PropertyDecoding.color(bg) {
                section.backgroundColor = c.cgColor
            }
            if let t = timing.transition, let a = previousLayer {
                do {
                    animations += try transitionAnimations(t, from: a, to: section, size: size, begin: timing.start,
                                                           duration: timing.overlap, blocks: &blocks)
                } catch let m as PropertyDecoding.Mismatch {
                    issue("\(p).transition", m.expected)
                } catch {
                    issue("\(p).transition", "\(error)")
                }
            }
            // Shown from its start for its duration; hidden before and after.
            section.isHidden = true
            if timing.duration > 0 {
                let shown = CABasicAnimation(keyPath: "hidden")
                shown.fromValue = false; shown.toValue = false
                animations.append(SeriesAnimation(layer: section, animation: timed(shown, begin: timing.start, duration: timing.duration)))
            }
            sectionStarts[ObjectIdentifier(section)] = timing.start
            previousLayer = section
        }
        seriesAnimations[ObjectIdentifier(layer)] = (animations, blocks)
    }

    /// Adds a series' animations and changes once the series' start in scene time is known
    /// (`timeOffset`: a series inside a section starts with that section).
    mutating func scheduleSeries(_ layer: CALayer) {
        guard let (animations, changes) = seriesAnimations[ObjectIdentifier(layer)] else { return }
        for a in animations {
            a.animation.beginTime += timeOffset
            a.layer.add(a.animation, forKey: "strata.section.\(nextOrder())")
        }
        for (t, change) in changes { blocks.append((t + timeOffset, change)) }
    }

    static func seconds(_ s: Double) -> String { "\(PropertyValue.number((s * 1000).rounded() / 1000)) s" }

    /// An animation running from `begin` for `duration`, untouched outside it.
    func timed(_ a: CAAnimation, begin: Double, duration: Double, timing: CAMediaTimingFunction? = nil) -> CAAnimation {
        a.beginTime = begin
        a.duration = duration
        a.fillMode = .removed
        a.isRemovedOnCompletion = false
        if let timing { a.timingFunction = timing }
        return a
    }

    /// The animations of one transition from `a` (the section before) to `b`.
    func transitionAnimations(_ t: SectionTransition, from a: CALayer, to b: CALayer, size: CGSize, begin: Double,
                              duration: Double, blocks: inout [(Double, () -> Void)]) throws -> [SeriesAnimation] {
        let curve = t.timing ?? .easeInOut
        if curve.isSpring { throw PropertyDecoding.Mismatch(expected: "timing: a transition takes a timing curve, not a spring") }
        let tf = try timingFunction(curve)
        let W = Double(size.width), H = Double(size.height)
        let c = CGPoint(x: W / 2, y: H / 2)
        let dir = t.direction ?? .fromRight
        let u = dir.travel
        func point(_ f: Double) -> CGPoint { CGPoint(x: c.x + CGFloat(u.x * W * f), y: c.y + CGFloat(u.y * H * f)) }
        var out: [SeriesAnimation] = []
        func anim(_ layer: CALayer, _ keyPath: String, _ from: Any, _ to: Any) {
            let x = CABasicAnimation(keyPath: keyPath)
            x.fromValue = from; x.toValue = to
            out.append(SeriesAnimation(layer: layer, animation: timed(x, begin: begin, duration: duration, timing: tf)))
        }
        func onTop(_ layer: CALayer) { anim(layer, "zPosition", CGFloat(0.01), CGFloat(0.01)) }
        func setMask(_ m: CALayer) throws {
            guard b.mask == nil else {
                throw PropertyDecoding.Mismatch(expected: "a \(t.type.rawValue) transition masks the section it brings in, which has a mask of its own")
            }
            b.mask = m
        }
        // The half-diagonal: a circle about the centre this large covers the section.
        let halfDiagonal = (W * W + H * H).squareRoot() / 2
        switch t.type {
        case .fade:
            anim(b, "opacity", CGFloat(0), CGFloat(1))
        case .moveIn:
            anim(b, "position", point(-1), c)
        case .push:
            anim(a, "position", c, point(1))
            anim(b, "position", point(-1), c)
        case .reveal:
            onTop(a)
            anim(a, "position", c, point(1))
        case .slide:
            anim(a, "position", c, point(SectionSeries.slideParallax))
            anim(b, "position", point(-1), c)
        case .wipe:
            let m = CALayer()
            m.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            m.frame = CGRect(origin: .zero, size: size)
            try setMask(m)
            anim(m, "position", point(-1), c)
        case .radialWipe:
            let k = t.center ?? [0.5, 0.5]
            guard k.count == 2, k.allSatisfy(\.isFinite) else {
                throw PropertyDecoding.Mismatch(expected: "center: expected a unit point [x, y], got \(PropertyValue.array(k.map { .number($0) }))")
            }
            let o = CGPoint(x: k[0] * W, y: k[1] * H)
            // The farthest corner from the centre decides the radius that covers everything.
            let r = [(0.0, 0.0), (W, 0), (0, H), (W, H)].map { hypot($0.0 - Double(o.x), $0.1 - Double(o.y)) }.max()! + 1
            let m = CAShapeLayer()
            m.bounds = CGRect(x: 0, y: 0, width: 2 * r, height: 2 * r)
            m.position = o
            m.path = CGPath(ellipseIn: m.bounds, transform: nil)
            m.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            try setMask(m)
            anim(m, "transform.scale", CGFloat(0), CGFloat(1))
        case .clockWipe:
            // A conic gradient about the centre, from 12 o'clock clockwise: opaque up to the
            // progress, clear after it (a hard stop), so the hand is exactly at 360° × p.
            let m = CAGradientLayer()
            m.frame = CGRect(origin: .zero, size: size)
            m.type = .conic
            m.startPoint = CGPoint(x: 0.5, y: 0.5)
            m.endPoint = CGPoint(x: 0.5, y: 0)
            let opaque = CGColor(red: 0, green: 0, blue: 0, alpha: 1), clear = CGColor(red: 0, green: 0, blue: 0, alpha: 0)
            m.colors = [opaque, opaque, clear, clear]
            m.locations = [0, 1, 1, 1].map { NSNumber(value: $0) }
            try setMask(m)
            anim(m, "locations", [0, 0, 0, 1].map { NSNumber(value: $0) }, [0, 1, 1, 1].map { NSNumber(value: $0) })
        case .iris:
            let r = halfDiagonal + 1
            let m = CAShapeLayer()
            m.frame = CGRect(origin: .zero, size: size)
            m.path = CGPath(ellipseIn: CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r), transform: nil)
            m.fillColor = nil
            m.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            // At rest the ring is wider than the circle's diameter: no hole.
            m.lineWidth = 2 * r + 4
            try setMask(m)
            anim(m, "lineWidth", CGFloat(0), CGFloat(2 * r))
        case .zoom:
            onTop(a)
            anim(a, "transform.scale", CGFloat(1), CGFloat(2))
            anim(a, "opacity", CGFloat(1), CGFloat(0))
            anim(b, "transform.scale", CGFloat(0.5), CGFloat(1))
        case .blurDissolve:
            anim(b, "opacity", CGFloat(0), CGFloat(1))
            // Soft early, softest half-way, sharp again at the end.
            let scales: [CGFloat] = [1, 0.25, SectionSeries.blurScale, 0.25, 1]
            let times = [0, 0.2, 0.5, 0.8, 1].map { NSNumber(value: $0) }
            // A bitmap drawn at scale r fades out across its last texel (1 / r points, the last
            // one partly empty when the size is not a whole number of texels) where it meets
            // the transparent outside: the sections grow just enough to keep that fringe outside
            // the series' bounds.
            let shorter = max(1, min(W, H))
            let growth = scales.enumerated().map { i, r in i == 0 || i == scales.count - 1 ? CGFloat(1) : 1 + 2.4 / (r * CGFloat(shorter)) }
            for layer in [a, b] {
                let k = CAKeyframeAnimation(keyPath: "rasterizationScale")
                k.values = scales
                k.keyTimes = times
                out.append(SeriesAnimation(layer: layer, animation: timed(k, begin: begin, duration: duration, timing: tf)))
                let g = CAKeyframeAnimation(keyPath: "transform.scale")
                g.values = growth
                g.keyTimes = times
                out.append(SeriesAnimation(layer: layer, animation: timed(g, begin: begin, duration: duration, timing: tf)))
            }
            // Drawn rasterized only while the transition runs (a change at its start and end).
            blocks.append((begin, { a.shouldRasterize = true; b.shouldRasterize = true }))
            blocks.append((begin + duration, { a.shouldRasterize = false; b.shouldRasterize = false }))
        case .flip, .cube:
            let horizontal = dir == .fromLeft || dir == .fromRight
            let key = horizontal ? "transform.rotation.y" : "transform.rotation.x"
            // The edge on the `direction` side comes towards the viewer first (UIKit's
            // flipFromRight turns the right edge forwards); a cube brings its face from there.
            let sign: Double = switch dir {
            case .fromRight, .fromTop: -1
            case .fromLeft, .fromBottom: 1
            }
            var perspective = CATransform3DIdentity
            let distance = (t.perspective ?? 2) * max(W, H)
            guard distance.isFinite, distance > 0 else {
                throw PropertyDecoding.Mismatch(expected: "perspective: expected a distance > 0 (a multiple of the larger side), got \(PropertyValue.number(t.perspective ?? 0))")
            }
            perspective.m34 = CGFloat(-1 / distance)
            if let series = a.superlayer { anim(series, "sublayerTransform", perspective, perspective) }
            if t.type == .flip {
                a.isDoubleSided = false; b.isDoubleSided = false
                anim(a, key, CGFloat(0), CGFloat(sign * .pi))
                anim(b, key, CGFloat(-sign * .pi), CGFloat(0))
            } else {
                let depth = CGFloat(horizontal ? W : H) / 2
                for layer in [a, b] {
                    anim(layer, "anchorPointZ", -depth, -depth)
                    anim(layer, "zPosition", -depth, -depth)
                }
                anim(a, key, CGFloat(0), CGFloat(sign * .pi / 2))
                anim(b, key, CGFloat(-sign * .pi / 2), CGFloat(0))
            }
        }
        return out
    }
}
