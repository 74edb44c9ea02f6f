// Seed 000 §1.2 寄宿图 (contents): 1) contents, 2) contentsGravity, 3) contentsScale.
// Ported from Objective-C the way an iOS developer writes it in Swift.
import Strata

// 000 §1.2 1) — contents: a CGImage shown by a view's backing layer.
class ContentsViewController: UIViewController {
    var centerView: UIView!

    override func viewDidLoad() {
        super.viewDidLoad()

        let centerView = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        centerView.backgroundColor = UIColor.lightGray
        centerView.center = self.view.center
        self.view.addSubview(centerView)
        // Port note: kept in a property so snippets 2) and 3) can reach it.
        self.centerView = centerView

        let image = UIImage(named: "1")
        centerView.layer.contents = image?.cgImage
    }
}

// 000 §1.2 2) — contentsGravity (like UIImageView's contentMode).
func applyContentsGravity(to centerView: UIView) {
    centerView.layer.contentsGravity = .resizeAspect
}

// 000 §1.2 3) — contentsScale: set it by hand for Retina screens when code sets contents.
func applyContentsScale(to layer: CALayer) {
    layer.contentsScale = UIScreen.main.scale
}

// MARK: - Strata harness (not part of the port)

func makeSeed0ContentsScene() -> Scene {
    let vc = ContentsViewController()
    let root = vc.view.layer  // loading the view runs viewDidLoad
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}

func makeSeed0ContentsGravityScene() -> Scene {
    let vc = ContentsViewController()
    let root = vc.view.layer
    applyContentsGravity(to: vc.centerView)
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}

func makeSeed0ContentsScaleScene() -> Scene {
    let vc = ContentsViewController()
    let root = vc.view.layer
    applyContentsGravity(to: vc.centerView)
    applyContentsScale(to: vc.centerView.layer)
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
