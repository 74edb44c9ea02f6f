// Seed 000 §4.3 3D变换 and §4.4 透视投影 (m34 perspective).
import Strata

// 000 §4.3 — the three CATransform3D constructors (C functions, available as-is in Swift).
// Port note (completion): declarations only in the note; each is called once here.
func transform3DFunctions() -> [CATransform3D] {
    let rotation = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
    let scale = CATransform3DMakeScale(2, 2, 1)
    let translation = CATransform3DMakeTranslation(10, 20, 30)
    return [rotation, scale, translation]
}

// 000 §4.4 — a 45° rotation about y with perspective (m34 = -1/500) on a view's layer.
class PerspectiveViewController: UIViewController {
    weak var greenView: UIView!  // was @IBOutlet (storyboard)

    override func viewDidLoad() {
        super.viewDidLoad()
        var transform = CATransform3DIdentity
        transform.m34 = -1.0 / 500
        transform = CATransform3DRotate(transform, .pi / 4, 0, 1, 0)
        self.greenView.layer.transform = transform
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0PerspectiveScene() -> Scene {
    let vc = PerspectiveViewController()
    let greenView = UIView(frame: CGRect(x: 95, y: 322, width: 200, height: 200))
    greenView.backgroundColor = UIColor.green
    vc.greenView = greenView
    vc.view.addSubview(greenView)
    _ = transform3DFunctions()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
