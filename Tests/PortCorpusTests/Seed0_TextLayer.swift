// Seed 000 §5.2 CATextLayer, 用例1: a CATextLayer used like a UILabel (red, justified, wrapped,
// system font at 10 pt — CATextLayer takes the size from fontSize, not from the UIFont).
import Strata

class TextLayerViewController: UIViewController {
    lazy var containerView = UIView(frame: CGRect(x: 20, y: 150, width: 300, height: 300))

    override func viewDidLoad() {
        super.viewDidLoad()
        textLayerTesting()
    }

    // CATextLayer
    // Note: CATextLayer takes its size from fontSize; the size of the UIFont passed as `font` is ignored.
    func textLayerTesting() {
        self.view.addSubview(self.containerView)
        self.containerView.frame = CGRect(x: 20, y: 150, width: 300, height: 500)

        let textLayer = CATextLayer()
        textLayer.frame = self.containerView.bounds
        self.containerView.layer.addSublayer(textLayer)
        textLayer.foregroundColor = UIColor.red.cgColor
        textLayer.alignmentMode = .justified
        textLayer.isWrapped = true
        textLayer.font = UIFont.systemFont(ofSize: 0)
        textLayer.fontSize = 10
        textLayer.string = "快速的业务发展也对技术支撑提出了更高的要求，为了保障敏捷的业务开发，提升跨团队的协同合作效率，提高本地研发和 CI/CD 效率，抖音 iOS App 工程架构在不同的阶段进行了不同的技术方案的改进，满足合理的架构演化，同时又不影响正常的业务迭代速度。"
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0TextLayerScene() -> Scene {
    let vc = TextLayerViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
