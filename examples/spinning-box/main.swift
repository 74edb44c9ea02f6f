// The README example: a red box spinning, moved at 2 s by an implicit animation.
// Run: swift run example-spinning-box  (writes out/spinning-box.mp4 and a PNG of t = 1.5 s)
import Foundation
import Strata

let root = CALayer()
root.frame = CGRect(x: 0, y: 0, width: 640, height: 360)
root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

let box = CALayer()
box.frame = CGRect(x: 40, y: 40, width: 120, height: 120)
box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
box.cornerRadius = 16
root.addSublayer(box)

let spin = CABasicAnimation(keyPath: "transform.rotation.z")
spin.toValue = CGFloat.pi
spin.duration = 2
spin.repeatCount = .infinity
box.add(spin, forKey: "spin")

let scene = Scene(rootLayer: root, size: CGSize(width: 640, height: 360), frameRate: 30, duration: 4)
scene.at(2.0) {
    CATransaction.begin()
    CATransaction.setAnimationDuration(1)
    box.position = CGPoint(x: 500, y: 180)
    CATransaction.commit()
}

do {
    try FileManager.default.createDirectory(atPath: "out", withIntermediateDirectories: true)
    let frame = try scene.renderFrame(at: 1.5)
    try frame.writePNG(to: URL(fileURLWithPath: "out/spinning-box-1.5s.png"))
    try scene.export(to: URL(fileURLWithPath: "out/spinning-box.mp4"))
    print("wrote out/spinning-box.mp4 and out/spinning-box-1.5s.png")
} catch {
    FileHandle.standardError.write("error: \(error)\n".data(using: .utf8)!)
    exit(1)
}
