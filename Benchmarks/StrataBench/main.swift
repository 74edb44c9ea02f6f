// Strata's benchmark: the standard scenes of shared/bench (same parameters, generated from
// shared/bench/peers/scene.py into Benchmarks/scenes/standard.json), the built-in demo render-only
// and render+encode, and peak memory of exports of different lengths. Prints ms/frame, frames/s
// and peak RSS; compare with the peers' figures measured in the same run (Benchmarks/run.sh).
//
//   StrataBench composite|motion [--frames 60] [--runs 5] [--workers N] [--tile 128] [--aspect 2] [--scalar 1] [--serial 1] [--save frame.png]
//     motion [--part all|background|rects|curves|text]: one kind of layer over the background
//   StrataBench motion-scene [--frames 60] [--runs 5] [--workers N] [--digests 1]: the motion scene as a user
//     builds it — animations on a Scene, renderFrame(index:) a frame (SceneBenchmark.swift)
//   StrataBench scene-digests [--workers N]   (frame digests of animated scenes: same bytes before and after a change)
//   StrataBench motion-export [--frames 120] [--workers N] [--part all|…] [-o out.mp4 | --raw frames.rgba]
//   StrataBench images|shadows|cubes [--frames 60] [--runs 3] [--workers N] [--save frame.png]
//   StrataBench demo --size 1280x720 [--frames 120] [--workers N] [--encode out.mp4] [--tile 128] [--no-reuse 1]
//   StrataBench export --size 1280x720 --seconds 5 -o out.mp4     (prints peak RSS)
//   StrataBench animation [--layers 500] [--seconds 60] [--fps 60]  (animation evaluation, one core)
//   StrataBench order [--size 960x540] [--fps 30] [--runs 3]   (forward vs reverse vs shuffled frames)
//   StrataBench particles [--count 5000] [--additive 1] [--frames 30] [--workers N] [--dump file] [--hash 1] [--tile 128]   (issue 11, 49)
//   StrataBench replicator [--instances 1000] [--frames 30] [--workers N]
//   StrataBench tiledzoom [--size 1920x1080] [--fps 30] [--seconds 10] [--workers N] [--cache-mb 256]   (peak RSS)
import Foundation
import Strata
import CAllocationCounter

struct Args {
    var values: [String: String] = [:]
    var positional: [String] = []
    init(_ argv: [String]) {
        var i = 0
        while i < argv.count {
            let a = argv[i]
            if a.hasPrefix("-"), i + 1 < argv.count { values[String(a.drop(while: { $0 == "-" }))] = argv[i + 1]; i += 2 }
            else { positional.append(a); i += 1 }
        }
    }
    func int(_ k: String, _ d: Int) -> Int { values[k].flatMap(Int.init) ?? d }
    func size(_ d: CGSize) -> CGSize {
        guard let s = values["size"] else { return d }
        let p = s.split(separator: "x").compactMap { Double($0) }
        return p.count == 2 ? CGSize(width: p[0], height: p[1]) : d
    }
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func peakRSSMiB() -> Double {
    guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in s.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kb = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
        return kb / 1024
    }
    return 0
}

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

/// Renders `frames` frames `runs` times, posing the model before each frame; prints the median
/// ms/frame as "<label> 1920x1080 workers=N: …", then where a frame's time and heap allocations
/// go (averaged over the runs after the first) and the peak RSS; saves the last frame with
/// `--save`. With more than one worker the frames go through a FramePipeline (as exports do
/// from three workers on): posing, snapshot and display list of frame N + 1 overlap frame N's
/// tiles, so the stages are timed as seen by the posing thread. `--serial 1` draws each frame
/// before posing the next (stages timed apart: snapshot, display list, rasterise + tiles).
func measureScene(_ label: String, _ args: Args, root: CALayer, defaultRuns: Int, pose: (Int) -> Void) {
    let frames = args.int("frames", 60), runs = args.int("runs", defaultRuns)
    let workers = args.int("workers", ProcessInfo.processInfo.activeProcessorCount)
    let w = Int(root.bounds.width), h = Int(root.bounds.height)
    var options = RenderOptions(workers: workers, tileSize: args.int("tile", 128), simd: args.values["scalar"] == nil)
    options.tileAspect = args.int("aspect", options.tileAspect)
    let renderer = FrameRenderer(width: w, height: h, options: options)
    let pipeline = FramePipeline(renderer)
    let pipelined = pipeline.overlaps && args.values["serial"] == nil
    var perRun: [Double] = []
    var last: Bitmap?
    var seconds = [0.0, 0.0, 0.0], allocations = [0, 0, 0], measured = 0
    for run in 0..<runs {
        let start = now()
        let a0 = strata_allocation_count()
        for t in 0..<frames {
            let p0 = now(), a0Pose = strata_allocation_count()
            pose(t)
            let a1 = strata_allocation_count(), t0 = now()
            let snapshot = PresentationBuilder(time: 0).snapshotTree(of: root)
            let a2 = strata_allocation_count(), t1 = now()
            var a3 = a2, t2 = t1
            if pipelined {
                if let (frame, _) = pipeline.submit(snapshot) { last = frame }
            } else {
                let list = renderer.displayList(for: snapshot)
                // The display list's cache ends its frame here, as FramePipeline.submit ends it:
                // the tile stage does not use it.
                renderer.cache.endFrame()
                a3 = strata_allocation_count(); t2 = now()
                last = renderer.drawTiles(of: list).0
            }
            let a4 = strata_allocation_count(), t3 = now()
            if run > 0 || runs == 1 {
                if pipelined {
                    seconds[0] += t0 - p0; seconds[1] += t1 - t0; seconds[2] += t3 - t1
                    // Posing is the scene's own code (the benchmark's paths and strings); the tile
                    // workers drawing meanwhile allocate nothing (the serial run counts them apart).
                    allocations[1] += Int(a1 - a0Pose)
                } else {
                    seconds[0] += t1 - t0; seconds[1] += t2 - t1; seconds[2] += t3 - t2
                    allocations[0] += Int(a2 - a1); allocations[1] += Int(a3 - a2); allocations[2] += Int(a4 - a3)
                }
                measured += 1
            }
        }
        if pipelined, let (frame, _) = pipeline.finish() { last = frame }
        if pipelined && (run > 0 || runs == 1) { allocations[0] += Int(strata_allocation_count() - a0) }
        perRun.append((now() - start) / Double(frames) * 1000)
    }
    let m = median(perRun)
    print(String(format: "%@ %dx%d workers=%d%@: %.1f ms/frame (%.1f fps), runs min %.1f max %.1f ms",
                 label, w, h, workers, pipelined ? " pipelined" : "", m, 1000 / m, perRun.min()!, perRun.max()!))
    let n = Double(max(measured, 1))
    if pipelined {
        // Every stage's allocations: the tile workers run beside the others. Those made while
        // posing (the scene's own code) are counted apart.
        print(String(format: "  per frame (posing thread; tiles of the frame before overlap): pose %.2f ms, snapshot %.2f ms, display list + waiting for the tiles %.2f ms; heap allocations %.0f in Strata's stages (snapshot, display list, rasterise+tiles) and %.0f posing the scene; peak RSS %.0f MiB",
                     seconds[0] / n * 1000, seconds[1] / n * 1000, seconds[2] / n * 1000,
                     Double(allocations[0] - allocations[1]) / n, Double(allocations[1]) / n, peakRSSMiB()))
    } else {
        print(String(format: "  per frame: snapshot %.2f ms, display list %.2f ms, rasterise+tiles %.2f ms; heap allocations: snapshot %.0f, display list %.0f, rasterise+tiles %.0f; peak RSS %.0f MiB",
                     seconds[0] / n * 1000, seconds[1] / n * 1000, seconds[2] / n * 1000,
                     Double(allocations[0]) / n, Double(allocations[1]) / n, Double(allocations[2]) / n, peakRSSMiB()))
    }
    if let path = args.values["save"], let last { try? last.writePNG(to: URL(fileURLWithPath: path)) }
}

// MARK: The standard "composite" scene

struct StandardScenes: Decodable {
    struct Sprite: Decodable { let cx, cy, phase, speed, sphase: Double; let c1, c2, c3: [Double] }
    struct Rect: Decodable { let cx, cy, w, h, phase, speed: Double; let c1, c2, stroke: [Double] }
    struct Curve: Decodable { let p: [Double]; let amp, phase: Double; let color: [Double] }
    let W: Double, H: Double
    let composite: [Sprite]
    let motion_rects: [Rect]
    let motion_curves: [Curve]
}

func loadStandard() -> StandardScenes {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let url = here.appendingPathComponent("scenes/standard.json")
    guard let data = try? Data(contentsOf: url), let s = try? JSONDecoder().decode(StandardScenes.self, from: data) else {
        FileHandle.standardError.write("cannot read \(url.path)\n".data(using: .utf8)!)
        exit(1)
    }
    return s
}

func cg(_ c: [Double]) -> CGColor { CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3]) }

/// The sprite of the composite scene: a rounded rectangle (radius 30) with a diagonal gradient
/// and a disc of radius 90 at (280, 150), drawn once with Strata itself.
func makeSprite(_ s: StandardScenes.Sprite) -> CGImage {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
    let g = CAGradientLayer()
    g.frame = root.bounds
    g.colors = [cg(s.c1), cg(s.c2)]
    g.startPoint = CGPoint(x: 0, y: 0)
    g.endPoint = CGPoint(x: 1, y: 1)
    g.cornerRadius = 30
    g.masksToBounds = true
    root.addSublayer(g)
    let disc = CALayer()
    disc.frame = CGRect(x: 190, y: 60, width: 180, height: 180)
    disc.cornerRadius = 90
    disc.backgroundColor = cg(s.c3)
    root.addSublayer(disc)
    let snap = PresentationBuilder(time: 0).snapshotTree(of: root)
    return CGImage(bitmap: FrameRenderer(width: 400, height: 300).render(snap))
}

func compositeBenchmark(_ args: Args) {
    let std = loadStandard()
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: std.W, height: std.H)
    root.backgroundColor = .white
    var layers: [(CALayer, StandardScenes.Sprite)] = []
    for s in std.composite {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        l.contents = makeSprite(s)
        l.opacity = 0.5
        root.addSublayer(l)
        layers.append((l, s))
    }
    measureScene("composite", args, root: root, defaultRuns: 5) { frame in
        let t = Double(frame)
        for (l, s) in layers {
            let a = s.phase + t * s.speed, sc = 1 + 0.4 * sin(0.07 * t + s.sphase)
            l.position = CGPoint(x: s.cx, y: s.cy)
            l.transform = CATransform3DScale(CATransform3DMakeRotation(a, 0, 0, 1), sc, sc, 1)
        }
    }
}

// MARK: The standard "motion" scene

/// 200 rotating rounded rectangles (gradient fill at alpha 0.85, 2 px stroke — drawn inside the
/// edge as a CALayer border, where the peers centre it on the edge), 50 wobbling stroked cubic
/// Béziers (CAShapeLayer, path changes every frame) and 20 text lines whose text and x change
/// every frame (CATextLayer). Everything that changes content re-rasterises; the rotating
/// rectangles only re-composite.
/// The motion scene's layers and the function that poses them for frame t. `part` keeps one kind
/// of layer over the white background (MotionPart), for the per-component comparison with
/// Benchmarks/peers/motion_parts_blend2d.py.
func makeMotionScene(part: MotionPart = .all) -> (root: CALayer, pose: (Int) -> Void) {
    let std = loadStandard()
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: std.W, height: std.H)
    root.backgroundColor = .white
    var rects: [(CALayer, StandardScenes.Rect)] = []
    for r in part.has(.rects) ? std.motion_rects : [] {
        let g = CAGradientLayer()
        g.bounds = CGRect(x: 0, y: 0, width: r.w, height: r.h)
        g.position = CGPoint(x: r.cx, y: r.cy)
        g.colors = [cg(r.c1), cg(r.c2)]
        g.startPoint = CGPoint(x: 0, y: 0)
        g.endPoint = CGPoint(x: 1, y: 1)
        g.cornerRadius = 12
        g.masksToBounds = true
        g.borderWidth = 2
        g.borderColor = cg(r.stroke)
        root.addSublayer(g)
        rects.append((g, r))
    }
    var curves: [(CAShapeLayer, StandardScenes.Curve)] = []
    for c in part.has(.curves) ? std.motion_curves : [] {
        let l = CAShapeLayer()
        l.frame = root.bounds
        l.fillColor = nil
        l.strokeColor = cg(c.color)
        l.lineWidth = 4
        l.lineCap = .round
        root.addSublayer(l)
        curves.append((l, c))
    }
    var texts: [CATextLayer] = []
    for _ in 0..<(part.has(.text) ? 20 : 0) {
        let t = CATextLayer()
        t.bounds = CGRect(x: 0, y: 0, width: 1800, height: 32)
        t.anchorPoint = .zero
        t.font = "DejaVu Sans"
        t.fontSize = 24
        t.foregroundColor = CGColor(red: 0.08, green: 0.08, blue: 0.1, alpha: 1)
        root.addSublayer(t)
        texts.append(t)
    }
    return (root, { frame in
        let t = Double(frame)
        for (l, r) in rects { l.transform = CATransform3DMakeRotation(r.phase + t * r.speed, 0, 0, 1) }
        for (l, c) in curves {
            let p = c.p, s = c.amp * sin(0.15 * t + c.phase), k = c.amp * cos(0.11 * t + c.phase)
            let path = CGMutablePath()
            path.move(to: CGPoint(x: p[0], y: p[1]))
            path.addCurve(to: CGPoint(x: p[6], y: p[7]), control1: CGPoint(x: p[2] + s, y: p[3] - k),
                          control2: CGPoint(x: p[4] - k, y: p[5] + s))
            l.path = path
        }
        for (i, l) in texts.enumerated() {
            // Baseline at y = 48 + 50 i as in scene.py (the ascent of DejaVu Sans at 24 px ≈ 22.3).
            l.position = CGPoint(x: 40 + 20 * sin(0.1 * t + Double(i)), y: 48 + Double(i) * 50 - 22.3)
            l.string = String(format: "Line %02d frame %03d: The quick brown fox jumps over the lazy dog 0123456789", i, Int(t))
        }
    })
}

/// The parts of the motion scene `--part` chooses: all of it, the background alone, or the
/// background with one kind of layer.
enum MotionPart: String, CaseIterable {
    case all, background, rects, curves, text
    func has(_ kind: MotionPart) -> Bool { self == .all || self == kind }
}

/// `--part` (default all).
func motionPart(_ args: Args) -> MotionPart {
    let name = args.values["part"] ?? "all"
    guard let part = MotionPart(rawValue: name) else {
        FileHandle.standardError.write("--part: expected one of \(MotionPart.allCases.map(\.rawValue).joined(separator: ", ")), got \(name)\n".data(using: .utf8)!)
        exit(2)
    }
    return part
}

func motionBenchmark(_ args: Args) {
    let part = motionPart(args), name = part.rawValue
    let (root, pose) = makeMotionScene(part: part)
    measureScene(part == .all ? "motion" : "motion (\(name))", args, root: root, defaultRuns: 5, pose: pose)
}

/// The motion scene as a 60 fps Scene (frame t posed by a block at t / 60, actions off),
/// exported to H.264 (preset veryfast, CRF 18, as the FFmpeg peer in Benchmarks/run.sh), or with
/// `--raw FILE` its frames written as raw RGBA for that peer.
func motionExportBenchmark(_ args: Args) {
    let frames = args.int("frames", 120)
    let (root, pose) = makeMotionScene(part: motionPart(args))
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 60, duration: Double(frames) / 60)
    for t in 0..<frames {
        scene.at(Double(t) / 60) {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            pose(t)
            CATransaction.commit()
        }
    }
    let workers = args.int("workers", ProcessInfo.processInfo.activeProcessorCount)
    let start = now()
    do {
        if let raw = args.values["raw"] {
            // open(2), not FileManager.createFile: that replaces the file at the path, so
            // `--raw /dev/null` would swap the device for a regular file.
            let fd = open(raw, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { print("error: cannot write \(raw)"); exit(1) }
            let out = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            for t in 0..<frames {
                let frame = try scene.renderFrame(index: t, options: RenderOptions(workers: workers))
                out.write(Data(frame.pixels))
            }
            try out.close()
            return
        }
        var o = ExportOptions()
        o.video.preset = "veryfast"
        o.video.crf = 18
        o.render.workers = workers
        try scene.export(to: URL(fileURLWithPath: args.values["o"] ?? "/tmp/strata-motion.mp4"), options: o)
    } catch {
        print("error: \(error)"); exit(1)
    }
    let secs = now() - start
    print(String(format: "motion export 1920x1080 %d frames, H.264 veryfast CRF 18, workers=%d: %.2f s = %.1f frames/s, peak RSS %.0f MiB",
                 frames, workers, secs, Double(frames) / secs, peakRSSMiB()))
}

// MARK: The built-in demo

func demoBenchmark(_ args: Args) {
    let size = args.size(CGSize(width: 1280, height: 720))
    let frames = args.int("frames", 120)
    let workers = args.int("workers", ProcessInfo.processInfo.activeProcessorCount)
    let duration = Double(frames) / 30
    let scene = BuiltInDemo.makeScene(size: size, frameRate: 30, duration: duration)
    let start = now()
    do {
        if let out = args.values["encode"] {
            var o = ExportOptions()
            o.render.workers = workers
            try scene.export(to: URL(fileURLWithPath: out), options: o)
        } else {
            let reuse = args.values["no-reuse"] == nil
            for i in 0..<frames {
                _ = try scene.renderFrame(index: i, options: RenderOptions(workers: workers, tileSize: args.int("tile", 128),
                                                                            reusesUnchangedTiles: reuse))
            }
        }
    } catch {
        print("error: \(error)"); exit(1)
    }
    let secs = now() - start
    print(String(format: "demo %dx%d %@ workers=%d: %d frames in %.2f s = %.1f fps, peak RSS %.0f MiB",
                 Int(size.width), Int(size.height), args.values["encode"] == nil ? "render-only" : "render+encode",
                 workers, frames, secs, Double(frames) / secs, peakRSSMiB()))
    let stats = scene.frameHistory.tileStatistics
    print(String(format: "  tiles copied from the previous frame: %d of %d (%.0f %%); drawn from a kept prefix: %d", stats.reused,
                 stats.tiles, 100 * Double(stats.reused) / Double(max(1, stats.tiles)), stats.resumed))
}

func exportBenchmark(_ args: Args) {
    let size = args.size(CGSize(width: 1280, height: 720))
    let seconds = Double(args.int("seconds", 5))
    let out = args.values["o"] ?? "/tmp/strata-bench-export.mp4"
    let scene = BuiltInDemo.makeScene(size: size, frameRate: 30, duration: seconds)
    let start = now()
    do { try scene.export(to: URL(fileURLWithPath: out)) } catch { print("error: \(error)"); exit(1) }
    print(String(format: "export %dx%d %.0f s: %.2f s wall, peak RSS %.0f MiB",
                 Int(size.width), Int(size.height), seconds, now() - start, peakRSSMiB()))
}

let args = Args(Array(CommandLine.arguments.dropFirst()))
switch args.positional.first ?? "" {
case "composite": compositeBenchmark(args)
case "motion": motionBenchmark(args)
case "motion-scene": motionSceneBenchmark(args)
case "scene-digests": sceneDigests(args)
case "motion-export": motionExportBenchmark(args)
case "images": layersBenchmark(args, shadows: false)
case "shadows": layersBenchmark(args, shadows: true)
case "cubes": cubesBenchmark(args)
case "demo": demoBenchmark(args)
case "export": exportBenchmark(args)
case "animation": animationBenchmark(args)
case "order": timeOrderBenchmark(args)
case "particles": particlesBenchmark(args)
case "replicator": replicatorBenchmark(args)
case "tiledzoom": tiledZoomBenchmark(args)
default:
    print("usage: StrataBench composite|demo|export [options]  (see Benchmarks/StrataBench/main.swift)")
    exit(2)
}
