// From the closed-form simulation to the snapshot: the live particles at a local time, limited
// to the scene's particle limit (`SnapshotReport.limitsInForce`), in the order `renderMode` asks for, with their images gathered.
import Foundation

extension CAEmitterLayer {
    /// The particle system at the layer's local time `t` (this must be the model layer).
    func particleSystem(at t: Double, renderMode: CAEmitterLayerRenderMode, preservesDepth: Bool) -> ParticleSystemSnapshot {
        let current = EmitterEpoch(until: .infinity, configuration: currentConfiguration, entries: animationEntries)
        let timeline = EmitterTimeline(past: pastEpochs, current: current)
        var live = ParticleSimulation(timeline: timeline, start: simulationStart, cache: birthCache).particles(at: t)

        // Drawing order.
        switch renderMode {
        case .oldestFirst, .oldestLast:
            live.sort { a, b in
                a.snapshot.birthTime != b.snapshot.birthTime ? a.snapshot.birthTime < b.snapshot.birthTime
                    : a.lineage != b.lineage ? a.lineage < b.lineage : a.sequence < b.sequence
            }
            if renderMode == .oldestLast { live.reverse() }
        case .backToFront:
            live.sort { a, b in
                a.snapshot.z != b.snapshot.z ? a.snapshot.z < b.snapshot.z
                    : a.snapshot.birthTime != b.snapshot.birthTime ? a.snapshot.birthTime < b.snapshot.birthTime
                    : a.lineage != b.lineage ? a.lineage < b.lineage : a.sequence < b.sequence
            }
        default:  // unordered, additive: cell by cell, oldest first
            live.sort { a, b in
                a.lineage != b.lineage ? a.lineage < b.lineage
                    : a.snapshot.birthTime != b.snapshot.birthTime ? a.snapshot.birthTime < b.snapshot.birthTime
                    : a.sequence < b.sequence
            }
        }

        // The resource limit: keep the newest particles, report the excess.
        let limit = max(SnapshotReport.limitsInForce.particles, 0)
        if live.count > limit {
            SnapshotReport.record(SnapshotIssue(what: "\(SnapshotReport.describe(self)) with \(live.count) live particles",
                                                limit: limit, limitName: "particles"))
            let newest = live.indices.sorted { live[$0].snapshot.birthTime > live[$1].snapshot.birthTime }.prefix(limit)
            let keep = Set(newest)
            live = live.indices.filter { keep.contains($0) }.map { live[$0] }
        }

        // Images, shared between the particles of a cell.
        var images: [ParticleImage] = []
        var index: [ParticleImage: Int32] = [:]
        var particles: [ParticleSnapshot] = []
        particles.reserveCapacity(live.count)
        for var p in live {
            guard let img = p.cellImage else { continue }
            if let i = index[img] {
                p.snapshot.image = i
            } else {
                let i = Int32(images.count)
                images.append(img)
                index[img] = i
                p.snapshot.image = i
            }
            particles.append(p.snapshot)
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
