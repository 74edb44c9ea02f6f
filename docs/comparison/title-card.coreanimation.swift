import Strata

let root = CALayer()
root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
root.backgroundColor = CGColor(red: 16 / 255, green: 24 / 255, blue: 32 / 255, alpha: 1)
let title = "STRATA"
let sizes = title.map { TextMetrics.size(of: String($0), font: "DejaVu Sans Bold", fontSize: 144) }
let titleWidth = sizes.reduce(0) { $0 + $1.width } + CGFloat(title.count - 1) * 4
let subSize = TextMetrics.size(of: "Core Animation, rendered to video", font: "DejaVu Sans", fontSize: 40)
let totalHeight = sizes[0].height + 16 + subSize.height + 16 + 10
var x = (1280 - titleWidth) / 2, y = (720 - totalHeight) / 2
for (i, c) in title.enumerated() {
    let letter = CATextLayer()
    letter.string = String(c); letter.font = "DejaVu Sans Bold" as CFString; letter.fontSize = 144
    letter.foregroundColor = CGColor.white
    letter.frame = CGRect(x: x, y: y, width: sizes[i].width, height: sizes[i].height)
    x += sizes[i].width + 4
    let rise = CABasicAnimation(keyPath: "transform.translation.y")
    rise.fromValue = 60; rise.toValue = 0
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 0; fade.toValue = 1
    let group = CAAnimationGroup()
    group.animations = [rise, fade]; group.duration = 0.6
    group.timingFunction = CAMediaTimingFunction(name: .easeOutCubic)
    group.beginTime = 0.08 * Double(i); group.fillMode = .both; group.isRemovedOnCompletion = false
    letter.add(group, forKey: "in")
    root.addSublayer(letter)
}
y += sizes[0].height + 16
let subtitle = CATextLayer()
subtitle.string = "Core Animation, rendered to video"; subtitle.font = "DejaVu Sans" as CFString; subtitle.fontSize = 40
subtitle.foregroundColor = CGColor(red: 154 / 255, green: 165 / 255, blue: 177 / 255, alpha: 1)
subtitle.frame = CGRect(x: (1280 - subSize.width) / 2, y: y, width: subSize.width, height: subSize.height)
let fade = CABasicAnimation(keyPath: "opacity")
fade.fromValue = 0; fade.toValue = 1; fade.duration = 0.4; fade.beginTime = 0.9
fade.fillMode = .both; fade.isRemovedOnCompletion = false
subtitle.add(fade, forKey: "fade")
root.addSublayer(subtitle)
let bar = CALayer()
bar.frame = CGRect(x: (1280 - 360) / 2, y: y + subSize.height + 16, width: 360, height: 10)
bar.cornerRadius = 5
bar.backgroundColor = CGColor(red: 1, green: 90 / 255, blue: 54 / 255, alpha: 1)
let grow = CABasicAnimation(keyPath: "transform.scale.x")
grow.fromValue = 0; grow.toValue = 1; grow.duration = 0.8; grow.beginTime = 1.2
grow.timingFunction = CAMediaTimingFunction(name: .easeOutCubic)
grow.fillMode = .both; grow.isRemovedOnCompletion = false
bar.add(grow, forKey: "grow")
root.addSublayer(bar)
let scene = Scene(rootLayer: root, size: CGSize(width: 1280, height: 720), frameRate: 30, duration: 3)
try scene.export(to: URL(fileURLWithPath: "title-card.mp4"))
