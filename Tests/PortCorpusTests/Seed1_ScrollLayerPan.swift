// Seed 001 专用图层 CAScrollLayer: the pan handler of a view backed by CAScrollLayer (the same
// handler as seed 000 §5.6, shown here without the gesture set-up, so no selector is involved).
import Strata

class PanScrollView: UIView {
    // Port note (completion): the note shows only pan(_:); the layer class comes from the same
    // example in seed 000.
    override class var layerClass: AnyClass {
        return CAScrollLayer.self
    }

    func pan(_ recognizer: UIPanGestureRecognizer) {
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

/// Pans of (−60, −40) at t = 0.5 and again at t = 1: the "Snowman" content ends scrolled to
/// (120, 80). The view clips (masksToBounds), set by the harness.
func makeSeed1ScrollLayerPanScene() -> Scene {
    let host = UIView(frame: CGRect(x: 0, y: 0, width: 240, height: 240))
    let scrollView = PanScrollView(frame: CGRect(x: 20, y: 20, width: 200, height: 200))
    scrollView.layer.masksToBounds = true
    scrollView.addSubview(UIImageView(image: UIImage(named: "Snowman")))
    host.addSubview(scrollView)
    let scene = Scene(rootLayer: host.layer, size: host.bounds.size, frameRate: 30, duration: 1.5)
    for t in [0.5, 1.0] {
        scene.at(t) {
            let recognizer = UIPanGestureRecognizer()
            recognizer.setTranslation(CGPoint(x: -60, y: -40), in: scrollView)
            scrollView.pan(recognizer)
        }
    }
    return scene
}
