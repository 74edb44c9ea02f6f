// Resource limits that apply while a snapshot is made, and the problems found then: a
// replicator's instances, an emitter's live particles or a text layer's text over the scene's
// limit. `makeSnapshot()`
// cannot throw (it is Core Animation's shape: a presentation is always there), so the layer draws
// up to the limit and records the excess here, per thread like `AnimationErrorLog`; the scene that
// renders collects it and throws one error naming the layer, the numbers and the limit to raise
// (`SceneLimits`, `--limit NAME=N`). The limits themselves are the scene's (`Scene.limits`), set
// for the duration of the build with `withLimits`; outside a scene the defaults apply.
import Foundation

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

    public init(what: String, limit: Int, limitName: String) {
        self.what = what; self.limit = limit; self.limitName = limitName
    }
}

/// Issues recorded on this thread while snapshots were made, and the limits in force.
public enum SnapshotIssues {
    private static let key = "strata.snapshotIssues"
    private static let limitsKey = "strata.snapshotLimits"

    /// The limits in force on this thread (the defaults outside `withLimits`).
    public static var limits: SnapshotLimits {
        (Thread.current.threadDictionary[limitsKey] as? Box)?.value ?? SnapshotLimits()
    }

    /// Runs `body` with `limits` in force on this thread.
    public static func withLimits<T>(_ limits: SnapshotLimits, _ body: () throws -> T) rethrows -> T {
        let dict = Thread.current.threadDictionary
        let previous = dict[limitsKey]
        dict[limitsKey] = Box(limits)
        defer { dict[limitsKey] = previous }
        return try body()
    }

    /// Records `issue` (deduplicated: a frame reports each problem once).
    static func record(_ issue: SnapshotIssue) {
        var list = (Thread.current.threadDictionary[key] as? [SnapshotIssue]) ?? []
        guard !list.contains(issue) else { return }
        list.append(issue)
        Thread.current.threadDictionary[key] = list
    }

    /// The issues recorded on this thread since the last call, oldest first.
    public static func take() -> [SnapshotIssue] {
        let list = (Thread.current.threadDictionary[key] as? [SnapshotIssue]) ?? []
        Thread.current.threadDictionary[key] = nil
        return list
    }

    /// A layer's description for messages: its class and name.
    static func describe(_ layer: CALayer) -> String {
        let name = layer.name.map { " '\($0)'" } ?? ""
        return "\(type(of: layer))\(name)"
    }

    /// A class so that it fits a thread dictionary (whose values Foundation types as Any).
    private final class Box: Sendable {
        let value: SnapshotLimits
        init(_ value: SnapshotLimits) { self.value = value }
    }
}
