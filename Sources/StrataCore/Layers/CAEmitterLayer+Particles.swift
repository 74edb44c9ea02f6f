// From the closed-form simulation to the snapshot: the live particles at a local time, limited
// to the scene's particle limit (`SnapshotReport.limitsInForce`), in the order `renderMode` asks for, with their images gathered.
import Foundation

extension CAEmitterLayer {
    /// The particle system at the layer's local time `t` (this must be the model layer).
    func particleSystem(at t: Double, renderMode: CAEmitterLayerRenderMode, preservesDepth: Bool) -> ParticleSystemSnapshot {
        let current = EmitterEpoch(until: .infinity, configuration: currentConfiguration, entries: animationEntries)
        let timeline = EmitterTimeline(past: pastEpochs, current: current)
        let simulated = ParticleSimulation(timeline: timeline, start: simulationStart, cache: birthCache)
            .particles(at: t, threads: SnapshotReport.threadsInForce)
        let live = simulated.particles

        // Drawing order: the keys are sorted with the particles' indices (the last key, so the
        // order is total and the same as a stable sort of the particles themselves would give),
        // and the particles gathered once.
        var order: [SortKey] = []
        order.reserveCapacity(live.count)
        for (i, p) in live.enumerated() {
            let s = p.snapshot
            switch renderMode {
            case .oldestFirst, .oldestLast:
                order.append(SortKey(a: 0, b: s.birthTime, c: p.lineage, d: p.sequence, index: Int32(i)))
            case .backToFront:
                order.append(SortKey(a: Double(s.z), b: s.birthTime, c: p.lineage, d: p.sequence, index: Int32(i)))
            default:  // unordered, additive: cell by cell, oldest first
                order.append(SortKey(a: Double(p.lineage), b: s.birthTime, c: 0, d: p.sequence, index: Int32(i)))
            }
        }
        order.sort(by: <)
        if renderMode == .oldestLast { order.reverse() }

        // The resource limit: keep the newest particles, report the excess.
        let limit = max(SnapshotReport.limitsInForce.particles, 0)
        if order.count > limit {
            SnapshotReport.record(SnapshotIssue(what: "\(SnapshotReport.describe(self)) with \(order.count) live particles",
                                                limit: limit, limitName: "particles"))
            let newest = order.indices.sorted { live[Int(order[$0].index)].snapshot.birthTime > live[Int(order[$1].index)].snapshot.birthTime }
                .prefix(limit)
            let keep = Set(newest)
            order = order.indices.filter { keep.contains($0) }.map { order[$0] }
        }

        // Images, shared between the particles of a cell, numbered as the drawing order meets them.
        var images: [ParticleImage] = []
        var renumbered = [Int32](repeating: -1, count: simulated.images.count)
        var particles: [ParticleSnapshot] = []
        particles.reserveCapacity(order.count)
        for key in order {
            var p = live[Int(key.index)].snapshot
            let old = Int(p.image)
            if renumbered[old] < 0 {
                renumbered[old] = Int32(images.count)
                images.append(simulated.images[old])
            }
            p.image = renumbered[old]
            particles.append(p)
        }
        return ParticleSystemSnapshot(images: images, particles: particles, renderMode: renderMode, preservesDepth: preservesDepth)
    }

    /// **Strata:** the particles this emitter shows at scene time `time` (in drawing order), for
    /// inspection and tests; the scene's model must be at that time (inside `scene.at`, or after
    /// `scene.presentation(of:at:)`).
    public func particles(atSceneTime time: Double) -> ParticleSystemSnapshot {
        let model = (modelLayerReference as? CAEmitterLayer) ?? self
        return model.particleSystem(at: model.sceneTimeToLocal(time), renderMode: renderMode, preservesDepth: preservesDepth)
    }
}

/// A particle's place in the drawing order: compared field by field, the particle's index last.
private struct SortKey: Comparable {
    var a: Double, b: Double, c: Int, d: Int, index: Int32

    static func < (l: SortKey, r: SortKey) -> Bool {
        l.a != r.a ? l.a < r.a : l.b != r.b ? l.b < r.b : l.c != r.c ? l.c < r.c : l.d != r.d ? l.d < r.d : l.index < r.index
    }
}
