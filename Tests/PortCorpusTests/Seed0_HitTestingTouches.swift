// Seed 000 §2.4 Hit Testing: -containsPoint: and -hitTest: from touchesBegan.
import Strata

// Port note (completion): the note's greenView/redView come from the zPosition example (§2.3);
// they are set up here the same way, without the tap recognizers.
class ContainsPointViewController: UIViewController {
    var greenView: UIView!
    var redView: UIView!

    override func viewDidLoad() {
        super.viewDidLoad()
        greenView = UIView(frame: CGRect(x: 100, y: 100, width: 100, height: 100))
        greenView.backgroundColor = UIColor.green
        view.addSubview(greenView)
        redView = UIView(frame: CGRect(x: 150, y: 150, width: 100, height: 100))
        redView.backgroundColor = UIColor.red
        view.addSubview(redView)
        greenView.layer.zPosition = 1
    }

    // 000 §2.4 1) -containsPoint: — the point must be converted into each layer's coordinates.
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let point = touches.first?.location(in: self.view) else { return }
        let isGreenContain = self.greenView.layer.contains(self.greenView.layer.convert(point, from: self.view.layer))
        let isRedContain = self.redView.layer.contains(self.redView.layer.convert(point, from: self.view.layer))
        print("isGreenContain:\(isGreenContain),isRedContain:\(isRedContain)")
    }
}

class HitTestViewController: UIViewController {
    var greenView: UIView!
    var redView: UIView!
    /// Port note: harness-visible record of the last result (the note only logs it).
    var lastHit = ""

    override func viewDidLoad() {
        super.viewDidLoad()
        greenView = UIView(frame: CGRect(x: 100, y: 100, width: 100, height: 100))
        greenView.backgroundColor = UIColor.green
        view.addSubview(greenView)
        redView = UIView(frame: CGRect(x: 150, y: 150, width: 100, height: 100))
        redView.backgroundColor = UIColor.red
        view.addSubview(redView)
        greenView.layer.zPosition = 1
    }

    // 000 §2.4 2) -hitTest: on the superlayer returns the deepest layer; zPosition counts.
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let point = touches.first?.location(in: self.view) else { return }
        let layer = self.view.layer.hitTest(point)
        if layer == self.greenView.layer {
            print("isGreenLayer")
            lastHit = "green"
        } else if layer == self.redView.layer {
            print("isRedLayer")
            lastHit = "red"
        } else {
            print("isViewLayer")
            lastHit = "view"
        }
    }
}

// MARK: - Strata harness (not part of the port)
// `UITouch(location:in:)` is a harness-only helper Strata would need to provide (UIKit has no public
// way to make a touch at a point).

func makeSeed0ContainsPointScene() -> Scene {
    let vc = ContainsPointViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
    // Overlap (both true), green only, neither.
    scene.at(0.2) { vc.touchesBegan([UITouch(location: CGPoint(x: 175, y: 175), in: vc.view)], with: nil) }
    scene.at(0.4) { vc.touchesBegan([UITouch(location: CGPoint(x: 110, y: 110), in: vc.view)], with: nil) }
    scene.at(0.6) { vc.touchesBegan([UITouch(location: CGPoint(x: 20, y: 20), in: vc.view)], with: nil) }
    return scene
}

func makeSeed0HitTestScene() -> Scene {
    let vc = HitTestViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
    // In the overlap the green layer wins (zPosition 1), although redView is on top of the views.
    scene.at(0.2) { vc.touchesBegan([UITouch(location: CGPoint(x: 175, y: 175), in: vc.view)], with: nil) }
    scene.at(0.4) { vc.touchesBegan([UITouch(location: CGPoint(x: 240, y: 240), in: vc.view)], with: nil) }
    scene.at(0.6) { vc.touchesBegan([UITouch(location: CGPoint(x: 20, y: 20), in: vc.view)], with: nil) }
    return scene
}
