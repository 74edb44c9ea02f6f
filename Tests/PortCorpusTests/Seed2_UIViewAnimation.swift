// Seed 002 3.1 UIView动画实现原理 and 3.2 展示层和模型层: a block animation toggling the view's bounds
// between 100×100 and 200×200; two overlapping ones (3 s, then 1 s) add up; the model changes at
// once while the presentation moves.
import Strata

class UIViewAnimationViewController: UIViewController {
    var _testView: UIView!

    // Port note (completion): the test view is not created in the note; a 100×100 red view centred.
    override func viewDidLoad() {
        super.viewDidLoad()
        _testView = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        _testView.center = self.view.center
        _testView.backgroundColor = UIColor.red
        self.view.addSubview(_testView)
    }

    // 002 3.1 first block (duration 1 in the note)
    func toggleBounds() {
        UIView.animate(withDuration: 1, animations: {
            if self._testView.bounds.size.width > 150 {
                self._testView.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            } else {
                self._testView.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
            }
        }, completion: { finished in
            print("\(finished)")
        })
    }

    // Port note: the note's overlap experiment (prose) runs the same block with 3 s first.
    func toggleBounds3s() {
        UIView.animate(withDuration: 3, animations: {
            if self._testView.bounds.size.width > 150 {
                self._testView.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            } else {
                self._testView.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
            }
        }, completion: { finished in
            print("\(finished)")
        })
    }

    // 002 3.2 first block — model vs presentation right after a block animation.
    func animateToLargeBounds() {
        _testView.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        UIView.animate(withDuration: 1, animations: {
            self._testView.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        }, completion: nil)
        // Port note (completion): "after the assignment we print the view's and the layer's bounds"
        print(_testView.bounds, _testView.layer.bounds)
    }

    // Port note (completion): "0.1 s after the animation starts we print layer, presentationLayer,
    // modelLayer and presentationLayer.modelLayer".
    func logLayers() {
        let layer = _testView.layer
        print(layer, layer.presentation() as Any, layer.model(), layer.presentation()?.model() as Any)
    }
}

// MARK: - Strata harness (not part of the port)

/// Overlap: t = 0.5 a 3 s animation to 200×200 starts; t = 1.0 (size ≈ 106, eased) a 1 s animation back
/// to 100×100 is added on top: the square shrinks below 100 until t = 2, then grows back to 100 by
/// t = 3.5. Both completions print true.
func makeSeed2UIViewAnimationOverlapScene() -> Scene {
    let vc = UIViewAnimationViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 4)
    scene.at(0.5) { vc.toggleBounds3s() }
    scene.at(1.0) { vc.toggleBounds() }
    return scene
}

/// Model/presentation: at t = 0.5 the model becomes 200×200 at once; at t = 0.6 the log shows the
/// presentation at ≈ 102 (ease-in-out, 10 % of the time), model() and presentation().model() both
/// the layer.
func makeSeed2ModelPresentationScene() -> Scene {
    let vc = UIViewAnimationViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(0.5) { vc.animateToLargeBounds() }
    scene.at(0.6) { vc.logLayers() }
    return scene
}
