// Seed 004 3.7 CAEmitterLayer: the same explosion as seed 000 §5.8 (identical code but for one
// comment), kept as its own example.
import Strata

class Seed4EmitterViewController: UIViewController {
    weak var containerView: UIView!  // was @IBOutlet (storyboard); the harness plays the storyboard

    override func viewDidLoad() {
        super.viewDidLoad()
        let emitter = CAEmitterLayer()
        emitter.frame = self.containerView.bounds
        self.containerView.layer.addSublayer(emitter)
        // configure emitter
        emitter.renderMode = .additive
        emitter.emitterPosition = CGPoint(x: emitter.frame.size.width / 2.0, y: emitter.frame.size.height / 2.0)
        // create a particle template
        let cell = CAEmitterCell()
        cell.contents = UIImage(named: "Spark.png")?.cgImage
        cell.birthRate = 150
        cell.lifetime = 5.0
        cell.color = UIColor(red: 1, green: 0.5, blue: 0.1, alpha: 1.0).cgColor
        cell.alphaSpeed = -0.4
        cell.velocity = 50
        cell.velocityRange = 50
        cell.emissionRange = .pi * 2.0
        // add particle template to emitter
        emitter.emitterCells = [cell]
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed4EmitterScene() -> Scene {
    let vc = Seed4EmitterViewController()
    let container = UIView(frame: CGRect(x: 45, y: 272, width: 300, height: 300))
    container.backgroundColor = UIColor.black
    vc.containerView = container
    vc.view.addSubview(container)
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 4)
}
