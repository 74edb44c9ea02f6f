// Seed 000 §7.4 取消动画: removing one animation by key, or all of them; the layer then shows its
// model values at once.
import Strata

// 000 §7.4 first block:  func removeAnimation(forKey key: String)
// 000 §7.4 second block: func removeAllAnimations()
// Port note (completion): declarations only in the note; used on a layer here.
func removeRotation(from layer: CALayer) {
    layer.removeAnimation(forKey: "rotation")
}

func removeEverything(from layer: CALayer) {
    layer.removeAllAnimations()
}

// MARK: - Strata harness (not part of the port)

/// A red square spinning (key "rotation") and fading (key "fade"); at t = 1 the rotation is removed
/// (the square snaps upright), at t = 2 everything is removed (opacity snaps back to 1).
func makeSeed0RemoveAnimationScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
    let layer = CALayer()
    layer.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
    layer.backgroundColor = UIColor.red.cgColor
    root.addSublayer(layer)
    let spin = CABasicAnimation(keyPath: "transform.rotation.z")
    spin.toValue = Double.pi * 2
    spin.duration = 4
    layer.add(spin, forKey: "rotation")
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.toValue = 0.2
    fade.duration = 4
    layer.add(fade, forKey: "fade")
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 3)
    scene.at(1) { removeRotation(from: layer) }
    scene.at(2) { removeEverything(from: layer) }
    return scene
}
