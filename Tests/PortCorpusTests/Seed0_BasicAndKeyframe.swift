// Seed 000 §7.1.1 CABasicAnimation (a cumulative, autoreversing, endless quarter turn) and §7.1.2
// CAKeyframeAnimation (backgroundColor through blue, red, green, blue every 2 s).
import Strata

class BasicRotationViewController: UIViewController {
    var testLayer: CALayer!

    override func viewDidLoad() {
        super.viewDidLoad()
        animationTesting()
    }

    func animationTesting() {
        self.testLayer = CALayer()
        self.testLayer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        self.testLayer.position = self.view.center
        self.testLayer.backgroundColor = UIColor.red.cgColor
        self.view.layer.addSublayer(self.testLayer)

        let animtion = CABasicAnimation(keyPath: "transform.rotation.z")
        animtion.toValue = Double.pi / 2
        animtion.duration = 4
        animtion.isCumulative = true
        animtion.repeatCount = .infinity
        animtion.autoreverses = true
        self.testLayer.add(animtion, forKey: "rotation")
    }
}

// 000 §7.1.2 first block.
// Port note (completion): the snippet animates `self.testLayer`; the layer is set up as in §7.1.1.
class KeyframeColorViewController: UIViewController {
    var testLayer: CALayer!

    override func viewDidLoad() {
        super.viewDidLoad()
        self.testLayer = CALayer()
        self.testLayer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        self.testLayer.position = self.view.center
        self.testLayer.backgroundColor = UIColor.red.cgColor
        self.view.layer.addSublayer(self.testLayer)

        let animation = CAKeyframeAnimation(keyPath: "backgroundColor")
        animation.duration = 2.0
        animation.values = [
            UIColor.blue.cgColor,
            UIColor.red.cgColor,
            UIColor.green.cgColor,
            UIColor.blue.cgColor]
        animation.repeatCount = .infinity
        self.testLayer.add(animation, forKey: nil)
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0BasicRotationScene() -> Scene {
    let vc = BasicRotationViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 16)
}

func makeSeed0KeyframeColorScene() -> Scene {
    let vc = KeyframeColorViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 4)
}
