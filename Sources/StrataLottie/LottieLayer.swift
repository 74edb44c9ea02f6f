// The public face: a CALayer that shows a Lottie, built of ordinary layers and keyframe
// animations, timed like any layer. Its `progress` is an animatable property: a presented
// progress (set, or animated by a CABasicAnimation on "progress") gives the frame its compiled
// layers show, through the presentation builder's SublayerTimeMapping hook.
import Foundation
import Strata

/// A layer showing a Lottie animation, compiled to ordinary Core Animation layers and
/// `CAKeyframeAnimation`s (as lottie-ios's Core Animation engine does).
///
/// Its bounds are the animation's size at the origin. It plays its frames (the in to the out
/// point, or `playFrames(from:to:)`'s) from the layer's local time 0, once; control its time like
/// any layer's (`speed`, `timeOffset`, `beginTime`, `duration` and `repeatCount` to loop), time
/// only its frames with `schedulePlayback(at:speed:repeatCount:)`, or give the frame with
/// `progress` — set it, or animate it:
///
///     let lottie = try LottieLayer(contentsOf: URL(fileURLWithPath: "confetti.json"))
///     lottie.position = CGPoint(x: 640, y: 360)
///     root.addSublayer(lottie)
///     let scrub = CABasicAnimation(keyPath: "progress")
///     scrub.fromValue = 0; scrub.toValue = 1; scrub.duration = 4
///     scrub.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
///     lottie.add(scrub, forKey: "scrub")
///     for note in lottie.unsupported { print("not rendered:", note) }
open class LottieLayer: CALayer, SublayerTimeMapping {
    /// The parsed animation (nil for a layer made with `init()`).
    public private(set) var animation: LottieAnimation?
    /// What the animation uses that Strata does not render, with JSON paths: the parser's notes
    /// and the compiler's.
    public private(set) var unsupported: [LottieUnsupported] = []
    /// The compiled composition; its local seconds × frame rate are the Lottie's frames.
    public private(set) var compositionLayer = CALayer()
    /// Holds the composition and carries the playback's timing (`schedulePlayback`), so that
    /// the layer's own time, and the animations of its own properties, stay the scene's.
    private var playerLayer = CALayer()
    /// The first Lottie frame played (shown at local time 0).
    public private(set) var startFrame: Double = 0
    /// The frame playing stops before.
    public private(set) var endFrame: Double = 0

    /// A layer showing `animation`.
    public init(animation: LottieAnimation) throws {
        super.init()
        let compiler = LottieCompiler(animation)
        let root = try compiler.compileRoot()
        self.animation = animation
        unsupported = animation.unsupported + compiler.notes.list
        compositionLayer = root
        root.position = .zero
        bounds = CGRect(x: 0, y: 0, width: animation.width, height: animation.height)
        contentsGravity = .resizeAspect
        playerLayer.anchorPoint = .zero
        playerLayer.bounds = bounds
        playerLayer.addSublayer(root)
        addSublayer(playerLayer)
        playFrames(from: animation.inPoint, to: animation.outPoint)
    }

    /// Fits the animation into the bounds by `contentsGravity`: `resizeAspect` (the default)
    /// fits it whole, centred; `resizeAspectFill` covers the bounds; `resize` stretches it; any
    /// other gravity centres it at its own size.
    open override func layoutSublayers() {
        super.layoutSublayers()
        guard let animation, animation.width > 0, animation.height > 0 else { return }
        let sx = bounds.width / animation.width, sy = bounds.height / animation.height
        let (x, y): (Double, Double)
        switch contentsGravity {
        case .resize: (x, y) = (sx, sy)
        case .resizeAspect: (x, y) = (min(sx, sy), min(sx, sy))
        case .resizeAspectFill: (x, y) = (max(sx, sy), max(sx, sy))
        default: (x, y) = (1, 1)
        }
        let tx = bounds.minX + (bounds.width - animation.width * x) / 2, ty = bounds.minY + (bounds.height - animation.height * y) / 2
        let t = CATransform3DConcat(CATransform3DMakeScale(x, y, 1), CATransform3DMakeTranslation(tx, ty, 0))
        guard !CATransform3DEqualToTransform(playerLayer.transform, t) else { return }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        playerLayer.transform = t
        CATransaction.commit()
    }

    /// A layer showing the Lottie at `url` (.json, .tgs or .lottie), with `replacements` put in.
    public convenience init(contentsOf url: URL, limits: LottieLimits = LottieLimits(),
                            replacements: LottieReplacements = LottieReplacements()) throws {
        try self.init(animation: LottieAnimation(contentsOf: url, limits: limits, replacements: replacements))
    }

    /// A layer showing the Lottie JSON in `data`, with `replacements` put in.
    public convenience init(data: Data, limits: LottieLimits = LottieLimits(), replacements: LottieReplacements = LottieReplacements()) throws {
        try self.init(animation: LottieAnimation(data: data, limits: limits, replacements: replacements))
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
        playerLayer = l.playerLayer
        progressValue = l.progressValue; startFrame = l.startFrame; endFrame = l.endFrame
    }

    private var progressValue: Double?

    /// Pins the animation at a fraction of the way from its in point (0) to its out point (1);
    /// nil (the default) lets it play with the layer's time. Animatable (key `"progress"`): a
    /// running animation of it gives the frame shown at every moment.
    public var progress: Double? {
        get { progressValue }
        set { progressValue = newValue.map { $0.isFinite ? $0 : 0 } }
    }

    /// Plays the Lottie frames `from`..<`to` (clamped to the in and out points): `from` shows at
    /// the layer's local time 0. Set `duration` to `playDuration` and `repeatCount` to loop them.
    public func playFrames(from: Double, to: Double) {
        guard let animation else { return }
        startFrame = min(max(from, animation.inPoint), animation.outPoint)
        endFrame = max(startFrame, min(to, animation.outPoint))
        compositionLayer.timeOffset = startFrame / animation.frameRate
    }

    /// Plays the frames of the marker named `name` (`LottieAnimation.markers`).
    public func playMarker(_ name: String) throws {
        guard let animation else { return }
        guard let m = animation.markers.first(where: { $0.name == name }) else {
            let names = animation.markers.map(\.name)
            throw LottieError(path: "markers", "no marker '\(name)' (\(names.isEmpty ? "the animation has no markers" : "markers: " + names.joined(separator: ", ")))")
        }
        let start = max(animation.inPoint, m.frame), end = min(animation.outPoint, m.frame + max(m.duration, 1))
        guard end > start else { throw LottieError(path: "markers", "marker '\(name)' lies outside the animation's frames") }
        playFrames(from: start, to: end)
    }

    /// Schedules the playback of the frames `playFrames(from:to:)` chose: from `begin` seconds of
    /// the layer's local time, `speed` times as fast, `repeatCount` times (`.infinity`: for
    /// ever), the last frame staying afterwards and nothing shown before. Only the Lottie's frames
    /// follow it: the layer's own properties and their animations keep the layer's time (unlike
    /// the layer's `speed` or `beginTime`, which time everything in it).
    public func schedulePlayback(at begin: CFTimeInterval = 0, speed: Float = 1, repeatCount: Float = 1) {
        let once = playDuration
        guard once > 0, let animation, speed > 0, speed.isFinite, begin.isFinite, repeatCount > 0 else { return }
        let player = playerLayer
        player.beginTime = begin
        player.speed = speed
        player.duration = once
        if repeatCount.isInfinite {
            player.repeatCount = .infinity
            player.repeatDuration = 0
        } else {
            // Just short of the end: the last frame stays (the out point itself shows nothing).
            player.repeatCount = 0
            player.repeatDuration = Double(repeatCount) * once - 2 * LottieCompiler.jump / animation.frameRate
        }
        player.removeAnimation(forKey: "lottie.wait")
        if begin > 0 {
            // Before it begins the player's local time is negative: hidden until then.
            let wait = CABasicAnimation(keyPath: "hidden")
            wait.fromValue = true
            wait.toValue = true
            wait.beginTime = -1e9
            wait.duration = 1e9
            wait.isRemovedOnCompletion = false
            player.add(wait, forKey: "lottie.wait")
        }
    }

    /// Seconds the played frames take at speed 1.
    public var playDuration: CFTimeInterval {
        guard let animation else { return 0 }
        return (endFrame - startFrame) / animation.frameRate
    }

    /// The local time (seconds) at which a frame of the animation shows.
    public func time(ofFrame frame: Double) -> CFTimeInterval {
        guard let animation else { return 0 }
        return (frame - startFrame) / animation.frameRate
    }

    /// The Lottie frame shown at progress `p` (clamped to 0…1; just before the out point at 1,
    /// where the animation's last frame still shows).
    public func frame(atProgress p: Double) -> Double {
        guard let animation else { return 0 }
        let frame = animation.inPoint + min(max(p, 0), 1) * animation.frameCount
        return min(frame, animation.outPoint - LottieCompiler.jump * 2)
    }

    // MARK: Animatable progress

    open override func animatableKind(forKey key: String) -> AnimatableValue.Kind? {
        key == "progress" ? .number : super.animatableKind(forKey: key)
    }

    open override func animatableValue(forKey key: String) -> AnimatableValue? {
        key == "progress" ? .number(CGFloat(progressValue ?? 0)) : super.animatableValue(forKey: key)
    }

    open override func setAnimatableValue(_ value: AnimatableValue, forKey key: String) {
        if key == "progress", case .number(let n) = value { progress = Double(n); return }
        super.setAnimatableValue(value, forKey: key)
    }

    /// With a presented progress, the compiled layers see the time of its frame (through the
    /// playback's timing: within its first play, the nearest end of the played frames outside them).
    public func sublayerTime(forLocalTime t: Double) -> Double {
        guard let p = progressValue, let animation else { return t }
        let player = playerLayer
        guard player.speed > 0 else { return t }
        var local = (frame(atProgress: p) - startFrame) / animation.frameRate
        if player.duration > 0 { local = min(max(local, 0), player.duration - 2 * LottieCompiler.jump / animation.frameRate) }
        return player.beginTime + local / Double(player.speed)
    }
}
