// Seed 000 §6.3 呈现与模型: tapping the moving layer (hit-tested on its presentation layer)
// changes its colour; tapping elsewhere moves it there over 4 s.
import Strata

class PresentationHitTestViewController: UIViewController {
    var testLayer: CALayer!

    override func viewDidLoad() {
        super.viewDidLoad()
        presentationTesting()
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let point = touches.first?.location(in: self.view) else { return }
        if self.testLayer.presentation()?.hitTest(point) != nil {
            let red = CGFloat(arc4random()) / CGFloat(INT_MAX)
            let green = CGFloat(arc4random()) / CGFloat(INT_MAX)
            let blue = CGFloat(arc4random()) / CGFloat(INT_MAX)
            self.testLayer.backgroundColor = UIColor(red: red, green: green, blue: blue, alpha: 1.0).cgColor
        } else {
            CATransaction.begin()
            CATransaction.setAnimationDuration(4.0)
            self.testLayer.position = point
            CATransaction.commit()
        }
    }

    func presentationTesting() {
        self.testLayer = CALayer()
        self.testLayer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        self.testLayer.position = self.view.center
        self.testLayer.backgroundColor = UIColor.red.cgColor
        self.view.layer.addSublayer(self.testLayer)
    }
}

// MARK: - Strata harness (not part of the port)

/// t = 0.5: tap at (95, 122) — outside, so the layer starts a 4 s move from (195, 422) to there.
/// t = 2.5: the presentation is at about (114.8, 181.3) (default timing function, 62.5 % of the
/// time ≈ 80.2 % of the way); a tap at (115, 200) hits the presentation layer but not the model
/// (already at (95, 122)), so the colour changes (implicitly, 0.25 s) and the move continues.
func makeSeed0PresentationHitTestScene() -> Scene {
    let vc = PresentationHitTestViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 5)
    scene.at(0.5) { vc.touchesBegan([UITouch(location: CGPoint(x: 95, y: 122), in: vc.view)], with: nil) }
    scene.at(2.5) { vc.touchesBegan([UITouch(location: CGPoint(x: 115, y: 200), in: vc.view)], with: nil) }
    return scene
}
