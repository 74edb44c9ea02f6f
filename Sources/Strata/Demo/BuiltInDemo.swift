// The built-in demo: a few seconds showing layers, rounded corners, borders, masksToBounds,
// group opacity, a 3D cube in perspective, eased motion, a gradient, text and a shape drawing on. `strata render` with no template
// renders it; it is also the standard scene of the whole-pipeline benchmark.
import Foundation
import StrataCore

/// Builds the demo scene at any size (the layout scales with the width).
public enum BuiltInDemo {
    /// The demo scene at `size` points, `frameRate` frames per second, lasting `duration` seconds
    /// (what `strata render` renders when given no template or script).
    ///
    /// ```swift
    /// let scene = BuiltInDemo.makeScene(size: CGSize(width: 640, height: 360), duration: 2)
    /// ```
    public static func makeScene(size: CGSize = CGSize(width: 1280, height: 720), frameRate: Double = 30,
                                 duration: Double = 4) -> Scene {
        let W = size.width, H = size.height
        let u = W / 1280  // layout unit

        let root = CAGradientLayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = CGColor(red: 0.07, green: 0.08, blue: 0.12, alpha: 1)
        root.colors = [CGColor(red: 0.09, green: 0.1, blue: 0.17, alpha: 1), CGColor(red: 0.03, green: 0.03, blue: 0.06, alpha: 1)]
        root.startPoint = CGPoint(x: 0, y: 0)
        root.endPoint = CGPoint(x: 1, y: 1)

        // A card with rounded corners and a border that clips a sliding stripe.
        let card = CALayer()
        card.frame = CGRect(x: 60 * u, y: 60 * u, width: 420 * u, height: 240 * u)
        card.backgroundColor = CGColor(red: 0.96, green: 0.95, blue: 0.92, alpha: 1)
        card.cornerRadius = 28 * u
        card.borderWidth = 6 * u
        card.borderColor = CGColor(red: 0.95, green: 0.55, blue: 0.2, alpha: 1)
        card.masksToBounds = true
        root.addSublayer(card)

        let stripe = CALayer()
        stripe.bounds = CGRect(x: 0, y: 0, width: 120 * u, height: 400 * u)
        stripe.position = CGPoint(x: -60 * u, y: 120 * u)
        stripe.backgroundColor = CGColor(red: 0.2, green: 0.6, blue: 0.95, alpha: 1)
        stripe.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 6))
        card.addSublayer(stripe)
        stripe.opacity = 0.35
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = -60 * u
        slide.toValue = 480 * u
        slide.duration = duration / 2
        slide.repeatCount = .infinity
        slide.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        stripe.add(slide, forKey: "slide")

        // Text on the card.
        let title = CATextLayer()
        title.frame = CGRect(x: 32 * u, y: 28 * u, width: 360 * u, height: 60 * u)
        title.string = "Strata"
        title.font = "DejaVu Sans Bold"
        title.fontSize = 44 * u
        title.foregroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.15, alpha: 1)
        card.addSublayer(title)
        let subtitle = CATextLayer()
        subtitle.frame = CGRect(x: 34 * u, y: 90 * u, width: 300 * u, height: 60 * u)
        subtitle.string = "Core Animation for Linux, rendered to video"
        subtitle.font = "DejaVu Sans"
        subtitle.fontSize = 20 * u
        subtitle.isWrapped = true
        subtitle.foregroundColor = CGColor(red: 0.25, green: 0.25, blue: 0.3, alpha: 1)
        card.addSublayer(subtitle)

        // A wave drawing itself on (strokeEnd).
        let wave = CAShapeLayer()
        wave.frame = CGRect(x: 420 * u, y: 560 * u, width: 780 * u, height: 80 * u)
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 40 * u))
        for i in 1...48 {
            let x = CGFloat(i) / 48 * 780 * u
            path.addLine(to: CGPoint(x: x, y: 40 * u - 30 * u * sin(CGFloat(i) / 48 * 4 * .pi)))
        }
        wave.path = path
        wave.fillColor = nil
        wave.strokeColor = CGColor(red: 0.4, green: 0.85, blue: 0.95, alpha: 1)
        wave.lineWidth = 5 * u
        wave.lineCap = .round
        wave.lineJoin = .round
        root.addSublayer(wave)
        let draw = CABasicAnimation(keyPath: "strokeEnd")
        draw.fromValue = 0
        draw.toValue = 1
        draw.duration = duration * 0.75
        draw.fillMode = .forwards
        draw.isRemovedOnCompletion = false
        draw.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        wave.add(draw, forKey: "draw")

        // Group opacity: two overlapping squares fade as one picture (no darker overlap).
        let group = CALayer()
        group.frame = CGRect(x: 80 * u, y: 380 * u, width: 300 * u, height: 240 * u)
        for (i, c) in [CGColor(red: 0.9, green: 0.25, blue: 0.35, alpha: 1),
                       CGColor(red: 0.3, green: 0.8, blue: 0.45, alpha: 1)].enumerated() {
            let sq = CALayer()
            sq.frame = CGRect(x: CGFloat(i) * 100 * u, y: CGFloat(i) * 60 * u, width: 180 * u, height: 180 * u)
            sq.backgroundColor = c
            sq.cornerRadius = 20 * u
            group.addSublayer(sq)
        }
        root.addSublayer(group)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.35
        fade.duration = duration / 4
        fade.autoreverses = true
        fade.repeatCount = .infinity
        group.add(fade, forKey: "fade")

        // A cube of six faces in perspective, turning.
        let stage = CALayer()
        stage.frame = CGRect(x: 620 * u, y: 80 * u, width: 560 * u, height: 560 * u)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 900
        stage.sublayerTransform = perspective
        root.addSublayer(stage)
        let tilt = CATransformLayer()
        tilt.frame = stage.bounds
        tilt.transform = CATransform3DMakeRotation(-.pi / 7, 1, 0, 0)
        stage.addSublayer(tilt)
        let cube = CATransformLayer()
        cube.frame = tilt.bounds
        tilt.addSublayer(cube)
        let half = 110 * u
        let faces: [(CATransform3D, CGColor)] = [
            (CATransform3DMakeTranslation(0, 0, half), CGColor(red: 0.95, green: 0.33, blue: 0.3, alpha: 1)),
            (CATransform3DRotate(CATransform3DMakeTranslation(half, 0, 0), .pi / 2, 0, 1, 0), CGColor(red: 0.98, green: 0.75, blue: 0.2, alpha: 1)),
            (CATransform3DRotate(CATransform3DMakeTranslation(0, -half, 0), .pi / 2, 1, 0, 0), CGColor(red: 0.3, green: 0.75, blue: 0.4, alpha: 1)),
            (CATransform3DRotate(CATransform3DMakeTranslation(0, half, 0), -.pi / 2, 1, 0, 0), CGColor(red: 0.25, green: 0.55, blue: 0.95, alpha: 1)),
            (CATransform3DRotate(CATransform3DMakeTranslation(-half, 0, 0), -.pi / 2, 0, 1, 0), CGColor(red: 0.65, green: 0.4, blue: 0.9, alpha: 1)),
            (CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -half), .pi, 0, 1, 0), CGColor(red: 0.95, green: 0.5, blue: 0.75, alpha: 1)),
        ]
        for (t, color) in faces {
            let face = CALayer()
            face.bounds = CGRect(x: 0, y: 0, width: 2 * half, height: 2 * half)
            face.position = CGPoint(x: cube.bounds.midX, y: cube.bounds.midY)
            face.backgroundColor = color
            face.cornerRadius = 18 * u
            face.borderWidth = 5 * u
            face.borderColor = CGColor(gray: 1, alpha: 0.9)
            face.isDoubleSided = false
            face.transform = t
            cube.addSublayer(face)
        }
        let turn = CABasicAnimation(keyPath: "transform.rotation.y")
        turn.fromValue = 0
        turn.toValue = 2 * CGFloat.pi
        turn.duration = duration
        turn.repeatCount = .infinity
        cube.add(turn, forKey: "turn")

        // Eased motion: a dot travelling along the bottom and back.
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 44 * u, height: 44 * u)
        dot.cornerRadius = 22 * u
        dot.position = CGPoint(x: 80 * u, y: H - 50 * u)
        dot.backgroundColor = CGColor(red: 1, green: 0.85, blue: 0.3, alpha: 1)
        dot.borderWidth = 3 * u
        dot.borderColor = .white
        root.addSublayer(dot)
        let travel = CABasicAnimation(keyPath: "position.x")
        travel.toValue = W - 80 * u
        travel.duration = duration / 2
        travel.autoreverses = true
        travel.repeatCount = .infinity
        travel.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        dot.add(travel, forKey: "travel")
        let grow = CABasicAnimation(keyPath: "transform.scale")
        grow.fromValue = 0.6
        grow.toValue = 1.3
        grow.duration = duration / 4
        grow.autoreverses = true
        grow.repeatCount = .infinity
        dot.add(grow, forKey: "grow")

        return Scene(rootLayer: root, size: size, frameRate: frameRate, duration: duration)
    }
}
