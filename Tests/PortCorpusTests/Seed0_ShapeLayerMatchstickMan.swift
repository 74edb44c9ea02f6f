// Seed 000 §5.1 CAShapeLayer, 用例1: a stick figure drawn with one CAShapeLayer (red, 5 pt, round
// joins and caps, no fill).
import Strata

class MatchstickManViewController: UIViewController {
    // Port note (completion): the note's `containerView` property is not shown; a lazily created
    // 300×300 view at (20, 150), the same default for all of the note's §5 examples.
    lazy var containerView = UIView(frame: CGRect(x: 20, y: 150, width: 300, height: 300))

    override func viewDidLoad() {
        super.viewDidLoad()
        drawMatchstickMan()
    }

    // CAShapeLayer
    func drawMatchstickMan() {
        self.containerView.backgroundColor = UIColor.white
        self.view.addSubview(self.containerView)

        let path = UIBezierPath()
        path.move(to: CGPoint(x: 175, y: 100))
        path.addArc(withCenter: CGPoint(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        path.move(to: CGPoint(x: 150, y: 125))
        path.addLine(to: CGPoint(x: 150, y: 175))
        path.addLine(to: CGPoint(x: 125, y: 225))
        path.move(to: CGPoint(x: 150, y: 175))
        path.addLine(to: CGPoint(x: 175, y: 225))
        path.move(to: CGPoint(x: 100, y: 150))
        path.addLine(to: CGPoint(x: 200, y: 150))

        let layer = CAShapeLayer()
        layer.strokeColor = UIColor.red.cgColor
        layer.fillColor = UIColor.clear.cgColor
        layer.lineWidth = 5
        layer.lineJoin = .round
        layer.lineCap = .round
        layer.path = path.cgPath
        self.containerView.layer.addSublayer(layer)
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0MatchstickManScene() -> Scene {
    let vc = MatchstickManViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
