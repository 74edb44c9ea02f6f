// Seed 000 §4.5 案例：固体对象 — a cube from six views, seen through the container's
// sublayerTransform (perspective, then -45° about x and -45° about y).
import Strata

class CubeViewController: UIViewController {
    // were @IBOutlet (storyboard); the harness plays the storyboard
    weak var containerView: UIView!
    var view0: UIView!
    var view1: UIView!
    var view2: UIView!
    var view3: UIView!
    var view4: UIView!
    var view5: UIView!
    var faces: [UIView] = []

    override func viewDidLoad() {
        super.viewDidLoad()

        self.faces = [view0, view1, view2, view3, view4, view5]

        // The parent view's layer
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        perspective = CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0)
        perspective = CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0)
        self.containerView.layer.sublayerTransform = perspective

        var transform = CATransform3DMakeTranslation(0, 0, 100)
        self.addFace(0, withTransform: transform)

        // add cube face 2
        transform = CATransform3DMakeTranslation(100, 0, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 0, 1, 0)
        self.addFace(1, withTransform: transform)

        // add cube face 3
        transform = CATransform3DMakeTranslation(0, -100, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 1, 0, 0)
        self.addFace(2, withTransform: transform)

        // add cube face 4
        transform = CATransform3DMakeTranslation(0, 100, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 1, 0, 0)
        self.addFace(3, withTransform: transform)

        // add cube face 5
        transform = CATransform3DMakeTranslation(-100, 0, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 0, 1, 0)
        self.addFace(4, withTransform: transform)

        // add cube face 6
        transform = CATransform3DMakeTranslation(0, 0, -100)
        transform = CATransform3DRotate(transform, .pi, 0, 1, 0)
        self.addFace(5, withTransform: transform)
    }

    func addFace(_ index: Int, withTransform transform: CATransform3D) {
        // get the face view and add it to the container
        let face = self.faces[index]
        self.containerView.addSubview(face)

        // center the face view within the container
        let containerSize = self.containerView.bounds.size
        face.center = CGPoint(x: containerSize.width / 2.0, y: containerSize.height / 2.0)

        // apply the transform
        face.layer.transform = transform
    }
}

// MARK: - Strata harness (not part of the port)

/// Storyboard stand-in: a 300×300 container centred on screen and six 200×200 opaque faces
/// (red, green, blue, yellow, cyan, magenta for faces 1–6).
func makeSeed0CubeOfViewsScene() -> Scene {
    let vc = CubeViewController()
    let container = UIView(frame: CGRect(x: 45, y: 272, width: 300, height: 300))
    let colors: [UIColor] = [.red, .green, .blue, .yellow, .cyan, .magenta]
    let faces = colors.map { color -> UIView in
        let face = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        face.backgroundColor = color
        return face
    }
    vc.containerView = container
    (vc.view0, vc.view1, vc.view2, vc.view3, vc.view4, vc.view5) = (faces[0], faces[1], faces[2], faces[3], faces[4], faces[5])
    vc.view.addSubview(container)
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
