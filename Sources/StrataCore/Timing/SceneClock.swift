// The scene time of the code that is running. Core Animation code reads the clock with
// `CACurrentMediaTime()`; in Strata that is 0 while a scene is being built and `t` inside
// `scene.at(t) { … }`. The context is per thread, so several scenes can render in parallel.
import Foundation

/// The scheduling context of a scene while its code runs (set by `Scene`).
public final class SceneContext {
    /// The scene time of the running code.
    public let time: Double
    /// Schedules a block at a later scene time (used by completion blocks and delegates).
    public let schedule: (Double, @escaping () -> Void) -> Void
    /// The scene's animation events (delegates, removal on completion, completion blocks);
    /// nil when the code runs outside a scene.
    public let events: AnimationEventScheduler?
    /// What this block (one implicit transaction) has changed so far, relative to before it
    /// (for transitions' "before" images and implicit animations' start values).
    let journal = TransactionJournal()
    /// Where the block's model changes are recorded for the scene's history; nil when nothing is
    /// recorded (while the history replays, or for code the scene runs outside its blocks).
    public let changeLog: ModelChangeLog?
    /// Set while the history undoes or re-applies recorded changes: property observers then
    /// only store values (no actions, no layout flags, no journal).
    public let isReplaying: Bool
    /// Above 0 while presentation copies are being made (a subclass's `init(layer:)` may set
    /// inherited properties, which must neither record nor run actions).
    var copyingPresentation = 0
    /// Set when a block the engine scheduled ran user code (an animation delegate, a completion
    /// block), which may have changed the model.
    public var ranUserCode = false
    /// Errors of `add(_:forKey:)` made while this context ran (AnimationErrorLog), oldest first.
    public internal(set) var animationErrors: [String] = []

    /// A context at scene time `time` (seconds); `schedule` runs a block at a later scene time.
    public init(time: Double, events: AnimationEventScheduler? = nil, changeLog: ModelChangeLog? = nil,
                schedule: @escaping (Double, @escaping () -> Void) -> Void) {
        self.time = time
        self.events = events
        self.changeLog = changeLog
        self.isReplaying = false
        self.schedule = schedule
    }

    private init(replayingAt time: Double) {
        self.time = time
        self.events = nil
        self.changeLog = nil
        self.isReplaying = true
        self.schedule = { _, _ in }
    }

    /// A context for replaying recorded changes (one per replay: contexts are not shared
    /// between threads).
    static func replaying() -> SceneContext { SceneContext(replayingAt: 0) }
}

/// Access to the running scene's clock.
public enum SceneClock {
    private static let slot = ThreadLocalReference<SceneContext>()

    /// The context of the scene code running on this thread, nil while building a scene.
    public static var current: SceneContext? { slot.current }

    /// The current scene time (0 while building).
    public static var currentTime: Double { current?.time ?? 0 }

    /// Runs `body` with `context` as the current scene context.
    public static func run<T>(in context: SceneContext, _ body: () throws -> T) rethrows -> T {
        try slot.with(context, body)
    }
}

/// The current scene time in seconds (Core Animation's media clock).
public func CACurrentMediaTime() -> CFTimeInterval { SceneClock.currentTime }
