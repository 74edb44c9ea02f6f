// Seed 000 §5.5 CAReplicatorLayer: 1) ten white squares turned about the replicator's centre with
// fading blue/green; 2) a mirror image (rotated π about y, alpha −0.7).
import Strata

class ReplicatorViewController: UIViewController {
    lazy var containerView = UIView(frame: CGRect(x: 20, y: 150, width: 300, height: 300))

    override func viewDidLoad() {
        super.viewDidLoad()
        replicatorLayerTesting()
    }

    // repeat
    func replicatorLayerTesting() {
        self.view.addSubview(self.containerView)
        self.containerView.frame = CGRect(x: 0, y: 200, width: self.view.frame.size.width, height: 200)

        let replicatorLayer = CAReplicatorLayer()
        replicatorLayer.frame = self.containerView.bounds
        self.containerView.layer.addSublayer(replicatorLayer)

        replicatorLayer.instanceCount = 10

        var t = CATransform3DIdentity
        t = CATransform3DTranslate(t, 0, 10, 0)
        t = CATransform3DRotate(t, .pi / 5, 0, 0, 1)
//        t = CATransform3DTranslate(t, 0, -1, 0)
        replicatorLayer.instanceTransform = t

        replicatorLayer.instanceBlueOffset = -0.1
        replicatorLayer.instanceGreenOffset = -0.1

        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        layer.backgroundColor = UIColor.white.cgColor
        replicatorLayer.addSublayer(layer)
    }
}

class ReflectionViewController: UIViewController {
    lazy var containerView = UIView(frame: CGRect(x: 20, y: 150, width: 300, height: 300))

    override func viewDidLoad() {
        super.viewDidLoad()
        reflictTesting()
    }

    // reflection (the note's method name keeps its typo)
    func reflictTesting() {
        self.view.addSubview(self.containerView)
        self.containerView.frame = CGRect(x: 0, y: 200, width: self.view.frame.size.width, height: 200)

        let replicatorLayer = CAReplicatorLayer()
        replicatorLayer.frame = self.containerView.bounds
        self.containerView.layer.addSublayer(replicatorLayer)

        replicatorLayer.instanceCount = 2

        var t = CATransform3DIdentity
        t = CATransform3DRotate(t, .pi, 0, 1, 0)
        replicatorLayer.instanceTransform = t

        replicatorLayer.instanceAlphaOffset = -0.7

        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: self.view.frame.size.width / 2.0, height: 200)
        layer.contents = UIImage(named: "wal")?.cgImage
        replicatorLayer.addSublayer(layer)
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0ReplicatorScene() -> Scene {
    let vc = ReplicatorViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}

func makeSeed0ReflectionScene() -> Scene {
    let vc = ReflectionViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
