// Seed 004 二、图层几何学 2.4 -containsPoint and 2.5 -hitTest: a white layerView with a blue
// sublayer; a touch is tested against each, by conversion + containsPoint or by hitTest.
import Strata

// Port note (completion): layerView (an outlet) and blueLayer are not set up in the note; as in the
// book, layerView is a white 200×200 view centred on screen and blueLayer a 100×100 blue sublayer
// at (50, 50). The "// your code" branches record which layer was hit.
class LayerViewHitTestingBase: UIViewController {
    weak var layerView: UIView!  // was @IBOutlet (storyboard); the harness plays the storyboard
    var blueLayer: CALayer!
    var lastHit = ""

    override func viewDidLoad() {
        super.viewDidLoad()
        self.blueLayer = CALayer()
        self.blueLayer.frame = CGRect(x: 50.0, y: 50.0, width: 100.0, height: 100.0)
        self.blueLayer.backgroundColor = UIColor.blue.cgColor
        self.layerView.layer.addSublayer(self.blueLayer)
    }
}

class Seed4ContainsPointViewController: LayerViewHitTestingBase {
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        // get touch position relative to main view
        var point = touches.first!.location(in: self.view)
        // convert point to the white layer's coordinates
        point = self.layerView.layer.convert(point, from: self.view.layer)
        // get layer using containsPoint:
        if self.layerView.layer.contains(point) {
            // convert point to blueLayer's coordinates
            point = self.blueLayer.convert(point, from: self.layerView.layer)
            if self.blueLayer.contains(point) {
                // your code
                lastHit = "blue"
            } else {
                // your other code
                lastHit = "white"
            }
        }
    }
}

class Seed4HitTestViewController: LayerViewHitTestingBase {
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        // get touch position
        let point = touches.first!.location(in: self.view)
        // get touched layer
        let layer = self.layerView.layer.hitTest(point)
        // get layer using hitTest
        if layer == self.blueLayer {
            // your code
            lastHit = "blue"
        } else if layer == self.layerView.layer {
            // your other code
            lastHit = "white"
        }
    }
}

// MARK: - Strata harness (not part of the port)
// Touches at t = 0.2 (blue: screen (195, 422)), 0.4 (white only: (105, 332)), 0.6 (outside:
// (10, 10)); expected lastHit "blue", "white", unchanged. UITouch(location:in:) is harness-only.

private func seed4HitTestingScene(_ vc: LayerViewHitTestingBase) -> Scene {
    let layerView = UIView(frame: CGRect(x: 95, y: 322, width: 200, height: 200))
    layerView.backgroundColor = UIColor.white
    vc.layerView = layerView
    vc.view.addSubview(layerView)
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
    for (t, p) in [(0.2, CGPoint(x: 195, y: 422)), (0.4, CGPoint(x: 105, y: 332)), (0.6, CGPoint(x: 10, y: 10))] {
        scene.at(t) { vc.touchesBegan([UITouch(location: p, in: vc.view)], with: nil) }
    }
    return scene
}

func makeSeed4ContainsPointScene() -> Scene { seed4HitTestingScene(Seed4ContainsPointViewController()) }
func makeSeed4HitTestScene() -> Scene { seed4HitTestingScene(Seed4HitTestViewController()) }
