// The seeds' cube: six faces in a container whose sublayerTransform has perspective and two
// rotations, then turned with an animation of the container's sublayerTransform.
// Run: swift run example-cube  (writes out/cube.gif)
import Foundation
import Strata

let size = CGSize(width: 400, height: 400)
let root = CALayer()
root.frame = CGRect(origin: .zero, size: size)
root.backgroundColor = CGColor(gray: 0.93, alpha: 1)

let container = CALayer()
container.frame = root.bounds
var perspective = CATransform3DIdentity
perspective.m34 = -1.0 / 500.0
perspective = CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0)
perspective = CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0)
container.sublayerTransform = perspective
root.addSublayer(container)

@MainActor func addFace(_ transform: CATransform3D, _ color: CGColor) {
    let face = CALayer()
    face.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
    face.position = CGPoint(x: size.width / 2, y: size.height / 2)
    face.backgroundColor = color
    face.cornerRadius = 12
    face.borderWidth = 4
    face.borderColor = .white
    face.isDoubleSided = false
    face.transform = transform
    container.addSublayer(face)
}
addFace(CATransform3DMakeTranslation(0, 0, 100), CGColor(red: 0.9, green: 0.3, blue: 0.3, alpha: 1))
addFace(CATransform3DRotate(CATransform3DMakeTranslation(100, 0, 0), .pi / 2, 0, 1, 0), CGColor(red: 0.3, green: 0.7, blue: 0.4, alpha: 1))
addFace(CATransform3DRotate(CATransform3DMakeTranslation(0, -100, 0), .pi / 2, 1, 0, 0), CGColor(red: 0.3, green: 0.5, blue: 0.9, alpha: 1))
addFace(CATransform3DRotate(CATransform3DMakeTranslation(0, 100, 0), -.pi / 2, 1, 0, 0), CGColor(red: 0.95, green: 0.8, blue: 0.3, alpha: 1))
addFace(CATransform3DRotate(CATransform3DMakeTranslation(-100, 0, 0), -.pi / 2, 0, 1, 0), CGColor(red: 0.6, green: 0.4, blue: 0.8, alpha: 1))
addFace(CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -100), .pi, 0, 1, 0), CGColor(red: 0.3, green: 0.8, blue: 0.8, alpha: 1))

// Turn the whole cube: the sublayerTransform's y rotation runs a full turn.
let turn = CABasicAnimation(keyPath: "sublayerTransform.rotation.y")
turn.fromValue = 0
turn.toValue = 2 * CGFloat.pi
turn.duration = 3
turn.repeatCount = .infinity
turn.isAdditive = true  // spin on top of the tilt, instead of replacing the rotation
container.add(turn, forKey: "turn")

let scene = Scene(rootLayer: root, size: size, frameRate: 25, duration: 3)
do {
    try FileManager.default.createDirectory(atPath: "out", withIntermediateDirectories: true)
    try scene.export(to: URL(fileURLWithPath: "out/cube.gif"))
    print("wrote out/cube.gif")
} catch {
    FileHandle.standardError.write("error: \(error)\n".data(using: .utf8)!)
    exit(1)
}
