// Seed 002 5.CALayer的探究应用——进度条, 自定义layer: the same bending progress line drawn by a CALayer
// subclass in draw(in:), redrawn (setNeedsDisplay) whenever `progress` changes.
import Strata

let MAX_OFFSET: CGFloat = 25.0

// Port note (completion): MAX_LENGTH and `_origin` are used but not defined in the note (the text is
// cut off inside drawInContext:); the author's values: the screen width minus 50, origin (25, 76).
var MAX_LENGTH: CGFloat {
    return UIScreen.main.bounds.width - 50
}

class ProgressLayer: CALayer {
    private var _progress: CGFloat = 0
    private var _origin = CGPoint(x: 25, y: 76)

    var progress: CGFloat {
        get { return _progress }
        set {
            _progress = min(1.0, max(0.0, newValue))
            self.setNeedsDisplay()
        }
    }

    override init() {
        super.init()
    }

    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? ProgressLayer {
            _progress = other._progress
            _origin = other._origin
        }
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override func draw(in ctx: CGContext) {
        let offsetX = _origin.x + MAX_LENGTH * _progress
        // Port note (completion): the note stops at "CGF…" here. The rest follows its description:
        // the line rises MAX_OFFSET at half progress; grey from the progress point to the end, green
        // from the start to the progress point.
        let offsetY = _origin.y + MAX_OFFSET * (1 - abs(_progress - 0.5) * 2)

        ctx.setLineWidth(5)
        ctx.setLineCap(.round)
        ctx.setLineJoin(.round)

        ctx.move(to: CGPoint(x: offsetX, y: offsetY))
        ctx.addLine(to: CGPoint(x: _origin.x + MAX_LENGTH, y: _origin.y))
        ctx.setStrokeColor(UIColor.lightGray.cgColor)
        ctx.strokePath()

        if _progress > 0 {
            ctx.move(to: _origin)
            ctx.addLine(to: CGPoint(x: offsetX, y: offsetY))
            ctx.setStrokeColor(UIColor.green.cgColor)
            ctx.strokePath()
        }
    }
}


// Port variant (not in the note): the same layer written the other common Swift way — `progress`
// kept in the layer's key-value storage (what @NSManaged would give on iOS, without it) so that
// presentation copies carry it, and redrawn while it animates (needsDisplay(forKey:)).
class AnimatableProgressLayer: CALayer {
    var progress: CGFloat {
        get { return value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(min(1.0, max(0.0, newValue)), forKey: "progress") }
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        if key == "progress" {
            return true
        }
        return super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        let origin = CGPoint(x: 25, y: 76)
        let offsetX = origin.x + MAX_LENGTH * progress
        let offsetY = origin.y + MAX_OFFSET * (1 - abs(progress - 0.5) * 2)
        ctx.setLineWidth(5)
        ctx.setLineCap(.round)
        ctx.move(to: CGPoint(x: offsetX, y: offsetY))
        ctx.addLine(to: CGPoint(x: origin.x + MAX_LENGTH, y: origin.y))
        ctx.setStrokeColor(UIColor.lightGray.cgColor)
        ctx.strokePath()
        ctx.move(to: origin)
        ctx.addLine(to: CGPoint(x: offsetX, y: offsetY))
        ctx.setStrokeColor(UIColor.green.cgColor)
        ctx.strokePath()
    }
}

// MARK: - Strata harness (not part of the port)

/// A screen-wide 150-point-high ProgressLayer; progress 0 → 0.25 → 0.5 → 0.75 → 1 at t = 0.5, 1,
/// 1.5, 2 (no animation: `progress` is a plain property, each change redraws at once). At 0.5 the
/// bend is at (25 + MAX_LENGTH / 2, 101).
func makeSeed2ProgressLayerScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: UIScreen.main.bounds.width, height: 150)
    root.backgroundColor = UIColor.white.cgColor
    let progressLayer = ProgressLayer()
    progressLayer.frame = root.bounds
    progressLayer.progress = 0
    root.addSublayer(progressLayer)
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2.5)
    for (i, value) in [0.25, 0.5, 0.75, 1.0].enumerated() {
        scene.at(0.5 * Double(i + 1)) { progressLayer.progress = CGFloat(value) }
    }
    return scene
}

/// The variant, animated: a 2 s CABasicAnimation of "progress" from 0 to 1 (linear) starting at
/// t = 0; at t = 1 the presentation copy draws progress 0.5 (the model stays 0 → after t = 2 the
/// line shows progress 0 again, as the animation is removed).
func makeSeed2AnimatableProgressLayerScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: UIScreen.main.bounds.width, height: 150)
    root.backgroundColor = UIColor.white.cgColor
    let progressLayer = AnimatableProgressLayer()
    progressLayer.frame = root.bounds
    progressLayer.setNeedsDisplay()
    root.addSublayer(progressLayer)
    let animation = CABasicAnimation(keyPath: "progress")
    animation.fromValue = 0
    animation.toValue = 1
    animation.duration = 2
    animation.timingFunction = CAMediaTimingFunction(name: .linear)
    progressLayer.add(animation, forKey: "progress")
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2.5)
}
