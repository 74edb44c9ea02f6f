// Problems found while a snapshot is made that the snapshot works around but the scene must
// report: a resource limit exceeded (a replicator's instance count, an emitter's live particles).
// `makeSnapshot()` cannot throw (it is Core Animation's shape: a presentation is always there), so
// the problems are kept per thread, like `AnimationErrorLog`, until the scene that renders
// collects them and throws one error naming the layer, the numbers and the setting to change.
import Foundation

/// Issues recorded on this thread while snapshots were made.
public enum SnapshotIssues {
    private static let key = "strata.snapshotIssues"

    /// Records `message` (deduplicated: a frame reports each problem once).
    static func record(_ message: String) {
        var list = (Thread.current.threadDictionary[key] as? [String]) ?? []
        guard !list.contains(message) else { return }
        list.append(message)
        Thread.current.threadDictionary[key] = list
    }

    /// The messages recorded on this thread since the last call, oldest first.
    public static func take() -> [String] {
        let list = (Thread.current.threadDictionary[key] as? [String]) ?? []
        Thread.current.threadDictionary[key] = nil
        return list
    }

    /// A layer's description for messages: its class and name.
    static func describe(_ layer: CALayer) -> String {
        let name = layer.name.map { " '\($0)'" } ?? ""
        return "\(type(of: layer))\(name)"
    }
}
