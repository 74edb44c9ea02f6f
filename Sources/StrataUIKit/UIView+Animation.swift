// UIKit's block animations on top of Core Animation, as UIKit builds them: `UIView.animate`
// opens a transaction and an animation context; while the block runs, each view answers its
// layer's `action(for:forKey:)` with a basic animation carrying the context's duration, delay,
// curve and repeat options (from the value on screen to the new one), and the completion handler
// is the transaction's completion block. Outside a block views answer `NSNull`, so their changes
// do not animate. `UIView.transition(with:…)` adds a `CATransition` to the view's layer and runs
// the block without per-property animations.
import Foundation
import StrataCore

extension UIView {
    /// Options of block animations (UIKit's bit values).
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Lay out subviews along with the animation. **Strata:** accepted, no effect.
        public static let layoutSubviews = Self(rawValue: 1 << 0)
        /// Let the user touch the views while they animate. **Strata:** accepted, no effect.
        public static let allowUserInteraction = Self(rawValue: 1 << 1)
        /// Start from what is shown now. **Strata:** accepted, no effect (position and bounds animate
        /// additively, so an interrupted move continues smoothly, as on iOS 8 and later).
        public static let beginFromCurrentState = Self(rawValue: 1 << 2)
        /// Repeat the animation forever (`repeatCount = .infinity`).
        public static let `repeat` = Self(rawValue: 1 << 3)
        /// Play the animation forward and then backward (`autoreverses`).
        public static let autoreverse = Self(rawValue: 1 << 4)
        /// Use the block's duration rather than an enclosing block's. **Strata:** accepted, no effect.
        public static let overrideInheritedDuration = Self(rawValue: 1 << 5)
        /// Use the block's curve rather than an enclosing block's. **Strata:** accepted, no effect.
        public static let overrideInheritedCurve = Self(rawValue: 1 << 6)
        /// In `transition(with:…)`, animate the property changes of the block as well.
        public static let allowAnimatedContent = Self(rawValue: 1 << 7)
        /// Hide and show views instead of removing and adding them in transitions. **Strata:**
        /// accepted, no effect.
        public static let showHideTransitionViews = Self(rawValue: 1 << 8)
        /// Use the block's options rather than an enclosing block's. **Strata:** accepted, no effect.
        public static let overrideInheritedOptions = Self(rawValue: 1 << 9)
        /// The ease-in-ease-out curve (the default).
        public static let curveEaseInOut = Self(rawValue: 0 << 16)
        /// The ease-in curve.
        public static let curveEaseIn = Self(rawValue: 1 << 16)
        /// The ease-out curve.
        public static let curveEaseOut = Self(rawValue: 2 << 16)
        /// The linear curve.
        public static let curveLinear = Self(rawValue: 3 << 16)
        /// A transition flipping from the left. **Strata:** drawn as a cross-fade.
        public static let transitionFlipFromLeft = Self(rawValue: 1 << 20)
        /// A transition flipping from the right. **Strata:** drawn as a cross-fade.
        public static let transitionFlipFromRight = Self(rawValue: 2 << 20)
        /// A transition curling up. **Strata:** drawn as a cross-fade.
        public static let transitionCurlUp = Self(rawValue: 3 << 20)
        /// A transition curling down. **Strata:** drawn as a cross-fade.
        public static let transitionCurlDown = Self(rawValue: 4 << 20)
        /// A transition that cross-fades the old and new content.
        public static let transitionCrossDissolve = Self(rawValue: 5 << 20)
        /// A transition flipping from the top. **Strata:** drawn as a cross-fade.
        public static let transitionFlipFromTop = Self(rawValue: 6 << 20)
        /// A transition flipping from the bottom. **Strata:** drawn as a cross-fade.
        public static let transitionFlipFromBottom = Self(rawValue: 7 << 20)

        var timingFunction: CAMediaTimingFunction {
            switch (rawValue >> 16) & 0xF {
            case 1: CAMediaTimingFunction(name: .easeIn)
            case 2: CAMediaTimingFunction(name: .easeOut)
            case 3: CAMediaTimingFunction(name: .linear)
            default: CAMediaTimingFunction(name: .easeInEaseOut)
            }
        }
    }

    /// The animation block being run (innermost last), per thread.
    struct AnimationContext {
        var duration: TimeInterval
        var delay: TimeInterval
        var options: AnimationOptions
        /// Spring parameters (damping ratio, initial velocity), when the block is a spring.
        var spring: (damping: CGFloat, velocity: CGFloat)?
        /// Inside `transition(with:…)` or `performWithoutAnimation`: no per-property animations.
        var suppressesAnimation = false
    }

    /// A thread's open animation blocks, innermost last.
    final class AnimationContexts {
        var list: [AnimationContext] = []
    }

    /// Each thread's open blocks (read on every change of a view's animatable property, as
    /// CATransaction's stack is).
    private static let threadContexts = PerThreadObject { AnimationContexts() }

    /// This thread's open animation blocks, innermost last.
    private static var contexts: [AnimationContext] {
        get { threadContexts.current.list }
        set { threadContexts.current.list = newValue }
    }

    /// The keys UIKit animates in blocks (the view's animatable properties' layer keys).
    static let animatableLayerKeys: Set<String> = [
        "position", "bounds", "transform", "opacity", "backgroundColor", "hidden", "anchorPoint", "zPosition",
        "cornerRadius", "borderWidth", "borderColor", "shadowOpacity", "shadowOffset", "shadowRadius", "shadowColor",
        "contentsRect", "sublayerTransform",
    ]

    /// The keys whose block animations are additive (since iOS 8): a new animation of the
    /// property adds its motion from the old to the new value to those still running, so an
    /// interrupted move bends smoothly instead of restarting.
    static let additiveLayerKeys: Set<String> = ["position", "bounds"]

    /// The action a view gives its layer for `event`.
    static func animationAction(for layer: CALayer, forKey event: String) -> CAAction? {
        guard let context = contexts.last, !context.suppressesAnimation, context.duration > 0,
              animatableLayerKeys.contains(event) else { return NSNull() }
        return ViewAnimationAction(context: context)
    }

    /// Makes the animation of one property change in a block.
    static func makeAnimation(_ context: AnimationContext, for layer: CALayer) -> CABasicAnimation {
        let animation: CABasicAnimation
        if let spring = context.spring {
            let s = CASpringAnimation()
            // A spring that settles in `duration` with the given damping ratio (mass 1):
            // stiffness (2π/d)², damping 4πζ/d.
            let omega = 2 * Double.pi / max(context.duration, 1e-3)
            s.mass = 1
            s.stiffness = CGFloat(omega * omega)
            s.damping = CGFloat(4 * Double.pi * Double(min(max(spring.damping, 0), 1)) / max(context.duration, 1e-3))
            s.initialVelocity = spring.velocity
            animation = s
        } else {
            animation = CABasicAnimation()
            animation.timingFunction = context.options.timingFunction
        }
        animation.duration = context.duration
        if context.delay > 0 {
            animation.beginTime = layer.convertTime(CACurrentMediaTime(), from: nil) + context.delay
            animation.fillMode = .backwards
        }
        if context.options.contains(.repeat) { animation.repeatCount = .infinity }
        if context.options.contains(.autoreverse) { animation.autoreverses = true }
        return animation
    }

    /// The action of a property change inside an animation block.
    final class ViewAnimationAction: CAAction {
        let context: AnimationContext
        init(context: AnimationContext) { self.context = context }

        func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
            guard let layer = anObject as? CALayer else { return }
            let animation = UIView.makeAnimation(context, for: layer)
            if UIView.additiveLayerKeys.contains(event),
               let old = dict?[CALayer.previousValueArgument] as? AnimatableValue,
               let new = layer.animatableValue(forKey: event),
               let delta = AnimatableValue.subtract(old, new), let zero = AnimatableValue.subtract(new, new) {
                // Additive: from (old − new) to zero on top of the new model value, under a key of
                // its own, so running animations of the property keep going and add up.
                animation.keyPath = event
                animation.isAdditive = true
                animation.fromValue = delta.anyValue
                animation.toValue = zero.anyValue
                layer.add(animation, forKey: nil)
            } else {
                animation.run(forKey: event, object: layer, arguments: dict)
            }
        }
    }

    /// Animates the changes `animations` makes to views over `duration` seconds after `delay`,
    /// then calls `completion` with `true` (at the scene time the animations end).
    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval, options: AnimationOptions = [],
                            animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        run(AnimationContext(duration: duration, delay: delay, options: options), animations: animations, completion: completion)
    }

    /// Animates the changes `animations` makes to views over `duration` seconds, then calls
    /// `completion` (ease-in-ease-out, no delay).
    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void,
                            completion: ((Bool) -> Void)? = nil) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: completion)
    }

    /// Animates the changes `animations` makes to views over `duration` seconds (ease-in-ease-out).
    ///
    /// ```swift
    /// UIView.animate(withDuration: 0.5) {
    ///     view.alpha = 0
    ///     view.center.y += 100
    /// }
    /// ```
    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: nil)
    }

    /// A spring animation: `dampingRatio` 1 settles without overshoot, smaller values bounce;
    /// `velocity` is the initial speed in units of the whole distance per second.
    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval,
                            usingSpringWithDamping dampingRatio: CGFloat, initialSpringVelocity velocity: CGFloat,
                            options: AnimationOptions = [], animations: @escaping () -> Void,
                            completion: ((Bool) -> Void)? = nil) {
        run(AnimationContext(duration: duration, delay: delay, options: options, spring: (dampingRatio, velocity)),
            animations: animations, completion: completion)
    }

    /// Runs `actionsWithoutAnimation` with no view animations.
    public class func performWithoutAnimation(_ actionsWithoutAnimation: () -> Void) {
        contexts.append(AnimationContext(duration: 0, delay: 0, options: [], suppressesAnimation: true))
        defer { contexts.removeLast() }
        actionsWithoutAnimation()
    }

    /// Replaces `view`'s content with what `animations` makes of it through a transition
    /// (`.transitionCrossDissolve` fades; **Strata:** flips and curls also fade, see
    /// RemainingUIKitInterface.swift).
    public class func transition(with view: UIView, duration: TimeInterval, options: AnimationOptions = [],
                               animations: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        CATransaction.begin()
        CATransaction.setCompletionBlock { completion?(true) }
        let transition = CATransition()
        transition.type = .fade
        transition.duration = duration
        transition.timingFunction = options.timingFunction
        view.layer.add(transition, forKey: kCATransition)
        if let animations {
            contexts.append(AnimationContext(duration: duration, delay: 0, options: options,
                                             suppressesAnimation: !options.contains(.allowAnimatedContent)))
            animations()
            contexts.removeLast()
        }
        CATransaction.commit()
    }

    private class func run(_ context: AnimationContext, animations: () -> Void, completion: ((Bool) -> Void)?) {
        CATransaction.begin()
        CATransaction.setCompletionBlock { completion?(true) }
        contexts.append(context)
        animations()
        contexts.removeLast()
        CATransaction.commit()
    }
}
