// Seed 004 五、变换: 5.1.2 the CGAffineTransform constructors, 5.1.3 a combined transform on a layer
// (scale 50 %, rotate 30°, move right 200), 5.2.1 the CATransform3D constructors, 5.2.3 灭点 —
// sublayerTransform giving two rotated views one shared vanishing point.
import Strata

// 004 5.1.2 — rotation, scale, translation (Swift spellings of CGAffineTransformMake…).
// Port note (completion): declarations only in the note; each is called once.
func seed4AffineConstructors() -> [CGAffineTransform] {
    return [CGAffineTransform(rotationAngle: .pi / 6),   // rotate
            CGAffineTransform(scaleX: 0.5, y: 0.5),      // scale
            CGAffineTransform(translationX: 200, y: 0)]  // translate
}

// 004 5.2.1 — rotation, scale, translation in 3D.
func seed4Transform3DConstructors() -> [CATransform3D] {
    return [CATransform3DMakeRotation(.pi / 4, 0, 1, 0),  // rotate
            CATransform3DMakeScale(0.5, 0.5, 1),          // scale
            CATransform3DMakeTranslation(0, 0, 100)]      // translate
}

// 004 5.1.3 — scale by 50 %, rotate by 30°, then move 200 points right.
class Seed4CombinedAffineViewController: UIViewController {
    weak var layerView: UIView!  // was @IBOutlet (storyboard)

    override func viewDidLoad() {
        super.viewDidLoad()
        // create a new transform
        var transform = CGAffineTransform.identity
        // scale by 50%
        transform = transform.scaledBy(x: 0.5, y: 0.5)
        // rotate by 30 degrees
        transform = transform.rotated(by: .pi / 180.0 * 30.0)
        // translate by 200 points
        transform = transform.translatedBy(x: 200, y: 0)
        // apply transform to layer
        self.layerView.layer.setAffineTransform(transform)
    }
}

// 004 5.2.3 — perspective on the container; two views turned ±45° about y.
class SublayerTransformViewController: UIViewController {
    // were @IBOutlet (storyboard)
    weak var containerView: UIView!
    weak var layerView1: UIView!
    weak var layerView2: UIView!

    override func viewDidLoad() {
        super.viewDidLoad()
        // apply perspective transform to container
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        self.containerView.layer.sublayerTransform = perspective
        // rotate layerView1 by 45 degrees along the Y axis
        let transform1 = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
        self.layerView1.layer.transform = transform1
        // rotate layerView2 by 45 degrees along the Y axis
        let transform2 = CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)
        self.layerView2.layer.transform = transform2
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed4CombinedAffineScene() -> Scene {
    let vc = Seed4CombinedAffineViewController()
    let layerView = UIView(frame: CGRect(x: 95, y: 322, width: 200, height: 200))
    layerView.backgroundColor = UIColor.blue
    vc.layerView = layerView
    vc.view.addSubview(layerView)
    _ = seed4AffineConstructors()
    _ = seed4Transform3DConstructors()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}

/// A 390×300 container at y = 272 holding two 150×150 views (red at x = 30, blue at x = 210,
/// both at y = 75): they lean towards each other like an open book, sharing the container's
/// centre as vanishing point.
func makeSeed4SublayerTransformScene() -> Scene {
    let vc = SublayerTransformViewController()
    let container = UIView(frame: CGRect(x: 0, y: 272, width: 390, height: 300))
    let v1 = UIView(frame: CGRect(x: 30, y: 75, width: 150, height: 150))
    v1.backgroundColor = UIColor.red
    let v2 = UIView(frame: CGRect(x: 210, y: 75, width: 150, height: 150))
    v2.backgroundColor = UIColor.blue
    container.addSubview(v1)
    container.addSubview(v2)
    vc.containerView = container
    vc.layerView1 = v1
    vc.layerView2 = v2
    vc.view.addSubview(container)
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
