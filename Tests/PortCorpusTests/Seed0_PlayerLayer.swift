// Seed 000 §5.10 AVPlayerLayer: a playing video in a layer turned 45° about (1, 1, 1) with
// perspective (m34 set after the rotation, as in the note).
import Strata

class PlayerLayerViewController: UIViewController {
    lazy var containerView = UIView(frame: CGRect(x: 20, y: 150, width: 300, height: 300))

    override func viewDidLoad() {
        super.viewDidLoad()
        avplayerLayerTesting()
    }

    // avplayerLayer
    func avplayerLayerTesting() {
        self.view.addSubview(self.containerView)
        self.containerView.frame = CGRect(x: 0, y: 200, width: self.view.frame.size.width, height: 200)
        let url = Bundle.main.url(forResource: "test", withExtension: "mp4")!
        let player = AVPlayer(url: url)
        let playerLayer = AVPlayerLayer(player: player)
        playerLayer.frame = self.containerView.bounds
        var t = CATransform3DIdentity
        t = CATransform3DMakeRotation(.pi / 4, 1, 1, 1)
        t.m34 = -1.0 / 500
        playerLayer.transform = t
        self.containerView.layer.addSublayer(playerLayer)
        player.play()
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0PlayerLayerScene() -> Scene {
    let vc = PlayerLayerViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 3)
}
