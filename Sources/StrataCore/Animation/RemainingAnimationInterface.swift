// The parts of Core Animation's animation API that Strata does not implement (yet), and the
// places where it chose a behaviour Apple does not document. Kept in one file so the gap is
// visible (STYLE.md: "one file that lists the parts of Apple's API not yet implemented").
//
// Not implemented
// - CAValueFunction / CAPropertyAnimation.valueFunction (virtual key paths such as
//   "transform.rotation.z" cover the common use).
// - CATransition.filter (Core Image filters do not exist here; the property is accepted and
//   ignored). Apple's private transition types (cube, oglFlip, rippleEffect, …).
// - CAAnimation.preferredFrameRateRange, usesSceneTimeBase, fadeInDuration/fadeOutDuration,
//   CAAnimation.defaultValue(forKey:) values beyond nil.
// - A CATransition inside a CAAnimationGroup (an error when added).
// - CATransaction.lock()/unlock() and the run-loop flush: a scene block is the transaction.
// - Arguments passed to CAAction.run(forKey:object:arguments:) (always nil).
// - Negative `speed` on layers: events (delegates, removal) are planned for time running forward.
//
// Strata's choices where Apple documents nothing
// - Kochanek–Bartels ends repeat the end value; equal first and last values (more than two)
//   close the spline. The standard TCB form is used, although Apple's prose describes the
//   continuity sign the other way round. Cubic modes fall back to linear for values that are
//   not vectors (transforms, images, paths); paced uses the Frobenius distance for transforms.
// - Keyframe paths: every line/curve/close element is one interval timed by its own parameter in
//   linear and cubic modes; a degenerate close (back onto the start) still takes its share.
// - Discrete keyframes without keyTimes show each value for 1/count of the time.
// - rotationMode turns the presentation transform (`CATransform3DRotate(transform, angle, 0, 0,
//   1)`) after all the layer's animations, only for point-valued keyframes.
// - CASpringAnimation: settlingDuration uses ε = 0.001 of the distance; allowsOverdamping
//   defaults to true; init(perceptualDuration:bounce:) also sets duration = settlingDuration;
//   a timingFunction warps the spring's time.
// - An additive animation with missing ends takes "current" as zero (byValue alone adds 0…by).
// - A group's timingFunction warps its children's time.
// - A layer with its own duration repeats/autoreverses its time like an animation's and holds
//   the end of its active interval afterwards.
// - A mask lives in the time of the layer it masks.
// - Finished animations with isRemovedOnCompletion disappear from animationKeys() at their end
//   scene time; their entry is dropped when the layer's animation list next changes.
import Foundation
