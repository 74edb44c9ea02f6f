// Seed 000 §2.5 自动布局: laying out sublayers by hand through CALayerDelegate's
// layoutSublayersOfLayer:, called when the bounds change or setNeedsLayout() is called.
import Strata

// Port note (completion): the note shows only the delegate method's declaration
//   func layoutSublayers(of layer: CALayer)
// This delegate keeps every sublayer inset by 10 points from the layer's bounds.
class InsetLayoutDelegate: NSObject, CALayerDelegate {
    func layoutSublayers(of layer: CALayer) {
        for sublayer in layer.sublayers ?? [] {
            sublayer.frame = layer.bounds.insetBy(dx: 10, dy: 10)
        }
    }
}

// MARK: - Strata harness (not part of the port)

/// A grey 200×100 container with one red sublayer laid out by the delegate; at t = 1 the
/// container grows to 300×200 (no implicit animation: disabled), so the red layer is re-laid out
/// to (10, 10, 280, 180).
func makeSeed0LayoutSublayersScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
    let delegate = InsetLayoutDelegate()
    let container = CALayer()
    container.frame = CGRect(x: 10, y: 10, width: 200, height: 100)
    container.backgroundColor = UIColor.lightGray.cgColor
    container.delegate = delegate
    let child = CALayer()
    child.backgroundColor = UIColor.red.cgColor
    container.addSublayer(child)
    root.addSublayer(container)
    container.setNeedsLayout()
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(1) {
        _ = delegate
        CATransaction.setDisableActions(true)
        container.frame = CGRect(x: 10, y: 10, width: 300, height: 200)
    }
    return scene
}
