// The model tree as a function of scene time (DESIGN.md §1.2).
//
// Scene blocks (`scene.at(t)`, completion blocks, delegate callbacks, the engine's own removal of
// finished animations) run once each, in time order, at the scene's *frontier* — the latest time
// whose blocks have all run. Every change a block makes to the model is recorded at the storage
// level as a `ModelChange` (the property, its value before and after): layer properties of every
// class, sublayer lists and superlayers, masks, animation lists, custom KVC values, contents,
// layout/display flags and the drawings `display()` recorded. The changes of one block form one
// `ModelHistory.Segment`, stamped with the block's scene time.
//
// Moving the model to an earlier time undoes segments (newest first, each change in reverse);
// moving it forward again re-applies them; only beyond the frontier do new blocks run. So a frame,
// a presentation or a snapshot at time t depends on nothing but t, and going back costs the
// changes between the two times, never a block's closure again. The record is bounded
// (`ModelHistory.changeLimit`, the scene's `limits.historyChanges`): past it the oldest segments
// are released for good, so memory stays flat over a long render, and the model cannot go back
// before them.
//
// What is not recorded: stored properties of your own classes (a Swift `var` in a CALayer
// subclass, a counter in your code). Keep animatable state in `setValue(_:forKey:)` (as Core
// Animation's `@NSManaged` properties do) — drawings and layouts made from it *are* recorded,
// because the scene runs layout and display when each block commits, as Core Animation does.
import Foundation

/// One reversible change of the model: a stored value set from `old` to `new`. One closure holds
/// both values (two closures, an undo and a redo, each captured the object and the key path
/// again: a recorded transform took 384 bytes, now 320).
struct ModelChange {
    /// Sets the value back to `old` (false) or again to `new` (true).
    let apply: (_ redo: Bool) -> Void

    func undo() { apply(false) }
    func redo() { apply(true) }
}

/// Collects the changes of the running scene block.
public final class ModelChangeLog {
    private(set) var changes: [ModelChange] = []

    /// An empty log.
    public init() {}

    /// Whether the block changed nothing.
    public var isEmpty: Bool { changes.isEmpty }

    func append(_ change: ModelChange) { changes.append(change) }
}

/// Records that `keyPath` of `object` changed from `old` to its current value, when a scene
/// block is running (while building a scene, and while the history replays, nothing is recorded).
@inline(__always)
func journal<Object: AnyObject, Value>(_ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Value>,
                                       _ old: Value) {
    guard let ctx = SceneClock.current, let log = ctx.changeLog, ctx.copyingPresentation == 0 else { return }
    let new = object[keyPath: keyPath]
    log.append(ModelChange { redo in object[keyPath: keyPath] = redo ? new : old })
}

/// The same for a layer: presentation copies are never recorded (checked first: copies are
/// written every frame).
@inline(__always)
func journal<Layer: CALayer, Value>(_ layer: Layer, _ keyPath: ReferenceWritableKeyPath<Layer, Value>,
                                    _ old: Value) {
    guard !layer.isPresentationCopy, let ctx = SceneClock.current, let log = ctx.changeLog,
          ctx.copyingPresentation == 0 else { return }
    let new = layer[keyPath: keyPath]
    log.append(ModelChange { redo in layer[keyPath: keyPath] = redo ? new : old })
}

/// Whether a change of `layer` is recorded now (what `journal` checks): code that keeps a copy of
/// a large old value only to record it asks first.
@inline(__always)
func isJournaling(_ layer: CALayer) -> Bool {
    guard !layer.isPresentationCopy, let ctx = SceneClock.current, ctx.changeLog != nil,
          ctx.copyingPresentation == 0 else { return false }
    return true
}

/// The executed scene blocks of one scene, in execution order, and how many of them the model
/// currently shows.
///
/// The history keeps at most `changeLimit` recorded changes (`SceneLimits.historyChanges`): a
/// scene whose blocks change hundreds of properties every frame would otherwise hold every value
/// it ever had (the standard motion scene: 270 changes, about 100 KB, a frame). Past the limit
/// the oldest segments are released — their changes stay in the model for good — and the model
/// can no longer go back before `earliestTime`; going forward, and back as far as that, works
/// as before.
public struct ModelHistory {
    /// The recorded changes of one executed block.
    struct Segment {
        let time: Double
        let changes: [ModelChange]
        /// Errors the block caused (an invalid animation added in it), reported for every
        /// time at or after the block.
        let errors: [String]
    }

    /// The kept segments are `segments[start...]` (released ones are dropped from the front in
    /// batches, so releasing costs O(1) a segment).
    private var segments: [Segment] = []
    private var start = 0
    /// The number of kept segments applied to the model (a prefix of them).
    public private(set) var position = 0
    /// The scene time of the latest executed block (−∞ before any).
    public private(set) var lastBlockTime = -Double.infinity
    /// The changes in the kept segments.
    public private(set) var changeCount = 0
    /// The most changes kept (`Int.max`: all).
    public var changeLimit = Int.max
    /// The earliest time the model can show: −∞ until segments are released, then the time of
    /// the last released one (its changes are part of the model for good).
    public private(set) var earliestTime = -Double.infinity
    /// The errors of released segments (they apply at every time the model can still show).
    private var releasedErrors: [String] = []

    /// An empty history (no segments; every change kept).
    public init() {}

    /// The number of kept segments.
    public var count: Int { segments.count - start }

    /// Appends the changes of a block that just ran at `time` on the fully applied model, then
    /// releases the oldest segments while more than `changeLimit` changes are kept.
    /// A block that changed nothing and caused no error leaves no segment.
    public mutating func append(time: Double, log: ModelChangeLog, errors: [String]) {
        precondition(position == count, "blocks run only on the fully applied history")
        lastBlockTime = max(lastBlockTime, time)
        guard !log.isEmpty || !errors.isEmpty else { return }
        segments.append(Segment(time: time, changes: log.changes, errors: errors))
        changeCount += log.changes.count
        position = count
        releaseOldest()
    }

    /// Releases segments from the front while more than `changeLimit` changes are kept (only
    /// when the model shows them all, as after `append`).
    private mutating func releaseOldest() {
        guard changeCount > changeLimit, position == count else { return }
        while changeCount > changeLimit, start < segments.count {
            let segment = segments[start]
            changeCount -= segment.changes.count
            releasedErrors += segment.errors
            earliestTime = segment.time
            segments[start] = Segment(time: segment.time, changes: [], errors: [])  // let go of its values now
            start += 1
        }
        position = count
        // Drop the released slots once they are half the array.
        if start >= 64, start * 2 >= segments.count {
            segments.removeFirst(start)
            start = 0
        }
    }

    /// Notes that a block ran at `time` (also one that changed nothing).
    public mutating func noteBlock(at time: Double) { lastBlockTime = max(lastBlockTime, time) }

    /// Whether the model can show time `t` (not before the released segments).
    public func canShow(_ t: Double) -> Bool { t >= earliestTime }

    /// Moves the model to show every recorded segment with time ≤ `t` and none after: undoes the
    /// newest segments or re-applies later ones, as few as the move needs. Returns the number of
    /// changes undone or re-applied. `t` must not be before `earliestTime` (`canShow`).
    @discardableResult
    public mutating func move(through t: Double) -> Int {
        precondition(canShow(t), "the history before \(earliestTime) s was released")
        return move(toPosition: segmentCount(through: t))
    }

    /// Moves the model to show every recorded segment (before new blocks run).
    @discardableResult
    public mutating func moveToEnd() -> Int { move(toPosition: count) }

    /// The errors of the applied segments (released ones first), oldest first.
    public var appliedErrors: [String] { releasedErrors + segments[start..<(start + position)].flatMap(\.errors) }

    private mutating func move(toPosition target: Int) -> Int {
        guard target != position else { return 0 }
        var changed = 0
        SceneClock.run(in: .replaying()) {
            while position > target {
                position -= 1
                let segment = segments[start + position]
                for change in segment.changes.reversed() { change.undo() }
                changed += segment.changes.count
            }
            while position < target {
                let segment = segments[start + position]
                for change in segment.changes { change.redo() }
                changed += segment.changes.count
                position += 1
            }
        }
        return changed
    }

    /// The number of kept segments with time ≤ `t` (segments are in non-decreasing time order).
    private func segmentCount(through t: Double) -> Int {
        var lo = start, hi = segments.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if segments[mid].time <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo - start
    }
}
