// Layer-compositing benchmarks of issue 3: (a) 100 image layers rotating, scaling and fading,
// (b) the same with shadows from shadowPath, (c) a 3D scene of ten cubes (60 faces) in
// CATransformLayer contexts. The peer for (a) is Benchmarks/peers/images_skia.py (the same
// images, transforms and opacities, drawn by skia-python).
import Foundation
import Strata

/// The images of scene (a): 10 sprites of 200×150 points, a diagonal gradient rounded rectangle
/// with a disc, drawn once with Strata.
func layerBenchSprites() -> [CGImage] {
    (0..<10).map { i in
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 150)
        let g = CAGradientLayer()
        g.frame = root.bounds
        let h = Double(i) / 10
        g.colors = [CGColor(red: 0.9 - h * 0.6, green: 0.3 + h * 0.5, blue: 0.5, alpha: 1),
                    CGColor(red: 0.2, green: 0.4, blue: 0.9 - h * 0.5, alpha: 1)]
        g.startPoint = .zero
        g.endPoint = CGPoint(x: 1, y: 1)
        g.cornerRadius = 18
        g.masksToBounds = true
        root.addSublayer(g)
        let disc = CALayer()
        disc.frame = CGRect(x: 100, y: 30, width: 90, height: 90)
        disc.cornerRadius = 45
        disc.backgroundColor = CGColor(red: 1, green: 0.9, blue: 0.3, alpha: 0.9)
        root.addSublayer(disc)
        return CGImage(bitmap: FrameRenderer(width: 200, height: 150).render(PresentationBuilder(time: 0).snapshotTree(of: root)))
    }
}

/// Pose of image layer `i` at frame `t` (shared with the Python peer: keep in sync).
func imagePose(_ i: Int, _ t: Int) -> (x: Double, y: Double, angle: Double, scale: Double, alpha: Double) {
    let col = i % 10, row = i / 10
    let x = 96 + Double(col) * 192, y = 54 + Double(row) * 108
    let angle = 0.03 * Double(t) + Double(i) * 0.37
    let scale = 0.8 + 0.3 * sin(0.05 * Double(t) + Double(i))
    let alpha = 0.55 + 0.4 * sin(0.04 * Double(t) + Double(i) * 0.5)
    return (x, y, angle, scale, alpha)
}

func layersBenchmark(_ args: Args, shadows: Bool) {
    let sprites = layerBenchSprites()
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 1920, height: 1080)
    root.backgroundColor = .white
    var layers: [CALayer] = []
    for i in 0..<100 {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 200, height: 150)
        l.contents = sprites[i % sprites.count]
        if shadows {
            l.shadowOpacity = 0.5
            l.shadowRadius = 8
            l.shadowOffset = CGSize(width: 0, height: 6)
            l.shadowPath = CGPath(roundedRect: l.bounds, cornerWidth: 18, cornerHeight: 18)
        }
        root.addSublayer(l)
        layers.append(l)
    }
    measureScene(shadows ? "images+shadowPath" : "images", args, root: root, defaultRuns: 3) { t in
        for (i, l) in layers.enumerated() {
            let p = imagePose(i, t)
            l.position = CGPoint(x: p.x, y: p.y)
            l.transform = CATransform3DScale(CATransform3DMakeRotation(p.angle, 0, 0, 1), p.scale, p.scale, 1)
            l.opacity = Float(p.alpha)
        }
    }
}

func cubesBenchmark(_ args: Args) {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 1920, height: 1080)
    root.backgroundColor = CGColor(gray: 0.1, alpha: 1)
    var p = CATransform3DIdentity
    p.m34 = -1 / 900
    root.sublayerTransform = p
    var cubes: [CATransformLayer] = []
    for i in 0..<10 {
        let cube = CATransformLayer()
        cube.position = CGPoint(x: 200 + Double(i % 5) * 380, y: 300 + Double(i / 5) * 480)
        let half: CGFloat = 90
        let ts: [CATransform3D] = [
            CATransform3DMakeTranslation(0, 0, half),
            CATransform3DRotate(CATransform3DMakeTranslation(half, 0, 0), .pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, -half, 0), .pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, half, 0), -.pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(-half, 0, 0), -.pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -half), .pi, 0, 1, 0),
        ]
        for (k, t) in ts.enumerated() {
            let face = CALayer()
            face.bounds = CGRect(x: 0, y: 0, width: 2 * half, height: 2 * half)
            face.backgroundColor = CGColor(red: 0.2 + 0.13 * Double(k), green: 0.8 - 0.1 * Double(k), blue: 0.3 + 0.1 * Double(i % 5), alpha: 0.9)
            face.borderWidth = 4
            face.borderColor = .white
            face.cornerRadius = 10
            face.transform = t
            cube.addSublayer(face)
        }
        root.addSublayer(cube)
        cubes.append(cube)
    }
    measureScene("cubes3d (60 translucent faces, per-pixel depth)", args, root: root, defaultRuns: 3) { t in
        for (i, c) in cubes.enumerated() {
            var m = CATransform3DMakeRotation(0.02 * Double(t) + Double(i), 0, 1, 0)
            m = CATransform3DRotate(m, 0.5 + 0.1 * Double(i), 1, 0, 0)
            c.transform = m
        }
    }
}
