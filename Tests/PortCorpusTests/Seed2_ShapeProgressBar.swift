// Seed 002 5.CALayer的探究应用——进度条, 常规做法: a progress line that bends down by up to 25 points
// at half progress, drawn with two CAShapeLayers (grey background, green top with strokeEnd =
// progress) whose paths are rebuilt on every change.
import Strata

// Port note (completion): the note shows updatePath only; the view that owns `background`, `top`
// and `_progress` is completed minimally (5-point lines, light grey and green, no fill).
class ShapeProgressView: UIView {
    let background = CAShapeLayer()
    let top = CAShapeLayer()
    var _progress: CGFloat = 0

    var progress: CGFloat {
        get { return _progress }
        set {
            _progress = min(1, max(0, newValue))
            self.updatePath()
        }
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        for shape in [background, top] {
            shape.fillColor = nil
            shape.lineWidth = 5
            shape.lineCap = .round
            shape.lineJoin = .round
            self.layer.addSublayer(shape)
        }
        background.strokeColor = UIColor.lightGray.cgColor
        top.strokeColor = UIColor.green.cgColor
        self.updatePath()
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    func updatePath() {
        let path = UIBezierPath()
        path.move(to: CGPoint(x: 25, y: 150))
        path.addLine(to: CGPoint(x: (UIScreen.main.bounds.width - 50) * _progress + 25,
                                 y: 150 + (25.0 * (1 - abs(_progress - 0.5) * 2))))
        path.addLine(to: CGPoint(x: UIScreen.main.bounds.width - 25, y: 150))
        self.background.path = path.cgPath
        self.top.path = path.cgPath
        self.top.strokeEnd = _progress
    }
}

// MARK: - Strata harness (not part of the port)

/// Progress 0 → 0.25 (t = 0.5) → 0.5 (t = 1, deepest bend: y = 175) → 0.75 (t = 1.5) → 1 (t = 2);
/// each change animates implicitly (0.25 s; the paths have the same structure).
func makeSeed2ShapeProgressBarScene() -> Scene {
    let view = ShapeProgressView(frame: CGRect(x: 0, y: 0, width: UIScreen.main.bounds.width, height: 300))
    let scene = Scene(rootLayer: view.layer, size: view.bounds.size, frameRate: 30, duration: 2.5)
    for (i, value) in [0.25, 0.5, 0.75, 1.0].enumerated() {
        scene.at(0.5 * Double(i + 1)) { view.progress = CGFloat(value) }
    }
    return scene
}
