// The public face: a CALayer that shows a Lottie, built of ordinary layers and keyframe
// animations, timed like any layer.
import Foundation
import Strata

/// A layer showing a Lottie animation, compiled to ordinary Core Animation layers and
/// `CAKeyframeAnimation`s (as lottie-ios's Core Animation engine does).
///
/// Its bounds are the animation's size at the origin. It plays from its in point at the layer's
/// local time 0, once; control its time like any layer's (`speed`, `timeOffset`, `beginTime`),
/// or pin it to a point with `progress`.
///
///     let lottie = try LottieLayer(contentsOf: URL(fileURLWithPath: "confetti.json"))
///     lottie.position = CGPoint(x: 640, y: 360)
///     root.addSublayer(lottie)
///     for note in lottie.unsupported { print("not rendered:", note) }
open class LottieLayer: CALayer {
    /// The parsed animation (nil for a layer made with `init()`).
    public private(set) var animation: LottieAnimation?
    /// What the animation uses that Strata does not render, with JSON paths: the parser's notes
    /// and the compiler's.
    public private(set) var unsupported: [LottieUnsupported] = []
    /// The compiled composition; its local seconds × frame rate are the Lottie's frames.
    public private(set) var compositionLayer = CALayer()

    /// A layer showing `animation`.
    public init(animation: LottieAnimation) throws {
        super.init()
        let compiler = LottieCompiler(animation)
        let root = try compiler.compileRoot()
        self.animation = animation
        unsupported = animation.unsupported + compiler.notes.list
        compositionLayer = root
        root.position = .zero
        // Local time 0 of this layer is the animation's in point.
        root.timeOffset = animation.inPoint / animation.frameRate
        bounds = CGRect(x: 0, y: 0, width: animation.width, height: animation.height)
        addSublayer(root)
    }

    /// A layer showing the Lottie at `url` (.json, or .tgs).
    public convenience init(contentsOf url: URL, limits: LottieLimits = LottieLimits()) throws {
        try self.init(animation: LottieAnimation(contentsOf: url, limits: limits))
    }

    /// A layer showing the Lottie JSON in `data`.
    public convenience init(data: Data, limits: LottieLimits = LottieLimits()) throws {
        try self.init(animation: LottieAnimation(data: data, limits: limits))
    }

    /// An empty layer.
    public override init() { super.init() }

    /// **Strata:** no archives: an empty layer.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A copy of `layer`'s properties (presentation copies; sublayers are copied by the tree).
    public override init(layer: Any) {
        super.init(layer: layer)
        guard let l = layer as? LottieLayer else { return }
        animation = l.animation; unsupported = l.unsupported; compositionLayer = l.compositionLayer
        progressValue = l.progressValue
    }

    private var progressValue: Double?

    /// Pins the animation at a fraction of the way from its in point (0) to its out point (1);
    /// nil (the default) lets it play with the layer's time.
    public var progress: Double? {
        get { progressValue }
        set {
            progressValue = newValue
            guard let animation else { return }
            if let p = newValue {
                compositionLayer.speed = 0
                let frame = animation.inPoint + min(max(p, 0), 1) * animation.frameCount
                compositionLayer.timeOffset = min(frame, animation.outPoint - LottieCompiler.jump * 2) / animation.frameRate
            } else {
                compositionLayer.speed = 1
                compositionLayer.timeOffset = animation.inPoint / animation.frameRate
            }
        }
    }

    /// The local time (seconds) at which a frame of the animation shows.
    public func time(ofFrame frame: Double) -> CFTimeInterval {
        guard let animation else { return 0 }
        return (frame - animation.inPoint) / animation.frameRate
    }
}
