// Frames in any order after scheduled changes (issue "Any frame, in any order"): a 10-second
// scene with 100 scheduled blocks — implicit animations, sublayers added and removed, animations
// added, custom drawing redrawn, a completion block — rendered in forward order, in reverse order
// and shuffled. Going back undoes the recorded changes between two times, so every order costs
// about the same; the figures print side by side with the ratio to forward order.
//
//   StrataBench order [--size 960x540] [--fps 30] [--runs 3] [--workers N]
import Foundation
import Strata

/// Draws `ticks` bars (a stored property: its drawing is recorded when a block commits).
private final class TickLayer: CALayer {
    var ticks = 0
    override func draw(in ctx: CGContext) {
        ctx.setFillColor(CGColor(red: 0.15, green: 0.2, blue: 0.5, alpha: 1))
        for i in 0..<ticks { ctx.fill(CGRect(x: CGFloat(i % 50) * 8, y: CGFloat(i / 50) * 14, width: 5, height: 10)) }
    }
}

/// The scene: 60 boxes and a tick layer; block i (at 0.1·i s) moves and recolours boxes
/// implicitly, adds or removes a sublayer, adds a spin, and redraws the ticks.
private func makeOrderScene(size: CGSize, fps: Double, blockRuns: UnsafeMutablePointer<Int>) -> Scene {
    let root = CALayer()
    root.frame = CGRect(origin: .zero, size: size)
    root.backgroundColor = CGColor(red: 0.97, green: 0.96, blue: 0.93, alpha: 1)
    var rng = SystemRandomNumberGeneratorWithSeed(seed: 11)
    func r(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.nextUnit() }
    var boxes: [CALayer] = []
    for _ in 0..<60 {
        let b = CALayer()
        b.frame = CGRect(x: r(0, size.width - 60), y: r(0, size.height - 60), width: 48, height: 48)
        b.backgroundColor = CGColor(red: r(0, 1), green: r(0, 1), blue: r(0, 1), alpha: 1)
        b.cornerRadius = 8
        root.addSublayer(b)
        boxes.append(b)
    }
    let ticks = TickLayer()
    ticks.frame = CGRect(x: 20, y: 20, width: 420, height: 40)
    ticks.setNeedsDisplay()
    root.addSublayer(ticks)
    var extras: [CALayer] = []
    let scene = Scene(rootLayer: root, size: size, frameRate: fps, duration: 10)
    for i in 0..<100 {
        let targets = (0..<6).map { _ in (Int(r(0, 60)), CGPoint(x: r(40, size.width - 40), y: r(40, size.height - 40))) }
        let colour = CGColor(red: r(0, 1), green: r(0, 1), blue: r(0, 1), alpha: 1)
        scene.at(Double(i) * 0.1) {
            blockRuns.pointee += 1
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.6)
            CATransaction.setCompletionBlock { blockRuns.pointee += 1 }
            for (j, p) in targets { boxes[j].position = p; boxes[j].backgroundColor = colour }
            if i % 2 == 0 {
                let dot = CALayer()
                dot.frame = CGRect(x: 20 + CGFloat(i) * 8, y: size.height - 40, width: 12, height: 12)
                dot.backgroundColor = colour
                root.addSublayer(dot)
                extras.append(dot)
            } else if let old = extras.first {
                old.removeFromSuperlayer()
                extras.removeFirst()
            }
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.byValue = CGFloat.pi
            spin.duration = 1
            boxes[i % 60].add(spin, forKey: "spin")
            ticks.ticks = i + 1
            ticks.setNeedsDisplay()
            CATransaction.commit()
        }
    }
    return scene
}

func timeOrderBenchmark(_ args: Args) {
    let size = args.size(CGSize(width: 960, height: 540))
    let fps = Double(args.int("fps", 30))
    let runs = args.int("runs", 3)
    let workers = args.int("workers", ProcessInfo.processInfo.activeProcessorCount)
    let options = RenderOptions(workers: workers)
    let count = Int(10 * fps)
    var rng = SystemRandomNumberGeneratorWithSeed(seed: 5)
    var shuffled = Array(0..<count)
    for i in stride(from: count - 1, to: 0, by: -1) { shuffled.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
    let orders: [(String, [Int])] = [("forward", Array(0..<count)), ("reverse", Array((0..<count).reversed())),
                                     ("shuffled", shuffled)]
    var results: [String: (render: [Double], model: [Double])] = [:]
    var runsOfBlocks: [Int] = []
    for _ in 0..<runs {
        for (name, order) in orders {
            // Whole frames (model moved, evaluated and drawn), wall time.
            var blocks = 0
            let scene = makeOrderScene(size: size, fps: fps, blockRuns: &blocks)
            let start = now()
            for k in order { _ = try! scene.renderFrame(index: k, options: options) }
            let render = (now() - start) / Double(count) * 1000
            runsOfBlocks.append(blocks)
            // The model alone (moved and evaluated into a snapshot), CPU time of this thread.
            var blocks2 = 0
            let scene2 = makeOrderScene(size: size, fps: fps, blockRuns: &blocks2)
            let cpu = threadCPUTime()
            for k in order { _ = try! scene2.snapshot(at: scene2.time(ofFrame: k)) }
            let model = (threadCPUTime() - cpu) / Double(count) * 1000
            results[name, default: ([], [])].render.append(render)
            results[name, default: ([], [])].model.append(model)
        }
    }
    let forward = results["forward"]!
    for (name, _) in orders {
        let r = results[name]!
        print(String(format: "order %@: %d frames %dx%d workers=%d: %.2f ms/frame rendered (%.2f× forward), model moved + evaluated %.3f ms/frame CPU (%.2f× forward)",
                     name.padding(toLength: 8, withPad: " ", startingAt: 0), count, Int(size.width), Int(size.height), workers,
                     median(r.render), median(r.render) / median(forward.render), median(r.model), median(r.model) / median(forward.model)))
    }
    print("order: blocks run per scene, the same in every order (100 blocks + the completion blocks that fall within the 10 s): \(Set(runsOfBlocks).sorted())")
}
