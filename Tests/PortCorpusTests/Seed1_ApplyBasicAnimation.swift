// Seed 001 显式动画 1. CABasicAnimation: two ways to keep the end state after the animation —
// 法一 isRemovedOnCompletion = false + fillMode .forwards (the model keeps the old value);
// 法二 set the model value up front with actions disabled, from the presentation value.
import Strata

// 法一 (method 1)
func keepFinalStateByFilling(_ animation: CABasicAnimation) {
    // keep the layer in its end state after the animation
    animation.isRemovedOnCompletion = false
    // the layer keeps showing the animation's last frame
    animation.fillMode = .forwards
}

// 法二 (method 2) — use instead of add(_:forKey:)
func applyBasicAnimation(_ animation: CABasicAnimation, to layer: CALayer) {
    // set the from value (using presentation layer if available)
    animation.fromValue = (layer.presentation() ?? layer).value(forKeyPath: animation.keyPath!)

    // update the property in advance
    // note: this approach will only work if toValue != nil
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    layer.setValue(animation.toValue, forKeyPath: animation.keyPath!)
    CATransaction.commit()

    // apply animation to layer
    layer.add(animation, forKey: nil)
}

// MARK: - Strata harness (not part of the port)

/// Two red 100×100 squares; at t = 0.5 both start a 1 s backgroundColor animation to blue: the left
/// one with 法一, the right one with 法二. From t = 1.5 on both show blue; the left one's model
/// value is still red (its animation stays attached), the right one's model is blue.
func makeSeed1ApplyBasicAnimationScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 300, height: 160)
    let left = CALayer()
    left.frame = CGRect(x: 30, y: 30, width: 100, height: 100)
    left.backgroundColor = UIColor.red.cgColor
    let right = CALayer()
    right.frame = CGRect(x: 170, y: 30, width: 100, height: 100)
    right.backgroundColor = UIColor.red.cgColor
    root.addSublayer(left)
    root.addSublayer(right)
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(0.5) {
        let a1 = CABasicAnimation(keyPath: "backgroundColor")
        a1.toValue = UIColor.blue.cgColor
        a1.duration = 1
        keepFinalStateByFilling(a1)
        left.add(a1, forKey: nil)

        let a2 = CABasicAnimation(keyPath: "backgroundColor")
        a2.toValue = UIColor.blue.cgColor
        a2.duration = 1
        applyBasicAnimation(a2, to: right)
    }
    return scene
}
