// Seed 002 3.1 UIView动画实现原理: a CALayer subclass and a UIView subclass that log their bounds
// setters (the view's setter calls the layer's), the view choosing the layer class; then the view
// overriding the layer-delegate method actionForLayer:forKey: to look at UIKit's action.
import Strata

class MyTestLayer: CALayer {
    override var bounds: CGRect {
        get { return super.bounds }
        set {
            print("----layer setBounds")
            super.bounds = newValue
            print("----layer setBounds end")
        }
    }
    // ... (elided in the note)
}

class MyTestView: UIView {
    override var bounds: CGRect {
        get { return super.bounds }
        set {
            print("----view setBounds")
            super.bounds = newValue
            print("----view setBounds end")
        }
    }
    // ... (elided in the note)

    override class var layerClass: AnyClass {
        return MyTestLayer.self
    }

    // 002 3.1 — the view is its layer's delegate; UIKit returns its own action inside animation
    // blocks (an internal additive action wrapping a CABasicAnimation) and NSNull outside.
    override func action(for layer: CALayer, forKey event: String) -> CAAction? {
        let action = super.action(for: layer, forKey: event)
        return action
    }
}

// MARK: - Strata harness (not part of the port)

/// A 100×100 MyTestView at (200, 200); at t = 0.5 bounds 200×200 inside a 1 s UIView animation:
/// the log shows view setter → layer setter → layer end → view end, and the view grows about its
/// centre; at t = 2 a bounds change outside any block jumps (NSNull action) back to 100×100.
func makeSeed2MyTestLayerViewScene() -> Scene {
    let host = UIView(frame: UIScreen.main.bounds)
    let view = MyTestView(frame: CGRect(x: 200, y: 200, width: 100, height: 100))
    view.backgroundColor = UIColor.red
    host.addSubview(view)
    let scene = Scene(rootLayer: host.layer, size: host.bounds.size, frameRate: 30, duration: 3)
    scene.at(0.5) {
        UIView.animate(withDuration: 1, animations: {
            view.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        })
    }
    scene.at(2) { view.bounds = CGRect(x: 0, y: 0, width: 100, height: 100) }
    return scene
}
