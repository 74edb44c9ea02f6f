// UIKit's view controller for ported code: owns a root view that is made the first time `view`
// is read (`loadView()`, then `viewDidLoad()`), sized to the screen. Offline there is no window
// or navigation: a script shows a controller by putting its view's layer in a scene:
//
//     let vc = MyViewController()
//     let scene = Scene(rootLayer: vc.view.layer, size: UIScreen.main.bounds.size, frameRate: 30, duration: 3)
import Foundation
import StrataCore

/// Manages a view hierarchy (UIKit's `UIViewController`).
///
/// ```swift
/// final class CardController: UIViewController {
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         view.backgroundColor = .systemBlue
///     }
/// }
/// let controller = CardController()
/// let scene = Scene(rootLayer: controller.view.layer, size: UIScreen.main.bounds.size,
///                   frameRate: 30, duration: 3)
/// ```
open class UIViewController: UIResponder {
    private var loadedView: UIView?

    /// A title for navigation interfaces (kept; nothing shows it offline).
    open var title: String?
    /// The child view controllers, in the order they were added.
    open private(set) var children: [UIViewController] = []
    /// The controller this one is a child of.
    open private(set) weak var parent: UIViewController?

    /// A controller; **Strata:** nibs are not loaded (`nibName` and `bundle` are kept).
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        nibName = nibNameOrNil
        nibBundle = nibBundleOrNil
        super.init()
    }

    public override convenience init() { self.init(nibName: nil, bundle: nil) }

    /// **Strata:** there are no storyboards: a controller whose view is made by `loadView()`.
    public required init?(coder: NSCoder) {
        nibName = nil
        nibBundle = nil
        super.init()
    }

    /// The nib's name given at init (**Strata:** nibs are not loaded).
    public let nibName: String?
    /// The bundle given at init (**Strata:** nibs are not loaded).
    public let nibBundle: Bundle?

    /// The root view, made (and `viewDidLoad()` called) on first access.
    open var view: UIView! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set {
            loadedView?.owningViewController = nil
            loadedView = newValue
            newValue?.owningViewController = self
        }
    }

    /// Whether the view has been made.
    open var isViewLoaded: Bool { loadedView != nil }

    /// Makes the view now if it has not been made.
    open func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil { view = UIView(frame: UIScreen.main.bounds) }
        viewDidLoad()
    }

    /// Makes the root view: a white, screen-sized view (as a storyboard's scene has).
    open func loadView() {
        let v = UIView(frame: UIScreen.main.bounds)
        v.backgroundColor = .white
        view = v
    }

    /// Called once the view is loaded; override to set it up. The default does nothing.
    open func viewDidLoad() {}
    /// Called before the view appears. The default does nothing.
    open func viewWillAppear(_ animated: Bool) {}
    /// Called after the view appeared. The default does nothing.
    open func viewDidAppear(_ animated: Bool) {}
    /// Called before the view disappears. The default does nothing.
    open func viewWillDisappear(_ animated: Bool) {}
    /// Called after the view disappeared. The default does nothing.
    open func viewDidDisappear(_ animated: Bool) {}
    /// Called before the view lays out its subviews. The default does nothing.
    open func viewWillLayoutSubviews() {}
    /// Called after the view laid out its subviews. The default does nothing.
    open func viewDidLayoutSubviews() {}

    /// Adds `childController` as a child (its view is not added: add it to a view yourself).
    open func addChild(_ childController: UIViewController) {
        childController.removeFromParent()
        children.append(childController)
        childController.parent = self
    }

    /// Removes the controller from its parent's children.
    open func removeFromParent() {
        parent?.children.removeAll { $0 === self }
        parent = nil
    }

    /// Called after the controller was added to or removed from `parent`. The default does nothing.
    open func didMove(toParent parent: UIViewController?) {}
    /// Called before the controller is added to or removed from `parent`. The default does nothing.
    open func willMove(toParent parent: UIViewController?) {}

    open override var next: UIResponder? { loadedView?.superview }
}
