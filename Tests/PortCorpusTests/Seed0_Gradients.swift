// Seed 000 §5.4 CAGradientLayer: 用例1 a red→blue diagonal gradient; 用例2 four colours squeezed
// into the top-left half with locations 0, 0.25, 0.5, 0.75.
import Strata

class GradientViewController: UIViewController {
    lazy var containerView = UIView(frame: CGRect(x: 20, y: 150, width: 300, height: 300))

    override func viewDidLoad() {
        super.viewDidLoad()
        gradientLayerTesting()
    }

    // gradient
    func gradientLayerTesting() {
        self.view.addSubview(self.containerView)
        self.containerView.frame = CGRect(x: 0, y: 200, width: self.view.frame.size.width, height: 200)

        let layer = CAGradientLayer()
        layer.frame = self.containerView.bounds
        self.containerView.layer.addSublayer(layer)

        layer.startPoint = CGPoint(x: 0, y: 0)
        layer.endPoint = CGPoint(x: 1, y: 1)
        layer.colors = [UIColor.red.cgColor, UIColor.blue.cgColor]
    }
}

class MultiGradientViewController: UIViewController {
    lazy var containerView = UIView(frame: CGRect(x: 20, y: 150, width: 300, height: 300))

    override func viewDidLoad() {
        super.viewDidLoad()
        gradientLayerTesting2()
    }

    // gradient2
    func gradientLayerTesting2() {
        self.view.addSubview(self.containerView)
        self.containerView.frame = CGRect(x: 0, y: 200, width: self.view.frame.size.width, height: 200)

        let layer = CAGradientLayer()
        layer.frame = self.containerView.bounds
        self.containerView.layer.addSublayer(layer)

        layer.startPoint = CGPoint(x: 0, y: 0)
        layer.endPoint = CGPoint(x: 1, y: 1)
        layer.locations = [0, 0.25, 0.5, 0.75]
        layer.colors = [UIColor.red.cgColor, UIColor.yellow.cgColor, UIColor.blue.cgColor, UIColor.green.cgColor]
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0GradientScene() -> Scene {
    let vc = GradientViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}

func makeSeed0MultiGradientScene() -> Scene {
    let vc = MultiGradientViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
