// Seed 000 §7.1.2 案例 (an airplane image flying along a cubic Bézier, turning with the tangent)
// and §7.2 动画组 (the same path animation grouped with a backgroundColor animation to red).
import Strata

class AirplanePathViewController: UIViewController {
    lazy var containerView = UIView(frame: CGRect(x: 20, y: 150, width: 300, height: 300))
    var airLayer: CALayer!
    var animation: CAKeyframeAnimation!

    override func viewDidLoad() {
        super.viewDidLoad()
        keyframePathTesting()
    }

    // Port note (completion): the note's block is a method body without its method; wrapped here,
    // with airLayer/animation kept in properties so the §7.2 snippet that follows it can use them.
    func keyframePathTesting() {
        // keyframe animation 2
        self.view.addSubview(self.containerView)
        self.containerView.frame = CGRect(x: 0, y: 200, width: self.view.frame.size.width, height: 500)
        self.containerView.backgroundColor = UIColor.lightGray
        let bezierPath = UIBezierPath()
        bezierPath.move(to: CGPoint(x: 0, y: 150))
        bezierPath.addCurve(to: CGPoint(x: self.view.frame.size.width, y: 150),
                            controlPoint1: CGPoint(x: 75, y: 0),
                            controlPoint2: CGPoint(x: 225, y: 300))
        let pathLayer = CAShapeLayer()
        pathLayer.path = bezierPath.cgPath
        pathLayer.fillColor = UIColor.clear.cgColor
        pathLayer.strokeColor = UIColor.red.cgColor
        pathLayer.lineWidth = 3.0
        self.containerView.layer.addSublayer(pathLayer)

        let airLayer = CALayer()
        airLayer.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        airLayer.position = CGPoint(x: 0, y: 150)
        airLayer.contents = UIImage(named: "Airplane")?.cgImage
        self.containerView.layer.addSublayer(airLayer)

        let animation = CAKeyframeAnimation()
        animation.keyPath = "position"
        animation.duration = 4.0
        animation.path = bezierPath.cgPath
        // rotate automatically along the path's tangent
        animation.rotationMode = .rotateAuto
        animation.repeatCount = .infinity
        airLayer.add(animation, forKey: nil)
        self.airLayer = airLayer
        self.animation = animation
    }

    // 000 §7.2 — animation group
    func animationGroupTesting() {
        let baseAnimation = CABasicAnimation()
        baseAnimation.keyPath = "backgroundColor"
        baseAnimation.toValue = UIColor.red.cgColor

        let group = CAAnimationGroup()
        group.animations = [animation, baseAnimation]
        group.duration = 4.0
        group.repeatCount = .infinity
        airLayer.add(group, forKey: nil)
    }
}

// Port note (completion): the §7.2 snippet continues the §7.1.2 code (it uses its `animation` and
// `airLayer`), so it runs right after it; both the path animation and the group end up on airLayer.
class AnimationGroupViewController: AirplanePathViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        animationGroupTesting()
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0AirplanePathScene() -> Scene {
    let vc = AirplanePathViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 8)
}

func makeSeed0AnimationGroupScene() -> Scene {
    let vc = AnimationGroupViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 8)
}
