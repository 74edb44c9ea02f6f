// Seed 000 §4.1 仿射变换 and §4.2 混合变换: CGAffineTransform on a layer (affineTransform) and on a
// view (transform). In Swift the CGAffineTransformMake… C functions are unavailable; an iOS
// developer writes the CGAffineTransform initialisers and methods below.
import Strata

// 000 §4.1 first block — the three constructors.
// 000 §4.2 first block — the three "apply on top" functions; second block — concatenation.
// Port note (completion): declarations only in the note; each is called once here.
func affineTransformFunctions() -> [CGAffineTransform] {
    let rotation = CGAffineTransform(rotationAngle: .pi / 4)               // CGAffineTransformMakeRotation
    let scale = CGAffineTransform(scaleX: 2, y: 0.5)                       // CGAffineTransformMakeScale
    let translation = CGAffineTransform(translationX: 10, y: 20)           // CGAffineTransformMakeTranslation
    let rotated = translation.rotated(by: .pi / 2)                         // CGAffineTransformRotate
    let scaled = rotation.scaledBy(x: 2, y: 2)                             // CGAffineTransformScale
    let translated = scale.translatedBy(x: 5, y: 5)                        // CGAffineTransformTranslate
    let identity = CGAffineTransform.identity                              // CGAffineTransformIdentity
    let concatenated = rotation.concatenating(translation)                 // CGAffineTransformConcat
    return [rotation, scale, translation, rotated, scaled, translated, identity, concatenated]
}

// 000 §4.1 second block — rotate a view's layer by 45° through affineTransform.
class AffineRotationViewController: UIViewController {
    weak var layerView: UIView!  // was @IBOutlet (storyboard); the harness plays the storyboard

    override func viewDidLoad() {
        super.viewDidLoad()
        let transform = CGAffineTransform(rotationAngle: .pi / 4)
        self.layerView.layer.setAffineTransform(transform)
    }
}

// The note's conversion macro (iOS transform functions take radians).
func RADIANS_TO_DEGREES(_ x: Double) -> Double {
    return x / .pi * 180.0
}

// 000 §4.2 third block — scale 50 %, rotate 30°, then translate 200 points, on a view's transform.
class CombinedAffineViewController: UIViewController {
    weak var greenView: UIView!  // was @IBOutlet (storyboard)

    override func viewDidLoad() {
        super.viewDidLoad()
        var transform = CGAffineTransform.identity
        transform = transform.scaledBy(x: 0.5, y: 0.5)
        transform = transform.rotated(by: .pi / 180.0 * 30.0)
        transform = transform.translatedBy(x: 200, y: 0)
        self.greenView.transform = transform
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0AffineRotationScene() -> Scene {
    let vc = AffineRotationViewController()
    let layerView = UIView(frame: CGRect(x: 95, y: 322, width: 200, height: 200))
    layerView.backgroundColor = UIColor.red
    vc.layerView = layerView
    vc.view.addSubview(layerView)  // first access to vc.view runs viewDidLoad (outlet already set)
    _ = affineTransformFunctions()
    _ = RADIANS_TO_DEGREES(.pi / 4)
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}

func makeSeed0CombinedAffineScene() -> Scene {
    let vc = CombinedAffineViewController()
    let greenView = UIView(frame: CGRect(x: 95, y: 322, width: 200, height: 200))
    greenView.backgroundColor = UIColor.green
    vc.greenView = greenView
    vc.view.addSubview(greenView)
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
