// The spellings of ordinary iOS Core Animation code that issue "Any frame, in any order" lists,
// written exactly as on iOS (only `import Strata`), each with the behaviour it must have.
import XCTest
import Strata

/// A layer subclass written as iOS code writes one: boilerplate, a custom animatable property
/// with a default value and its own implicit action, layout and display overrides.
final class GaugeLayer: CALayer {
    var layoutRuns = 0
    var displayRuns = 0

    var level: CGFloat {
        get { return value(forKey: "level") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "level") }
    }

    override init() { super.init() }
    override init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

    override class func defaultValue(forKey key: String) -> Any? {
        if key == "level" { return 0.25 as CGFloat }
        return super.defaultValue(forKey: key)
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "level" || super.needsDisplay(forKey: key)
    }

    override func action(forKey event: String) -> CAAction? {
        if event == "level" {
            let animation = CABasicAnimation(keyPath: event)
            animation.fromValue = presentation()?.value(forKey: event)
            animation.duration = 2
            animation.timingFunction = CAMediaTimingFunction(controlPoints: 0, 0, 1, 1)
            return animation
        }
        return super.action(forKey: event)
    }

    override func layoutSublayers() {
        super.layoutSublayers()
        layoutRuns += 1
        sublayers?.first?.frame = bounds.insetBy(dx: 2, dy: 2)
    }

    override func display() {
        displayRuns += 1
        super.display()
    }
}

/// Any class can be a layer or animation delegate.
final class Watcher: NSObject, CALayerDelegate, CAAnimationDelegate {
    var stops: [Bool] = []
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { stops.append(flag) }
    func draw(_ layer: CALayer, in ctx: CGContext) {
        ctx.setFillColor(UIColor(red: 0, green: 0.5, blue: 1, alpha: 1).cgColor)
        ctx.fill(layer.bounds)
    }
}

final class AppleSpellingsTests: XCTestCase {
    func testTheListedSpellingsCompileAndBehave() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = UIColor.white.cgColor
        let gauge = GaugeLayer()
        gauge.frame = CGRect(x: 10, y: 10, width: 80, height: 20)
        let inner = CALayer()
        gauge.addSublayer(inner)
        gauge.setNeedsLayout()
        gauge.setNeedsDisplay()
        let badge = CAShapeLayer()
        badge.path = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 20, height: 20), cornerRadius: 5).cgPath
        badge.fillColor = CGColor(srgbRed: 1, green: 0, blue: 0, alpha: 1)
        let space = CGColorSpaceCreateDeviceRGB()
        badge.strokeColor = CGColor(colorSpace: space, components: [0, 0, 0, 1])
        let watcher = Watcher()
        let painted = CALayer()
        painted.frame = CGRect(x: 100, y: 10, width: 20, height: 20)
        painted.delegate = watcher
        painted.setNeedsDisplay()
        root.sublayers = [gauge, badge, painted]
        XCTAssertEqual(gauge.level, 0.25)                                 // defaultValue(forKey:)

        let spin = CAKeyframeAnimation(keyPath: "transform")
        spin.values = [NSValue(caTransform3D: CATransform3DIdentity),
                       NSValue(caTransform3D: CATransform3DMakeRotation(.pi / 2, 0, 0, 1))]
        spin.keyTimes = [0, 1] as [NSNumber]
        spin.duration = 1
        spin.beginTime = CACurrentMediaTime() + 1                          // starts at 1 s
        spin.fillMode = .backwards
        spin.delegate = watcher
        badge.add(spin, forKey: "spin")

        let scene = Scene(rootLayer: root, size: CGSize(width: 200, height: 100), frameRate: 10, duration: 4)
        scene.at(1) { gauge.level = 0.75 }                                 // the override's 2 s linear action
        // Layout ran before the first frame, display too; the delegate drew.
        let first = try scene.renderFrame(at: 0)
        XCTAssertEqual(inner.frame, CGRect(x: 2, y: 2, width: 76, height: 16))
        XCTAssertGreaterThan(gauge.layoutRuns, 0)
        XCTAssertGreaterThan(gauge.displayRuns, 0)
        XCTAssertEqual(first.pixel(x: 110, y: 20).b, 255)
        // presentation()?.value(forKey:) in the override gave the start; half way at 2 s.
        let mid = try XCTUnwrap(scene.presentation(of: gauge, at: 2) as? GaugeLayer)
        XCTAssertEqual(mid.level, 0.5, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: badge, at: 0.5)).transform, CATransform3DIdentity)
        let turning = try XCTUnwrap(scene.presentation(of: badge, at: 1.5)).transform
        XCTAssertEqual(turning.m12, sin(.pi / 4), accuracy: 1e-9)
        // convertTime and CACurrentMediaTime agree on the scene clock.
        var seen: Double = -1
        scene.at(3) { seen = badge.convertTime(CACurrentMediaTime(), from: nil) }
        _ = try scene.renderFrame(at: 3.5)
        XCTAssertEqual(seen, 3)
        XCTAssertEqual(watcher.stops, [true])
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: gauge, at: 3.5) as? GaugeLayer).level, 0.75, accuracy: 1e-9)
    }
}
