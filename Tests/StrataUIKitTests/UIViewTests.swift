// UIView over CALayer: properties forward to the layer, the view is the layer's delegate, changes
// do not animate outside blocks, `UIView.animate` animates with the block's duration, delay and
// curve (additively for position and bounds, as iOS 8+ does), completions run when the
// animations end, and view controllers load their view on first access.
import XCTest
import Strata
import StrataTestSupport

private final class LoggingController: UIViewController {
    var events: [String] = []
    override func loadView() {
        events.append("loadView")
        super.loadView()
    }
    override func viewDidLoad() {
        super.viewDidLoad()
        events.append("viewDidLoad")
        let box = UIView(frame: CGRect(x: 10, y: 20, width: 30, height: 40))
        box.tag = 7
        box.backgroundColor = .red
        view.addSubview(box)
    }
}

private final class ShapeView: UIView {
    override class var layerClass: AnyClass { CAShapeLayer.self }
}

final class UIViewTests: XCTestCase {
    private func scene(for view: UIView, duration: Double = 4) -> Scene {
        Scene(rootLayer: view.layer, size: view.bounds.size, frameRate: 10, duration: duration)
    }

    func testPropertiesForwardToTheLayer() {
        let v = UIView(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
        XCTAssertTrue(v.layer.delegate === v)
        XCTAssertEqual(v.layer.frame, CGRect(x: 10, y: 20, width: 100, height: 50))
        XCTAssertEqual(v.center, CGPoint(x: 60, y: 45))
        v.center = CGPoint(x: 0, y: 0)
        XCTAssertEqual(v.frame.origin, CGPoint(x: -50, y: -25))
        v.alpha = 0.25
        XCTAssertEqual(v.layer.opacity, 0.25)
        v.backgroundColor = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
        XCTAssertEqual(v.layer.backgroundColor, CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        v.clipsToBounds = true
        XCTAssertTrue(v.layer.masksToBounds)
        v.transform = CGAffineTransform(rotationAngle: .pi / 2)
        XCTAssertEqual(v.layer.transform.m12, 1, accuracy: 1e-12)
        v.contentMode = .scaleAspectFit
        XCTAssertEqual(v.layer.contentsGravity, .resizeAspect)
        XCTAssertTrue(ShapeView().layer is CAShapeLayer)               // layerClass
    }

    func testHierarchyIsTheLayerTree() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let a = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10)), b = UIView(), c = UIView()
        root.addSubview(a)
        root.addSubview(b)
        root.insertSubview(c, belowSubview: b)
        XCTAssertEqual(root.subviews.map(ObjectIdentifier.init), [a, c, b].map(ObjectIdentifier.init))
        XCTAssertEqual(root.layer.sublayers?.map(ObjectIdentifier.init), [a, c, b].map { ObjectIdentifier($0.layer) })
        root.bringSubviewToFront(a)
        XCTAssertTrue(root.layer.sublayers?.last === a.layer)
        c.removeFromSuperview()
        XCTAssertNil(c.superview)
        XCTAssertNil(c.layer.superlayer)
        a.tag = 3
        XCTAssertTrue(root.viewWithTag(3) === a)
        XCTAssertTrue(root.hitTest(CGPoint(x: 5, y: 5), with: nil) === a)
        XCTAssertEqual(a.convert(CGPoint(x: 1, y: 1), to: nil), CGPoint(x: 1, y: 1))
    }

    func testChangesOutsideBlocksDoNotAnimateButBlocksDo() throws {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 100))
        let box = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        root.addSubview(box)
        let s = scene(for: root)
        s.at(0.5) { box.center = CGPoint(x: 110, y: 10) }              // jumps (the view answers NSNull)
        s.at(1) {
            UIView.animate(withDuration: 1, delay: 0.5, options: [.curveLinear], animations: {
                box.center = CGPoint(x: 210, y: 10)
            })
        }
        func x(_ t: Double) throws -> CGFloat { try XCTUnwrap(s.presentation(of: box.layer, at: t)).position.x }
        XCTAssertEqual(try x(0.4), 10)
        XCTAssertEqual(try x(0.6), 110)
        XCTAssertEqual(try x(1.2), 110, accuracy: 1e-9)                 // delayed: holds the old value
        XCTAssertEqual(try x(2.0), 160, accuracy: 1e-9)                 // half way, linear
        XCTAssertEqual(try x(2.6), 210, accuracy: 1e-9)
    }

    func testOverlappingBlocksAddUpAndCompletionsRunAtTheirEnds() throws {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 100))
        let box = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        root.addSubview(box)
        let s = scene(for: root)
        var finished: [String] = []
        s.at(0) {
            UIView.animate(withDuration: 2, delay: 0, options: [.curveLinear], animations: {
                box.center = CGPoint(x: 210, y: 10)
            }, completion: { _ in finished.append("first @\(CACurrentMediaTime())") })
        }
        s.at(1) {
            UIView.animate(withDuration: 1, delay: 0, options: [.curveLinear], animations: {
                box.center = CGPoint(x: 10, y: 10)
            }, completion: { _ in finished.append("second @\(CACurrentMediaTime())") })
        }
        // Additive: at 1.5 the first still adds +150·0.25 … exactly: model 10, first additive
        // (10 − 210 → 0 on top of 210, now superseded by model 10) and second (210 − 10 → 0).
        // Position = 10 + (−200)(1 − 0.75) + 200(1 − 0.5) = 10 − 50 + 100 = 60.
        XCTAssertEqual(try XCTUnwrap(s.presentation(of: box.layer, at: 1.5)).position.x, 60, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(s.presentation(of: box.layer, at: 3)).position.x, 10, accuracy: 1e-9)
        XCTAssertEqual(finished, ["first @2.0", "second @2.0"])   // both end at 2.0, in the order added
    }

    func testViewControllerLoadsItsViewOnce() {
        let vc = LoggingController()
        XCTAssertFalse(vc.isViewLoaded)
        let v = vc.view!
        XCTAssertTrue(vc.view === v)
        XCTAssertEqual(vc.events, ["loadView", "viewDidLoad"])
        XCTAssertEqual(v.bounds, UIScreen.main.bounds)
        XCTAssertEqual(v.viewWithTag(7)?.frame, CGRect(x: 10, y: 20, width: 30, height: 40))
        XCTAssertTrue(v.next === vc)
    }

    func testLabelCentresItsTextVertically() throws {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 60))
        root.backgroundColor = .white
        let label = UILabel(frame: root.bounds)
        label.text = "Hi"
        label.font = .systemFont(ofSize: 20)
        label.textAlignment = .center
        root.addSubview(label)
        let size = label.sizeThatFits(.zero)
        XCTAssertGreaterThan(size.width, 10)
        XCTAssertEqual(size.height, 24, accuracy: 2)
        let frame = try scene(for: root).renderFrame(at: 0)
        // Ink only in the middle band: rows above 10 and below 50 are white.
        func inkRows() -> [Int] {
            (0..<60).filter { y in (0..<200).contains { x in frame.pixel(x: x, y: y).r < 128 } }
        }
        let rows = inkRows()
        XCTAssertGreaterThan(rows.min() ?? 0, 15)
        XCTAssertLessThan(rows.max() ?? 60, 45)
    }

    func testColorsAndImageRenderer() {
        var r: CGFloat = 0, g: CGFloat = 0, b: CGFloat = 0, a: CGFloat = 0
        UIColor.orange.getRed(&r, green: &g, blue: &b, alpha: &a)
        XCTAssertEqual([r, g, b, a], [1, 0.5, 0, 1])
        XCTAssertEqual(UIColor.red.withAlphaComponent(0.5).cgColor.alpha, 0.5)
        XCTAssertEqual(UIColor(hue: 1.0 / 3.0, saturation: 1, brightness: 1, alpha: 1).cgColor.components?[1] ?? 0, 1, accuracy: 1e-9)
        XCTAssertTrue(UIColor.red == UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        let format = UIGraphicsImageRendererFormat()
        format.scale = 2
        let image = UIGraphicsImageRenderer(size: CGSize(width: 10, height: 10), format: format).image { ctx in
            UIColor.blue.setFill()
            ctx.fill(CGRect(x: 0, y: 0, width: 5, height: 10))
        }
        XCTAssertEqual(image.size, CGSize(width: 10, height: 10))
        XCTAssertEqual(image.cgImage?.width, 20)
        let px = { (x: Int) in image.cgImage!.bitmap.pixel(x: x, y: 10) }
        XCTAssertEqual(px(2).b, 255)
        XCTAssertEqual(px(2).a, 255)
        XCTAssertEqual(px(15).a, 0)
    }

    func testValueBoxesWorkAsAnimationValues() throws {
        let t = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let box = NSValue(caTransform3D: t)
        XCTAssertEqual(box.caTransform3DValue, t)
        XCTAssertEqual(NSValue(cgPoint: CGPoint(x: 3, y: 4)).cgPointValue, CGPoint(x: 3, y: 4))
        let layer = CALayer()
        let root = CALayer()
        root.addSublayer(layer)
        let spin = CABasicAnimation(keyPath: "transform")
        spin.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
        spin.toValue = box
        spin.duration = 1
        layer.add(spin, forKey: "spin")
        let s = Scene(rootLayer: root, size: CGSize(width: 10, height: 10), frameRate: 10, duration: 1)
        let p = try XCTUnwrap(s.presentation(of: layer, at: 0.5))
        XCTAssertEqual(p.transform.m12, sin(.pi / 4), accuracy: 1e-9)   // half of a quarter turn
    }
}
