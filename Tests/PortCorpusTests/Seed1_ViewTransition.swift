// Seed 001 显式动画 6. 其他过渡选项: `+transitionWithView:duration:options:animations:` — UIKit's
// ready-made view transitions.
import Strata

// Port note (completion): the note names the method only; used the usual way, flipping an image
// view to its next image (the book's example).
class FlipTransitionViewController: UIViewController {
    var imageView: UIImageView!
    var images: [UIImage] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        self.images = [UIImage(named: "Anchor.png")!,
                       UIImage(named: "Cone.png")!,
                       UIImage(named: "Igloo.png")!,
                       UIImage(named: "Spaceship.png")!]
        self.imageView = UIImageView(frame: CGRect(x: 95, y: 322, width: 200, height: 200))
        self.imageView.contentMode = .scaleAspectFit
        self.imageView.image = self.images[0]
        self.view.addSubview(self.imageView)
    }

    func switchImage() {
        UIView.transition(with: self.imageView, duration: 1.0, options: .transitionFlipFromLeft, animations: {
            // cycle to next image
            let currentImage = self.imageView.image
            var index = self.images.firstIndex(of: currentImage!) ?? 0
            index = (index + 1) % self.images.count
            self.imageView.image = self.images[index]
        }, completion: nil)
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed1ViewTransitionScene() -> Scene {
    let vc = FlipTransitionViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(0.5) { vc.switchImage() }
    return scene
}
