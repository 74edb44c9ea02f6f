// Seed 001 隐式动画 8. 动画过渡方式: a custom action — a push transition from the left — for the
// colour layer's backgroundColor.
import Strata

class ActionsPushViewController: UIViewController {
    var colorLayer: CALayer!

    override func viewDidLoad() {
        super.viewDidLoad()
        // Port note (completion): layer set-up not in the note (the book's 100×100 blue layer).
        self.colorLayer = CALayer()
        self.colorLayer.frame = CGRect(x: 145, y: 372, width: 100, height: 100)
        self.colorLayer.backgroundColor = UIColor.blue.cgColor

        // add a custom action
        let transition = CATransition()
        transition.type = .push
        transition.subtype = .fromLeft
        self.colorLayer.actions = ["backgroundColor": transition]

        self.view.layer.addSublayer(self.colorLayer)
    }

    // Port note (completion): the button action that changes the colour.
    func changeColor() {
        let red = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let green = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let blue = CGFloat(arc4random()) / CGFloat(INT_MAX)
        self.colorLayer.backgroundColor = UIColor(red: red, green: green, blue: blue, alpha: 1.0).cgColor
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed1ActionsPushTransitionScene() -> Scene {
    let vc = ActionsPushViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1.5)
    scene.at(0.5) { vc.changeColor() }
    return scene
}
