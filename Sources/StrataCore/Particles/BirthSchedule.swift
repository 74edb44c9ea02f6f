// When the particles of an emitter's top-level cells are born: a pure function of the emitter's
// timeline, kept across frames.
//
// Local time from the simulation start S is cut into a grid of `step` = 1/240 s. The rate of a
// cell over grid interval i is the one its configuration gives at the interval's start g_i (the
// epoch then, with its animations evaluated at g_i): r_i = cell.birthRate × layer.birthRate ×
// cell.speed, over the part of the interval inside the cell's active time. The number of
// particles born before interval i is the prefix sum C_i; particle k is born in the interval with
// C_i ≤ k < C_(i+1), at lo_i + (k − C_i) / r_i. With a constant rate this is S + k / r exactly
// (up to rounding), and a rate change (a scene block, an animation) takes effect at the next grid
// point — at most 4.2 ms late.
//
// C_i depends only on the configuration at grid points before i, so once computed it is final:
// the memo grows as later times are asked for and is reused in any order. When the timeline
// changes (the scene's model moved across a block that changed the emitter), only the entries
// from the first time the two timelines differ are dropped. `reach` keeps, per interval, the
// longest time a particle born up to then (and its sub-particles) can live: walking back from t,
// the search for live particles stops where even that is over.
import Foundation
import Synchronization

/// Birth counts of one top-level cell per grid interval.
struct CellSchedule {
    /// `prefix[i]`: particles born before interval i (prefix[0] = 0).
    var prefix: [Double] = [0]
    /// `reach[i]`: the longest a particle born in intervals 0…i and its descendants live, in the
    /// layer's seconds (a running maximum).
    var reach: [Double] = []
    /// `runs[i]`: the run of constant rate interval i belongs to.
    var runs: [BirthRun] = []
}

/// Consecutive intervals with the same rate: counts and birth times come from the run's start
/// in one step (C = base + rate · (τ − start)), not by summing interval after interval, so a
/// constant rate gives births at exactly start + k / rate.
struct BirthRun: Sendable {
    let start: Double
    let base: Double
    let rate: Double

    /// The birth time of particle `k` of the run.
    func birthTime(_ k: Int) -> Double { start + (Double(k) - base) / rate }
}

/// The configuration of one grid interval: at its start, and the emitter position at its end
/// (birth positions are interpolated between the two, so a moving emitter leaves a smooth trail).
struct IntervalConfiguration: Sendable {
    let configuration: EmitterConfiguration
    let endPosition: Vector3
}

/// The memo of an emitter's birth schedule (one per model layer; used by one render at a time,
/// guarded by a lock all the same).
// @unchecked: every stored var is read and written only inside `lock` (a `Mutex` of no value:
// the body runs a caller's closure over the memo, which a Mutex-held value cannot be lent to).
final class ParticleBirthCache: @unchecked Sendable {
    static let step = 1.0 / 240
    /// Animated interval configurations kept (older ones are computed again when needed).
    static let keptIntervals = 50_000

    private let lock = Mutex(())
    private var timeline: EmitterTimeline?
    private var start = Double.nan
    private var schedules: [CellSchedule] = []
    private var intervals: [Int: IntervalConfiguration] = [:]

    /// Runs `body` with the memo made valid for `timeline` and `start`.
    func withSchedules<T>(timeline: EmitterTimeline, start: Double, _ body: (inout Schedules) -> T) -> T {
        var result: T?
        lock.withCheckedLock { _ in result = update(timeline: timeline, start: start, body) }
        return result!
    }

    private func update<T>(timeline: EmitterTimeline, start: Double, _ body: (inout Schedules) -> T) -> T {
        if start != self.start || self.timeline == nil {
            schedules = []; intervals = [:]
        } else if let old = self.timeline {
            let differ = timeline.firstDifference(from: old)
            if differ < .infinity { truncate(from: differ, start: start) }
        }
        self.start = start
        self.timeline = timeline
        var s = Schedules(timeline: timeline, start: start, cells: schedules, intervals: intervals)
        let result = body(&s)
        schedules = s.cells
        intervals = s.intervals.count > ParticleBirthCache.keptIntervals ? [:] : s.intervals
        return result
    }

    /// Drops what depends on configurations at or after local time `t`.
    private func truncate(from t: Double, start: Double) {
        let keep = t.isFinite ? max(0, Int(((t - start) / ParticleBirthCache.step).rounded(.up))) : 0
        for c in schedules.indices where schedules[c].reach.count > keep {
            schedules[c].reach.removeSubrange(keep...)
            schedules[c].runs.removeSubrange(keep...)
            schedules[c].prefix.removeSubrange((keep + 1)...)
        }
        intervals = intervals.filter { $0.key < keep }
    }
}

/// The schedules of every top-level cell, extended on demand.
struct Schedules {
    let timeline: EmitterTimeline
    let start: Double
    var cells: [CellSchedule]
    var intervals: [Int: IntervalConfiguration]

    /// The start of grid interval `i`.
    func gridTime(_ i: Int) -> Double { start + Double(i) * ParticleBirthCache.step }

    /// The configuration of interval `i`.
    mutating func interval(_ i: Int) -> IntervalConfiguration {
        let g = gridTime(i)
        let epoch = timeline.epoch(at: g)
        guard epoch.isAnimated else {
            let c = epoch.configuration
            return IntervalConfiguration(configuration: c, endPosition: Vector3(c.emitterPosition, c.emitterZPosition))
        }
        if let cached = intervals[i] { return cached }
        let c = epoch.configuration(at: g)
        let e = epoch.configuration(at: gridTime(i + 1))
        let v = IntervalConfiguration(configuration: c, endPosition: Vector3(e.emitterPosition, e.emitterZPosition))
        intervals[i] = v
        return v
    }

    /// Births per layer second of top-level cell `c` in interval `i`, and the part of the
    /// interval they are spread over (empty when it does not emit).
    mutating func births(cell c: Int, interval i: Int) -> (rate: Double, lo: Double, hi: Double) {
        let cfg = interval(i).configuration
        let g0 = gridTime(i), g1 = gridTime(i + 1)
        guard c < cfg.cells.count else { return (0, g0, g0) }
        let p = cfg.cells[c].parameters
        let speed = p.timing.speed
        guard p.isEnabled, speed > 0, speed.isFinite else { return (0, g0, g0) }
        let rate = Double(p.birthRate) * Double(cfg.birthRate) * speed
        guard rate > 0, rate.isFinite else { return (0, g0, g0) }
        let window = ParticleSimulation.activeWindow(p.timing)
        let lo = max(g0, window.lowerBound), hi = min(g1, window.upperBound)
        return hi > lo ? (rate, lo, hi) : (0, g0, g0)
    }

    /// Makes the schedule of cell `c` known through interval `n` (prefix through n + 1).
    mutating func extend(cell c: Int, through n: Int) {
        while cells.count <= c { cells.append(CellSchedule()) }
        while cells[c].reach.count <= n {
            let i = cells[c].reach.count
            let b = births(cell: c, interval: i)
            let before = cells[c].prefix[i]
            // Continue the previous run when the rate is the same and births are contiguous.
            var run = BirthRun(start: b.lo, base: before, rate: b.rate)
            if let last = cells[c].runs.last, last.rate == b.rate, b.rate > 0, b.lo == gridTime(i) {
                run = last
            }
            let after = b.rate > 0 ? max(before, run.base + run.rate * (b.hi - run.start)) : before
            var reach = cells[c].reach.last ?? 0
            if after > before {
                let cfg = interval(i).configuration
                reach = max(reach, ParticleSimulation.reach(of: cfg.cells[c], layer: cfg,
                                                            timeScale: cfg.cells[c].parameters.timing.speed))
            }
            cells[c].prefix.append(after)
            cells[c].runs.append(run)
            cells[c].reach.append(reach)
        }
    }
}

extension Vector3 {
    init(_ p: CGPoint, _ z: CGFloat) { self.init(x: Double(p.x), y: Double(p.y), z: Double(z)) }
}
