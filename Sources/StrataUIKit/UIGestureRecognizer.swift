// Gesture recognizers for ported code: their state and their pan translation, which scripts set
// when they play a gesture. The target/action form (`init(target:action:)` with `#selector`)
// needs the Objective-C runtime and does not exist here; call the handler from the script.
import Foundation
import StrataCore

/// Recognises a gesture (UIKit's `UIGestureRecognizer`).
open class UIGestureRecognizer: NSObject {
    /// The phase of a gesture.
    public enum State: Int, Sendable {
        /// `possible`: not recognised yet (the default); `began`, `changed`, `ended`: a continuous
        /// gesture (a pan) starting, moving and finishing, `ended` also a recognised tap;
        /// `cancelled`: interrupted; `failed`: not this gesture.
        case possible, began, changed, ended, cancelled, failed
    }

    /// The gesture's phase (default `.possible`); scripts set it when they play a gesture.
    open var state: State = .possible
    /// Whether the recognizer takes part (default `true`). **Strata:** kept; scripts decide what runs.
    open var isEnabled = true
    /// The view the recognizer is attached to.
    open internal(set) weak var view: UIView?

    public override init() { super.init() }

    /// Where the gesture is, in `view`'s coordinates (**Strata:** set by scripts; see
    /// `location`).
    open func location(in view: UIView?) -> CGPoint {
        guard let own = self.view else { return location }
        return own.convert(location, to: view)
    }

    /// **Strata:** the gesture's location in the attached view's coordinates.
    open var location: CGPoint = .zero
}

/// A dragging gesture (UIKit's `UIPanGestureRecognizer`).
///
/// ```swift
/// let pan = UIPanGestureRecognizer()
/// view.addGestureRecognizer(pan)
/// scene.at(1) {                      // the script plays the drag…
///     pan.setTranslation(CGPoint(x: 80, y: 0), in: view)
///     pan.state = .changed
///     // …and calls the handler the app's #selector named, with `pan`
/// }
/// ```
open class UIPanGestureRecognizer: UIGestureRecognizer {
    private var storedTranslation: CGPoint = .zero

    /// How far the finger has moved since the gesture began, in `view`'s coordinates.
    open func translation(in view: UIView?) -> CGPoint { storedTranslation }

    /// Resets the translation (handlers set it to zero to read increments).
    open func setTranslation(_ translation: CGPoint, in view: UIView?) { storedTranslation = translation }

    /// The speed of the drag in points per second (**Strata:** zero unless a script sets it).
    open var velocityValue: CGPoint = .zero
    /// The drag's speed in points per second in `view`'s coordinates: `velocityValue`.
    open func velocity(in view: UIView?) -> CGPoint { velocityValue }
}

/// A tap (UIKit's `UITapGestureRecognizer`).
open class UITapGestureRecognizer: UIGestureRecognizer {
    /// The taps that make the gesture (default 1). **Strata:** kept; scripts decide when it fires.
    open var numberOfTapsRequired = 1
    /// The fingers that must tap (default 1). **Strata:** kept.
    open var numberOfTouchesRequired = 1
}

extension UIView {
    /// Attaches `gestureRecognizer` to the view.
    public func addGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
        gestureRecognizer.view = self
        attachedGestureRecognizers.append(gestureRecognizer)
    }

    /// Detaches `gestureRecognizer` from the view (its `view` becomes nil).
    public func removeGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
        attachedGestureRecognizers.removeAll { $0 === gestureRecognizer }
        gestureRecognizer.view = nil
    }

    /// The attached recognizers.
    public var gestureRecognizers: [UIGestureRecognizer]? {
        attachedGestureRecognizers.isEmpty ? nil : attachedGestureRecognizers
    }
}
