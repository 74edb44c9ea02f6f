// Seed 000 §6.1 事务 (transactions) and §6.2 图层行为: a standalone layer's backgroundColor change
// animates implicitly over the transaction's duration (1 s); a completion block; disabling actions.
import Strata

class TransactionViewController: UIViewController {
    lazy var containerView = UIView(frame: CGRect(x: 20, y: 150, width: 300, height: 300))
    var testLayer: CALayer!

    override func viewDidLoad() {
        super.viewDidLoad()
        transactionTesting()
    }

    // 000 §6.1 first block
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        let red = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let green = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let blue = CGFloat(arc4random()) / CGFloat(INT_MAX)
        self.testLayer.backgroundColor = UIColor(red: red, green: green, blue: blue, alpha: 1.0).cgColor
        CATransaction.commit()
    }

    func transactionTesting() {
        self.view.addSubview(self.containerView)
        self.containerView.frame = CGRect(x: 0, y: 200, width: self.view.frame.size.width, height: 200)

        self.testLayer = CALayer()
        self.testLayer.frame = self.containerView.bounds
        self.containerView.layer.addSublayer(self.testLayer)
        self.testLayer.backgroundColor = UIColor.red.cgColor
    }
}

// 000 §6.1 second block — a completion block on the transaction.
// Port note (completion): the note shows the call alone; here it sits inside the touch handler's
// transaction.
class TransactionCompletionViewController: TransactionViewController {
    var completed = false

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setCompletionBlock {
            print("transaction finished")
            self.completed = true
        }
        let red = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let green = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let blue = CGFloat(arc4random()) / CGFloat(INT_MAX)
        self.testLayer.backgroundColor = UIColor(red: red, green: green, blue: blue, alpha: 1.0).cgColor
        CATransaction.commit()
    }
}

// 000 §6.2 — "add this after [CATransaction begin]": the change then happens at once.
class TransactionDisableActionsViewController: TransactionViewController {
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.setAnimationDuration(1)
        let red = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let green = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let blue = CGFloat(arc4random()) / CGFloat(INT_MAX)
        self.testLayer.backgroundColor = UIColor(red: red, green: green, blue: blue, alpha: 1.0).cgColor
        CATransaction.commit()
    }
}

// MARK: - Strata harness (not part of the port)
// A touch anywhere at t = 0.5 (UITouch(location:in:) is a harness-only helper).

func makeSeed0TransactionScene() -> Scene {
    let vc = TransactionViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(0.5) { vc.touchesBegan([UITouch(location: CGPoint(x: 100, y: 100), in: vc.view)], with: nil) }
    return scene
}

func makeSeed0TransactionCompletionScene() -> Scene {
    let vc = TransactionCompletionViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(0.5) { vc.touchesBegan([UITouch(location: CGPoint(x: 100, y: 100), in: vc.view)], with: nil) }
    // expected: vc.completed becomes true at t = 1.5
    return scene
}

func makeSeed0TransactionDisableActionsScene() -> Scene {
    let vc = TransactionDisableActionsViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(0.5) { vc.touchesBegan([UITouch(location: CGPoint(x: 100, y: 100), in: vc.view)], with: nil) }
    return scene
}
