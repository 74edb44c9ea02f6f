// Benchmarks of issue 11's layer classes at 1920×1080, through `Scene.renderFrame` (so the
// closed-form particle simulation, the replicator's expansion and the tile drawing are in the
// figures, not only compositing):
//   particles  — an emitter with `--count` live particles (birthRate × lifetime), 16-point soft
//                sprites over the frame, additive unless `--additive 0`; frames from t = 5 s on
//                (steady state); prints ms/frame (one renderFrame a frame) and the snapshot's part;
//                `--tile N` the tile size, `--hash 1` the first frame's FNV-1a.
//   replicator — `--instances` copies of a 12-point rounded square in a spiral, colour offsets,
//                the square turning (every frame changes).
//   tiledzoom  — a 20 000 × 20 000 point tiled layer zoomed from the whole map to 2× and out again
//                over `--seconds` at `--fps`; prints ms/frame, tiles drawn, the tile cache's peak
//                and the process's peak RSS (the whole map at its finest level would be 25.6 GB).
import Foundation
import Strata

/// A white disc fading to its edge, `size` pixels.
private func benchDot(_ size: Int = 32) -> CGImage {
    var b = Bitmap(width: size, height: size)
    let c = Double(size) / 2
    for y in 0..<size { for x in 0..<size {
        let dx = Double(x) + 0.5 - c, dy = Double(y) + 0.5 - c
        let f = max(0, 1 - (dx * dx + dy * dy).squareRoot() / c)
        let a = UInt8((f * f * 255).rounded())
        let i = (y * size + x) * 4
        b.pixels[i] = a; b.pixels[i + 1] = a; b.pixels[i + 2] = a; b.pixels[i + 3] = a
    } }
    return CGImage(bitmap: b)
}

private func benchRoot(_ w: CGFloat, _ h: CGFloat) -> CALayer {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: w, height: h)
    root.backgroundColor = CGColor(red: 0.03, green: 0.03, blue: 0.06, alpha: 1)
    return root
}

/// Renders frames `times` of `scene` `runs` times; prints the median ms/frame (each frame one
/// `renderFrame`, as a user renders: its snapshot included), and apart, the time of the
/// snapshots alone (Scene.snapshot, the same frames once more).
private func measure(_ label: String, _ scene: Scene, times: [Double], runs: Int, workers: Int, tileSize: Int = 128) {
    var perRun: [Double] = [], snapPerRun: [Double] = []
    let options = RenderOptions(workers: workers, tileSize: tileSize)
    for _ in 0..<runs {
        let start = now()
        for t in times { _ = try? scene.renderFrame(at: t, options: options) }
        perRun.append((now() - start) / Double(times.count) * 1000)
        // The snapshots alone, after the frames (made before each frame, as this benchmark did
        // until issue 49's seventh pass, they were an extra snapshot a frame that left the other
        // worker idle and warmed the birth schedules for renderFrame's own).
        let s0 = now()
        for t in times { _ = try? scene.snapshot(at: t) }
        snapPerRun.append((now() - s0) / Double(times.count) * 1000)
    }
    let m = median(perRun), s = median(snapPerRun)
    print(String(format: "%@ 1920x1080 workers=%d: %.1f ms/frame (%.1f fps; of it the snapshot about %.1f ms, render %.1f ms), runs min %.1f max %.1f ms",
                 label, workers, m, 1000 / m, s, m - s, perRun.min()!, perRun.max()!))
}

func particlesBenchmark(_ args: Args) {
    let count = args.int("count", 5000), frames = args.int("frames", 30), runs = args.int("runs", 3)
    let workers = args.int("workers", ProcessInfo.processInfo.activeProcessorCount)
    let additive = args.int("additive", 1) != 0
    let root = benchRoot(1920, 1080)
    let e = CAEmitterLayer()
    e.frame = root.bounds
    e.emitterShape = .rectangle
    e.emitterMode = .surface
    e.emitterPosition = CGPoint(x: 960, y: 540)
    e.emitterSize = CGSize(width: 1800, height: 1000)
    e.renderMode = additive ? .additive : .oldestFirst
    let c = CAEmitterCell()
    c.contents = benchDot()
    c.lifetime = 4
    c.birthRate = Float(count) / 4
    c.velocity = 40
    c.velocityRange = 30
    c.emissionRange = 2 * .pi
    c.scale = 0.5
    c.scaleRange = 0.2
    c.spin = 1
    c.color = CGColor(red: 1, green: 0.6, blue: 0.3, alpha: 0.5)
    c.greenRange = 0.4
    c.alphaSpeed = -0.1
    e.emitterCells = [c]
    root.addSublayer(e)
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 60)
    let times = (0..<frames).map { 5 + Double($0) / 30 }
    let live = (try? scene.snapshot(at: times[0]).sublayers[0].particles?.particles.count) ?? 0
    let tile = args.int("tile", 128)
    measure("particles live=\(live) \(additive ? "additive" : "oldestFirst")", scene, times: times, runs: runs, workers: workers, tileSize: tile)
    if let path = args.values["save"] { try? scene.renderFrame(at: times[0]).writePNG(to: URL(fileURLWithPath: path)) }
    if let path = args.values["dump"] { dumpParticles(scene, times: times, to: path) }
    if args.values["hash"] != nil, let first = try? scene.renderFrame(at: times[0], options: RenderOptions(workers: workers, tileSize: tile)) {
        // FNV-1a of the first measured frame's bytes: the same figure before and after a change
        // that must not move a byte.
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in first.pixels { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        print(String(format: "  frame at t=%.3f: FNV-1a %016llx", times[0], h))
    }
}

/// Writes the particles of each of `times` for the peers (Benchmarks/peers/particles_peers.py):
/// little-endian float32 — frame count, then per frame the particle count and per particle x, y
/// (screen pixels: the emitter fills the frame), scale, rotation (radians, clockwise), r, g, b, a
/// (straight alpha), the sprite's size in points at scale 1.
private func dumpParticles(_ scene: Scene, times: [Double], to path: String) {
    var out: [Float] = [Float(times.count)]
    for t in times {
        guard let system = try? scene.snapshot(at: t).sublayers[0].particles else { out.append(0); continue }
        out.append(Float(system.particles.count))
        for p in system.particles {
            let size = system.images[Int(p.image)].size
            out += [p.x, p.y, p.scale, p.rotation, Float(p.color.r), Float(p.color.g), Float(p.color.b), Float(p.color.a),
                    Float(size.width)]
        }
    }
    let data = out.withUnsafeBufferPointer { Data(buffer: $0) }
    do { try data.write(to: URL(fileURLWithPath: path)) } catch { print("error: cannot write \(path): \(error)"); exit(1) }
}

func replicatorBenchmark(_ args: Args) {
    let instances = args.int("instances", 1000), frames = args.int("frames", 30), runs = args.int("runs", 3)
    let workers = args.int("workers", ProcessInfo.processInfo.activeProcessorCount)
    let root = benchRoot(1920, 1080)
    let r = CAReplicatorLayer()
    r.frame = root.bounds
    r.instanceCount = instances
    // A spiral: each copy turned a little about the centre and pushed outwards.
    // Ten turns in 1 000 copies, the last 3.3× the first.
    let k = pow(3.3, 1 / Double(instances))
    r.instanceTransform = CATransform3DScale(CATransform3DMakeRotation(20 * .pi / CGFloat(instances), 0, 0, 1), k, k, 1)
    r.instanceColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    r.instanceRedOffset = -0.8 / Float(instances)
    r.instanceBlueOffset = -0.5 / Float(instances)
    let square = CALayer()
    square.frame = CGRect(x: 960 - 6, y: 540 - 86, width: 12, height: 12)
    square.cornerRadius = 3
    square.backgroundColor = CGColor(red: 0.6, green: 0.9, blue: 1, alpha: 0.9)
    let turn = CABasicAnimation(keyPath: "transform.rotation.z")
    turn.fromValue = 0
    turn.toValue = 2 * Double.pi
    turn.duration = 2
    turn.repeatCount = .infinity
    square.add(turn, forKey: "turn")
    r.addSublayer(square)
    root.addSublayer(r)
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 60)
    measure("replicator instances=\(instances)", scene, times: (0..<frames).map { Double($0) / 30 }, runs: runs, workers: workers)
    if let path = args.values["save"] { try? scene.renderFrame(at: 0.5).writePNG(to: URL(fileURLWithPath: path)) }
}

/// The benchmark's map: districts, lines and dots drawn per tile (thread-safe: no state).
private final class BenchMapLayer: CATiledLayer, @unchecked Sendable {
    override func draw(in ctx: CGContext) {
        let box = ctx.boundingBoxOfClipPath
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
    }
}

func tiledZoomBenchmark(_ args: Args) {
    let size = args.size(CGSize(width: 1920, height: 1080))
    let fps = Double(args.int("fps", 30)), seconds = Double(args.int("seconds", 10))
    let workers = args.int("workers", ProcessInfo.processInfo.activeProcessorCount)
    let w = size.width, h = size.height
    let root = benchRoot(w, h)
    let map = BenchMapLayer()
    map.levelsOfDetail = 9
    map.levelsOfDetailBias = 2
    map.anchorPoint = .zero
    map.bounds = CGRect(x: 0, y: 0, width: 20_000, height: 20_000)
    root.addSublayer(map)
    let fit = h / 20_000
    let keys: [(t: Double, s: CGFloat, c: CGPoint)] = [
        (0, fit, CGPoint(x: 10_000, y: 10_000)), (0.25, 0.12, CGPoint(x: 8_000, y: 9_000)),
        (0.5, 0.6, CGPoint(x: 5_200, y: 6_100)), (0.75, 2, CGPoint(x: 5_130, y: 6_070)),
        (1, 0.3, CGPoint(x: 12_000, y: 12_000)),
    ]
    let scale = CAKeyframeAnimation(keyPath: "transform.scale")
    scale.values = keys.map { $0.s }
    let pan = CAKeyframeAnimation(keyPath: "position")
    pan.values = keys.map { NSValue(cgPoint: CGPoint(x: w / 2 - $0.c.x * $0.s, y: h / 2 - $0.c.y * $0.s)) }
    scale.keyTimes = keys.map { NSNumber(value: $0.t) }
    pan.keyTimes = scale.keyTimes
    let group = CAAnimationGroup()
    group.animations = [scale, pan]
    group.duration = seconds
    map.add(group, forKey: "zoom")
    let scene = Scene(rootLayer: root, size: size, frameRate: fps, duration: seconds)
    if let mb = args.values["cache-mb"].flatMap(Int.init) { scene.backingStores.tiledLayerTiles.capacity = mb << 20 }
    let frames = Int(seconds * fps)
    let options = RenderOptions(workers: workers)
    let before = peakRSSMiB()
    let start = now()
    for i in 0..<frames { _ = try? scene.renderFrame(index: i, options: options) }
    let ms = (now() - start) / Double(frames) * 1000
    let stats = scene.backingStores.tiledLayerTiles.statistics
    print(String(format: "tiledzoom %dx%d %d frames workers=%d: %.1f ms/frame (%.1f fps); tiles drawn %d, reused %d; tile cache peak %.1f MiB; peak RSS %.1f MiB (%.1f MiB before rendering); the whole map at the finest level would be %.1f GiB",
                 Int(w), Int(h), frames, workers, ms, 1000 / ms, stats.drawn, stats.reused, Double(stats.peakBytes) / 1048576,
                 peakRSSMiB(), before, 80_000.0 * 80_000 * 4 / 1073741824))
    if let path = args.values["save"] { try? scene.renderFrame(at: seconds * 0.75).writePNG(to: URL(fileURLWithPath: path)) }
}
