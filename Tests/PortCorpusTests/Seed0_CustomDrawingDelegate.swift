// Seed 000 §1.2 6) Custom Drawing: the CALayerDelegate methods (displayLayer:, drawLayer:inContext:)
// and CALayer's display().
import Strata

// 000 §1.2 6) first block — the three declarations, as a Swift iOS developer meets them:
//   func display(_ layer: CALayer)                  // CALayerDelegate
//   func draw(_ layer: CALayer, in ctx: CGContext)  // CALayerDelegate, used when display(_:) is absent
//   func display()                                  // CALayer: force the layer to redraw
// Port note (completion): the note only lists them; this delegate implements display(_:) the usual
// way (it sets the contents itself), so draw(_:in:) is never asked.
class ImageDisplayDelegate: NSObject, CALayerDelegate {
    func display(_ layer: CALayer) {
        layer.contents = UIImage(named: "1")?.cgImage
    }
}

// 000 §1.2 6) second block — drawLayer:inContext: draws a red ellipse.
// Port note (completion): the note shows only the delegate method; the host view controller follows
// the book's listing (a blue 100×100 layer whose delegate is the controller).
class DrawLayerViewController: UIViewController, CALayerDelegate {
    override func viewDidLoad() {
        super.viewDidLoad()
        let blueLayer = CALayer()
        blueLayer.frame = CGRect(x: 50.0, y: 50.0, width: 100.0, height: 100.0)
        blueLayer.backgroundColor = UIColor.blue.cgColor
        blueLayer.delegate = self
        blueLayer.contentsScale = UIScreen.main.scale
        view.layer.addSublayer(blueLayer)
        // Remember to call display() to force the drawing.
        blueLayer.display()
    }

    func draw(_ layer: CALayer, in ctx: CGContext) {
        ctx.setLineWidth(10)
        ctx.setStrokeColor(UIColor.red.cgColor)
        ctx.strokeEllipse(in: layer.bounds)
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0DrawLayerDelegateScene() -> Scene {
    let vc = DrawLayerViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}

// The delegate is weak on the layer, as on iOS: the harness keeps it alive with the scene's closure.
func makeSeed0DisplayLayerDelegateScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 300, height: 200)
    let delegate = ImageDisplayDelegate()
    let layer = CALayer()
    layer.frame = CGRect(x: 50, y: 50, width: 200, height: 100)
    layer.delegate = delegate
    root.addSublayer(layer)
    layer.display()
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
    scene.at(0.5) { _ = delegate; layer.setNeedsDisplay() }
    return scene
}
