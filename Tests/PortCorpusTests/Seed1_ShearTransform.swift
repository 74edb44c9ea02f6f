// Seed 001 变换 仿射变换 4. 斜切变换: a shear transform built by hand (c = -x, b = y) applied to a
// view's layer (45° shear along x).
import Strata

func CGAffineTransformMakeShear(_ x: CGFloat, _ y: CGFloat) -> CGAffineTransform {
    var transform = CGAffineTransform.identity
    transform.c = -x
    transform.b = y
    return transform
}

class ShearViewController: UIViewController {
    weak var layerView: UIView!  // was @IBOutlet (storyboard); the harness plays the storyboard

    override func viewDidLoad() {
        super.viewDidLoad()
        // shear the layer at a 45-degree angle
        self.layerView.layer.setAffineTransform(CGAffineTransformMakeShear(1, 0))
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed1ShearScene() -> Scene {
    let vc = ShearViewController()
    let layerView = UIView(frame: CGRect(x: 95, y: 322, width: 200, height: 200))
    layerView.backgroundColor = UIColor.blue
    vc.layerView = layerView
    vc.view.addSubview(layerView)
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
