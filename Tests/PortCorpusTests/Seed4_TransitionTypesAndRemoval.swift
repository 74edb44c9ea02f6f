// Seed 004 九、CATransition: the four types and four subtypes, and cancelling animations while they
// run (removeAnimationForKey:, removeAllAnimations).
import Strata

// Port note (completion): the note lists the constants; each is assigned once.
func seed4TransitionTypes() -> [CATransition] {
    let types: [CATransitionType] = [.fade,     // cross-fade
                                     .moveIn,   // slide in over the old content
                                     .push,
                                     .reveal]
    let subtypes: [CATransitionSubtype] = [.fromRight, .fromLeft, .fromTop, .fromBottom]
    return zip(types, subtypes).map { type, subtype in
        let transition = CATransition()
        transition.type = type
        transition.subtype = subtype
        return transition
    }
}

// Cancel during the animation.
func seed4Cancel(_ layer: CALayer, key: String) {
    layer.removeAnimation(forKey: key)   // remove one animation
}

func seed4CancelAll(_ layer: CALayer) {
    layer.removeAllAnimations()          // remove all animations
}

// MARK: - Strata harness (not part of the port)

/// Four red 80×80 layers turn blue at t = 0.5 under the transitions (fade, fromRight),
/// (moveIn, fromLeft), (push, fromTop), (reveal, fromBottom), 0.25 s each. At t = 0.6 the second one's transition is removed (it snaps to the new colour);
/// at t = 0.65 all of the fourth one's animations are removed.
func makeSeed4TransitionTypesScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 400, height: 120)
    var layers: [CALayer] = []
    for i in 0..<4 {
        let layer = CALayer()
        layer.frame = CGRect(x: 20 + 95 * CGFloat(i), y: 20, width: 80, height: 80)
        layer.backgroundColor = UIColor.red.cgColor
        root.addSublayer(layer)
        layers.append(layer)
    }
    let transitions = seed4TransitionTypes()
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
    scene.at(0.5) {
        for (layer, transition) in zip(layers, transitions) {
            layer.add(transition, forKey: nil)
            layer.backgroundColor = UIColor.blue.cgColor
        }
    }
    scene.at(0.6) { seed4Cancel(layers[1], key: kCATransition) }
    scene.at(0.65) { seed4CancelAll(layers[3]) }
    return scene
}
