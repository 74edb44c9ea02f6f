// The particles of an emitter at local time t, in closed form (CORE_ANIMATION.md §3, Strata):
// nothing is stepped from frame to frame. Births come from the birth schedule (BirthSchedule
// .swift); each particle's random values from its identity (ParticleRandom.swift); its state at
// age a (in its cell's time) from the values it got at birth:
//
//     position = p₀ + v₀·a + ½·acceleration·a²
//     scale    = (scale ± scaleRange + scaleSpeed·a) × layer.scale
//     rotation = (spin ± spinRange) × layer.spin × a
//     colour   = clamp(colour ± range, 0…1) + speed·a, clamped to 0…1 (× the parent's colour
//                at birth for a sub-cell's particle)
//
// alive while 0 ≤ a < lifetime = (lifetime ± lifetimeRange) × layer.lifetime. A particle whose
// cell has sub-cells emits them while it lives, from its current position, with directions
// relative to its current direction of travel; their births are a closed form too (a constant
// rate from the configuration the parent was born with), so a frame needs nothing but t.
import Foundation
import Synchronization

/// One live particle before it becomes a snapshot (plain values: sorting them moves no
/// references). `snapshot.image` indexes the simulation's `images`.
struct LiveParticle {
    var snapshot: ParticleSnapshot
    /// The top-level cell index and the path of sub-cell indices below it, for ordering.
    var lineage: Int
    var sequence: Int
}

/// The live particles at one time and the images they name (`snapshot.image`), in the order
/// the cells were first met.
struct LiveParticles {
    var particles: [LiveParticle] = []
    var images: [ParticleImage] = []
}

/// What the particles of one cell share within one configuration of the layer: the two
/// configurations, the index of the cell's image (-1 for none) and its sub-cells' contexts.
/// One reference per particle instead of copies of both configurations (each holding strings,
/// colours, images and arrays: measured as most of the simulation's retains and releases).
final class CellContext: Sendable {
    let cell: CellConfiguration
    let layer: EmitterConfiguration
    let image: Int32
    let subcells: [CellContext]
    /// The numbers a birth reads, as plain values (reading them from `cell` copied the whole
    /// parameters, strings and colour retained, once a particle).
    let constants: CellConstants
    /// The layer's emitter shape and mode, read once (EmissionGeometry.position).
    let geometry: EmitterGeometryKind

    init(cell: CellConfiguration, layer: EmitterConfiguration, images: inout [ParticleImage]) {
        self.cell = cell; self.layer = layer
        geometry = EmitterGeometryKind(layer)
        constants = CellConstants(cell.parameters, layer)
        if let contents = cell.parameters.contents {
            let p = cell.parameters
            let img = ParticleImage(image: contents, contentsRect: p.contentsRect, contentsScale: p.contentsScale,
                                    minificationFilter: CALayerContentsFilter(rawValue: p.minificationFilter),
                                    magnificationFilter: CALayerContentsFilter(rawValue: p.magnificationFilter))
            if let i = images.firstIndex(of: img) {
                image = Int32(i)
            } else {
                image = Int32(images.count)
                images.append(img)
            }
        } else {
            image = -1
        }
        subcells = cell.cells.map { CellContext(cell: $0, layer: layer, images: &images) }
    }
}

/// The cell's and layer's parameters a birth reads.
struct CellConstants: Sendable {
    let lifetime: Float, lifetimeRange: Float, layerLifetime: Float
    let velocity: CGFloat, velocityRange: CGFloat, layerVelocity: Float
    let emissionLongitude: CGFloat, emissionLatitude: CGFloat, emissionRange: CGFloat
    let xAcceleration: CGFloat, yAcceleration: CGFloat, zAcceleration: CGFloat
    let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat
    let redRange: Float, greenRange: Float, blueRange: Float, alphaRange: Float
    let redSpeed: Float, greenSpeed: Float, blueSpeed: Float, alphaSpeed: Float
    let scale: CGFloat, scaleRange: CGFloat, scaleSpeed: CGFloat, layerScale: Float
    let spin: CGFloat, spinRange: CGFloat, layerSpin: Float
    /// The cell's emission cone (from emissionLongitude, emissionLatitude and emissionRange).
    let cone: EmissionCone

    init(_ p: CellParameters, _ layer: EmitterConfiguration) {
        lifetime = p.lifetime; lifetimeRange = p.lifetimeRange; layerLifetime = layer.lifetime
        velocity = p.velocity; velocityRange = p.velocityRange; layerVelocity = layer.velocity
        emissionLongitude = p.emissionLongitude; emissionLatitude = p.emissionLatitude; emissionRange = p.emissionRange
        xAcceleration = p.xAcceleration; yAcceleration = p.yAcceleration; zAcceleration = p.zAcceleration
        let c = p.color ?? .white
        red = c.red; green = c.green; blue = c.blue; alpha = c.alpha
        redRange = p.redRange; greenRange = p.greenRange; blueRange = p.blueRange; alphaRange = p.alphaRange
        redSpeed = p.redSpeed; greenSpeed = p.greenSpeed; blueSpeed = p.blueSpeed; alphaSpeed = p.alphaSpeed
        scale = p.scale; scaleRange = p.scaleRange; scaleSpeed = p.scaleSpeed; layerScale = layer.scale
        spin = p.spin; spinRange = p.spinRange; layerSpin = layer.spin
        cone = EmissionCone(longitude: Double(p.emissionLongitude), latitude: Double(p.emissionLatitude),
                            range: Double(p.emissionRange))
    }
}

/// What a particle got at birth.
struct Emission {
    let context: CellContext
    var cell: CellConfiguration { context.cell }
    var layer: EmitterConfiguration { context.layer }
    let key: UInt64
    /// The layer's local time of birth.
    let birthTime: Double
    /// Cell seconds per layer second.
    let timeScale: Double
    let lifetime: Double
    let origin: Vector3
    let velocity: Vector3
    let acceleration: Vector3
    let color: (Double, Double, Double, Double)
    let colorSpeed: (Double, Double, Double, Double)
    let tint: (Double, Double, Double, Double)
    let scale: Double
    let scaleSpeed: Double
    let spinRate: Double

    init(context: CellContext, random r: ParticleRandom, origin: Vector3,
         frame: EmissionFrame, tint: (Double, Double, Double, Double), birthTime: Double, timeScale: Double) {
        let p = context.constants
        self.context = context; key = r.key
        self.birthTime = birthTime; self.timeScale = timeScale
        lifetime = max(0, r.around(Double(p.lifetime), range: Double(p.lifetimeRange), .lifetime)) * Double(p.layerLifetime)
        self.origin = origin
        let speed = r.around(Double(p.velocity), range: Double(p.velocityRange), .velocity) * Double(p.layerVelocity)
        let dir = EmissionGeometry.direction(p.cone, frame: frame, r)
        velocity = dir * speed
        acceleration = Vector3(x: Double(p.xAcceleration), y: Double(p.yAcceleration), z: Double(p.zAcceleration))
        func comp(_ v: CGFloat, _ range: Float, _ s: ParticleRandom.Stream) -> Double {
            min(max(r.around(Double(v), range: Double(range), s), 0), 1)
        }
        color = (comp(p.red, p.redRange, .red), comp(p.green, p.greenRange, .green),
                 comp(p.blue, p.blueRange, .blue), comp(p.alpha, p.alphaRange, .alpha))
        colorSpeed = (Double(p.redSpeed), Double(p.greenSpeed), Double(p.blueSpeed), Double(p.alphaSpeed))
        self.tint = tint
        scale = r.around(Double(p.scale), range: Double(p.scaleRange), .scale)
        scaleSpeed = Double(p.scaleSpeed)
        spinRate = r.around(Double(p.spin), range: Double(p.spinRange), .spin) * Double(p.layerSpin)
    }

    /// Age in cell time at the layer's local time `t`.
    @inline(__always) func age(at t: Double) -> Double { (t - birthTime) * timeScale }
    func position(atAge a: Double) -> Vector3 { origin + velocity * a + acceleration * (0.5 * a * a) }
    func velocity(atAge a: Double) -> Vector3 { velocity + acceleration * a }
    func color(atAge a: Double) -> (Double, Double, Double, Double) {
        func c(_ v: Double, _ s: Double, _ t: Double) -> Double { min(max(v + s * a, 0), 1) * t }
        return (c(color.0, colorSpeed.0, tint.0), c(color.1, colorSpeed.1, tint.1),
                c(color.2, colorSpeed.2, tint.2), c(color.3, colorSpeed.3, tint.3))
    }
}

/// One birth interval of a cell, with what its births read.
fileprivate struct CellInterval: Sendable {
    /// Births before the interval, and before its end (the schedule's prefix sums).
    let first: Double, end: Double
    let run: BirthRun
    let interval: IntervalConfiguration
    let context: CellContext
    let gridTime: Double
}

/// The particles of each part of a cell's intervals, evaluated on several threads: a slot a part,
/// each written by its own thread, all taken after they ended.
private final class PartResults: Sendable {
    private let slots: Mutex<[[LiveParticle]]>
    init(count: Int) { slots = Mutex(Array(repeating: [], count: count)) }
    func store(_ value: [LiveParticle], at i: Int) { slots.withCheckedLock { $0[i] = value } }
    func takeAll() -> [[LiveParticle]] { slots.withCheckedLock { s in defer { s = [] }; return s } }
}

/// Evaluates an emitter model's particles at a local time.
struct ParticleSimulation {
    let timeline: EmitterTimeline
    /// The local time the simulation starts (the layer's beginTime, or when it entered the tree).
    let start: Double
    let cache: ParticleBirthCache

    /// The live particles at local time `t`, unordered. With `threads` > 1 a cell's many births
    /// (at least `parallelBirths`) are evaluated in parts on that many threads, each part a run
    /// of consecutive intervals, and the parts joined in order: the same particles in the same
    /// order as on one thread.
    func particles(at t: Double, threads: Int = 1) -> LiveParticles {
        guard t.isFinite, t >= start else { return LiveParticles() }
        let step = ParticleBirthCache.step
        let n = Int(((t - start) / step).rounded(.down))
        let cellCount = timeline.epochs.map(\.configuration.cells.count).max() ?? 0
        var out = LiveParticles()
        cache.withSchedules(timeline: timeline, start: start) { s in
            for c in 0..<cellCount {
                s.extend(cell: c, through: n)
                // The intervals whose particles may live, found from the newest back; then walked
                // oldest first, so that a cell without sub-cells gives its particles in drawing
                // order (birth time, then sequence) and the snapshot's sort finds one run.
                var oldest = n + 1
                while oldest > 0, s.gridTime(oldest) + s.cells[c].reach[oldest - 1] > t { oldest -= 1 }
                guard oldest <= n else { continue }
                let births = (s.cells[c].prefix[n + 1] - s.cells[c].prefix[oldest]).rounded(.up) + 1
                // Each interval with births, with its configuration and the cell's context for it
                // (made again only when the configuration changes, in interval order: the images
                // are numbered as the one-thread walk numbers them).
                var work: [CellInterval] = []
                var context: CellContext?
                for j in stride(from: oldest, through: n, by: 1) {
                    let c0 = s.cells[c].prefix[j], c1 = s.cells[c].prefix[j + 1]
                    guard c1 > c0 else { continue }
                    let iv = s.interval(j)
                    let cfg = iv.configuration
                    if context == nil || context!.layer != cfg {
                        context = CellContext(cell: cfg.cells[c], layer: cfg, images: &out.images)
                    }
                    work.append(CellInterval(first: c0, end: c1, run: s.cells[c].runs[j], interval: iv, context: context!,
                                             gridTime: s.gridTime(j)))
                }
                let parts = threads > 1 && births >= Double(Self.parallelBirths) && work.count >= threads ? threads : 1
                if parts == 1 {
                    // Room for the cell's births in those intervals (an upper bound of its particles
                    // without sub-cells) at once: grown by doubling, 20 000 particles' array was
                    // copied and its pages faulted in some fifteen times a snapshot.
                    let needed = out.particles.count + Int(min(max(births, 0), 1e7))
                    if needed > out.particles.capacity { out.particles.reserveCapacity(max(needed, 2 * out.particles.capacity)) }
                    for w in work { Self.collect(w, cell: c, at: t, into: &out.particles) }
                    continue
                }
                // Parts of about equal births, consecutive intervals each.
                var bounds = [0]
                let total = work.last!.end - work[0].first
                for (i, w) in work.enumerated() where bounds.count < parts && w.first - work[0].first >= total * Double(bounds.count) / Double(parts) {
                    if i > bounds.last! { bounds.append(i) }
                }
                bounds.append(work.count)
                let results = PartResults(count: bounds.count - 1)
                let parted = PartedCell(work: work, bounds: bounds, cell: c, t: t, results: results)
                DispatchQueue.concurrentPerform(iterations: bounds.count - 1) { parted.run(part: $0) }
                let all = results.takeAll()
                out.particles.reserveCapacity(out.particles.count + all.reduce(0) { $0 + $1.count })
                for part in all { out.particles.append(contentsOf: part) }
            }
        }
        return out
    }

    /// A cell's intervals in parts, each part's particles evaluated by `run` on a thread of its own.
    private struct PartedCell: Sendable {
        let work: [CellInterval]
        let bounds: [Int]
        let cell: Int
        let t: Double
        let results: PartResults

        func run(part: Int) {
            var mine: [LiveParticle] = []
            mine.reserveCapacity(Int(min(max((work[bounds[part + 1] - 1].end - work[bounds[part]].first).rounded(.up) + 1, 0), 1e7)))
            for w in work[bounds[part]..<bounds[part + 1]] { ParticleSimulation.collect(w, cell: cell, at: t, into: &mine) }
            results.store(mine, at: part)
        }
    }

    /// Cells with at least this many births in their live intervals are evaluated in parts when
    /// threads are given (`particles(at:threads:)`).
    static let parallelBirths = 4096

    /// Adds the particles born in interval `w` of top-level cell `c` that live at `t` (and their
    /// live descendants), in birth order.
    fileprivate static func collect(_ w: CellInterval, cell c: Int, at t: Double, into out: inout [LiveParticle]) {
        let cfg = w.interval.configuration, ctx = w.context, step = ParticleBirthCache.step
        let streamKey = ParticleRandom.cellKey(seed: cfg.seed, cellIndex: c)
        let p0 = Vector3(cfg.emitterPosition, cfg.emitterZPosition)
        let speed = ctx.cell.parameters.timing.speed
        var k = Int(w.first.rounded(.up))
        while Double(k) < w.end {
            let tau = w.run.birthTime(k)
            if tau > t { break }
            // The emitter's position at the birth, between the interval's ends.
            let f = (tau - w.gridTime) / step
            let centre = p0 + (w.interval.endPosition - p0) * f
            let r = ParticleRandom(streamKey: streamKey, index: k)
            let e = Emission(context: ctx, random: r,
                             origin: EmissionGeometry.position(cfg, kind: ctx.geometry, center: centre, r),
                             frame: .identity, tint: (1, 1, 1, 1), birthTime: tau,
                             timeScale: speed)
            collect(e, at: t, lineage: c + 1, sequence: k, into: &out)
            k += 1
        }
    }

    /// Adds `e` (when alive and visible at `t`) and its live descendants.
    private static func collect(_ e: Emission, at t: Double, lineage: Int, sequence: Int, into out: inout [LiveParticle]) {
        let age = e.age(at: t)
        guard age >= 0 else { return }
        let context = e.context
        if age < e.lifetime, context.image >= 0 {
            let pos = e.position(atAge: age)
            let scale = (e.scale + e.scaleSpeed * age) * Double(context.constants.layerScale)
            let c = e.color(atAge: age)
            if scale > 0, c.3 > 0 {
                let snap = ParticleSnapshot(x: Float(pos.x), y: Float(pos.y), z: Float(pos.z),
                                            rotation: Float(e.spinRate * age), scale: Float(scale),
                                            color: RGBA(r: Float(c.0), g: Float(c.1), b: Float(c.2), a: Float(c.3)),
                                            image: context.image, birthTime: e.birthTime, age: Float(age))
                out.append(LiveParticle(snapshot: snap, lineage: lineage, sequence: sequence))
            }
        }
        for (si, sub) in context.subcells.enumerated() {
            collectSubcell(sub, index: si, of: e, parentAge: age, at: t, lineage: lineage * 64 + si + 1, into: &out)
        }
    }

    /// The live particles that `parent` emitted of its sub-cell `sub`.
    private static func collectSubcell(_ subContext: CellContext, index si: Int, of parent: Emission, parentAge: Double,
                                at t: Double, lineage: Int, into out: inout [LiveParticle]) {
        let sub = subContext.cell
        let p = sub.parameters
        let speed = p.timing.speed
        guard p.isEnabled, speed > 0, speed.isFinite else { return }
        let rate = Double(p.birthRate) * Double(parent.layer.birthRate) * speed   // per parent-age second
        guard rate > 0, rate.isFinite else { return }
        let window = ParticleSimulation.activeWindow(p.timing)
        let a0 = max(0, window.lowerBound), a1 = min(parent.lifetime, window.upperBound)
        guard a1 > a0 else { return }
        let subScale = parent.timeScale * speed
        let reach = ParticleSimulation.reach(of: sub, layer: parent.layer, timeScale: subScale)
        // Births a_j = a0 + j / rate with a_j < a1, born by now, whose lines may still live.
        let newest = min(parentAge, a1.nextDown)
        guard newest >= a0 else { return }
        let oldest = parentAge - reach * parent.timeScale
        let jLo = max(0, Int(((oldest - a0) * rate).rounded(.down)))
        let jHi = Int(((newest - a0) * rate).rounded(.down))
        guard jHi >= jLo else { return }
        let streamKey = ParticleRandom.subcellKey(parent: parent.key, cellIndex: si)
        for j in jLo...jHi {
            let a = a0 + Double(j) / rate
            guard a < a1, a <= parentAge else { continue }
            let r = ParticleRandom(streamKey: streamKey, index: j)
            let c = parent.color(atAge: a)
            let e = Emission(context: subContext, random: r, origin: parent.position(atAge: a),
                             frame: EmissionFrame(direction: parent.velocity(atAge: a)), tint: c,
                             birthTime: parent.birthTime + a / parent.timeScale, timeScale: subScale)
            collect(e, at: t, lineage: lineage, sequence: j, into: &out)
        }
    }

    // MARK: Helpers shared with the birth schedule

    /// The parent times during which a cell emits: its active interval (forever when its
    /// duration is 0), from its timing `(τ − beginTime) · speed + timeOffset ∈ [0, D)`.
    static func activeWindow(_ timing: MediaTimingValues) -> Range<Double> {
        let speed = timing.speed
        guard speed > 0 else { return 0..<0 }
        let lo = timing.beginTime - timing.timeOffset / speed
        let d = timing.duration > 0 ? timing.activeDuration : .infinity
        let hi = d.isInfinite ? Double.infinity : timing.beginTime + (d - timing.timeOffset) / speed
        return hi > lo ? lo..<hi : lo..<lo
    }

    /// The longest a particle of `cell` and its descendants live, in the parent's seconds
    /// (cell time runs `timeScale` times faster).
    static func reach(of cell: CellConfiguration, layer: EmitterConfiguration, timeScale: Double) -> Double {
        let p = cell.parameters
        guard timeScale > 0, timeScale.isFinite else { return 0 }
        let life = max(0, Double(p.lifetime) + abs(Double(p.lifetimeRange)) / 2) * max(0, Double(layer.lifetime))
        var deepest = 0.0
        for sub in cell.cells where sub.parameters.isEnabled {
            deepest = max(deepest, reach(of: sub, layer: layer, timeScale: timeScale * max(sub.parameters.timing.speed, 0)))
        }
        return life / timeScale + deepest
    }
}
