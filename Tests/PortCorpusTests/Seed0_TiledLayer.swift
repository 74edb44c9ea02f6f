// Seed 000 §5.7 CATiledLayer 案例: a 2048×2048 tiled layer in a scroll view; each 256×256 tile
// draws a pre-cut JPEG "Snowman_XX_YY.jpg" found from the context's clip box.
import Strata

class TiledLayerViewController: UIViewController, CALayerDelegate {
    weak var scrollView: UIScrollView!  // was @IBOutlet (storyboard); the harness plays the storyboard

    override func viewDidLoad() {
        super.viewDidLoad()
        // add the tiled layer
        let tileLayer = CATiledLayer()
        tileLayer.frame = CGRect(x: 0, y: 0, width: 2048, height: 2048)
        tileLayer.delegate = self; self.scrollView.layer.addSublayer(tileLayer)

        // configure the scroll view
        self.scrollView.contentSize = tileLayer.frame.size

        // draw layer
        tileLayer.setNeedsDisplay()
    }

    func draw(_ layer: CALayer, in ctx: CGContext) {
        // The Objective-C method declares the parameter as CATiledLayer *.
        let layer = layer as! CATiledLayer

        // determine tile coordinate
        let bounds = ctx.boundingBoxOfClipPath
        let x = Int(floor(bounds.origin.x / layer.tileSize.width))
        let y = Int(floor(bounds.origin.y / layer.tileSize.height))

        // load tile image
        let imageName = String(format: "Snowman_%02i_%02i", x, y)
        guard let imagePath = Bundle.main.path(forResource: imageName, ofType: "jpg") else { return }
        let tileImage = UIImage(contentsOfFile: imagePath)

        // draw tile
        UIGraphicsPushContext(ctx)
        tileImage?.draw(in: bounds)
        UIGraphicsPopContext()
    }
}

// 000 §5.7 note under the example: set the tiled layer's contentsScale for Retina
// (tileSize is in pixels, not points).
func applyTiledLayerScale(_ tileLayer: CATiledLayer) {
    tileLayer.contentsScale = UIScreen.main.scale
}

// MARK: - Strata harness (not part of the port)

/// Full-screen scroll view; at t = 0 the top-left tiles 00_00 … show; at t = 1 the user has
/// scrolled to (512, 512), so tiles 02_02 … are drawn (no fade-in offline).
/// The tiled layer's delegate is weak, as on iOS, and tiles are drawn whenever a frame shows
/// them: the harness keeps the view controllers alive (a window would on a device).
private var tiledLayerControllers: [TiledLayerViewController] = []

func makeSeed0TiledLayerScene() -> Scene {
    let vc = TiledLayerViewController()
    tiledLayerControllers.append(vc)
    let scrollView = UIScrollView(frame: UIScreen.main.bounds)
    vc.scrollView = scrollView
    vc.view.addSubview(scrollView)
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(1) { scrollView.contentOffset = CGPoint(x: 512, y: 512) }
    return scene
}
