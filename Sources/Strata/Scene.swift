// A scene: a layer tree, a size, a frame rate and a duration, plus changes scheduled at scene
// times. A frame is a function of the scene and its index alone: frame k shows time k / fps
// exactly, after every block scheduled at or before that time has run.
import Foundation
import StrataCore
import StrataRender

/// A timeline of a layer tree that renders to frames, video and GIF.
public final class Scene {
    /// The largest frame edge in pixels (configurable per scene with `maximumPixelSize`).
    public static let defaultMaximumPixelSize = 16_384

    /// The layer tree's root: the scene's layers are its sublayers, and its bounds are the frame.
    public let rootLayer: CALayer
    /// Size in points.
    public let size: CGSize
    /// Frames per second, exact (`30`, `30000/1001`); nil when the rate given was not valid
    /// (`validated()` then names it).
    public let frameRate: FrameRate?
    /// The requested frames per second as given (kept for error messages when invalid).
    public let requestedFrameRate: Double
    /// Length in seconds.
    public let duration: Double
    /// Pixels per point of the output (1 unless set).
    public var contentsScale: CGFloat = 1
    /// The resource limits this scene renders under (frame size, frame count, layers, text …).
    public var limits = SceneLimits() {
        didSet {
            backingStores.capacity = limits.backingStoreBytes
            backingStores.tiledLayerTiles.capacity = limits.backingStoreBytes / 2
            if limits.mediaLimits != oldValue.mediaLimits || limits.imageCacheBytes != oldValue.imageCacheBytes {
                mediaContext = limits.makeMediaContext()
            }
        }
    }
    /// What this scene decodes images and videos under, made from `limits` (image and video
    /// size, image cache): the files its compiler reads, the player items first opened while it
    /// renders, and `CGImage.load(contentsOf:)` in its blocks. Another scene's limits never apply.
    public internal(set) var mediaContext = SceneLimits().makeMediaContext()
    /// The largest frame edge in pixels (`limits.pixelSize`).
    public var maximumPixelSize: Int {
        get { limits.pixelSize }
        set { limits.pixelSize = newValue }
    }
    /// The renderer's caches (backing stores, shaped text, glyphs, ramps, tiled-layer tiles), kept across the frames of this scene.
    public let backingStores = RenderCaches()
    /// The last rendered frame, whose unchanged tiles the next frame copies.
    public let frameHistory = FrameHistory()
    /// The audio placed on the timeline and the players heard without being shown (SceneAudio.swift).
    let media = SceneMedia()

    /// Blocks waiting for their time (all later than `frontier`).
    private var scheduled = ScheduleQueue()
    /// The model changes of the blocks that have run, and how many of them the model shows.
    private var history = ModelHistory()
    /// Every block scheduled at or before this time has run (−∞ before the first render).
    private var frontier = -Double.infinity
    private var installed = false
    /// Errors of animations added while building (reported at every time).
    private var buildErrors: [String] = []
    /// Blocks that could not be scheduled (reported by every render).
    private var schedulingErrors: [String] = []
    /// Values the scene's layers hold that Strata draws another way than asked (a
    /// `compositingFilter` it does not know, drawn source-over), each naming the layer, in the
    /// order the frames drawn so far met them, each once. Exports print them as warnings
    /// (`ExportOptions.warning`); they do not fail a frame.
    public private(set) var notes: [String] = []
    /// Start/stop events of the scene's animations (delegates, removal, completion blocks).
    private let animationEvents = AnimationEventScheduler()
    /// The declarative composition the scene was compiled from (nil for a scene built with
    /// Core Animation code); encode it to get the scene as a JSON template.
    public internal(set) var composition: Composition?
    /// Whether the scene was built inside `Scene.building(adjustedBy:_:)`, its composition
    /// changed there (the command line's --size, --fps or --duration of a script).
    public internal(set) var isFormatAdjusted = false
    /// The named moments of a declarative scene's timeline (`Marker`, a template's `marker`
    /// steps): name → scene time. Empty for a scene built with Core Animation code.
    public internal(set) var markers: [String: Double] = [:]
    /// Problems of the composition a DSL scene was built from (reported by every render).
    var compositionIssues: [CompositionIssue] = []

    /// A scene showing `rootLayer` (positioned in scene points, e.g. `frame = (0, 0, size)`).
    public init(rootLayer: CALayer, size: CGSize, frameRate: Double, duration: Double) {
        _ = MediaDecoders.install
        self.rootLayer = rootLayer
        self.size = size
        self.requestedFrameRate = frameRate
        self.frameRate = FrameRate(frameRate)
        self.duration = duration
    }

    /// Output width in pixels: the size times `contentsScale`, rounded.
    /// (Saturating: 0 for NaN, at most 2⁶² for a size of 1e300 or ∞, which `validated()` refuses.)
    public var pixelWidth: Int { Self.pixels(Double(size.width) * Double(contentsScale)) }
    /// Output height in pixels (see `pixelWidth`).
    public var pixelHeight: Int { Self.pixels(Double(size.height) * Double(contentsScale)) }

    private static func pixels(_ length: Double) -> Int {
        guard !length.isNaN else { return 0 }
        return Int(min(max(length.rounded(), -0x1p62), 0x1p62))
    }

    /// The number of frames: `ceil(duration × fps)` (exactly fps × duration when whole).
    public var frameCount: Int { (try? validated().frameCount(forDuration: duration)) ?? 0 }

    /// The scene time of frame `index`.
    public func time(ofFrame index: Int) -> Double { frameRate?.time(ofFrame: index) ?? 0 }

    /// Checks size, rate and duration; returns the frame rate.
    @discardableResult
    public func validated() throws -> FrameRate {
        let w = Double(size.width), h = Double(size.height), s = Double(contentsScale)
        guard w.isFinite, h.isFinite, w > 0, h > 0 else {
            throw SceneError.invalidSize("size \(w)×\(h) must be positive and finite")
        }
        guard s.isFinite, s > 0 else { throw SceneError.invalidSize("contentsScale \(s) must be positive and finite") }
        guard pixelWidth >= 1, pixelHeight >= 1 else {
            throw SceneError.invalidSize("size \(w)×\(h) at scale \(s) is smaller than one pixel")
        }
        guard pixelWidth <= maximumPixelSize, pixelHeight <= maximumPixelSize else {
            let shown = max(pixelWidth, pixelHeight) < 1 << 62 ? "\(pixelWidth)×\(pixelHeight)" : "\(w * s)×\(h * s)"
            throw SceneError.invalidSize("size \(shown) px exceeds the maximum of \(maximumPixelSize) px per side (raise it with --limit pixel-size=N, or Scene.limits)")
        }
        guard let rate = frameRate, requestedFrameRate <= 1000 else {
            throw SceneError.invalidFrameRate("frame rate \(requestedFrameRate) must be a finite number in (0, 1000]")
        }
        guard duration.isFinite, duration > 0, duration <= 86_400 else {
            throw SceneError.invalidDuration("duration \(duration) s must be a finite number in (0, 86400]")
        }
        let frames = rate.frameCount(forDuration: duration)
        guard frames <= limits.frames else {
            throw SceneLimits.exceeded("\(frames) frames (\(duration) s at \(rate) fps)", limit: limits.frames, name: "frames")
        }
        return rate
    }

    // MARK: Scheduled changes

    /// Runs `block` at scene time `t`: property changes inside animate implicitly through
    /// CATransaction, `CACurrentMediaTime()` returns `t`, and `presentation()` shows time t.
    /// The block runs exactly once, however many frames are rendered and in whatever order; the
    /// scene records what it changes and shows the model at any time from that record.
    /// Schedule blocks before rendering: a block for a time before blocks that have already run
    /// cannot keep the time order, and makes every later render throw.
    public func at(_ t: Double, _ block: @escaping () -> Void) {
        guard t.isFinite else {
            schedulingErrors.append("scene.at(\(t)): the time must be a finite number of seconds")
            return
        }
        if t <= frontier {
            guard t >= history.lastBlockTime else {
                schedulingErrors.append("scene.at(\(t)) was called after the scene had run its blocks and animation events "
                                        + "up to \(history.lastBlockTime) s; schedule every block before rendering (or build a new scene)")
                return
            }
            // Nothing has run after t: the block simply joins the blocks still to run.
            frontier = t.nextDown
        }
        scheduled.push(time: t, user: true, block)
    }

    /// Moves the model to scene time `t`: shows every block scheduled at or before `t` and none
    /// after. Blocks that have run before are undone or re-applied from the recorded history;
    /// blocks past the frontier run now, in time order (ties in scheduling order). Each block is
    /// one implicit transaction, committed after it with layout and display (as Core Animation
    /// commits a run-loop turn); blocks may schedule further blocks (completion blocks,
    /// delegates), which run in turn; after each block the animations' start/stop events are
    /// planned again (layer timing may have changed).
    func advance(to t: Double) throws {
        try mediaContext.run { try moveModel(to: t) }
    }

    private func moveModel(to t: Double) throws {
        installIfNeeded()
        history.changeLimit = limits.historyChanges
        if t <= frontier {
            guard history.canShow(t) else {
                throw SceneError.limitExceeded(
                    "the model at \(t) s: the scene's history before \(history.earliestTime) s was released to keep at most "
                    + "\(limits.historyChanges) recorded changes (render the frames before it first, or raise the limit with "
                    + "--limit history=N, or Scene.limits.historyChanges)")
            }
            history.move(through: t)
            return
        }
        history.moveToEnd()
        while let entry = scheduled.popFirst(through: t) { run(entry) }
        frontier = t
    }

    /// Runs one block at its time on the fully applied model and records what it changed.
    private func run(_ entry: (time: Double, user: Bool, block: () -> Void)) {
        let log = ModelChangeLog()
        let ctx = context(at: entry.time, recordingInto: log)
        SceneClock.run(in: ctx) {
            CATransaction.begin()
            entry.block()
            if !log.isEmpty {
                rootLayer.layoutIfNeeded()
                rootLayer.displayTreeIfNeeded()
            }
            CATransaction.commitAll()
            animationEvents.revalidate(in: ctx)
        }
        history.append(time: entry.time, log: log, errors: ctx.animationErrors)
    }

    private func context(at time: Double, recordingInto log: ModelChangeLog?) -> SceneContext {
        SceneContext(time: time, events: animationEvents, changeLog: log) { [unowned self] when, block in
            self.scheduled.push(time: max(when, time), user: false, block)
        }
    }

    /// Before the first frame: the tree as built is the state before any block. Its layout and
    /// display run once (they never animate), and animations added while building get their
    /// start/stop events (delegates, removal on completion, completion blocks) planned in scene
    /// time.
    private func installIfNeeded() {
        guard !installed else { return }
        installed = true
        rootLayer.layoutIfNeeded()
        rootLayer.displayTreeIfNeeded()
        let ctx = context(at: 0, recordingInto: nil)
        SceneClock.run(in: ctx) { animationEvents.adopt(tree: rootLayer, in: ctx) }
        buildErrors = AnimationErrorLog.takeUnattached() + ctx.animationErrors
    }

    /// The limits the layers read while a snapshot is made (replicator instances, particles,
    /// text).
    private var snapshotLimits: SnapshotLimits { limits.snapshotLimits }

    /// The errors that make rendering at the model's current time fail, if any.
    private func currentErrors() throws {
        if !compositionIssues.isEmpty { throw CompositionError(issues: compositionIssues) }
        if !schedulingErrors.isEmpty { throw SceneError.invalidSchedule(schedulingErrors.joined(separator: "; ")) }
        let errors = buildErrors + history.appliedErrors
        if !errors.isEmpty { throw SceneError.invalidAnimation(errors.joined(separator: "; ")) }
    }

    // MARK: Presentation

    /// The presentation of `layer` at scene time `t` (the model moved to t first).
    public func presentation(of layer: CALayer, at t: Double) throws -> CALayer? {
        try mediaContext.run {
            try advance(to: t)
            let tree = PresentationBuilder(time: t, report: SnapshotReport(limits: snapshotLimits)).presentationTree(of: rootLayer)
            return tree.findPresentation(of: layer)
        }
    }

    /// The Sendable snapshot of the whole tree at time `t` (after layout and custom drawing).
    public func snapshot(at t: Double) throws -> LayerSnapshot {
        try snapshot(at: t, threads: 1)
    }

    /// The snapshot at `t`, its layers' own work (an emitter's many particles) on up to `threads`
    /// threads: the same snapshot as on one.
    func snapshot(at t: Double, threads: Int) throws -> LayerSnapshot {
        // Player items first opened and images loaded meanwhile decode under this scene's limits.
        try mediaContext.run { try makeSnapshot(at: t, threads: threads) }
    }

    private func makeSnapshot(at t: Double, threads: Int) throws -> LayerSnapshot {
        try advance(to: t)
        try currentErrors()
        // Replicator instances and live particles are limited while the snapshot is made (the
        // layers draw up to the limit and record the excess); the rest is checked on the result.
        let report = SnapshotReport(limits: snapshotLimits, threads: threads)
        let snapshot = PresentationBuilder(time: t, report: report).snapshotTree(of: rootLayer)
        if let issue = report.issues.first {
            throw SceneLimits.exceeded("at \(t) s, " + issue.what, limit: issue.limit, name: issue.limitName)
        }
        for note in report.notes where !notes.contains(note) { notes.append(note) }
        try checkLimits(snapshot)
        return snapshot
    }

    /// Throws when a frame's tree has more layers than the limits allow (text layers check their
    /// text while the snapshot is made: `CATextLayer.snapshotContent`).
    private func checkLimits(_ root: LayerSnapshot) throws {
        var count = 1
        // The lists of layers still to visit, each with the position reached in it: depth-first
        // without recursion (a tree of any depth) and without copying the layers themselves (a
        // stack of the motion scene's 270 snapshots was a ~270 KB array a frame, mapped afresh),
        // masks by their boxes (a list of one copied mask each was most of this on a Lottie's
        // mattes).
        var lists: [(layers: [LayerSnapshot], next: Int)] = [(root.sublayers, 0)]
        var masks: [Box<LayerSnapshot>] = root.mask.map { [$0] } ?? []
        while true {
            if let (layers, next) = lists.last {
                guard next < layers.count else { lists.removeLast(); continue }
                lists[lists.count - 1].next = next + 1
                count += 1
                // Through a pointer: the layer's fields read in place, the layer not copied.
                layers.withUnsafeBufferPointer { layers in
                    if !layers[next].sublayers.isEmpty { lists.append((layers[next].sublayers, 0)) }
                    if let m = layers[next].mask { masks.append(m) }
                }
            } else if let m = masks.popLast() {
                count += 1
                if !m.value.sublayers.isEmpty { lists.append((m.value.sublayers, 0)) }
                if let mm = m.value.mask { masks.append(mm) }
            } else {
                break
            }
        }
        if count > limits.layers {
            throw SceneLimits.exceeded("a frame of \(count) layers", limit: limits.layers, name: "layers")
        }
    }

    // MARK: Rendering

    /// Renders the frame at scene time `t` (RGBA8 premultiplied, sRGB).
    /// A video whose file is missing or cannot be decoded makes it throw an error naming the
    /// file (exports can show a placeholder instead: `ExportOptions.mediaFailure`).
    public func renderFrame(at t: Double, options: RenderOptions = RenderOptions()) throws -> Bitmap {
        try renderFrame(at: t, options: options, checkingMedia: true)
    }

    /// Renders a frame; `checkingMedia` throws the error of a failed video shown at `t` (exports
    /// check media themselves, honouring their failure policy).
    func renderFrame(at t: Double, options: RenderOptions, checkingMedia: Bool) throws -> Bitmap {
        try validated()
        guard t.isFinite, t >= 0 else { throw SceneError.invalidTime("time \(t) must be ≥ 0 and finite") }
        // The render's workers are idle while the snapshot is made: its layers may use as many.
        let snap = try snapshot(at: t, threads: options.workers)
        if checkingMedia { try checkShownVideos(at: t) }
        return FrameRenderer(width: pixelWidth, height: pixelHeight, scale: Double(contentsScale), options: options,
                             cache: backingStores, history: frameHistory).render(snap)
    }

    /// Throws the error of the first player layer in the tree whose current item at `t` failed
    /// to open or decode.
    private func checkShownVideos(at t: Double) throws {
        // No player layer anywhere in the process: nothing to look for.
        guard AVPlayerLayer.liveCount > 0 else { return }
        try mediaContext.run { try checkShownVideos(at: t, in: rootLayer) }
    }

    private func checkShownVideos(at t: Double, in root: CALayer) throws {
        func walk(_ layer: CALayer) throws {
            if let player = (layer as? AVPlayerLayer)?.player, let item = player.state(atSceneTime: t).currentItem,
               item.status == .failed, let error = item.error {
                throw error
            }
            if let m = layer.mask { try walk(m) }
            for sub in layer.sublayers ?? [] { try walk(sub) }
        }
        try walk(root)
    }

    /// Renders frame `index` (time `index / fps` exactly).
    public func renderFrame(index: Int, options: RenderOptions = RenderOptions()) throws -> Bitmap {
        let rate = try validated()
        return try renderFrame(at: rate.time(ofFrame: index), options: options)
    }
}

/// Scheduled blocks in time order (ties in scheduling order): a binary min-heap, so scenes with
/// many scheduled changes and animation events stay O(log n) per block.
private struct ScheduleQueue {
    private struct Entry {
        let time: Double
        let order: Int
        /// Scheduled with `at` (user code), not by the engine.
        let user: Bool
        let block: () -> Void
        func precedes(_ o: Entry) -> Bool { time < o.time || (time == o.time && order < o.order) }
    }
    private var heap: [Entry] = []
    private var counter = 0

    var isEmpty: Bool { heap.isEmpty }

    mutating func push(time: Double, user: Bool, _ block: @escaping () -> Void) {
        counter += 1
        heap.append(Entry(time: time, order: counter, user: user, block: block))
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].precedes(heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    /// Removes and returns the earliest entry if its time is ≤ `t`.
    mutating func popFirst(through t: Double) -> (time: Double, user: Bool, block: () -> Void)? {
        guard let first = heap.first, first.time <= t else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count, heap[l].precedes(heap[m]) { m = l }
                if r < heap.count, heap[r].precedes(heap[m]) { m = r }
                guard m != i else { break }
                heap.swapAt(i, m)
                i = m
            }
        }
        return (first.time, first.user, first.block)
    }
}

extension CALayer {
    func findPresentation(of model: CALayer) -> CALayer? {
        if modelLayer === model { return self }
        if let m = mask?.findPresentation(of: model) { return m }
        for s in sublayers ?? [] { if let f = s.findPresentation(of: model) { return f } }
        return nil
    }
}

/// Problems with a scene's definition or use.
public enum SceneError: Error, CustomStringConvertible, Equatable {
    /// A size that is not positive and finite, or whose pixels exceed the limit.
    case invalidSize(String)
    /// A frame rate that is not a finite number in (0, 1000].
    case invalidFrameRate(String)
    /// A duration that is not positive and finite.
    case invalidDuration(String)
    /// A time that is negative or not finite.
    case invalidTime(String)
    /// A frame range that is empty or outside the scene's frames.
    case invalidFrameRange(String)
    /// A block could not be scheduled (a time that is not finite, or one before blocks that have
    /// already run).
    case invalidSchedule(String)
    /// An animation added with `add(_:forKey:)` was invalid (unknown key path, wrong value type).
    case invalidAnimation(String)
    /// A resource limit (`Scene.limits`) would be exceeded.
    case limitExceeded(String)

    public var description: String {
        switch self {
        case .invalidSize(let s), .invalidFrameRate(let s), .invalidDuration(let s), .invalidTime(let s),
             .invalidFrameRange(let s), .invalidSchedule(let s), .invalidAnimation(let s), .limitExceeded(let s): s
        }
    }
}
