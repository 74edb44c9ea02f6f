// Seed 000 §7.3.2 对图层树的动画 案例: a fade CATransition on the UITabBarController's view whenever a
// tab is selected, so the whole content cross-fades without knowing what changed.
import Strata

// Port note (completion): FirstViewController and SecondViewController are not shown in the note;
// two plain controllers with different background colours and tab titles.
class FirstViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        self.title = "First"
        self.view.backgroundColor = UIColor.red
    }
}

class SecondViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        self.title = "Second"
        self.view.backgroundColor = UIColor.blue
    }
}

// (@main is omitted: the test harness launches the delegate.)
class AppDelegate: UIResponder, UIApplicationDelegate, UITabBarControllerDelegate {
    var window: UIWindow?
    var tabBarController: UITabBarController!

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        self.window = UIWindow(frame: UIScreen.main.bounds)
        let viewController1: UIViewController = FirstViewController()
        let viewController2: UIViewController = SecondViewController()
        self.tabBarController = UITabBarController()
        self.tabBarController.viewControllers = [viewController1, viewController2]
        self.tabBarController.delegate = self
        self.window?.rootViewController = self.tabBarController
        self.window?.makeKeyAndVisible()
        return true
    }

    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {
        // set up crossfade transition
        let transition = CATransition()
        transition.type = .fade
        // apply transition to tab bar controller's view
        self.tabBarController.view.layer.add(transition, forKey: nil)
    }
}

// MARK: - Strata harness (not part of the port)

/// The user taps the second tab at t = 1: the selection changes and the delegate is told, in one
/// transaction (UIKit calls the delegate only for user taps, so the harness does both).
func makeSeed0TabBarTransitionScene() -> Scene {
    let appDelegate = AppDelegate()
    _ = appDelegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil)
    let root = appDelegate.window!.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(1) {
        let tabBarController = appDelegate.tabBarController!
        tabBarController.selectedIndex = 1
        appDelegate.tabBarController(tabBarController, didSelect: tabBarController.viewControllers![1])
    }
    return scene
}
