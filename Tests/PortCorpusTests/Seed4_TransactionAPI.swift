// Seed 004 六、隐式动画 事务 主要用法: begin/commit, the transaction's animation duration (set and
// read, 0.25 s by default), and disabling implicit animations.
import Strata

// Port note (completion): the note lists the calls; they are used in order here on a standalone
// layer: a 1 s implicit move, then a change without animation.
func seed4TransactionAPI(_ layer: CALayer) -> CFTimeInterval {
    let defaultDuration = CATransaction.animationDuration()   // 0.25 by default
    CATransaction.begin()                                     // push
    CATransaction.setAnimationDuration(1)                     // this transaction's duration
    layer.position = CGPoint(x: 250, y: 50)
    CATransaction.commit()                                    // pop

    CATransaction.begin()
    CATransaction.setDisableActions(true)                     // no implicit animation at all
    layer.backgroundColor = UIColor.green.cgColor
    CATransaction.commit()
    return defaultDuration
}

// MARK: - Strata harness (not part of the port)

/// A red 40×40 layer at (50, 50); at t = 0.5 it starts a 1 s move to (250, 50) and turns green at
/// once.
func makeSeed4TransactionAPIScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 300, height: 100)
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
    layer.position = CGPoint(x: 50, y: 50)
    layer.backgroundColor = UIColor.red.cgColor
    root.addSublayer(layer)
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
    scene.at(0.5) { _ = seed4TransactionAPI(layer) }
    return scene
}
