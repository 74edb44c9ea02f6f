// Seed 001 显式动画 暂停动画 / 恢复动画: pausing every animation of a layer (speed 0, timeOffset =
// the paused local time) and resuming from the same place (beginTime = the time spent paused).
import Strata

// Port note (completion): the note's two snippets use `self.layer`, i.e. they live in a UIView
// subclass; completed with a view that spins itself, and the two methods named after the comments.
class PausableSpinnerView: UIView {
    override init(frame: CGRect) {
        super.init(frame: frame)
        self.backgroundColor = UIColor.orange
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.byValue = Double.pi * 2
        spin.duration = 2
        spin.repeatCount = .infinity
        self.layer.add(spin, forKey: "spin")
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    func pauseAnimation() {
        // current time (the moment of the pause)
        let pauseTime = self.layer.convertTime(CACurrentMediaTime(), from: nil)
        // stop the animation
        self.layer.speed = 0
        // where the animation is (timeOffset = 1 means one second into the animation)
        self.layer.timeOffset = pauseTime
    }

    func resumeAnimation() {
        // the time at which the animation was paused
        let pausedTime = self.layer.timeOffset
        // reset the timing
        self.layer.speed = 1
        self.layer.timeOffset = 0
        self.layer.beginTime = 0
        // Now the animation runs again, but not continuously: it jumps to where it would have been
        // had it "run in the background" (past a whole cycle: back at the start).
        // current time (the moment of resuming)
        let continueTime = self.layer.convertTime(CACurrentMediaTime(), from: nil)
        // the gap between pausing and resuming
        let timePause = continueTime - pausedTime
        // the animation restarts from where it was paused
        self.layer.beginTime = timePause
    }
}

// MARK: - Strata harness (not part of the port)

/// Spins 180°/s; paused at t = 1.5 (at 270°), frozen until t = 3, then continues from 270°
/// (at t = 3.5 it shows 360°, i.e. upright).
func makeSeed1PauseResumeScene() -> Scene {
    let host = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    let spinner = PausableSpinnerView(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
    host.addSubview(spinner)
    let scene = Scene(rootLayer: host.layer, size: host.bounds.size, frameRate: 30, duration: 4)
    scene.at(1.5) { spinner.pauseAnimation() }
    scene.at(3.0) { spinner.resumeAnimation() }
    return scene
}
