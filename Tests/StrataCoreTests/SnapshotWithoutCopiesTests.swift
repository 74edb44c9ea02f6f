// PresentationBuilder.snapshotTree leaves out the presentation copies of layers that would only
// repeat their model values. Its snapshot must be the snapshot of the full presentation tree:
// checked on a tree of every kind of layer — plain, gradient, shape, text, with and without
// animations, animated parents over plain children and plain parents over animated ones,
// masks, timing offsets, hidden layers, a custom-drawn subclass, a replicator with a delay, a
// transform layer — at times before, during and after the animations.
import Foundation
import XCTest
@testable import StrataCore

/// A subclass with a property of its own (in the key-value storage that presentation copies
/// carry) that it draws from.
private final class Meter: CALayer {
    var level: CGFloat {
        get { value(forKey: "level") as? CGFloat ?? 0.3 }
        set { setValue(newValue, forKey: "level") }
    }
    override init() { super.init() }
    override init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { super.init(coder: coder) }
    override class func needsDisplay(forKey key: String) -> Bool { key == "level" || super.needsDisplay(forKey: key) }
    override func draw(in ctx: CGContext) {
        ctx.setFillColor(CGColor(red: 0.2, green: 0.6, blue: 0.3, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * level, height: bounds.height))
    }
}

/// A plain layer of one colour.
private func plain(_ frame: CGRect, _ r: CGFloat, _ g: CGFloat, _ b: CGFloat) -> CALayer {
    let l = CALayer()
    l.frame = frame
    l.backgroundColor = CGColor(red: r, green: g, blue: b, alpha: 1)
    return l
}

/// Adds a basic animation of `keyPath` from `from` to `to` over `duration` seconds.
private func animate(_ layer: CALayer, _ keyPath: String, from: Any?, to: Any?, duration: Double) {
    let a = CABasicAnimation(keyPath: keyPath)
    a.fromValue = from; a.toValue = to; a.duration = duration
    layer.add(a, forKey: keyPath)
}

final class SnapshotWithoutCopiesTests: XCTestCase {
    private func tree() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

        // Plain gradient, shape and text layers, none animated.
        let g = CAGradientLayer()
        g.frame = CGRect(x: 10, y: 10, width: 120, height: 80)
        g.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 0.8), CGColor(red: 0, green: 0, blue: 1, alpha: 0.8)]
        g.cornerRadius = 12; g.borderWidth = 2; g.masksToBounds = true
        g.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        root.addSublayer(g)
        let shape = CAShapeLayer()
        shape.frame = root.bounds
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 20, y: 200)); p.addCurve(to: CGPoint(x: 380, y: 60), control1: CGPoint(x: 100, y: 20), control2: CGPoint(x: 250, y: 290))
        shape.path = p; shape.fillColor = nil; shape.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1); shape.lineWidth = 3
        shape.lineDashPattern = [6, 3]
        root.addSublayer(shape)
        let text = CATextLayer()
        text.frame = CGRect(x: 20, y: 250, width: 300, height: 30)
        text.string = "Plain text"; text.fontSize = 18; text.isHidden = false
        root.addSublayer(text)

        // An animated parent over plain children, and a plain parent over an animated child.
        let moving = plain(CGRect(x: 150, y: 20, width: 100, height: 100), 0.9, 0.8, 0.1)
        animate(moving, "transform.rotation.z", from: 0, to: 2, duration: 2)
        let child = CAGradientLayer()
        child.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        child.colors = [CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 0, alpha: 1)]
        moving.addSublayer(child)
        root.addSublayer(moving)

        let holder = CALayer()
        holder.frame = CGRect(x: 260, y: 20, width: 120, height: 120)
        holder.beginTime = 0.5; holder.timeOffset = 0.25; holder.speed = 2   // timing that shifts the child's time
        let fading = CAShapeLayer()
        fading.frame = holder.bounds
        fading.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil)
        fading.fillColor = CGColor(red: 0.5, green: 0.2, blue: 0.7, alpha: 1)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1; fade.toValue = 0.1; fade.duration = 1; fade.fillMode = .both
        fading.add(fade, forKey: "fade")
        animate(fading, "strokeEnd", from: 0, to: 1, duration: 1.5)
        holder.addSublayer(fading)
        let hidden = plain(CGRect(x: 0, y: 0, width: 10, height: 10), 0, 0, 0)
        hidden.isHidden = true
        holder.addSublayer(hidden)
        root.addSublayer(holder)

        // A plain layer masked by an animated one, and an animated layer masked by a plain one.
        let masked = plain(CGRect(x: 20, y: 120, width: 100, height: 100), 0.1, 0.3, 0.9)
        let maskShape = CAShapeLayer()
        maskShape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 60, height: 60), transform: nil)
        animate(maskShape, "transform.scale", from: 0.5, to: 1.5, duration: 1)
        masked.mask = maskShape
        root.addSublayer(masked)
        let masked2 = CAGradientLayer()
        masked2.frame = CGRect(x: 130, y: 150, width: 80, height: 80)
        masked2.colors = [CGColor(red: 1, green: 1, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 1, alpha: 1)]
        let colors = CABasicAnimation(keyPath: "colors")
        colors.toValue = [CGColor(red: 0, green: 0, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 1, alpha: 1)]
        colors.duration = 1
        masked2.add(colors, forKey: "colors")
        let plainMask = plain(CGRect(x: 10, y: 10, width: 50, height: 50), 0, 0, 0)
        masked2.mask = plainMask
        root.addSublayer(masked2)

        // A custom-drawn subclass (redrawn while `level` animates), a replicator with a delay and
        // a transform layer: classes that always get their copy.
        let meter = Meter()
        meter.frame = CGRect(x: 230, y: 160, width: 120, height: 20)
        meter.setNeedsDisplay()
        meter.displayIfNeeded()
        animate(meter, "level", from: 0.1, to: 0.9, duration: 1)
        root.addSublayer(meter)
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 220, y: 200, width: 160, height: 80)
        replicator.instanceCount = 4; replicator.instanceDelay = 0.2
        replicator.instanceTransform = CATransform3DMakeTranslation(35, 0, 0)
        let dot = plain(CGRect(x: 0, y: 20, width: 20, height: 20), 0.8, 0.1, 0.1)
        animate(dot, "position.y", from: 20, to: 60, duration: 1)
        replicator.addSublayer(dot)
        root.addSublayer(replicator)
        let stage = CATransformLayer()
        stage.frame = CGRect(x: 300, y: 100, width: 60, height: 60)
        let face = plain(stage.bounds, 0.3, 0.3, 0.3)
        face.transform = CATransform3DMakeRotation(0.5, 0, 1, 0)
        stage.addSublayer(face)
        root.addSublayer(stage)
        return root
    }

    func testSnapshotIsTheFullPresentationTreesSnapshot() {
        let root = tree()
        for t in [0.0, 0.3, 0.75, 1.2, 3.0] {
            let builder = PresentationBuilder(time: t)
            let full = builder.presentationTree(of: root).makeSnapshot()
            let fast = builder.snapshotTree(of: root)
            XCTAssertEqual(fast, full, "at \(t) s")
        }
        // Some of those layers are snapshotted without a copy, others with one.
        let plain = root.sublayers!.filter { PresentationBuilder.showsModelValues($0) }.count
        XCTAssertEqual(plain, 5)   // the gradient, the shape, the text, the holder and the masked layer
        XCTAssertEqual(root.sublayers!.count - plain, 5)   // the animated ones and the replicator, meter and transform layer
    }

    func testASubtreeOfAnAnimatedLayerKeepsItsTime() {
        // The snapshot of a subtree (the root has a superlayer) starts from its parent's time.
        let root = tree()
        let holder = root.sublayers![4]
        for t in [0.0, 0.6, 1.1] {
            let builder = PresentationBuilder(time: t)
            XCTAssertEqual(builder.snapshotTree(of: holder), builder.presentationTree(of: holder).makeSnapshot(), "at \(t) s")
        }
    }

    /// A layer's list of sublayer snapshots is made in the storage of the list its last snapshot
    /// made once no snapshot holds that one, never in one still held: a held snapshot keeps its
    /// sublayers as they were, and every snapshot is still the full presentation tree's.
    func testSublayerListsAreReusedOnlyWhenLetGo() {
        let root = plain(CGRect(x: 0, y: 0, width: 200, height: 100), 1, 1, 1)
        let group = plain(CGRect(x: 10, y: 10, width: 80, height: 80), 0.5, 0.5, 0.5)
        let moving = plain(CGRect(x: 0, y: 0, width: 20, height: 20), 1, 0, 0)
        group.addSublayer(moving)
        group.addSublayer(plain(CGRect(x: 40, y: 40, width: 20, height: 20), 0, 1, 0))
        root.addSublayer(group)
        root.addSublayer(plain(CGRect(x: 120, y: 10, width: 60, height: 60), 0, 0, 1))
        // Two more layers in the group on even frames: a list made in reused storage keeps room
        // for four, a new one for the odd frames' two has room for two.
        let extras = [plain(CGRect(x: 5, y: 50, width: 10, height: 10), 1, 1, 0),
                      plain(CGRect(x: 50, y: 5, width: 10, height: 10), 0, 1, 1)]
        func pose(_ t: Int) {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            moving.position = CGPoint(x: 10 + 5 * Double(t), y: 10)
            for e in extras {
                if t % 2 == 0 { group.addSublayer(e) } else { e.removeFromSuperlayer() }
            }
            CATransaction.commit()
        }
        func storage(_ s: LayerSnapshot) -> UInt { s.sublayers.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        pose(0)
        let kept = PresentationBuilder(time: 0).snapshotTree(of: root)
        let keptAsMade = PresentationBuilder(time: 0).presentationTree(of: root).makeSnapshot()
        var seen: Set<UInt> = [], seenInGroup: Set<UInt> = []
        var reused = 0, reusedInGroup = 0
        for t in 1..<8 {
            pose(t)
            let s = PresentationBuilder(time: 0).snapshotTree(of: root)
            XCTAssertNotEqual(storage(s), storage(kept), "frame \(t) is not made into a list still held")
            XCTAssertNotEqual(storage(s.sublayers[0]), storage(kept.sublayers[0]), "frame \(t), the group's list")
            XCTAssertEqual(s, PresentationBuilder(time: 0).presentationTree(of: root).makeSnapshot(), "frame \(t)")
            XCTAssertEqual(s.sublayers[0].sublayers.count, t % 2 == 0 ? 4 : 2)
            if t > 2 { XCTAssertGreaterThanOrEqual(s.sublayers[0].sublayers.capacity, 4, "frame \(t): the group's list is made in the storage of one let go") }
            if seen.contains(storage(s)) { reused += 1 }
            if seenInGroup.contains(storage(s.sublayers[0])) { reusedInGroup += 1 }
            seen.insert(storage(s))
            seenInGroup.insert(storage(s.sublayers[0]))
        }
        XCTAssertEqual(kept, keptAsMade, "the snapshot held all along is unchanged")
        XCTAssertGreaterThanOrEqual(reused, 5, "the root's lists let go come back")
        XCTAssertGreaterThanOrEqual(reusedInGroup, 5, "the group's lists let go come back")
        // A layer whose sublayers are gone lets go of their last snapshots.
        XCTAssertFalse(group.snapshotSublayerStorage.isEmpty)
        group.sublayers?.forEach { $0.removeFromSuperlayer() }
        _ = PresentationBuilder(time: 0).snapshotTree(of: root)
        XCTAssertTrue(group.snapshotSublayerStorage.isEmpty)
    }
}
