// Seed 000 §5.1 CAShapeLayer, 用例2: rounding only two corners with a shape-layer mask, plus a
// dashed border drawn along the same path.
import Strata

class CornerBorderViewController: UIViewController {
    // Port note (completion): see Seed0_ShapeLayerMatchstickMan.swift for this default.
    lazy var containerView = UIView(frame: CGRect(x: 20, y: 150, width: 300, height: 300))

    override func viewDidLoad() {
        super.viewDidLoad()
        drawCornerRect()
    }

    // Rounded corners + border
    func drawCornerRect() {
        self.view.addSubview(self.containerView)
        self.containerView.backgroundColor = UIColor.lightGray
        // Rounded corners
        let path = UIBezierPath(roundedRect: self.containerView.bounds,
                                byRoundingCorners: [.topLeft, .bottomRight],
                                cornerRadii: CGSize(width: 20, height: 10))
        let cornerLayer = CAShapeLayer()
        cornerLayer.path = path.cgPath
        self.containerView.layer.mask = cornerLayer
        // Border
        let borderLayer = CAShapeLayer()
        borderLayer.path = path.cgPath
        borderLayer.lineWidth = 10
        borderLayer.strokeColor = UIColor.blue.cgColor
        borderLayer.fillColor = UIColor.clear.cgColor
        borderLayer.lineDashPattern = [10, 2]
        self.containerView.layer.addSublayer(borderLayer)
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0CornerBorderScene() -> Scene {
    let vc = CornerBorderViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
