// Seed 002 — the Objective-C interface excerpts the note quotes, each turned into the Swift calls
// an iOS developer makes with them:
//   1.CALayer  `@property(nonatomic,readonly,strong) CALayer *layer;` (UIView.layer)
//   2.CAAnimation  add/removeAll/remove(forKey:)/animationKeys/animation(forKey:);
//                  CAKeyframeAnimation values/keyTimes/timingFunctions
//   3.CAMediaTiming  the eight timing properties
//   3.1 UIView动画  `@property(nullable, weak) id <CALayerDelegate> delegate;` and
//                   actionForLayer:forKey: (declaration)
//   3.2 presentationLayer / modelLayer (declarations)
// Port note (completion): declarations only in the note; each is used once.
import Strata

// UIView.layer — the view's backing layer; the view is its delegate.
func seed2BackingLayer(of view: UIView) -> CALayer {
    let layer: CALayer = view.layer
    precondition(layer.delegate === view)
    return layer
}

// CALayer's animation management.
func seed2ManageAnimations(_ layer: CALayer, _ anim: CAAnimation) -> [String]? {
    layer.add(anim, forKey: "move")
    let keys = layer.animationKeys()
    _ = layer.animation(forKey: "move")
    layer.removeAnimation(forKey: "move")
    layer.removeAllAnimations()
    return keys
}

// CAKeyframeAnimation: values, keyTimes, timingFunctions (linear, ease-in, ease-out, or a cubic
// Bézier of your own).
func seed2KeyframeAnimation() -> CAKeyframeAnimation {
    let animation = CAKeyframeAnimation(keyPath: "position.x")
    animation.values = [50, 250, 150, 250]
    animation.keyTimes = [0, 0.5, 0.75, 1]
    animation.timingFunctions = [CAMediaTimingFunction(name: .linear),
                                 CAMediaTimingFunction(name: .easeIn),
                                 CAMediaTimingFunction(controlPoints: 0.5, 0, 0.5, 1)]
    animation.duration = 2
    return animation
}

// CAMediaTiming's eight properties (CALayer adopts the protocol too).
func seed2MediaTiming(_ timing: CAMediaTiming) {
    timing.beginTime = 0
    timing.duration = 2
    timing.speed = 1
    // timeOffset: an offset in time, used to pause and resume
    timing.timeOffset = 0
    timing.repeatCount = 2
    timing.repeatDuration = 0
    // autoreverses: play backwards after playing forwards (default false)
    timing.autoreverses = true
    // fillMode: four modes
    timing.fillMode = .both
}

// CALayerDelegate's action method and the layer's delegate property.
class LoggingActionDelegate: NSObject, CALayerDelegate {
    func action(for layer: CALayer, forKey event: String) -> CAAction? {
        // nil: carry on searching (actions, style, defaultAction); NSNull(): stop, no animation
        return nil
    }
}

// presentation() / model()
func seed2PresentationAndModel(_ layer: CALayer) -> [CALayer?] {
    return [layer, layer.presentation(), layer.model(), layer.presentation()?.model()]
}

// MARK: - Strata harness (not part of the port)

/// A 40×40 blue layer in a layer of speed 2 (so the keyframe animation, 2 s × 2 cycles
/// autoreversed, runs in 4 s of scene time instead of 8); x goes 50 → 250 (linear) → 150 (ease in)
/// → 250 (custom curve) and back.
func makeSeed2APIDeclarationsScene() -> Scene {
    let host = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 100))
    _ = seed2BackingLayer(of: host)
    let fast = CALayer()
    fast.frame = host.bounds
    fast.speed = 2
    host.layer.addSublayer(fast)
    let dot = CALayer()
    dot.frame = CGRect(x: 30, y: 30, width: 40, height: 40)
    dot.backgroundColor = UIColor.blue.cgColor
    let delegate = LoggingActionDelegate()
    dot.delegate = delegate
    fast.addSublayer(dot)
    _ = seed2ManageAnimations(dot, seed2KeyframeAnimation())
    let animation = seed2KeyframeAnimation()
    seed2MediaTiming(animation)
    dot.add(animation, forKey: "bounce")
    let scene = Scene(rootLayer: host.layer, size: host.bounds.size, frameRate: 30, duration: 5)
    scene.at(1) { _ = delegate; _ = seed2PresentationAndModel(dot) }
    return scene
}
