// Seed 000 §6.2 案例: a push transition (from the left) as the layer's action for backgroundColor,
// through the `actions` dictionary.
import Strata

class PushTransitionActionViewController: UIViewController {
    var testLayer: CALayer!

    override func viewDidLoad() {
        super.viewDidLoad()
        transactionTesting()
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        let red = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let green = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let blue = CGFloat(arc4random()) / CGFloat(INT_MAX)
        self.testLayer.backgroundColor = UIColor(red: red, green: green, blue: blue, alpha: 1.0).cgColor
    }

    func transactionTesting() {
        self.testLayer = CALayer()
        self.testLayer.frame = CGRect(x: 200, y: 200, width: 200, height: 200)
        self.view.layer.addSublayer(self.testLayer)
        self.testLayer.backgroundColor = UIColor.red.cgColor
        let transition = CATransition()
        transition.type = .push
        transition.subtype = .fromLeft
        self.testLayer.actions = ["backgroundColor": transition]
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0PushTransitionActionScene() -> Scene {
    let vc = PushTransitionActionViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(0.5) { vc.touchesBegan([UITouch(location: CGPoint(x: 100, y: 100), in: vc.view)], with: nil) }
    return scene
}
