// The screen ported code asks about (`UIScreen.main.bounds`, `.scale`): in Strata the "screen"
// is the output a scene renders to. Defaults are a 390 × 844-point portrait phone at scale 1 (the
// scale frames render at unless a scene sets `contentsScale`); both can be set before building.
import Foundation
import Synchronization
import StrataCore

// @unchecked: as UIKit's main-actor screen, set up by the program before rendering starts and only
// read while frames render.
/// The display a view hierarchy is shown on (UIKit's `UIScreen`).
open class UIScreen: NSObject, @unchecked Sendable {
    /// The screen views are laid out for (behind a lock: any thread may read or replace it).
    public static var main: UIScreen {
        get { screen.withCheckedLock { $0 } }
        set { screen.withCheckedLock { $0 = newValue } }
    }
    private static let screen = Mutex(UIScreen(bounds: CGRect(x: 0, y: 0, width: 390, height: 844), scale: 1))

    /// The screen's rectangle in points. **Strata:** settable (UIKit's is read-only): the size
    /// a view controller's view gets.
    public var bounds: CGRect
    /// Pixels per point. **Strata:** settable; match it to the scene's `contentsScale`.
    public var scale: CGFloat
    /// The same as `scale` (no zoomed display modes offline).
    public var nativeScale: CGFloat { scale }

    /// A screen of `bounds` points at `scale` pixels per point.
    ///
    /// ```swift
    /// UIScreen.main = UIScreen(bounds: CGRect(x: 0, y: 0, width: 1080, height: 1920), scale: 1)
    /// ```
    public init(bounds: CGRect, scale: CGFloat) {
        self.bounds = bounds
        self.scale = scale
        super.init()
    }
}
