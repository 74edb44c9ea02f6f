// Seed 004 三、专用图层 3.1 CAShapeLayer 绘制圆角: a path with three rounded corners and one square
// corner (top left), for a CAShapeLayer.
import Strata

func seed4ThreeRoundedCornersPath() -> UIBezierPath {
    let rect = CGRect(x: 50, y: 50, width: 100, height: 100)
    let radii = CGSize(width: 20, height: 20)
    let corners: UIRectCorner = [.topRight, .bottomRight, .bottomLeft]
    // create path
    let path = UIBezierPath(roundedRect: rect, byRoundingCorners: corners, cornerRadii: radii)
    return path
}

// Port note (completion): the note stops after creating the path; the book's listing goes on to
// show it in a shape layer.
class RoundedCornersViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        let shapeLayer = CAShapeLayer()
        shapeLayer.strokeColor = UIColor.red.cgColor
        shapeLayer.fillColor = UIColor.clear.cgColor
        shapeLayer.lineWidth = 5
        shapeLayer.path = seed4ThreeRoundedCornersPath().cgPath
        self.view.layer.addSublayer(shapeLayer)
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed4RoundedCornersScene() -> Scene {
    let vc = RoundedCornersViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
