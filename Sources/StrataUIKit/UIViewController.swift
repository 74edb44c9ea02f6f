// UIKit's view controller for ported code: owns a root view that is made the first time `view`
// is read (`loadView()`, then `viewDidLoad()`), sized to the screen. Offline there is no window
// or navigation: a script shows a controller by putting its view's layer in a scene:
//
//     let vc = MyViewController()
//     let scene = Scene(rootLayer: vc.view.layer, size: UIScreen.main.bounds.size, frameRate: 30, duration: 3)
import Foundation
import StrataCore

/// Manages a view hierarchy (UIKit's `UIViewController`).
open class UIViewController: UIResponder {
    private var loadedView: UIView?

    /// A title for navigation interfaces (kept; nothing shows it offline).
    open var title: String?
    open private(set) var children: [UIViewController] = []
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

    public let nibName: String?
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

    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
    open func viewWillLayoutSubviews() {}
    open func viewDidLayoutSubviews() {}

    open func addChild(_ childController: UIViewController) {
        childController.removeFromParent()
        children.append(childController)
        childController.parent = self
    }

    open func removeFromParent() {
        parent?.children.removeAll { $0 === self }
        parent = nil
    }

    open func didMove(toParent parent: UIViewController?) {}
    open func willMove(toParent parent: UIViewController?) {}

    open override var next: UIResponder? { loadedView?.superview }
}
