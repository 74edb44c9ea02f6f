// Seed 000 §5.6 案例: a scrolling view backed by CAScrollLayer, scrolled by a pan gesture.
//
// LINUX BLOCKER (not a Strata gap): `#selector(pan(_:))` and `@objc` need the Objective-C runtime.
// Kept as an iOS developer writes it; Seed1_ScrollLayerPan.swift has the same pan handler
// without the selector.
import Strata

class ScrollView: UIView {
    override class var layerClass: AnyClass {
        return CAScrollLayer.self
    }

    func setUp() {
        // enable clipping
        self.layer.masksToBounds = true

        // attach pan gesture recognizer
        let recognizer = UIPanGestureRecognizer(target: self, action: #selector(pan(_:)))
        self.addGestureRecognizer(recognizer)
    }

    override init(frame: CGRect) {
        // this is called when view is created in code
        super.init(frame: frame)
        self.setUp()
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override func awakeFromNib() {
        // this is called when view is created from a nib
        self.setUp()
    }

    @objc func pan(_ recognizer: UIPanGestureRecognizer) {
        // get the offset by subtracting the pan gesture
        // translation from the current bounds origin
        var offset = self.bounds.origin
        offset.x -= recognizer.translation(in: self).x
        offset.y -= recognizer.translation(in: self).y

        // scroll the layer
        (self.layer as! CAScrollLayer).scroll(to: offset)

        // reset the pan gesture translation
        recognizer.setTranslation(.zero, in: self)
    }
}

// MARK: - Strata harness (not part of the port)

/// A 200×200 ScrollView holding a UIImageView with the "Snowman" image; at t = 1 a pan of
/// (−100, −50) is delivered, so the content shows from (100, 50).
func makeSeed0ScrollLayerViewScene() -> Scene {
    let host = UIView(frame: CGRect(x: 0, y: 0, width: 240, height: 240))
    let scrollView = ScrollView(frame: CGRect(x: 20, y: 20, width: 200, height: 200))
    let imageView = UIImageView(image: UIImage(named: "Snowman"))
    scrollView.addSubview(imageView)
    host.addSubview(scrollView)
    let root = host.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(1) {
        let recognizer = UIPanGestureRecognizer()
        recognizer.setTranslation(CGPoint(x: -100, y: -50), in: scrollView)
        scrollView.pan(recognizer)
    }
    return scene
}
