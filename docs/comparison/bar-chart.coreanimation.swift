import Strata

let values: [CGFloat] = [42, 68, 55, 91, 76]
let root = CALayer()
root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
root.backgroundColor = CGColor.white
let width = CGFloat(values.count) * 120 + CGFloat(values.count - 1) * 48
for (i, v) in values.enumerated() {
    let bar = CALayer()
    bar.anchorPoint = CGPoint(x: 0.5, y: 1)
    bar.bounds = CGRect(x: 0, y: 0, width: 120, height: 4 * v)
    bar.position = CGPoint(x: (1280 - width) / 2 + CGFloat(i) * 168 + 60, y: 720 - 60)
    bar.backgroundColor = CGColor(red: 9 / 255, green: 105 / 255, blue: 218 / 255, alpha: 1)
    let grow = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.2)
    grow.keyPath = "transform.scale.y"
    grow.fromValue = 0; grow.toValue = 1
    grow.beginTime = 0.15 * Double(i); grow.fillMode = .both; grow.isRemovedOnCompletion = false
    bar.add(grow, forKey: "grow")
    root.addSublayer(bar)
}
let scene = Scene(rootLayer: root, size: CGSize(width: 1280, height: 720), frameRate: 30, duration: 3)
try scene.export(to: URL(fileURLWithPath: "bar-chart.mp4"))
