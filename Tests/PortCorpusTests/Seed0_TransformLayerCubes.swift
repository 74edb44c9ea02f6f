// Seed 000 §5.3 CATransformLayer, 用例1: two cubes of six 100×100 faces with random colours, each
// a CATransformLayer (which does not flatten), in a container with perspective.
import Strata

class TransformLayerViewController: UIViewController {
    lazy var containerView = UIView(frame: CGRect(x: 20, y: 150, width: 300, height: 300))

    override func viewDidLoad() {
        super.viewDidLoad()
        transformLayerTesting()
    }

    // CATransformLayer
    func transformLayerTesting() {
        self.view.backgroundColor = UIColor.black
        self.view.addSubview(self.containerView)
        self.containerView.frame = CGRect(x: 0, y: 200, width: self.view.frame.size.width, height: 500)

        var pt = CATransform3DIdentity
        pt.m34 = -1.0 / 500
        self.containerView.layer.sublayerTransform = pt

        var t1 = CATransform3DIdentity
        t1 = CATransform3DTranslate(t1, -100, 0, 0)
        let cube1 = self.cube(with: t1)
        self.containerView.layer.addSublayer(cube1)

        var t2 = CATransform3DIdentity
        t2 = CATransform3DTranslate(t2, 100, 0, 0)
        t2 = CATransform3DRotate(t2, -.pi / 4, 1, 0, 0)
        t2 = CATransform3DRotate(t2, -.pi / 4, 0, 1, 0)
        let cube2 = self.cube(with: t2)
        self.containerView.layer.addSublayer(cube2)
    }

    func cube(with transform: CATransform3D) -> CALayer {
        // create cube layer
        let cube = CATransformLayer()

        // add cube face 1
        var ct = CATransform3DMakeTranslation(0, 0, 50)
        cube.addSublayer(self.face(with: ct))

        // add cube face 2
        ct = CATransform3DMakeTranslation(50, 0, 0)
        ct = CATransform3DRotate(ct, .pi / 2, 0, 1, 0)
        cube.addSublayer(self.face(with: ct))

        // add cube face 3
        ct = CATransform3DMakeTranslation(0, -50, 0)
        ct = CATransform3DRotate(ct, .pi / 2, 1, 0, 0)
        cube.addSublayer(self.face(with: ct))

        // add cube face 4
        ct = CATransform3DMakeTranslation(0, 50, 0)
        ct = CATransform3DRotate(ct, -.pi / 2, 1, 0, 0)
        cube.addSublayer(self.face(with: ct))

        // add cube face 5
        ct = CATransform3DMakeTranslation(-50, 0, 0)
        ct = CATransform3DRotate(ct, -.pi / 2, 0, 1, 0)
        cube.addSublayer(self.face(with: ct))

        // add cube face 6
        ct = CATransform3DMakeTranslation(0, 0, -50)
        ct = CATransform3DRotate(ct, .pi, 0, 1, 0)
        cube.addSublayer(self.face(with: ct))

        // center the cube layer within the container
        let containerSize = self.containerView.bounds.size
        cube.position = CGPoint(x: containerSize.width / 2.0, y: containerSize.height / 2.0)

        // apply the transform and return
        cube.transform = transform

        return cube
    }

    func face(with transform: CATransform3D) -> CALayer {
        // create cube face layer
        let face = CALayer()
        face.frame = CGRect(x: -50, y: -50, width: 100, height: 100)

        // apply a random color
        let red = CGFloat(rand()) / CGFloat(INT_MAX)
        let green = CGFloat(rand()) / CGFloat(INT_MAX)
        let blue = CGFloat(rand()) / CGFloat(INT_MAX)
        face.backgroundColor = UIColor(red: red, green: green, blue: blue, alpha: 1.0).cgColor
        face.transform = transform
        return face
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0TransformLayerCubesScene() -> Scene {
    srand(1)  // deterministic face colours for reference images
    let vc = TransformLayerViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
