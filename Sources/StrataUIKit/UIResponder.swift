// Touches for ported code. Nothing touches a screen offline: a scene delivers touches where the
// script says (`scene.at(1) { view.touchesBegan([UITouch(location: p, in: view)], with: nil) }`),
// and the responder methods ported code overrides run then, as on a device.
import Foundation
import StrataCore

/// An object that responds to events (UIKit's `UIResponder`).
open class UIResponder: NSObject {
    /// The next responder in the chain (a view's superview or view controller).
    open var next: UIResponder? { nil }

    /// Touches began in the responder; the default passes them on to `next`.
    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesBegan(touches, with: event) }
    /// Touches moved; the default passes them on to `next`.
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesMoved(touches, with: event) }
    /// Touches ended; the default passes them on to `next`.
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesEnded(touches, with: event) }
    /// Touches were cancelled; the default passes them on to `next`.
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesCancelled(touches, with: event) }

    /// Whether the responder can take keyboard focus (default `false`; there is no keyboard offline).
    open var canBecomeFirstResponder: Bool { false }
    /// Asks for keyboard focus: `false` (no keyboard offline).
    @discardableResult open func becomeFirstResponder() -> Bool { false }
    /// Gives up keyboard focus: always `true`.
    @discardableResult open func resignFirstResponder() -> Bool { true }
}

/// One finger on the screen (UIKit's `UITouch`).
open class UITouch: NSObject {
    /// The phase of a touch.
    public enum Phase: Int, Sendable {
        /// `began`: the finger touched; `moved`; `stationary`: down but not moving; `ended`: lifted;
        /// `cancelled`: the system took the touch away.
        case began, moved, stationary, ended, cancelled
    }

    /// The location in the root view's (window's) coordinates.
    private let windowLocation: CGPoint
    private let previousWindowLocation: CGPoint
    /// The view the touch started in.
    open private(set) var view: UIView?
    /// The touch's phase (default `.began`).
    open var phase: Phase
    /// How many times the finger tapped (default 1).
    open var tapCount: Int
    /// Scene time of the touch.
    open var timestamp: TimeInterval

    /// **Strata:** a touch at `location` in `view`'s coordinates (nil: the root's), for scripts
    /// that play user input at scene times.
    public init(location: CGPoint, in view: UIView?, previousLocation: CGPoint? = nil, phase: Phase = .began,
                tapCount: Int = 1) {
        let root = view?.rootView
        let w = view.map { $0.convert(location, to: root) } ?? location
        windowLocation = w
        previousWindowLocation = previousLocation.map { p in view.map { $0.convert(p, to: root) } ?? p } ?? w
        self.view = root?.hitTest(w, with: nil) ?? view
        self.phase = phase
        self.tapCount = tapCount
        self.timestamp = CACurrentMediaTime()
        super.init()
    }

    /// The touch's location in `view`'s coordinates (nil: the root view's).
    open func location(in view: UIView?) -> CGPoint {
        guard let view else { return windowLocation }
        return view.convert(windowLocation, from: view.rootView)
    }

    /// The previous location in `view`'s coordinates.
    open func previousLocation(in view: UIView?) -> CGPoint {
        guard let view else { return previousWindowLocation }
        return view.convert(previousWindowLocation, from: view.rootView)
    }
}

/// An event with its touches (UIKit's `UIEvent`).
open class UIEvent: NSObject {
    /// The touches of the event.
    open private(set) var allTouches: Set<UITouch>?
    /// Scene time of the event (`CACurrentMediaTime()` when it was made), in seconds.
    open var timestamp: TimeInterval

    /// **Strata:** an event carrying `touches`, for scripts that play user input.
    public init(touches: Set<UITouch>?) {
        allTouches = touches
        timestamp = CACurrentMediaTime()
        super.init()
    }

    /// The touches of the event that hit `view` (whose `view` is `view`).
    open func touches(for view: UIView) -> Set<UITouch>? { allTouches?.filter { $0.view === view } }
}
