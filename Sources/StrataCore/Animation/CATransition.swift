// An animation of a whole layer from how it looked to how it looks now.
import Foundation

/// The kind of a transition.
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The new content fades in over the old (the default).
    public static let fade = CATransitionType(rawValue: "fade")
    /// The new content slides in over the old.
    public static let moveIn = CATransitionType(rawValue: "moveIn")
    /// The new content pushes the old out.
    public static let push = CATransitionType(rawValue: "push")
    /// The old content slides away, revealing the new.
    public static let reveal = CATransitionType(rawValue: "reveal")
}

/// The direction of a moving transition.
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let fromRight = CATransitionSubtype(rawValue: "fromRight")
    public static let fromLeft = CATransitionSubtype(rawValue: "fromLeft")
    public static let fromTop = CATransitionSubtype(rawValue: "fromTop")
    public static let fromBottom = CATransitionSubtype(rawValue: "fromBottom")
}

public let kCATransitionFade = CATransitionType.fade
public let kCATransitionMoveIn = CATransitionType.moveIn
public let kCATransitionPush = CATransitionType.push
public let kCATransitionReveal = CATransitionType.reveal
public let kCATransitionFromRight = CATransitionSubtype.fromRight
public let kCATransitionFromLeft = CATransitionSubtype.fromLeft
public let kCATransitionFromTop = CATransitionSubtype.fromTop
public let kCATransitionFromBottom = CATransitionSubtype.fromBottom

/// Animates a layer (with its subtree) from its rendered "before" image to its current one.
///
/// Added to a layer — always under the key `kCATransition`, so one runs at a time — in the same
/// transaction (the same `scene.at` block) as changes to the layer or its subtree. The "before"
/// image is the layer's presentation at that moment without the changes the transaction made
/// before the transition was added (property changes, sublayers added or removed, animations
/// added or removed); changes made after it belong to the "after" image, which is the live
/// presentation while the transition runs.
///
/// `type`: `.fade` (default), `.moveIn`, `.push`, `.reveal`; `subtype`: `.fromLeft` (also when
/// nil), `.fromRight`, `.fromTop`, `.fromBottom` (fade ignores it). `startProgress` and
/// `endProgress` (0 and 1) select the part of the transition played; the timing function applies
/// before them.
///
///     let push = CATransition()
///     push.type = .push
///     push.subtype = .fromLeft
///     colourLayer.actions = ["backgroundColor": push]   // the seeds' push on colour change
///
/// Setting `contents` of a layer fades by default (the action for "contents" is a fade with the
/// transaction's duration), as for standalone layers on iOS.
///
/// **Strata limits:** changes to properties that do not report changes (`contentsGravity`,
/// `maskedCorners`, `isGeometryFlipped`, `mask`) and sublayer arrays replaced wholesale with
/// `sublayers =` are not undone in the "before" image.
// @unchecked: see CAAnimation.
open class CATransition: CAAnimation, @unchecked Sendable {
    public var type: CATransitionType = .fade
    public var subtype: CATransitionSubtype?
    public var startProgress: Float = 0
    public var endProgress: Float = 1
    /// Core Image filters are not available; kept for source compatibility and ignored.
    public var filter: Any?

    public required init() { super.init() }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CATransition
        c.type = type; c.subtype = subtype; c.startProgress = startProgress; c.endProgress = endProgress
        c.filter = filter
        return c
    }
}

/// A transition frozen when added: its "before" image and how to play it.
public struct PreparedTransition: Sendable {
    public var before: Box<LayerSnapshot>
    public var type: String
    public var subtype: String?
    public var startProgress: Double
    public var endProgress: Double

    /// The snapshot the renderer draws at fraction `f` (after the timing function).
    func snapshot(at f: Double) -> TransitionSnapshot {
        TransitionSnapshot(before: before.value, type: type, subtype: subtype,
                           progress: startProgress + (endProgress - startProgress) * f)
    }
}
