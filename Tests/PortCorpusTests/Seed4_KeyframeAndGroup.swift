// Seed 004 七、显式动画 7.1 CAKeyframeAnimation (a ship image moving along a path, turning with the
// tangent) and 八、动画组 CAAnimationGroup (a green square moving along the path while turning
// red, 4 s).
import Strata

class ShipKeyframeViewController: UIViewController {
    weak var containerView: UIView!  // was @IBOutlet (storyboard)

    override func viewDidLoad() {
        super.viewDidLoad()
        // create a path
        // ... (elided in the note; completion: the path, its shape layer and the ship layer, as in
        // the book's listing and in the group example below)
        let bezierPath = UIBezierPath()
        bezierPath.move(to: CGPoint(x: 0, y: 150))
        bezierPath.addCurve(to: CGPoint(x: 300, y: 150), controlPoint1: CGPoint(x: 75, y: 0), controlPoint2: CGPoint(x: 225, y: 300))
        let pathLayer = CAShapeLayer()
        pathLayer.path = bezierPath.cgPath
        pathLayer.fillColor = UIColor.clear.cgColor
        pathLayer.strokeColor = UIColor.red.cgColor
        pathLayer.lineWidth = 3.0
        self.containerView.layer.addSublayer(pathLayer)
        let shipLayer = CALayer()
        shipLayer.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        shipLayer.position = CGPoint(x: 0, y: 150)
        shipLayer.contents = UIImage(named: "Ship.png")?.cgImage
        self.containerView.layer.addSublayer(shipLayer)

        // create the keyframe animation
        let animation = CAKeyframeAnimation()
        // move along the path
        animation.keyPath = "position"
        // duration
        animation.duration = 4.0
        // the path
        animation.path = bezierPath.cgPath
        // the layer turns with the curve's tangent
        animation.rotationMode = .rotateAuto
        shipLayer.add(animation, forKey: nil)
    }
}

class Seed4AnimationGroupViewController: UIViewController {
    weak var containerView: UIView!  // was @IBOutlet (storyboard)

    override func viewDidLoad() {
        super.viewDidLoad()
        // create a path
        let bezierPath = UIBezierPath()
        bezierPath.move(to: CGPoint(x: 0, y: 150))
        bezierPath.addCurve(to: CGPoint(x: 300, y: 150), controlPoint1: CGPoint(x: 75, y: 0), controlPoint2: CGPoint(x: 225, y: 300))
        // draw the path using a CAShapeLayer
        let pathLayer = CAShapeLayer()
        pathLayer.path = bezierPath.cgPath
        pathLayer.fillColor = UIColor.clear.cgColor
        pathLayer.strokeColor = UIColor.red.cgColor
        pathLayer.lineWidth = 3.0
        self.containerView.layer.addSublayer(pathLayer)
        // add a colored layer
        let colorLayer = CALayer()
        colorLayer.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        colorLayer.position = CGPoint(x: 0, y: 150)
        colorLayer.backgroundColor = UIColor.green.cgColor
        self.containerView.layer.addSublayer(colorLayer)
        // create the position animation
        let animation1 = CAKeyframeAnimation()
        animation1.keyPath = "position"
        animation1.path = bezierPath.cgPath
        animation1.rotationMode = .rotateAuto
        // create the color animation
        let animation2 = CABasicAnimation()
        animation2.keyPath = "backgroundColor"
        animation2.toValue = UIColor.red.cgColor
        // create group animation
        let groupAnimation = CAAnimationGroup()
        groupAnimation.animations = [animation1, animation2]
        groupAnimation.duration = 4.0
        // add the animation to the color layer
        colorLayer.add(groupAnimation, forKey: nil)
    }
}

// MARK: - Strata harness (not part of the port)

private func seed4PathScene(_ vc: UIViewController, setContainer: (UIView) -> Void) -> Scene {
    let container = UIView(frame: CGRect(x: 45, y: 200, width: 300, height: 300))
    container.backgroundColor = UIColor.white
    setContainer(container)
    vc.view.addSubview(container)
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 5)
}

func makeSeed4ShipKeyframeScene() -> Scene {
    let vc = ShipKeyframeViewController()
    return seed4PathScene(vc) { vc.containerView = $0 }
}

func makeSeed4AnimationGroupScene() -> Scene {
    let vc = Seed4AnimationGroupViewController()
    return seed4PathScene(vc) { vc.containerView = $0 }
}
