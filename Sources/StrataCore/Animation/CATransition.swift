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
    /// Movement starts at the visual right edge: content moves left (the new content enters from the
    /// right; with `.reveal` the old content slides away to the left).
    public static let fromRight = CATransitionSubtype(rawValue: "fromRight")
    /// Movement starts at the visual left edge: content moves right (the default when `subtype` is
    /// nil).
    public static let fromLeft = CATransitionSubtype(rawValue: "fromLeft")
    /// Movement starts at the visual top edge: content moves down.
    public static let fromTop = CATransitionSubtype(rawValue: "fromTop")
    /// Movement starts at the visual bottom edge: content moves up.
    public static let fromBottom = CATransitionSubtype(rawValue: "fromBottom")
}

/// The Objective-C spelling of `CATransitionType.fade`, for ported code.
public let kCATransitionFade = CATransitionType.fade
/// The Objective-C spelling of `CATransitionType.moveIn`, for ported code.
public let kCATransitionMoveIn = CATransitionType.moveIn
/// The Objective-C spelling of `CATransitionType.push`, for ported code.
public let kCATransitionPush = CATransitionType.push
/// The Objective-C spelling of `CATransitionType.reveal`, for ported code.
public let kCATransitionReveal = CATransitionType.reveal
/// The Objective-C spelling of `CATransitionSubtype.fromRight`, for ported code.
public let kCATransitionFromRight = CATransitionSubtype.fromRight
/// The Objective-C spelling of `CATransitionSubtype.fromLeft`, for ported code.
public let kCATransitionFromLeft = CATransitionSubtype.fromLeft
/// The Objective-C spelling of `CATransitionSubtype.fromTop`, for ported code.
public let kCATransitionFromTop = CATransitionSubtype.fromTop
/// The Objective-C spelling of `CATransitionSubtype.fromBottom`, for ported code.
public let kCATransitionFromBottom = CATransitionSubtype.fromBottom

// @unchecked: see CAAnimation.
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
open class CATransition: CAAnimation, @unchecked Sendable {
    /// How the new content replaces the old (default `.fade`).
    public var type: CATransitionType = .fade
    /// The direction of `.moveIn`, `.push` and `.reveal` (nil: `.fromLeft`); `.fade` ignores it.
    public var subtype: CATransitionSubtype?
    /// Where in the transition playback starts, 0…1 (default 0): 0.5 starts halfway through.
    public var startProgress: Float = 0
    /// Where in the transition playback ends, 0…1 (default 1).
    public var endProgress: Float = 1
    /// Core Image filters are not available; kept for source compatibility and ignored.
    public var filter: Any?

    /// A fade transition with default timing.
    public required init() { super.init() }

    /// **Strata:** no archives: a fade transition with default values.
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
    /// The layer's presentation as it was before the transaction's changes: the "before" image.
    public var before: Box<LayerSnapshot>
    /// The transition type's raw value (`"fade"`, `"push"`, …).
    public var type: String
    /// The subtype's raw value (`"fromLeft"`, …), or nil.
    public var subtype: String?
    /// The transition's `startProgress`.
    public var startProgress: Double
    /// The transition's `endProgress`.
    public var endProgress: Double

    /// The snapshot the renderer draws at fraction `f` (after the timing function).
    func snapshot(at f: Double) -> TransitionSnapshot {
        TransitionSnapshot(before: before.value, type: type, subtype: subtype,
                           progress: startProgress + (endProgress - startProgress) * f)
    }
}
