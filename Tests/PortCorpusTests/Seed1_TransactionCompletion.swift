// Seed 001 隐式动画 4. 事务: a 1 s transaction whose completion block turns the layer 90° (that
// turn itself animates with the default 0.25 s).
import Strata

class ColorLayerViewController: UIViewController {
    var colorLayer: CALayer!

    // Port note (completion): the set-up is not in the note; a 100×100 blue layer centred on screen
    // (the book's colorLayer).
    override func viewDidLoad() {
        super.viewDidLoad()
        self.colorLayer = CALayer()
        self.colorLayer.frame = CGRect(x: 145, y: 372, width: 100, height: 100)
        self.colorLayer.backgroundColor = UIColor.blue.cgColor
        self.view.layer.addSublayer(self.colorLayer)
    }

    // Port note (completion): the note's "//code" placeholders are filled with the book's listing
    // the snippet comes from (rotate in the completion block, random colour in the transaction).
    func changeColor() {
        CATransaction.begin()
        // set the animation duration to 1 second
        CATransaction.setAnimationDuration(1.0)
        // add the spin animation on completion
        CATransaction.setCompletionBlock {
            // rotate the layer 90 degrees
            var transform = self.colorLayer.affineTransform()
            transform = transform.rotated(by: .pi / 2)
            self.colorLayer.setAffineTransform(transform)
        }
        // do something: randomize the layer background color
        let red = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let green = CGFloat(arc4random()) / CGFloat(INT_MAX)
        let blue = CGFloat(arc4random()) / CGFloat(INT_MAX)
        self.colorLayer.backgroundColor = UIColor(red: red, green: green, blue: blue, alpha: 1.0).cgColor

        // commit the transaction
        CATransaction.commit()
    }
}

// MARK: - Strata harness (not part of the port)

/// Button tap at t = 0.5: colour fades for 1 s (to 1.5), then the square turns 90° (1.5 … 1.75).
func makeSeed1TransactionCompletionScene() -> Scene {
    let vc = ColorLayerViewController()
    let root = vc.view.layer
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2.5)
    scene.at(0.5) { vc.changeColor() }
    return scene
}
