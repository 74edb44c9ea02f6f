// PresentationBuilder.snapshotTree snapshots a layer of Strata's own classes whose animations
// only move it (transform, position, anchor point, z position, sublayer transform, opacity,
// hidden, shadow) or change a shape's path, fill and stroke or a text's string from its model,
// with the animated values applied to the snapshot, without a presentation copy. Its snapshot must be the full presentation tree's:
// checked at times before, during, between repeats of and after animations of every kind on
// those keys — basic from/to/by, field key paths, keyframes linear, discrete (key times with a
// repeat), along a path with rotateAuto, groups, two animations on one key, cumulative repeats,
// a spring — on layers with sublayers and masks, and with an animation of another key mixed in
// (which makes a copy).
import Foundation
import XCTest
@testable import StrataCore

final class AnimatedSnapshotWithoutCopiesTests: XCTestCase {
    private func basic(_ keyPath: String, from: Any? = nil, to: Any? = nil, by: Any? = nil, duration: Double = 1) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: keyPath)
        a.fromValue = from; a.toValue = to; a.byValue = by; a.duration = duration
        return a
    }

    private func path(_ k: Double) -> CGPath {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 10, y: 10 + k))
        p.addCurve(to: CGPoint(x: 200, y: 90), control1: CGPoint(x: 60 + k, y: 0), control2: CGPoint(x: 140, y: 120 - k))
        return p
    }

    /// The layers, each of a class and with animations that take the path without a copy, and
    /// one that does not.
    private func tree() -> (root: CALayer, withoutCopies: [CALayer], withCopies: [CALayer]) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        var without: [CALayer] = []

        // A gradient spinning on top of a turned transform, with a plain sublayer and a mask.
        let spinner = CAGradientLayer()
        spinner.frame = CGRect(x: 20, y: 20, width: 120, height: 80)
        spinner.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 0.8), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        spinner.transform = CATransform3DScale(CATransform3DMakeRotation(0.3, 0, 0, 1), 1.5, 0.5, 1)
        spinner.add(basic("transform.rotation.z", from: 0.2, to: 4), forKey: "spin")
        spinner.add(basic("opacity", from: 1, to: 0.2, duration: 2), forKey: "fade")
        let inner = CALayer()
        inner.frame = CGRect(x: 5, y: 5, width: 20, height: 20)
        inner.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        spinner.addSublayer(inner)
        let mask = CAShapeLayer()
        mask.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 70), transform: nil)
        spinner.mask = mask
        root.addSublayer(spinner)
        without.append(spinner)

        // A plain layer: position along a path turning with it, a repeated cumulative move of
        // position.x, a spring on the anchor point, z position by a value, a group on the
        // sublayer transform and the transform's scale.
        let mover = CALayer()
        mover.frame = CGRect(x: 200, y: 40, width: 40, height: 30)
        mover.backgroundColor = CGColor(red: 0.2, green: 0.3, blue: 0.9, alpha: 1)
        let fly = CAKeyframeAnimation(keyPath: "position")
        fly.path = path(0); fly.rotationMode = .rotateAuto; fly.calculationMode = .paced; fly.duration = 1.5
        mover.add(fly, forKey: "fly")
        let step = basic("position.x", by: 30, duration: 0.4)
        step.isCumulative = true; step.repeatCount = 3
        mover.add(step, forKey: "step")
        let spring = CASpringAnimation(keyPath: "anchorPoint")
        spring.fromValue = CGPoint(x: 0, y: 0); spring.toValue = CGPoint(x: 0.5, y: 0.5); spring.duration = 1
        mover.add(spring, forKey: "spring")
        mover.add(basic("zPosition", by: 3), forKey: "z")
        let group = CAAnimationGroup()
        group.animations = [basic("sublayerTransform.rotation.z", from: 0, to: 1), basic("transform.scale", from: 0.5, to: 1.5)]
        group.duration = 1.2; group.autoreverses = true
        mover.add(group, forKey: "group")
        let child = CALayer()
        child.frame = CGRect(x: 2, y: 2, width: 10, height: 10)
        child.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        mover.addSublayer(child)
        root.addSublayer(mover)
        without.append(mover)

        // A shape whose path steps through values (a key time repeated) and then moves linearly.
        let wobble = CAShapeLayer()
        wobble.frame = CGRect(x: 0, y: 120, width: 300, height: 150)
        wobble.fillColor = nil; wobble.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1); wobble.lineWidth = 3
        let steps = CAKeyframeAnimation(keyPath: "path")
        steps.values = [path(0), path(10), path(20), path(30)]
        steps.keyTimes = [0, 0.25, 0.25, 0.7, 1]
        steps.calculationMode = .discrete; steps.duration = 1
        wobble.add(steps, forKey: "steps")
        let glide = CAKeyframeAnimation(keyPath: "path")
        glide.values = [path(0), path(40)]
        glide.beginTime = 1.5; glide.duration = 1
        wobble.add(glide, forKey: "glide")
        wobble.add(basic("position.y", from: 180, to: 200), forKey: "drift")
        root.addSublayer(wobble)
        without.append(wobble)

        // A text whose string and x change in a group, two animations on its position.
        let ticker = CATextLayer()
        ticker.bounds = CGRect(x: 0, y: 0, width: 300, height: 30)
        ticker.anchorPoint = .zero
        ticker.position = CGPoint(x: 20, y: 260)
        ticker.fontSize = 16
        ticker.string = "model"
        let text = CAKeyframeAnimation(keyPath: "string")
        text.values = ["one", "two", NSAttributedString(string: "three")]
        text.calculationMode = .discrete
        let x = CAKeyframeAnimation(keyPath: "position.x")
        x.values = [20, 60, 30]
        let ticks = CAAnimationGroup()
        ticks.animations = [text, x]
        ticks.duration = 1.5
        ticker.add(ticks, forKey: "ticks")
        ticker.add(basic("position", to: CGPoint(x: 100, y: 200), duration: 2), forKey: "slide")
        root.addSublayer(ticker)
        without.append(ticker)

        // A shape whose stroke is drawn on, its width and colours changing (held keyframes for
        // the fill, as a Lottie's hold keyframes compile), two animations on the stroke end, shown
        // only between two times (a discrete `hidden`), its shadow growing.
        let drawn = CAShapeLayer()
        drawn.frame = CGRect(x: 250, y: 150, width: 100, height: 100)
        drawn.path = path(5)
        drawn.strokeColor = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)
        drawn.shadowOpacity = 0.5
        drawn.lineDashPattern = [4, 2]
        drawn.add(basic("strokeEnd", from: 0, to: 1), forKey: "draw")
        drawn.add(basic("strokeEnd", from: 0.5, to: 0.9), forKey: "redraw")
        drawn.add(basic("strokeStart", by: 0.3), forKey: "trim")
        drawn.add(basic("transform.rotation.z", from: 0, to: 1), forKey: "turn")
        let width = CAKeyframeAnimation(keyPath: "lineWidth")
        width.values = [1, 6, 2]; width.keyTimes = [0, 0.3, 1]; width.duration = 1.4
        width.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(controlPoints: 0.3, 0, 0.2, 1)]
        drawn.add(width, forKey: "width")
        let fill = CAKeyframeAnimation(keyPath: "fillColor")
        fill.values = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 0.5), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        fill.keyTimes = [0, 0.4, 0.9, 1]; fill.calculationMode = .discrete; fill.duration = 2
        drawn.add(fill, forKey: "fill")
        drawn.add(basic("strokeColor", to: CGColor(red: 1, green: 1, blue: 0, alpha: 0.7), duration: 1.6), forKey: "stroke")
        drawn.add(basic("lineDashPhase", from: 0, to: 12), forKey: "dash")
        drawn.add(basic("miterLimit", from: 1, to: 4), forKey: "miter")
        drawn.add(basic("lineDashPattern", from: [4, 2] as [NSNumber], to: [8, 6] as [NSNumber]), forKey: "dashes")
        let shown = CAKeyframeAnimation(keyPath: "hidden")
        shown.values = [true, false, true]; shown.keyTimes = [0, 0.1, 0.75, 1]; shown.calculationMode = .discrete
        shown.duration = 2; shown.fillMode = .both; shown.beginTime = 0.1
        drawn.add(shown, forKey: "shown")
        drawn.add(basic("shadowRadius", from: 0, to: 8), forKey: "blur")
        drawn.add(basic("shadowOpacity", from: 0.2, to: 1), forKey: "shade")
        drawn.add(basic("shadowOffset", to: CGSize(width: 4, height: 6), duration: 1.2), forKey: "offset")
        root.addSublayer(drawn)
        without.append(drawn)

        // A track matte (MatteLayer) as a mask, its own opacity animated.
        let matted = CALayer()
        matted.frame = CGRect(x: 300, y: 10, width: 80, height: 80)
        matted.backgroundColor = CGColor(red: 0.9, green: 0.5, blue: 0.1, alpha: 1)
        let matte = MatteLayer()
        matte.maskMode = .luminanceInverted
        matte.frame = matted.bounds
        matte.backgroundColor = CGColor(red: 0.6, green: 0.6, blue: 0.6, alpha: 1)
        matte.add(basic("opacity", from: 0, to: 1), forKey: "fade")
        matted.mask = matte
        matted.add(basic("position.y", from: 50, to: 80), forKey: "drop")
        root.addSublayer(matted)
        without.append(matted)

        // A shape whose background colour animates: not one of those keys, so it gets a copy.
        let tinted = CAShapeLayer()
        tinted.frame = CGRect(x: 10, y: 200, width: 50, height: 50)
        tinted.path = path(2)
        tinted.add(basic("backgroundColor", to: CGColor(red: 0, green: 0.5, blue: 0.5, alpha: 1)), forKey: "tint")
        tinted.add(basic("lineWidth", from: 1, to: 3), forKey: "width")
        root.addSublayer(tinted)
        return (root, without, [tinted])
    }

    func testAnimatedLayersAreSnapshottedAsTheirPresentationCopies() {
        let (root, without, with) = tree()
        for layer in without {
            XCTAssertTrue(PresentationBuilder.animatesGeometryOnly(layer), "\(layer) takes the path without a copy")
        }
        for layer in with { XCTAssertFalse(PresentationBuilder.animatesGeometryOnly(layer)) }
        for t in [0.0, 0.1, 0.25, 0.3, 0.55, 0.7, 0.75, 1.0, 1.19, 1.3, 1.5, 1.8, 2.2, 3.0] {
            let builder = PresentationBuilder(time: t)
            XCTAssertEqual(builder.snapshotTree(of: root), builder.presentationTree(of: root).makeSnapshot(), "at \(t) s")
        }
    }

    func testTheAnimatedValuesReachTheSnapshot() {
        // Not only equal to the copies' snapshot: the animations are seen (a snapshot of the
        // model values would fail here).
        let (root, without, _) = tree()
        let snapshot = PresentationBuilder(time: 0.5).snapshotTree(of: root)
        let model = root.makeSnapshot()
        for i in without.indices {
            XCTAssertNotEqual(snapshot.sublayers[i], model.sublayers[i], "layer \(i) is animated at 0.5 s")
        }
        // The discrete path: value 2 from key time 0.25 (the repeated one) to 0.7.
        guard case .shape(let shape) = snapshot.sublayers[2].content else { return XCTFail("a shape") }
        XCTAssertEqual(shape.path, path(20))
        guard case .text(let text) = snapshot.sublayers[3].content else { return XCTFail("a text") }
        XCTAssertEqual(text.runs.map(\.text).joined(), "two")
        // The drawn shape at 0.5 s: the fill held at its first value (key time 0.4 is at 0.8 s),
        // the later stroke-end animation's value (0.5 + 0.4 · 0.5), the start trimmed by 0.3 · 0.5,
        // shown from key time 0.1 (0.2 + 0.1 s) on, the shadow half grown.
        let drawn = snapshot.sublayers[4]
        guard case .shape(let shape) = drawn.content else { return XCTFail("a shape") }
        XCTAssertEqual(shape.fillColor, RGBA(CGColor(red: 1, green: 0, blue: 0, alpha: 1)))
        XCTAssertEqual(Double(shape.strokeEnd), 0.7, accuracy: 1e-12)
        XCTAssertEqual(Double(shape.strokeStart), 0.15, accuracy: 1e-12)
        XCTAssertEqual(Double(shape.dashPhase), 6, accuracy: 1e-12)
        XCTAssertEqual(Double(shape.miterLimit), 2.5, accuracy: 1e-12)
        XCTAssertEqual(shape.dashPattern, [6, 4])
        XCTAssertFalse(drawn.isHidden)
        XCTAssertEqual(Double(drawn.shadowRadius), 4, accuracy: 1e-12)
        XCTAssertEqual(Double(drawn.shadowOpacity), 0.6, accuracy: 1e-6)
        let later = PresentationBuilder(time: 1.7).snapshotTree(of: root).sublayers[4]
        XCTAssertTrue(later.isHidden, "hidden again from key time 0.75 (1.6 s)")
        guard case .shape(let held) = later.content else { return XCTFail("a shape") }
        XCTAssertEqual(held.fillColor, RGBA(CGColor(red: 0, green: 1, blue: 0, alpha: 0.5)))
        // The matte's mode reaches the snapshot, its opacity animated.
        let matte = snapshot.sublayers[5].mask?.value
        XCTAssertEqual(matte?.maskMode, .luminanceInverted)
        XCTAssertEqual(matte?.opacity, 0.5)
    }

    func testWhetherALayerNeedsACopyIsFoundAgainWhenItsAnimationsChange() {
        // Kept with the animation list: each change of the list (add, replace under a key,
        // remove one, remove all) asks again, and the snapshot follows.
        let layer = CAShapeLayer()
        layer.path = path(0)
        let root = CALayer()
        root.addSublayer(layer)
        func check(_ expected: Bool, _ what: String) {
            XCTAssertEqual(layer.animatesGeometryOnly, expected, what)
            XCTAssertEqual(layer.animatesGeometryOnly, PresentationBuilder.animatesGeometryOnly(layer), what)
            let builder = PresentationBuilder(time: 0.5)
            XCTAssertEqual(builder.snapshotTree(of: root), builder.presentationTree(of: root).makeSnapshot(), what)
        }
        check(true, "no animations")
        layer.add(basic("lineWidth", from: 1, to: 9), forKey: "width")
        check(true, "a stroke width")
        layer.add(basic("backgroundColor", to: CGColor(red: 1, green: 0, blue: 0, alpha: 1)), forKey: "tint")
        check(false, "a background colour")
        layer.add(basic("opacity", from: 1, to: 0), forKey: "tint")
        check(true, "the colour replaced under its key by an opacity")
        layer.add(basic("cornerRadius", from: 0, to: 5), forKey: "round")
        check(false, "a corner radius")
        layer.removeAnimation(forKey: "round")
        check(true, "the corner radius removed")
        layer.add(basic("bounds.size.width", from: 10, to: 20), forKey: "grow")
        check(false, "bounds")
        layer.removeAllAnimations()
        check(true, "all removed")
    }

    /// A layer running its sublayers on a time of its own, as a Lottie's layer does.
    private final class HalfTime: CALayer, SublayerTimeMapping {
        func sublayerTime(forLocalTime t: Double) -> Double { t / 2 + Double(opacity) }
    }

    func testALayerMappingItsSublayersTimeGetsItsOwnCopyAlone() {
        // The mapping layer's opacity animates (so its copy's, which picks the time, differs
        // from the model's); its sublayers, one animated without a copy and one of a class that
        // needs one, and its mask see the mapped time.
        let root = CALayer()
        let mapper = HalfTime()
        mapper.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        mapper.opacity = 0
        mapper.add(basic("opacity", from: 0, to: 1, duration: 4), forKey: "fade")
        let mover = CALayer()
        mover.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        mover.add(basic("position.x", from: 0, to: 100), forKey: "move")
        let tiled = CATiledLayer()
        tiled.frame = CGRect(x: 20, y: 20, width: 30, height: 30)
        tiled.add(basic("position.y", from: 0, to: 100), forKey: "move")
        let mask = CALayer()
        mask.frame = mapper.bounds
        mask.add(basic("opacity", from: 1, to: 0), forKey: "fade")
        mapper.addSublayer(mover)
        mapper.addSublayer(tiled)
        mapper.mask = mask
        root.addSublayer(mapper)
        for t in [0.0, 0.4, 1.0, 2.0, 3.0] {
            let builder = PresentationBuilder(time: t)
            XCTAssertEqual(builder.snapshotTree(of: root), builder.presentationTree(of: root).makeSnapshot(), "at \(t) s")
        }
        // At 1 s the mapper's opacity is 0.25: its sublayers see 1/2 + 0.25 = 0.75 s; its mask
        // its own local time, 1 s (ended: the model's opacity).
        let snapshot = PresentationBuilder(time: 1).snapshotTree(of: root).sublayers[0]
        XCTAssertEqual(snapshot.opacity, 0.25)
        XCTAssertEqual(Double(snapshot.sublayers[0].position.x), 75, accuracy: 1e-9)
        XCTAssertEqual(Double(snapshot.sublayers[1].position.y), 75, accuracy: 1e-9)
        XCTAssertEqual(snapshot.mask?.value.opacity, 1)
    }

    func testDiscreteKeyframesPickTheLastKeyTimeReached() {
        // Key times with repeats: value i shows from key time i; at a repeated key time the later
        // value wins (the bisection must agree with a scan of every key time).
        let a = CAKeyframeAnimation(keyPath: "opacity")
        a.values = [0.1, 0.2, 0.3, 0.4, 0.5]
        a.keyTimes = [0, 0.2, 0.2, 0.2, 0.6, 1]
        a.calculationMode = .discrete
        a.duration = 1
        let layer = CALayer()
        let prepared = try! layer.prepare(a)
        let expected: [(Double, CGFloat)] = [(0, 0.1), (0.1, 0.1), (0.2, 0.4), (0.5, 0.4), (0.6, 0.5), (0.99, 0.5)]
        for (t, v) in expected {
            guard case .number(let n)? = prepared.value(at: t, underlying: .number(1)) else { return XCTFail("at \(t)") }
            XCTAssertEqual(Double(n), Double(v), accuracy: 1e-12, "at \(t)")
        }
    }
}
