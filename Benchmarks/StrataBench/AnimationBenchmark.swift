// The animation engine's benchmark: a 60-second scene with 500 animated layers (every kind of
// animation: basic with repeat/autoreverse, a virtual-key spin, colour keyframes, paced keyframes
// along a bezier with rotateAuto, springs, groups) plus scheduled changes every half second that
// start implicit animations, interrupt running ones and fire delegates and completion blocks.
// It measures the evaluation alone — scheduled blocks, timing, presentation copies and the
// Sendable snapshot the renderer reads — on one core, and prints it against the frame rate.
//
//   StrataBench animation [--layers 500] [--seconds 60] [--fps 60] [--stride 1]
import Foundation
import Strata

private final class CountingDelegate: CAAnimationDelegate {
    var stops = 0
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { stops += 1 }
}

func animationBenchmark(_ args: Args) {
    let count = args.int("layers", 500)
    let seconds = Double(args.int("seconds", 60))
    let fps = Double(args.int("fps", 60))
    let stride = max(1, args.int("stride", 1))
    let delegate = CountingDelegate()
    var completions = 0
    let (scene, layers) = makeAnimationScene(layers: count, seconds: seconds, fps: fps, delegate: delegate) { completions += 1 }
    let frames = scene.frameCount
    var evaluated = 0
    let begin = now(), cpuBegin = threadCPUTime()
    do {
        for k in Swift.stride(from: 0, to: frames, by: stride) {
            _ = try scene.snapshot(at: scene.time(ofFrame: k))
            evaluated += 1
        }
    } catch {
        FileHandle.standardError.write("animation benchmark: \(error)\n".data(using: .utf8)!)
        exit(1)
    }
    let elapsed = now() - begin, cpu = threadCPUTime() - cpuBegin
    let perFrame = cpu / Double(evaluated)
    let rate = 1 / perFrame
    print(String(format: "animation: %d layers, %.0f s at %.0f fps: %d frames (scheduled blocks, timing, presentation copies, snapshots) in %.2f s CPU (%.2f s wall) = %.3f ms/frame, %.0f frames/s = %.1f× the frame rate (one core); %d delegate stops, %d completion blocks",
                 count, seconds, fps, evaluated, cpu, elapsed, perFrame * 1000, rate, rate / fps, delegate.stops, completions))
    // The animations alone: every layer's animations evaluated (values computed) without making
    // presentation copies or snapshots.
    let entries = layers.map { l in (l, l.animationKeys()?.compactMap { l.animation(forKey: $0) } ?? []) }
    let prepared = entries.map { (l, anims) in (l, anims.compactMap { try? l.prepare($0) }) }
    var sink = 0.0
    let evalBegin = threadCPUTime()
    for k in Swift.stride(from: 0, to: frames, by: stride) {
        let t = scene.time(ofFrame: k)
        for (l, list) in prepared {
            for p in list {
                p.forEachPropertyAnimation(at: t) { leaf, time in
                    if let v = leaf.sample(at: time, underlying: l.animatableValue(forKeyPath: leaf.keyPath) ?? .number(0))?.value,
                       case .number(let n) = v { sink += Double(n) }
                }
            }
        }
    }
    let evalCPU = (threadCPUTime() - evalBegin) / Double(evaluated)
    print(String(format: "animation values alone: %.3f ms/frame, %.0f frames/s = %.1f× the frame rate (checksum %.0f)",
                 evalCPU * 1000, 1 / evalCPU, 1 / evalCPU / fps, sink))
}

/// The animation benchmark's scene: `count` layers with every kind of animation and changes
/// scheduled every half second (see the top of this file), 1920 × 1080 points; also rendered by
/// `scene-digests`.
private func makeAnimationScene(layers count: Int, seconds: Double, fps: Double, delegate: CountingDelegate,
                                completion: @escaping () -> Void) -> (Scene, [CALayer]) {
    let size = CGSize(width: 1920, height: 1080)
    let root = CALayer()
    root.frame = CGRect(origin: .zero, size: size)
    var generator = SystemRandomNumberGeneratorWithSeed(seed: 7)
    func r(_ a: Double, _ b: Double) -> Double { a + (b - a) * generator.nextUnit() }
    let flight = CGMutablePath()
    flight.move(to: CGPoint(x: 100, y: 540))
    flight.addCurve(to: CGPoint(x: 1820, y: 540), control1: CGPoint(x: 600, y: 0), control2: CGPoint(x: 1300, y: 1080))
    var layers: [CALayer] = []
    for i in 0..<count {
        let l = CALayer()
        l.frame = CGRect(x: r(0, 1880), y: r(0, 1040), width: 40, height: 40)
        l.backgroundColor = CGColor(red: r(0, 1), green: r(0, 1), blue: r(0, 1), alpha: 1)
        l.cornerRadius = 6
        root.addSublayer(l)
        layers.append(l)
        switch i % 5 {
        case 0:
            let move = CABasicAnimation(keyPath: "position.x")
            move.byValue = r(-300, 300); move.duration = r(1, 3); move.autoreverses = true; move.repeatCount = .infinity
            move.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
            l.add(move, forKey: "move")
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.byValue = CGFloat.pi * 2; spin.duration = r(2, 5); spin.repeatCount = .infinity
            l.add(spin, forKey: "spin")
        case 1:
            let colours = CAKeyframeAnimation(keyPath: "backgroundColor")
            colours.values = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
                              CGColor(red: 0, green: 0, blue: 1, alpha: 1), CGColor(red: 1, green: 0, blue: 0, alpha: 1)]
            colours.duration = r(2, 4); colours.repeatCount = .infinity
            l.add(colours, forKey: "colours")
        case 2:
            let fly = CAKeyframeAnimation(keyPath: "position")
            fly.path = flight; fly.calculationMode = .paced; fly.rotationMode = .rotateAuto
            fly.duration = r(4, 8); fly.repeatCount = .infinity; fly.timeOffset = r(0, 4)
            l.add(fly, forKey: "fly")
        case 3:
            let spring = CASpringAnimation(keyPath: "transform.scale")
            spring.fromValue = 0.2; spring.toValue = 1; spring.damping = 6
            spring.duration = spring.settlingDuration; spring.repeatCount = .infinity
            l.add(spring, forKey: "spring")
        default:
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 1; fade.toValue = 0.3
            let grow = CAKeyframeAnimation(keyPath: "bounds.size")
            grow.values = [CGSize(width: 40, height: 40), CGSize(width: 60, height: 30), CGSize(width: 40, height: 40)]
            grow.calculationMode = .cubic
            let group = CAAnimationGroup()
            group.animations = [fade, grow]; group.duration = r(1, 2); group.autoreverses = true; group.repeatCount = .infinity
            l.add(group, forKey: "group")
        }
    }
    let scene = Scene(rootLayer: root, size: size, frameRate: fps, duration: seconds)
    // Every half second: 50 layers move or recolour implicitly (interrupting the previous change),
    // with a delegate-carrying animation and a completion block.
    var t = 0.5
    while t < seconds {
        let start = Int(t * 2) * 50 % count
        scene.at(t) {
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.8)
            CATransaction.setCompletionBlock { completion() }
            for j in start..<min(start + 50, count) {
                let l = layers[j]
                if j % 2 == 0 { l.backgroundColor = CGColor(red: 0.5, green: 0.2, blue: 0.9, alpha: 1) }
                else { l.zPosition = CGFloat(j % 7) }
                l.shadowOpacity = l.shadowOpacity > 0 ? 0 : 0.5
            }
            let pulse = CABasicAnimation(keyPath: "borderWidth")
            pulse.fromValue = 0; pulse.toValue = 4; pulse.duration = 0.4
            pulse.delegate = delegate
            layers[start].add(pulse, forKey: "pulse")
            CATransaction.commit()
        }
        t += 0.5
    }
    return (scene, layers)
}

/// Digests of frames of scenes that exercise the animation engine (the animation benchmark's
/// scene at 640×360, the built-in demo, the motion scene driven by animations), to check that a
/// change of the engine keeps every frame's bytes:
///   StrataBench scene-digests [--workers N]
func sceneDigests(_ args: Args) {
    let workers = args.int("workers", ProcessInfo.processInfo.activeProcessorCount)
    let options = RenderOptions(workers: workers)
    var all: [String] = []
    func show(_ name: String, _ scene: Scene, _ frames: [Int]) {
        do {
            for k in frames {
                let d = try scene.renderFrame(index: k, options: options).digest
                all.append(d)
                print("\(name) frame \(k) \(d)")
            }
        } catch {
            print("error: \(name): \(error)"); exit(1)
        }
    }
    let (animation, _) = makeAnimationScene(layers: 200, seconds: 6, fps: 30, delegate: CountingDelegate()) {}
    animation.contentsScale = 1.0 / 3  // 640 × 360 pixels
    show("animation", animation, Array(Swift.stride(from: 0, to: 180, by: 7)) + [179, 3, 100])
    show("demo", BuiltInDemo.makeScene(size: CGSize(width: 640, height: 360), frameRate: 30, duration: 4), Array(Swift.stride(from: 0, to: 120, by: 9)))
    show("motion-scene", makeAnimatedMotionScene(frames: 12), Array(0..<12))
    let digest = all.joined().utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    print("scene-digests: \(all.count) frames, digest of all \(String(digest, radix: 16))")
}

/// CPU time of the calling thread (not disturbed by other processes on a shared machine).
func threadCPUTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// A small deterministic generator (SplitMix64) so runs are comparable.
struct SystemRandomNumberGeneratorWithSeed {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
