// Scenes shared by the render tests, benchmarks' figures and the README pictures of the three
// layer classes of issue 11: a replicator ring and spinner, a nested grid, a reflection with a
// gradient mask; an additive explosion, snow, a firework with sub-emitters; a huge tiled layer.
// Images are made here (a soft round sprite, a snowflake, a striped photo stand-in) so the
// tests need no files.
import Foundation
import Strata

enum LayerClassFixtures {
    /// A `size`×`size` white disc whose alpha falls off smoothly from the centre (a spark).
    static func softDot(_ size: Int = 32) -> CGImage {
        var b = Bitmap(width: size, height: size)
        let c = Double(size) / 2
        for y in 0..<size { for x in 0..<size {
            let d = ((Double(x) + 0.5 - c) * (Double(x) + 0.5 - c) + (Double(y) + 0.5 - c) * (Double(y) + 0.5 - c)).squareRoot() / c
            let a = UInt8((max(0, 1 - d) * max(0, 1 - d) * 255).rounded())
            let i = (y * size + x) * 4
            b.pixels[i] = a; b.pixels[i + 1] = a; b.pixels[i + 2] = a; b.pixels[i + 3] = a
        } }
        return CGImage(bitmap: b)
    }

    /// A 4-colour striped 120×80 picture (a stand-in for a photo), opaque.
    static func picture() -> CGImage {
        let w = 120, h = 80
        var b = Bitmap(width: w, height: h)
        for y in 0..<h { for x in 0..<w {
            let i = (y * w + x) * 4
            let band = (x / 30 + y / 40) % 4
            let rgb: (UInt8, UInt8, UInt8) = [(230, 80, 60), (250, 200, 60), (70, 160, 90), (60, 110, 220)][band]
            b.pixels[i] = rgb.0; b.pixels[i + 1] = rgb.1; b.pixels[i + 2] = rgb.2; b.pixels[i + 3] = 255
        } }
        return CGImage(bitmap: b)
    }

    static func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
        CGColor(red: r, green: g, blue: b, alpha: a)
    }

    static func root(_ w: CGFloat, _ h: CGFloat, background: CGColor? = color(0.08, 0.09, 0.12)) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: w, height: h)
        root.backgroundColor = background
        return root
    }

    // MARK: Replicators

    /// Seed 000 §5.5's ring: ten 30×30 white squares, each the previous one moved 10 down and
    /// turned 36° about the replicator's centre, green and blue dropping 0.1 a copy.
    static func ring() -> Scene {
        let root = self.root(240, 240)
        let r = CAReplicatorLayer()
        r.frame = root.bounds
        r.instanceCount = 10
        r.instanceTransform = CATransform3DRotate(CATransform3DMakeTranslation(0, 10, 0), .pi / 5, 0, 0, 1)
        r.instanceBlueOffset = -0.1
        r.instanceGreenOffset = -0.1
        let square = CALayer()
        square.frame = CGRect(x: 40, y: 40, width: 30, height: 30)
        square.backgroundColor = color(1, 1, 1)
        r.addSublayer(square)
        root.addSublayer(r)
        return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
    }

    /// A loading spinner: 12 rounded bars about the centre, each fading from 1 to 0.15 over a
    /// second, repeating; instance i starts i/12 s later (instanceDelay), so the bright bar
    /// goes round.
    static func spinner() -> (Scene, CAReplicatorLayer, CALayer) {
        let root = self.root(160, 160)
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 20, y: 20, width: 120, height: 120)
        r.instanceCount = 12
        r.instanceTransform = CATransform3DMakeRotation(2 * .pi / 12, 0, 0, 1)
        r.instanceDelay = 1.0 / 12
        let bar = CALayer()
        bar.frame = CGRect(x: 55, y: 4, width: 10, height: 34)
        bar.cornerRadius = 5
        bar.backgroundColor = color(0.35, 0.8, 1)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0.15
        fade.duration = 1
        fade.repeatCount = .infinity
        bar.add(fade, forKey: "fade")
        r.addSublayer(bar)
        root.addSublayer(r)
        return (Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2), r, bar)
    }

    /// A grid from two replicators: 8 columns (red falling) inside 6 rows (blue falling).
    static func grid() -> Scene {
        let root = self.root(340, 260)
        let rows = CAReplicatorLayer()
        rows.frame = CGRect(x: 10, y: 10, width: 320, height: 240)
        rows.instanceCount = 6
        rows.instanceTransform = CATransform3DMakeTranslation(0, 40, 0)
        rows.instanceBlueOffset = -0.18
        let columns = CAReplicatorLayer()
        columns.frame = CGRect(x: 0, y: 0, width: 320, height: 40)
        columns.instanceCount = 8
        columns.instanceTransform = CATransform3DMakeTranslation(40, 0, 0)
        columns.instanceRedOffset = -0.12
        let cell = CALayer()
        cell.frame = CGRect(x: 4, y: 4, width: 32, height: 32)
        cell.cornerRadius = 8
        cell.backgroundColor = color(1, 1, 1)
        columns.addSublayer(cell)
        rows.addSublayer(columns)
        root.addSublayer(rows)
        return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
    }

    /// A picture and its reflection: a replicator of two instances, the second flipped below the
    /// first (seed 001's instanceTransform) at alpha 0.4, faded out by a gradient mask.
    static func reflection() -> Scene {
        let root = self.root(200, 220, background: color(1, 1, 1))
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 40, y: 10, width: 120, height: 80)
        r.instanceCount = 2
        r.instanceTransform = CATransform3DScale(CATransform3DMakeTranslation(0, 80 + 4, 0), 1, -1, 0)
        r.instanceAlphaOffset = -0.6
        let picture = CALayer()
        picture.frame = r.bounds
        picture.contents = self.picture()
        r.addSublayer(picture)
        // The mask covers the picture fully and the reflection from opaque to clear.
        let mask = CAGradientLayer()
        mask.frame = CGRect(x: 0, y: 0, width: 120, height: 164)
        mask.colors = [color(0, 0, 0, 1), color(0, 0, 0, 1), color(0, 0, 0, 0)]
        mask.locations = [0, 0.52, 0.95]
        r.mask = mask
        root.addSublayer(r)
        return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
    }
}

extension LayerClassFixtures {
    // MARK: Emitters

    /// An explosion: 3 000 sparks a second from the centre for the first 0.1 s (the emitter's
    /// birthRate goes to 0 in a block), flying out at 150 ± 100 pt/s, orange with colour
    /// ranges, shrinking and fading; additive, so the dense core burns white.
    static func explosion() -> (Scene, CAEmitterLayer) {
        let root = self.root(320, 240, background: color(0.02, 0.02, 0.05))
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterPosition = CGPoint(x: 160, y: 120)
        e.renderMode = .additive
        e.seed = 7
        let spark = CAEmitterCell()
        spark.name = "spark"
        spark.contents = softDot()
        spark.birthRate = 3000
        spark.lifetime = 1.5
        spark.lifetimeRange = 1
        spark.velocity = 150
        spark.velocityRange = 200
        spark.emissionRange = 2 * .pi
        spark.yAcceleration = 40
        spark.scale = 0.5
        spark.scaleRange = 0.4
        spark.scaleSpeed = -0.2
        spark.color = color(1, 0.45, 0.12, 0.6)
        spark.redRange = 0.1
        spark.greenRange = 0.3
        spark.alphaSpeed = -0.4
        e.emitterCells = [spark]
        root.addSublayer(e)
        let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 2)
        scene.at(0.1) { e.birthRate = 0 }
        return (scene, e)
    }

    /// Snow: flakes born along a line above the top edge, drifting down and sideways, turning,
    /// of random size and alpha, drawn oldest first over a night-blue gradient.
    static func snow() -> (Scene, CAEmitterLayer) {
        let root = self.root(320, 240)
        let sky = CAGradientLayer()
        sky.frame = root.bounds
        sky.colors = [color(0.05, 0.08, 0.2), color(0.2, 0.28, 0.45)]
        root.addSublayer(sky)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterShape = .line
        e.emitterPosition = CGPoint(x: 160, y: -10)
        e.emitterSize = CGSize(width: 360, height: 0)
        e.renderMode = .oldestFirst
        e.seed = 3
        let flake = CAEmitterCell()
        flake.name = "flake"
        flake.contents = softDot(24)
        flake.birthRate = 30
        flake.lifetime = 12
        flake.velocity = 30
        flake.velocityRange = 20
        flake.emissionLongitude = .pi / 2
        flake.emissionRange = .pi / 6
        flake.xAcceleration = 2
        flake.yAcceleration = 4
        flake.scale = 0.35
        flake.scaleRange = 0.3
        flake.spin = 0.5
        flake.spinRange = 1
        flake.color = color(1, 1, 1, 0.85)
        flake.alphaRange = 0.3
        e.emitterCells = [flake]
        root.addSublayer(e)
        return (Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 10), e)
    }

    /// A firework: rockets rise from a line at the bottom, slowing under gravity; each bursts at
    /// 0.9 s of its life into 120 sparks of its own random colour (a sub-cell that emits for
    /// 0.05 s), which fall and fade. Additive.
    static func firework() -> (Scene, CAEmitterLayer) {
        let root = self.root(320, 240, background: color(0.01, 0.01, 0.04))
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterShape = .line
        e.emitterPosition = CGPoint(x: 160, y: 245)
        e.emitterSize = CGSize(width: 200, height: 0)
        e.renderMode = .additive
        e.seed = 11
        let rocket = CAEmitterCell()
        rocket.name = "rocket"
        rocket.contents = softDot(16)
        rocket.birthRate = 1.2
        rocket.lifetime = 0.95
        rocket.velocity = 260
        rocket.velocityRange = 30
        rocket.emissionLongitude = -.pi / 2
        rocket.emissionRange = .pi / 10
        rocket.yAcceleration = 110
        rocket.scale = 0.6
        rocket.color = color(0.8, 0.8, 0.8)
        rocket.redRange = 0.9
        rocket.greenRange = 0.9
        rocket.blueRange = 0.9
        let burst = CAEmitterCell()
        burst.name = "burst"
        burst.contents = softDot(16)
        burst.beginTime = 0.9
        burst.duration = 0.05
        burst.birthRate = 2400
        burst.lifetime = 1.6
        burst.lifetimeRange = 0.4
        burst.velocity = 90
        burst.velocityRange = 40
        burst.emissionRange = 2 * .pi
        burst.yAcceleration = 50
        burst.scale = 0.5
        burst.scaleSpeed = -0.2
        burst.alphaSpeed = -0.55
        burst.color = color(1, 1, 1)
        rocket.emitterCells = [burst]
        e.emitterCells = [rocket]
        root.addSublayer(e)
        return (Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 6), e)
    }
}

// MARK: Tiled layers

/// A 20 000 × 20 000 point "map" drawn tile by tile: districts of 1 000 points in colours of
/// their own, a dot every 250 points, a line every 50 points; with `showsTileBorders`, each
/// tile's clip box outlined in red (what the renderer asked for). Records the tiles it is asked
/// for (thread-safe: `draw(in:)` runs on several threads at once).
final class MapTiledLayer: CATiledLayer, @unchecked Sendable {
    var showsTileBorders = false
    private let lock = NSLock()
    private var drawn: [CGRect] = []
    private var threads = Set<String>()

    /// The clip boxes drawn so far, and forgets them.
    func takeDrawnTiles() -> [CGRect] {
        lock.lock(); defer { lock.unlock() }
        let d = drawn
        drawn = []
        return d
    }

    /// How many different threads have drawn tiles.
    var drawingThreadCount: Int { lock.lock(); defer { lock.unlock() }; return threads.count }

    override init() { super.init() }
    override init(layer: Any) {
        super.init(layer: layer)
        showsTileBorders = (layer as? MapTiledLayer)?.showsTileBorders ?? false
    }
    required init?(coder: NSCoder) { super.init(coder: coder) }

    override func draw(in ctx: CGContext) {
        let box = ctx.boundingBoxOfClipPath
        lock.lock()
        drawn.append(box)
        threads.insert(Thread.isMainThread ? "main" : "\(Unmanaged.passUnretained(Thread.current).toOpaque())")
        lock.unlock()
        let district = 1000.0, dot = 250.0, line = 50.0
        for j in Int((box.minY / district).rounded(.down))...Int((box.maxY / district).rounded(.down)) {
            for i in Int((box.minX / district).rounded(.down))...Int((box.maxX / district).rounded(.down)) {
                let h = Double((i * 7 + j * 13) % 10) / 10
                ctx.setFillColor(red: 0.25 + 0.5 * h, green: 0.35 + 0.4 * Double(j % 5) / 5, blue: 0.75 - 0.5 * h, alpha: 1)
                ctx.fill(CGRect(x: Double(i) * district, y: Double(j) * district, width: district, height: district))
            }
        }
        ctx.setStrokeColor(red: 1, green: 1, blue: 1, alpha: 0.35)
        ctx.setLineWidth(2)
        var x = (box.minX / line).rounded(.down) * line
        while x <= box.maxX { ctx.strokeLineSegments(between: [CGPoint(x: x, y: box.minY), CGPoint(x: x, y: box.maxY)]); x += line }
        var y = (box.minY / line).rounded(.down) * line
        while y <= box.maxY { ctx.strokeLineSegments(between: [CGPoint(x: box.minX, y: y), CGPoint(x: box.maxX, y: y)]); y += line }
        ctx.setFillColor(red: 1, green: 0.95, blue: 0.6, alpha: 1)
        for j in Int(((box.minY - 60) / dot).rounded(.up))...Int(((box.maxY + 60) / dot).rounded(.down)) {
            for i in Int(((box.minX - 60) / dot).rounded(.up))...Int(((box.maxX + 60) / dot).rounded(.down)) {
                ctx.fillEllipse(in: CGRect(x: Double(i) * dot - 60, y: Double(j) * dot - 60, width: 120, height: 120))
            }
        }
        if showsTileBorders {
            let w = box.width / 64
            ctx.setStrokeColor(red: 1, green: 0.1, blue: 0.1, alpha: 1)
            ctx.stroke(box.insetBy(dx: w / 2, dy: w / 2), width: w)
        }
    }
}

extension LayerClassFixtures {
    /// The map in a `width`×`height` frame, zoomed and panned over 10 s: the whole map at 0,
    /// closing in on a district until 7.5 s (2× at the end), then out again. Levels of detail
    /// 9 with a bias of 2 (the finest level is 4× the layer's scale).
    static func tiledMap(width: CGFloat = 640, height: CGFloat = 360, borders: Bool = false, frameRate: Double = 30) -> (Scene, MapTiledLayer) {
        let root = self.root(width, height)
        let map = MapTiledLayer()
        map.showsTileBorders = borders
        map.levelsOfDetail = 9
        map.levelsOfDetailBias = 2
        map.anchorPoint = .zero
        map.bounds = CGRect(x: 0, y: 0, width: 20_000, height: 20_000)
        root.addSublayer(map)
        // Scale and the map point kept at the frame's centre, at each key time.
        let fit = height / 20_000
        let keys: [(t: Double, s: CGFloat, c: CGPoint)] = [
            (0, fit, CGPoint(x: 10_000, y: 10_000)), (2.5, 0.12, CGPoint(x: 8_000, y: 9_000)),
            (5, 0.6, CGPoint(x: 5_200, y: 6_100)), (7.5, 2, CGPoint(x: 5_130, y: 6_070)),
            (10, 0.3, CGPoint(x: 12_000, y: 12_000)),
        ]
        func position(_ k: (t: Double, s: CGFloat, c: CGPoint)) -> CGPoint {
            CGPoint(x: width / 2 - k.c.x * k.s, y: height / 2 - k.c.y * k.s)
        }
        map.position = position(keys[0])
        map.transform = CATransform3DMakeScale(fit, fit, 1)
        let times = keys.map { NSNumber(value: $0.t / 10) }
        let scale = CAKeyframeAnimation(keyPath: "transform.scale")
        scale.values = keys.map { $0.s }
        scale.keyTimes = times
        let pan = CAKeyframeAnimation(keyPath: "position")
        pan.values = keys.map { NSValue(cgPoint: position($0)) }
        pan.keyTimes = times
        let group = CAAnimationGroup()
        group.animations = [scale, pan]
        group.duration = 10
        group.fillMode = .forwards
        group.isRemovedOnCompletion = false
        map.add(group, forKey: "zoom")
        return (Scene(rootLayer: root, size: root.bounds.size, frameRate: frameRate, duration: 10), map)
    }
}
