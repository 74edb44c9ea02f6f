// The standard motion scene built as a user builds it (issue 49 §4): the same layers as
// `makeMotionScene`, but nothing posed by hand — every layer gets its animation up front and a
// `Scene` renders frame t at t / 60 with `renderFrame(index:)`. 270 animations:
// - each rectangle a CABasicAnimation of `transform.rotation.z` from `phase` to
//   `phase + frames · speed` over the scene (linear), so frame t turns it by about `phase + t · speed`;
// - each curve a CAKeyframeAnimation of `path` through one path a frame (discrete);
// - each text line a CAAnimationGroup of `position.x` and `string` keyframes (discrete), one
//   value a frame.
// Discrete key times sit half a frame before each frame's time, so a frame shows its own value
// whatever the rounding of t / 60 / duration.
//
//   StrataBench motion-scene [--frames 60] [--length 60] [--runs 5] [--workers N] [--save frame.png] [--digests 1] [--reuse 0]
//     renders frames 0..<frames of a scene of `length` frames (default: frames) `runs` times and
//     prints ms/frame of whole frames (renderFrame), then (with runs > 1) the scene's own work a frame
//     (`Scene.snapshot(at:)`: model moved, animations evaluated, presentation snapshot) in CPU
//     time and heap allocations; `--digests 1` prints every frame's digest (Bitmap.digest) and
//     one over all of them, rendered in a shuffled order too (must match); `--reuse 0` draws every tile
//     (RenderOptions.reusesUnchangedTiles off: the history's copies and prefixes unused).
import Foundation
import Strata
import CAllocationCounter

/// The motion scene as a 60 fps `Scene` of `frames` frames driven by animations.
func makeAnimatedMotionScene(frames: Int) -> Scene {
    let std = loadStandard()
    let (root, _) = makeMotionScene(part: .all)
    let n = max(frames, 1)
    let duration = Double(n) / 60
    // Value i shows from half a frame before frame i's time (the first from 0).
    let keyTimes: [NSNumber] = (0...n).map { i in NSNumber(value: i == 0 ? 0 : i == n ? 1 : (Double(i) - 0.5) / Double(n)) }
    func discrete(_ keyPath: String, _ values: [Any]) -> CAKeyframeAnimation {
        let a = CAKeyframeAnimation(keyPath: keyPath)
        a.values = values
        a.keyTimes = keyTimes
        a.calculationMode = .discrete
        a.duration = duration
        return a
    }
    var rects = std.motion_rects.makeIterator(), curves = std.motion_curves.makeIterator(), line = 0
    for layer in root.sublayers ?? [] {
        switch layer {
        case let g as CAGradientLayer:
            guard let r = rects.next() else { continue }
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = r.phase
            spin.toValue = r.phase + Double(n) * r.speed
            spin.duration = duration
            g.add(spin, forKey: "spin")
        case let s as CAShapeLayer:
            guard let c = curves.next() else { continue }
            let paths: [Any] = (0..<n).map { frame in
                let t = Double(frame)
                let p = c.p, sw = c.amp * sin(0.15 * t + c.phase), k = c.amp * cos(0.11 * t + c.phase)
                let path = CGMutablePath()
                path.move(to: CGPoint(x: p[0], y: p[1]))
                path.addCurve(to: CGPoint(x: p[6], y: p[7]), control1: CGPoint(x: p[2] + sw, y: p[3] - k),
                              control2: CGPoint(x: p[4] - k, y: p[5] + sw))
                return path
            }
            s.add(discrete("path", paths), forKey: "wobble")
        case let text as CATextLayer:
            let i = line
            line += 1
            text.position = CGPoint(x: 40, y: 48 + Double(i) * 50 - 22.3)
            let xs: [Any] = (0..<n).map { frame in 40 + 20 * sin(0.1 * Double(frame) + Double(i)) }
            let strings: [Any] = (0..<n).map { frame in
                String(format: "Line %02d frame %03d: The quick brown fox jumps over the lazy dog 0123456789", i, frame)
            }
            let group = CAAnimationGroup()
            group.animations = [discrete("position.x", xs), discrete("string", strings)]
            group.duration = duration
            text.add(group, forKey: "ticker")
        default:
            continue
        }
    }
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 60, duration: duration)
}

/// Renders frames 0..<frames as a user does; returns the last. (Named so that
/// Benchmarks/callgrind.sh, which collects inside `*measureScene*`, counts it.)
@inline(never)
func measureSceneFrames(_ scene: Scene, frames: Int, options: RenderOptions) throws -> Bitmap? {
    var last: Bitmap?
    for t in 0..<frames { last = try scene.renderFrame(index: t, options: options) }
    return last
}

func motionSceneBenchmark(_ args: Args) {
    let frames = args.int("frames", 60), runs = args.int("runs", 5)
    let workers = args.int("workers", ProcessInfo.processInfo.activeProcessorCount)
    let scene = makeAnimatedMotionScene(frames: max(frames, args.int("length", frames)))
    var options = RenderOptions(workers: workers)
    options.reusesUnchangedTiles = args.int("reuse", 1) != 0
    var perRun: [Double] = []
    var last: Bitmap?
    do {
        for _ in 0..<runs {
            let start = now()
            last = try measureSceneFrames(scene, frames: frames, options: options)
            perRun.append((now() - start) / Double(frames) * 1000)
        }
        let m = median(perRun)
        print(String(format: "motion-scene %dx%d workers=%d: %.1f ms/frame (%.1f fps), runs min %.1f max %.1f ms",
                     scene.pixelWidth, scene.pixelHeight, workers, m, 1000 / m, perRun.min()!, perRun.max()!))
        let stats = scene.frameHistory.tileStatistics
        print(String(format: "  tiles: %d drawn or copied, %.1f %% copied from the frame before, %.1f %% resumed from a kept prefix",
                     stats.tiles, 100 * Double(stats.reused) / Double(max(stats.tiles, 1)),
                     100 * Double(stats.resumed) / Double(max(stats.tiles, 1))))
        if let path = args.values["save"], let last { try last.writePNG(to: URL(fileURLWithPath: path)) }
        guard runs > 1 else { return }
        // The scene's own work a frame, apart: the model moved to t, the animations evaluated and
        // the presentation snapshot made (what renderFrame does before the display list).
        var cpu: [Double] = []
        var allocations = 0
        for run in 0..<max(2, runs) {
            let c0 = threadCPUTime(), a0 = strata_allocation_count()
            for t in 0..<frames { _ = try scene.snapshot(at: scene.time(ofFrame: t)) }
            cpu.append((threadCPUTime() - c0) / Double(frames) * 1000)
            if run == 1 { allocations = Int(strata_allocation_count() - a0) / frames }
        }
        print(String(format: "  per frame: the scene's own work (Scene.snapshot(at:): model at t, %d animations, presentation snapshot) %.2f ms CPU, %d heap allocations; peak RSS %.0f MiB",
                     scene.rootLayer.sublayers?.count ?? 0, median(cpu), allocations, peakRSSMiB()))
        if args.values["digests"] != nil {
            var forward: [String] = []
            for t in 0..<frames { forward.append(try scene.renderFrame(index: t, options: options).digest) }
            var rng = SystemRandomNumberGeneratorWithSeed(seed: 3)
            var order = Array(0..<frames)
            for i in stride(from: frames - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
            var shuffled = [String](repeating: "", count: frames)
            for t in order { shuffled[t] = try scene.renderFrame(index: t, options: options).digest }
            for (t, d) in forward.enumerated() { print("  frame \(t) \(d)") }
            let all = forward.joined().utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
            print("  digest of all frames: \(String(all, radix: 16)); shuffled order \(shuffled == forward ? "identical" : "DIFFERENT")")
        }
    } catch {
        print("error: \(error)")
        exit(1)
    }
}
