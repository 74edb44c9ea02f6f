// Resource limits that apply while a snapshot is made, and the problems found then: a
// replicator's instances, an emitter's live particles or a text layer's text over the scene's
// limit. `makeSnapshot()` cannot throw (it is Core Animation's shape: a presentation is always
// there), so the layer draws up to the limit and records the excess in the `SnapshotReport` the
// `PresentationBuilder` carries (as lottie-ios carries its CompatibilityTracker in its layer
// context); the scene makes the report with its limits (`Scene.limits`), reads it after the build
// and throws one error naming the layer, the numbers and the limit to raise (`SceneLimits`,
// `--limit NAME=N`). Outside a report the defaults apply and nothing is recorded.
import Foundation
import Synchronization

/// The limits a snapshot's layers read (a subset of `SceneLimits`, which lives above this module).
public struct SnapshotLimits: Sendable, Equatable {
    /// The most particles alive at once in one emitter layer (`--limit particles=N`).
    public var particles: Int
    /// The most instances one replicator layer makes (`--limit instances=N`).
    public var replicatorInstances: Int
    /// The most Unicode scalars of one text layer (`--limit text-length=N`).
    public var textScalars: Int
    /// The most Unicode scalars of one character of text (`--limit character-scalars=N`).
    public var characterScalars: Int

    /// Limits with these values; the defaults are the command line's defaults.
    public init(particles: Int = 200_000, replicatorInstances: Int = 100_000, textScalars: Int = 200_000,
                characterScalars: Int = 32) {
        self.particles = particles; self.replicatorInstances = replicatorInstances
        self.textScalars = textScalars; self.characterScalars = characterScalars
    }
}

/// One limit a snapshot's layer went over.
public struct SnapshotIssue: Sendable, Equatable {
    /// What went over, naming the layer ("CAEmitterLayer 'trail': 120 live particles").
    public var what: String
    /// The limit in force.
    public var limit: Int
    /// The limit's name for `--limit NAME=N` ("particles", "instances").
    public var limitName: String

    /// An issue: `what` went over the limit `limitName` = `limit`.
    public init(what: String, limit: Int, limitName: String) {
        self.what = what; self.limit = limit; self.limitName = limitName
    }
}

/// The limits a snapshot's layers read and the issues they found, carried by the
/// `PresentationBuilder` that makes the snapshot.
public final class SnapshotReport: Sendable {
    /// The limits in force while the builder runs.
    public let limits: SnapshotLimits
    private let found = Mutex<[SnapshotIssue]>([])

    /// Threads the snapshot's layers may use for their own work (an emitter's many particles:
    /// ParticleSimulation); the same snapshot whatever the number.
    public let threads: Int

    /// A report with these limits and no issues yet; the layers may use `threads` threads.
    public init(limits: SnapshotLimits = SnapshotLimits(), threads: Int = 1) {
        self.limits = limits
        self.threads = max(1, threads)
    }

    private let noted = Mutex<[String]>([])

    /// The issues recorded, oldest first, each once.
    public var issues: [SnapshotIssue] { found.withCheckedLock { $0 } }

    /// Values the layers hold that Strata does not draw as asked and draws another way (a
    /// `compositingFilter` it does not know, drawn source-over), each naming the layer, oldest
    /// first, each once. Unlike `issues` they do not fail the frame: the scene reports them as
    /// warnings.
    public var notes: [String] { noted.withCheckedLock { $0 } }

    /// The report of the build running on this thread. A layer's snapshot methods take no context
    /// (they are open to subclasses, in Core Animation's shape), so the builder installs its
    /// report here for the duration of a build.
    static let building = ThreadLocalReference<SnapshotReport>()

    /// The limits in force on this thread: the running build's, or the defaults.
    static var limitsInForce: SnapshotLimits { building.current?.limits ?? SnapshotLimits() }

    /// The threads the running build's layers may use (1 outside a build).
    static var threadsInForce: Int { building.current?.threads ?? 1 }

    /// Records `issue` in the running build's report (deduplicated: a frame reports each problem once).
    static func record(_ issue: SnapshotIssue) {
        building.current?.found.withCheckedLock { if !$0.contains(issue) { $0.append(issue) } }
    }

    /// Records `note` in the running build's report (deduplicated, as issues are).
    static func note(_ note: String) {
        building.current?.noted.withCheckedLock { if !$0.contains(note) { $0.append(note) } }
    }

    /// A layer's description for messages: its class and name.
    static func describe(_ layer: CALayer) -> String {
        let name = layer.name.map { " '\($0)'" } ?? ""
        return "\(type(of: layer))\(name)"
    }
}
