// Seed 002 4.初探CALayer属性 — LayerTransformViewController.m (核心动画CoreAnimation之CALayer): seven
// small demos, _01 … _07. viewDidLoad runs _01 only, as in the note; the harness runs the others.
// The Objective-C method names are Chinese; the Swift names translate them (original in MARK).
import Strata

class LayerTransformViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        self.view.backgroundColor = UIColor.white
        self.contentsAndContentsMode_01()
    }

    // MARK: - 仿射变换_07 (affine transform)
    func affineTransform_07() {
        let layer = CALayer()
        layer.frame = CGRect(x: 60, y: 60, width: 200, height: 300)
        layer.backgroundColor = UIColor.red.cgColor
        self.view.layer.addSublayer(layer)
        // set the layer's contents
        layer.contents = UIImage(named: "logo")?.cgImage
        // rotate 45° about x
        //layer.transform = CATransform3DMakeRotation(45 * .pi / 180.0, 1, 0, 0)
        // rotate by an angle about x, y, z
        //layer.transform = CATransform3DMakeRotation(90 * .pi / 180.0, 1, 0, 0)
        //CATransform3DMakeRotation(<#CGFloat angle#>, <#CGFloat x#>, <#CGFloat y#>, <#CGFloat z#>)  3D rotation
        //CATransform3DTranslate(<#CATransform3D t#>, <#CGFloat tx#>, <#CGFloat ty#>, <#CGFloat tz#>)  3D translation
        //CATransform3DMakeScale(<#CGFloat sx#>, <#CGFloat sy#>, <#CGFloat sz#>)  3D scale
        //CATransform3DMakeTranslation(<#CGFloat tx#>, <#CGFloat ty#>, <#CGFloat tz#>)
        // affine transform
        layer.setAffineTransform(CGAffineTransform(rotationAngle: 45 * .pi / 180))
    }

    // MARK: - 剪切图片的一部分_06 (show one part of an image)
    func cropImagePart_06() {
        let width = 80
        let height = 100
        let sapce = 3
        for i in 0..<9 {
            let view = UIView()
            view.frame = CGRect(x: 60 + (width + sapce) * (i % 3), y: 80 + (height + sapce) * (i / 3), width: width, height: height)
            view.backgroundColor = UIColor.red
            // set the layer's contents
            view.layer.contents = UIImage(named: "logo")?.cgImage
            // the part of the image to show, in [0, 1]: contentsRect is the contents' size and position
            view.layer.contentsRect = CGRect(x: 1.0 / 3.0 * CGFloat(i % 3), y: 1.0 / 3.0 * CGFloat(i / 3), width: 1.0 / 3.0, height: 1.0 / 3.0)
            self.view.addSubview(view)
            /*
             1: (0,0,1/3,1/3)
             2: (1/3,0,1/3,1/3)
             3: (2/3,0,1/3,1/3)
             */
        }
    }

    // MARK: - 图层添加边框和圆角_05 (border and corner radius)
    func borderAndCornerRadius_05() {
        let layer = CALayer()
        layer.frame = CGRect(x: 60, y: 60, width: 100, height: 100)
        layer.backgroundColor = UIColor.red.cgColor
        self.view.layer.addSublayer(layer)
        // border colour
        layer.borderColor = UIColor.green.cgColor
        // border width
        layer.borderWidth = 3
        // corner radius
        layer.cornerRadius = 10
    }

    // MARK: - 剪切超过父图层的部分_04 (clip what goes beyond the superlayer)
    func clipToSuperlayer_04() {
        let layer = CALayer()
        layer.frame = CGRect(x: 60, y: 60, width: 100, height: 100)
        layer.backgroundColor = UIColor.red.cgColor
        self.view.layer.addSublayer(layer)

        let layer2 = CALayer()
        layer2.frame = CGRect(x: 30, y: 30, width: 100, height: 100)
        layer2.backgroundColor = UIColor.blue.cgColor
        layer.addSublayer(layer2)
        // clip what goes beyond the superlayer
        layer.masksToBounds = true
    }

    // MARK: - 阴影路径_03 (shadow path)
    func shadowPath_03() {
        let layer = CALayer()
        layer.frame = CGRect(x: 60, y: 60, width: 100, height: 100)
        layer.backgroundColor = UIColor.red.cgColor
        self.view.layer.addSublayer(layer)
        // 1 = opaque; the default is 0, so a shadow needs a value here
        layer.shadowOpacity = 1.0
        // shadow colour
        layer.shadowColor = UIColor.yellow.cgColor
        // create the path
        let path = CGMutablePath()
        // ellipse
        path.addEllipse(in: CGRect(x: 0, y: 0, width: 200, height: 200))
        layer.shadowPath = path
    }

    // MARK: - 层的阴影_02 (layer shadow)
    func layerShadow_02() {
        let layer = CALayer()
        layer.frame = CGRect(x: 60, y: 60, width: 100, height: 100)
        layer.backgroundColor = UIColor.red.cgColor
        self.view.layer.addSublayer(layer)
        layer.shadowOpacity = 0.9
        layer.shadowColor = UIColor.yellow.cgColor
        // shadow offset: +x right, -x left; same for y
        layer.shadowOffset = CGSize(width: 10, height: -10)
        // blur radius of the shadow
        layer.shadowRadius = 10
    }

    // MARK: - 图层内容和内容模式_01 (contents and contents mode)
    func contentsAndContentsMode_01() {
        let layer = CALayer()
        layer.frame = CGRect(x: 20, y: 20, width: 100, height: 100)
        layer.backgroundColor = UIColor.red.cgColor
        self.view.layer.addSublayer(layer)
        // set the layer's contents
        layer.contents = UIImage(named: "logo")?.cgImage
        // like UIImageView's contentMode; the default .resize fills the whole area
        // .resizeAspectFill sticks to the left edge of the view
        // .resizeAspect keeps the proportions
        layer.contentsGravity = .resizeAspect

        // the controller's view's background image — very cheap
        self.view.layer.contents = UIImage(named: "logo")?.cgImage
    }
}

// MARK: - Strata harness (not part of the port)
// viewDidLoad only runs _01; for _02 … _07 a harness subclass runs the one demo instead.

private class LayerTransformDemo: LayerTransformViewController {
    var demo: (LayerTransformViewController) -> Void = { _ in }
    override func viewDidLoad() {
        view.backgroundColor = UIColor.white
        demo(self)
    }
}

private func layerTransformScene(_ demo: ((LayerTransformViewController) -> Void)?) -> Scene {
    let vc: LayerTransformViewController
    if let demo {
        let d = LayerTransformDemo()
        d.demo = demo
        vc = d
    } else {
        vc = LayerTransformViewController()
    }
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}

func makeSeed2ContentsAndContentsMode01Scene() -> Scene { layerTransformScene(nil) }
func makeSeed2LayerShadow02Scene() -> Scene { layerTransformScene { $0.layerShadow_02() } }
func makeSeed2ShadowPath03Scene() -> Scene { layerTransformScene { $0.shadowPath_03() } }
func makeSeed2ClipToSuperlayer04Scene() -> Scene { layerTransformScene { $0.clipToSuperlayer_04() } }
func makeSeed2BorderAndCornerRadius05Scene() -> Scene { layerTransformScene { $0.borderAndCornerRadius_05() } }
func makeSeed2CropImagePart06Scene() -> Scene { layerTransformScene { $0.cropImagePart_06() } }
func makeSeed2AffineTransform07Scene() -> Scene { layerTransformScene { $0.affineTransform_07() } }
