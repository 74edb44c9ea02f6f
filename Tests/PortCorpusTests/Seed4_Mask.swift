// Seed 004 4.2 mask: an image view masked by a layer whose contents are a cone-shaped PNG; only the
// cone's opaque pixels of the image stay visible.
import Strata

class MaskViewController: UIViewController {
    weak var imageView: UIImageView!  // was @IBOutlet (storyboard); the harness plays the storyboard

    override func viewDidLoad() {
        super.viewDidLoad()
        // create mask layer
        let maskLayer = CALayer()
        // Port note (fix): the note reads `self.layerView.bounds`, but the class has no layerView;
        // the book uses the image view's bounds.
        maskLayer.frame = self.imageView.bounds
        let maskImage = UIImage(named: "Cone.png")
        maskLayer.contents = maskImage?.cgImage

        // apply mask to image layer
        self.imageView.layer.mask = maskLayer
    }
}

// MARK: - Strata harness (not part of the port)

/// A 200×200 image view (aspect fill) showing "Igloo", masked by "Cone.png".
func makeSeed4MaskScene() -> Scene {
    let vc = MaskViewController()
    let imageView = UIImageView(frame: CGRect(x: 95, y: 322, width: 200, height: 200))
    imageView.contentMode = .scaleAspectFill
    imageView.image = UIImage(named: "Igloo")
    vc.imageView = imageView
    vc.view.addSubview(imageView)
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
