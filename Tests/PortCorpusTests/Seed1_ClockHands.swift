// Seed 001 显式动画 2. CAAnimationDelegate + key-value data on an animation
// (`[animation setValue:handView forKey:@"handView"]`) and 缓冲 4. 闹钟缓冲动画: a clock hand turned
// with a CABasicAnimation on "transform" from the presentation value, eased with control points
// (1, 0, 0.75, 1).
import Strata

// Port note (completion): the note shows the animation set-up and the setValue call only; they come
// from the book's clock example, completed minimally: three hands (plain views instead of the
// book's hand images) rotating about their bottom centre, and the delegate that sets the final
// transform when an animation stops.
class ClockViewController: UIViewController, CAAnimationDelegate {
    var hourHand: UIView!
    var minuteHand: UIView!
    var secondHand: UIView!

    override func viewDidLoad() {
        super.viewDidLoad()
        self.view.backgroundColor = UIColor.white
        self.hourHand = self.makeHand(length: 60, width: 8, color: UIColor.black)
        self.minuteHand = self.makeHand(length: 90, width: 5, color: UIColor.darkGray)
        self.secondHand = self.makeHand(length: 100, width: 2, color: UIColor.red)
    }

    func makeHand(length: CGFloat, width: CGFloat, color: UIColor) -> UIView {
        let hand = UIView(frame: CGRect(x: 0, y: 0, width: width, height: length))
        hand.backgroundColor = color
        hand.layer.anchorPoint = CGPoint(x: 0.5, y: 1)
        hand.center = self.view.center
        self.view.addSubview(hand)
        return hand
    }

    func setAngle(_ angle: CGFloat, forHand handView: UIView, animated: Bool) {
        // generate transform
        let transform = CATransform3DMakeRotation(angle, 0, 0, 1)
        if animated {
            // create transform animation
            let animation = CABasicAnimation()
            animation.keyPath = "transform"
            animation.fromValue = handView.layer.presentation()?.value(forKey: "transform")
            animation.toValue = NSValue(caTransform3D: transform)
            animation.duration = 0.5
            animation.delegate = self
            animation.timingFunction = CAMediaTimingFunction(controlPoints: 1, 0, 0.75, 1)
            // a CAAnimation stores any key/value pair, like an NSDictionary
            animation.setValue(handView, forKey: "handView")
            // apply animation
            handView.layer.add(animation, forKey: nil)
        } else {
            // set transform directly
            handView.layer.transform = transform
        }
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        // set final position for hand view
        let handView = anim.value(forKey: "handView") as! UIView
        handView.layer.transform = ((anim as! CABasicAnimation).toValue as! NSValue).caTransform3DValue
    }
}

// MARK: - Strata harness (not part of the port)

/// The clock shows 10:08:00 at t = 0 (set without animation); each second (t = 1, 2, 3) the second
/// hand ticks 6° with the eased 0.5 s animation and stays there (set by the delegate).
func makeSeed1ClockHandsScene() -> Scene {
    let vc = ClockViewController()
    let root = vc.view.layer
    vc.setAngle(10.0 / 12.0 * .pi * 2.0, forHand: vc.hourHand, animated: false)
    vc.setAngle(8.0 / 60.0 * .pi * 2.0, forHand: vc.minuteHand, animated: false)
    vc.setAngle(0, forHand: vc.secondHand, animated: false)
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 4)
    for second in 1...3 {
        scene.at(Double(second)) {
            vc.setAngle(CGFloat(second) / 60.0 * .pi * 2.0, forHand: vc.secondHand, animated: true)
        }
    }
    return scene
}
