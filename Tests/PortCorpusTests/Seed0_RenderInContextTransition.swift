// Seed 000 §7.3.3 自定义动画 案例: a custom transition — snapshot the view with render(in:), cover
// the view with the snapshot, change the view, then shrink, turn and fade the snapshot away.
import Strata

class RenderInContextViewController: UIViewController {
    // Port note (completion): the note's controller content is not shown; a white view with a
    // blue 100×100 square so the snapshot has something to show.
    override func viewDidLoad() {
        super.viewDidLoad()
        self.view.backgroundColor = UIColor.white
        let square = UIView(frame: CGRect(x: 145, y: 372, width: 100, height: 100))
        square.backgroundColor = UIColor.blue
        self.view.addSubview(square)
    }

    // was @IBAction (needs the Objective-C runtime); the harness calls it
    func performTransition() {
        // preserve the current view snapshot
        UIGraphicsBeginImageContextWithOptions(self.view.bounds.size, true, 0.0)
        self.view.layer.render(in: UIGraphicsGetCurrentContext()!)
        let coverImage = UIGraphicsGetImageFromCurrentImageContext()
        // (the note never calls UIGraphicsEndImageContext(); kept as is)
        // insert snapshot view in front of this one
        let coverView: UIView = UIImageView(image: coverImage)
        coverView.frame = self.view.bounds
        self.view.addSubview(coverView)
        // update the view (we'll simply randomize the layer background color)
        let red = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let green = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let blue = CGFloat(arc4random()) / CGFloat(INT_MAX)
        self.view.backgroundColor = UIColor(red: red, green: green, blue: blue, alpha: 1.0)
        // perform animation (anything you like)
        UIView.animate(withDuration: 1.0, animations: {
            // scale, rotate and fade the view
            var transform = CGAffineTransform(scaleX: 0.01, y: 0.01)
            transform = transform.rotated(by: .pi / 2)
            coverView.transform = transform
            coverView.alpha = 0.0
        }, completion: { finished in
            // remove the cover view now we're finished with it
            coverView.removeFromSuperview()
        })
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0RenderInContextTransitionScene() -> Scene {
    let vc = RenderInContextViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2.5)
    scene.at(0.5) { vc.performTransition() }
    return scene
}
