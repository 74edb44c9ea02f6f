// Several animations run together in one timeline.
import Foundation

// @unchecked: see CAAnimation.
/// Runs `animations` concurrently in the group's local time.
///
/// As on iOS: each child's `beginTime` counts from the group's start (0 = with the group, not
/// "now"); a child whose `duration` is 0 takes the group's duration; children are cut (not
/// scaled) at the group's end; the children's `delegate` and `isRemovedOnCompletion` are
/// ignored (the group's count), their fill modes apply within the group. The group's own
/// `timingFunction`, when set, warps the time its children see. Children apply, in order, at
/// the group's place among the layer's animations.
///
///     let group = CAAnimationGroup()
///     group.animations = [fly, colour]
///     group.duration = 4
///     group.repeatCount = .infinity
///     plane.add(group, forKey: nil)
open class CAAnimationGroup: CAAnimation, @unchecked Sendable {
    /// The animations run together, in the group's local time (default nil). Each is cut at the
    /// group's duration, not scaled to it; one whose `duration` is 0 takes the group's duration. The
    /// children's `delegate` and `isRemovedOnCompletion` are ignored: the group's count.
    public var animations: [CAAnimation]?

    /// An empty group with default timing.
    public required init() { super.init() }

    /// **Strata:** no archives: an empty group with default timing.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CAAnimationGroup
        c.animations = animations?.map { $0.copy() as! CAAnimation }
        return c
    }
}

extension CALayer {
    /// Checks and freezes the children of `group` against this layer.
    func prepareChildren(of group: CAAnimationGroup) throws -> [PreparedAnimation] {
        let groupDuration = group.effectiveDuration
        var out: [PreparedAnimation] = []
        for (i, child) in (group.animations ?? []).enumerated() {
            do {
                if child is CATransition {
                    throw AnimationError.invalidParameter(keyPath: "", "a CATransition cannot run inside an animation group")
                }
                var prepared = try prepare(child, capturingTransition: false)
                if child.duration <= 0 { prepared.timing.duration = groupDuration }
                prepared.timing.removedOnCompletion = false
                out.append(prepared)
            } catch let error as AnimationError {
                throw AnimationError.inGroup(index: i, error)
            }
        }
        return out
    }
}
