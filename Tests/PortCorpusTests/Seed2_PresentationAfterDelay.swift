// Seed 002 3.2 展示层和模型层: after setting a view's centre the model changes at once, the
// presentation only at the next screen refresh (read back with two delayed blocks).
import Strata

class PresentationDelayViewController: UIViewController {
    // Port note (completion): the note uses an undeclared `dispatchQueue`; the main queue here.
    let dispatchQueue = DispatchQueue.main

    override func viewDidLoad() {
        super.viewDidLoad()
        let view = MyTestView(frame: CGRect(x: 200, y: 200, width: 100, height: 100))
        self.view.addSubview(view)
        view.center = CGPoint(x: 1000, y: 1000)
        // (In the Objective-C original `(1/60)` and `(1/20)` are integer divisions, i.e. no delay.)
        dispatchQueue.asyncAfter(deadline: .now() + 1.0 / 60) {
            print("presentationLayer \(String(describing: view.layer.presentation())) y \(view.layer.presentation()?.position.y ?? 0)")
            print("layer.modelLayer \(view.layer.model()) y \(view.layer.model().position.y)")
        }
        dispatchQueue.asyncAfter(deadline: .now() + 1.0 / 20) {
            print("presentationLayer \(String(describing: view.layer.presentation())) y \(view.layer.presentation()?.position.y ?? 0)")
            print("layer.modelLayer \(view.layer.model()) y \(view.layer.model().position.y)")
        }
    }
}

// MARK: - Strata harness (not part of the port)

/// Nothing visible (the view moves off screen at once: view-backed layers do not animate); the two
/// logs are expected at t = 1/60 and t = 1/20 of scene time — only if Strata runs main-queue
/// work at scene times (it does not today).
func makeSeed2PresentationAfterDelayScene() -> Scene {
    let vc = PresentationDelayViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 60, duration: 0.2)
}
