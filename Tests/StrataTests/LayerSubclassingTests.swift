// CALayer subclasses written with Apple's boilerplate compile unchanged, and the overridden
// `init(layer:)` is what copies a subclass's own state into its presentation copies (the
// required `init(presentationCopyOf:)` entry point dispatches to it).
import XCTest
import Strata

/// A ring whose colour is a plain stored property copied by `init(layer:)`, and whose sweep is a
/// KVC key that animates and redraws (the seeds' progress-layer pattern, verbatim boilerplate).
private final class RingLayer: CALayer {
    var ringColor: CGColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    var copiesMade = 0

    var sweep: CGFloat {
        get { value(forKey: "sweep") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "sweep") }
    }

    override init() {
        super.init()
    }

    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? RingLayer {
            ringColor = other.ringColor
            other.copiesMade += 1
        }
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "sweep" || super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        ctx.setFillColor(ringColor)
        ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * sweep, height: bounds.height))
    }
}

/// A subclass with no initializers at all inherits every one.
private final class PlainSubclass: CAShapeLayer {
    var label = "plain"
}

final class LayerSubclassingTests: XCTestCase {
    func testOverriddenInitLayerCopiesSubclassStateIntoPresentationCopies() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 20)
        root.backgroundColor = .white
        let ring = RingLayer()
        ring.frame = root.bounds
        ring.ringColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        ring.sweep = 0
        ring.setNeedsDisplay()
        root.addSublayer(ring)
        let grow = CABasicAnimation(keyPath: "sweep")
        grow.fromValue = 0
        grow.toValue = 1
        grow.duration = 1
        ring.add(grow, forKey: "grow")
        let scene = Scene(rootLayer: root, size: CGSize(width: 100, height: 20), frameRate: 10, duration: 1)

        let copy = try XCTUnwrap(scene.presentation(of: ring, at: 0.5) as? RingLayer)
        XCTAssertTrue(copy !== ring)
        XCTAssertEqual(copy.ringColor, ring.ringColor)                 // copied by the override
        XCTAssertEqual(copy.sweep, 0.5, accuracy: 1e-9)                // animated KVC value
        XCTAssertTrue(copy.modelLayer === ring)
        XCTAssertGreaterThan(ring.copiesMade, 0)
        // The presentation copy redraws with the copied colour: blue up to x = 50, white after.
        let frame = try scene.renderFrame(at: 0.5)
        XCTAssertEqual(frame.pixel(x: 20, y: 10).b, 255)
        XCTAssertEqual(frame.pixel(x: 20, y: 10).r, 0)
        XCTAssertEqual(frame.pixel(x: 80, y: 10).r, 255)
        XCTAssertEqual(frame.pixel(x: 80, y: 10).g, 255)
    }

    func testSubclassWithoutInitializersInheritsThemAll() throws {
        let plain = PlainSubclass()
        plain.label = "changed"
        plain.fillColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        let root = CALayer()
        root.addSublayer(plain)
        let scene = Scene(rootLayer: root, size: CGSize(width: 10, height: 10), frameRate: 10, duration: 1)
        let copy = try XCTUnwrap(scene.presentation(of: plain, at: 0) as? PlainSubclass)
        XCTAssertEqual(copy.fillColor, plain.fillColor)                // CAShapeLayer's own init(layer:)
        XCTAssertEqual(copy.label, "plain")                            // no override: defaults, as on iOS
    }

    func testSublayersIsSettableWithApplesSemantics() {
        let root = CALayer(), a = CALayer(), b = CALayer(), c = CALayer(), other = CALayer()
        root.addSublayer(a)
        root.addSublayer(b)
        other.addSublayer(c)
        root.sublayers = [c, a]
        XCTAssertEqual(root.sublayers?.map(ObjectIdentifier.init), [c, a].map(ObjectIdentifier.init))
        XCTAssertNil(b.superlayer)                                      // removed
        XCTAssertTrue(c.superlayer === root)                            // taken from its old parent
        XCTAssertNil(other.sublayers)
        root.sublayers = nil
        XCTAssertNil(root.sublayers)
        XCTAssertNil(a.superlayer)
        XCTAssertNil(c.superlayer)
    }

    func testLayersAndAnimationsAreNSObjects() {
        let a = CALayer(), b = CALayer()
        XCTAssertTrue(a == a)
        XCTAssertFalse(a == b)
        XCTAssertEqual([a, b].firstIndex(of: b), 1)                    // Equatable through NSObject
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.toValue = CGFloat.pi
        spin.duration = 2
        let copy = spin.copy() as! CABasicAnimation                     // NSCopying, as on iOS
        XCTAssertTrue(copy !== spin)
        XCTAssertEqual(copy.keyPath, "transform.rotation.z")
        XCTAssertEqual(copy.toValue as? CGFloat, CGFloat.pi)
        XCTAssertEqual(copy.duration, 2)
        let spring = CASpringAnimation(keyPath: "position.x")
        spring.damping = 3
        let springCopy = spring.copy() as! CASpringAnimation
        XCTAssertEqual(springCopy.damping, 3)
        XCTAssertEqual(springCopy.keyPath, "position.x")
    }
}
