// Seed 002 2.CAAnimation — CABasicAnimation's fromValue / toValue / byValue, and the six ways the
// note lists to combine them (interpolation ends).
import Strata

// Port note (completion): the note quotes the three properties and lists the combinations in
// prose; each combination is one function here, animating position.x of a layer whose model value
// is 100.
func fromAndTo(_ a: CABasicAnimation) { a.fromValue = 50; a.toValue = 250 }   // 50 → 250
func fromAndBy(_ a: CABasicAnimation) { a.fromValue = 50; a.byValue = 100 }   // 50 → 150
func byAndTo(_ a: CABasicAnimation) { a.byValue = 100; a.toValue = 250 }      // 150 → 250
func fromOnly(_ a: CABasicAnimation) { a.fromValue = 250 }                    // 250 → current (100)
func toOnly(_ a: CABasicAnimation) { a.toValue = 250 }                        // current (100) → 250
func byOnly(_ a: CABasicAnimation) { a.byValue = 100 }                        // current → current + 100

// MARK: - Strata harness (not part of the port)

/// Six rows of 20×20 squares (model x = 100), each with a 2 s linear position.x animation using one
/// combination; at t = 1 the centres are at x = 150, 100, 200, 175, 175, 150.
func makeSeed2BasicAnimationValuesScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 300, height: 240)
    let setups: [(CABasicAnimation) -> Void] = [fromAndTo, fromAndBy, byAndTo, fromOnly, toOnly, byOnly]
    for (row, setup) in setups.enumerated() {
        let square = CALayer()
        square.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        square.position = CGPoint(x: 100, y: 20 + 40 * CGFloat(row))
        square.backgroundColor = UIColor.red.cgColor
        root.addSublayer(square)
        let animation = CABasicAnimation(keyPath: "position.x")
        animation.duration = 2
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        setup(animation)
        square.add(animation, forKey: "x")
    }
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
}
