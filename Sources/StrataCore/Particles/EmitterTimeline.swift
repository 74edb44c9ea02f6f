// What an emitter's particle-relevant values were at every past time. A particle keeps what it
// got at birth (its emission point, speed, colour, …), so a frame at time t needs the emitter's
// configuration at each live particle's birth time, not only the current one.
//
// The model layer keeps the past as epochs: when an emitter property, a cell property or the
// layer's animation list is about to change inside a scene block at local time T, the values in
// force until then (configuration and animations) are appended as an epoch ending at T. The
// array is a recorded property like any other, so moving the scene's model back before T drops
// the epoch again and re-applying the block restores it: the timeline at time t is always
// exactly the history up to t. The current configuration (from the last epoch on) is the model's.
import Foundation

/// A period of an emitter's history: the configuration and animations in force until `until`
/// (the layer's local time; +∞ for the current one).
final class EmitterEpoch {
    let until: Double
    let configuration: EmitterConfiguration
    /// The layer's animations then (held strongly: compared by identity).
    let animations: [CAAnimation]
    /// Their prepared forms, only those that animate keys of the configuration.
    let prepared: [PreparedAnimation]

    init(until: Double, configuration: EmitterConfiguration, entries: [AnimationEntry]) {
        self.until = until
        self.configuration = configuration
        animations = entries.map(\.original)
        prepared = entries.map(\.prepared).filter { EmitterConfiguration.affects([$0]) }
    }

    /// Whether two epochs make the same configuration function (their `until` aside).
    func sameContent(as o: EmitterEpoch) -> Bool {
        configuration == o.configuration && animations.count == o.animations.count
            && zip(animations, o.animations).allSatisfy { $0 === $1 }
    }

    /// The configuration at local time `t` (within this epoch): animations applied.
    func configuration(at t: Double) -> EmitterConfiguration {
        guard !prepared.isEmpty else { return configuration }
        var c = configuration
        c.apply(prepared, at: t)
        return c
    }

    var isAnimated: Bool { !prepared.isEmpty }
}

/// An emitter's past epochs and its current one, as a step function of local time.
struct EmitterTimeline {
    /// Ascending `until`; the last one is the current epoch (until +∞).
    let epochs: [EmitterEpoch]

    init(past: [EmitterEpoch], current: EmitterEpoch) { epochs = past + [current] }

    /// The epoch in force at local time `t`.
    func epoch(at t: Double) -> EmitterEpoch {
        var lo = 0, hi = epochs.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if epochs[mid].until > t { hi = mid } else { lo = mid + 1 }
        }
        return epochs[lo]
    }

    /// The first local time at which the two timelines give different configurations (+∞ when
    /// they never do).
    func firstDifference(from o: EmitterTimeline) -> Double {
        var i = 0, j = 0
        var x = -Double.infinity
        while true {
            let a = epochs[i], b = o.epochs[j]
            guard a.sameContent(as: b) else { return x }
            let next = min(a.until, b.until)
            guard next.isFinite else { return .infinity }
            x = next
            if a.until == next { i += 1 }
            if b.until == next { j += 1 }
            guard i < epochs.count, j < o.epochs.count else { return x }
        }
    }
}
