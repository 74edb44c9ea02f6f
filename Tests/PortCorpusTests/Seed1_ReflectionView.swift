// Seed 001 专用图层 CAReplicatorLayer 反射: a mirror image below the content from a replicator whose
// instanceTransform scales y by −1.
import Strata

// Port note (completion): the note has only the two lines marked "from the note" below; they come
// from the ReflectionView it links (a UIView backed by CAReplicatorLayer), completed minimally.
class ReflectionView: UIView {
    override class var layerClass: AnyClass {
        return CAReplicatorLayer.self
    }

    func setUp() {
        let replicatorLayer = self.layer as! CAReplicatorLayer
        replicatorLayer.instanceCount = 2
        var transform = CATransform3DIdentity
        let verticalOffset = self.bounds.size.height + 2
        transform = CATransform3DTranslate(transform, 0, verticalOffset, 0)
        transform = CATransform3DScale(transform, 1, -1, 0)            // from the note
        replicatorLayer.instanceTransform = transform                 // from the note
        replicatorLayer.instanceAlphaOffset = -0.6
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        self.setUp()
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override func awakeFromNib() {
        self.setUp()
    }
}

// MARK: - Strata harness (not part of the port)

/// A 200×200 ReflectionView holding an image view with "Snowman"; the reflection (alpha 0.4)
/// appears upside down 2 points below it.
func makeSeed1ReflectionViewScene() -> Scene {
    let host = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 500))
    host.backgroundColor = UIColor.white
    let reflectionView = ReflectionView(frame: CGRect(x: 50, y: 20, width: 200, height: 200))
    let imageView = UIImageView(frame: reflectionView.bounds)
    imageView.image = UIImage(named: "Snowman")
    reflectionView.addSubview(imageView)
    host.addSubview(reflectionView)
    return Scene(rootLayer: host.layer, size: host.bounds.size, frameRate: 30, duration: 1)
}
