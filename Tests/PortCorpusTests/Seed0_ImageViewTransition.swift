// Seed 000 §7.3 过渡动画: a fade CATransition on a UIImageView's backing layer while its image
// cycles to the next one.
import Strata

class ImageTransitionViewController: UIViewController {
    weak var imageView: UIImageView!  // was @IBOutlet (storyboard); the harness plays the storyboard
    var images: [UIImage] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        // Port note (completion): the note does not show `images`; the book's four images.
        self.images = [UIImage(named: "Anchor.png")!,
                       UIImage(named: "Cone.png")!,
                       UIImage(named: "Igloo.png")!,
                       UIImage(named: "Spaceship.png")!]
    }

    // Port note (completion): the note's block is the body of the book's `switchImage` @IBAction;
    // @IBAction is dropped (it needs the Objective-C runtime), the harness calls the method.
    func switchImage() {
        // set up crossfade transition
        let transition = CATransition()
        transition.type = .fade
        // apply transition to imageview backing layer
        self.imageView.layer.add(transition, forKey: nil)
        // cycle to next image
        let currentImage = self.imageView.image
        var index = self.images.firstIndex(of: currentImage!) ?? 0
        index = (index + 1) % self.images.count
        self.imageView.image = self.images[index]
    }
}

// MARK: - Strata harness (not part of the port)

/// A 200×200 aspect-fit image view centred on screen showing Anchor; taps at t = 1 and t = 2 fade
/// (0.25 s) to Cone, then Igloo.
func makeSeed0ImageViewTransitionScene() -> Scene {
    let vc = ImageTransitionViewController()
    let imageView = UIImageView(frame: CGRect(x: 95, y: 322, width: 200, height: 200))
    imageView.contentMode = .scaleAspectFit
    vc.imageView = imageView
    vc.view.addSubview(imageView)
    imageView.image = vc.images[0]
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 3)
    scene.at(1) { vc.switchImage() }
    scene.at(2) { vc.switchImage() }
    return scene
}
