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

    public let rootLayer: CALayer
    /// Size in points.
    public let size: CGSize
    public let frameRate: FrameRate?
    /// The requested frames per second as given (kept for error messages when invalid).
    public let requestedFrameRate: Double
    /// Length in seconds.
    public let duration: Double
    /// Pixels per point of the output (1 unless set).
    public var contentsScale: CGFloat = 1
    public var maximumPixelSize = Scene.defaultMaximumPixelSize
    /// Backing stores of vector content, kept across the frames of this scene.
    public let backingStores = BackingStoreCache()
    /// The last rendered frame, whose unchanged tiles the next frame copies.
    public let frameHistory = FrameHistory()

    private var scheduled = ScheduleQueue()
    /// The latest time whose scheduled blocks have run.
    private var executedThrough = -Double.infinity
    private var installedBuildTimeDelegates = false
    /// Start/stop events of the scene's animations (delegates, removal, completion blocks).
    private let animationEvents = AnimationEventScheduler()

    /// A scene showing `rootLayer` (positioned in scene points, e.g. `frame = (0, 0, size)`).
    public init(rootLayer: CALayer, size: CGSize, frameRate: Double, duration: Double) {
        self.rootLayer = rootLayer
        self.size = size
        self.requestedFrameRate = frameRate
        self.frameRate = FrameRate(frameRate)
        self.duration = duration
    }

    /// Output width and height in pixels.
    public var pixelWidth: Int { Int((Double(size.width) * Double(contentsScale)).rounded()) }
    public var pixelHeight: Int { Int((Double(size.height) * Double(contentsScale)).rounded()) }

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
            throw SceneError.invalidSize("size \(pixelWidth)×\(pixelHeight) px exceeds the maximum of \(maximumPixelSize) px per side")
        }
        guard let rate = frameRate, requestedFrameRate <= 1000 else {
            throw SceneError.invalidFrameRate("frame rate \(requestedFrameRate) must be a finite number in (0, 1000]")
        }
        guard duration.isFinite, duration > 0, duration <= 86_400 else {
            throw SceneError.invalidDuration("duration \(duration) s must be a finite number in (0, 86400]")
        }
        return rate
    }

    // MARK: Scheduled changes

    /// Runs `block` at scene time `t`: property changes inside animate implicitly through
    /// CATransaction, `CACurrentMediaTime()` returns `t`, and `presentation()` shows time t.
    public func at(_ t: Double, _ block: @escaping () -> Void) {
        scheduled.push(time: t, user: true, block)
    }

    /// Runs every scheduled block with time ≤ `t`, in time order (ties in scheduling order).
    /// Each block is one implicit transaction: opened before it, committed after it. Blocks may
    /// schedule further blocks (completion blocks, delegates), which run in turn; after each
    /// block the animations' start/stop events are planned again (layer timing may have changed).
    func advance(to t: Double) throws {
        if t < executedThrough {
            // Only the engine's own bookkeeping has run (finished animations hidden from
            // animationKeys, still evaluated): earlier times render as before.
            if !hasRunBlocks { return }
            throw SceneError.timeWentBackwards(requested: t, current: executedThrough)
        }
        installBuildTimeAnimationsIfNeeded()
        while let entry = scheduled.popFirst(through: t) {
            let ctx = context(at: entry.time)
            SceneClock.run(in: ctx) {
                CATransaction.begin()
                entry.block()
                CATransaction.commitAll()
                animationEvents.revalidate(in: ctx)
            }
            // User code ran (a scheduled change, a delegate, a completion block): the model may
            // have changed, so earlier times can no longer be shown.
            if entry.user || ctx.ranUserCode { hasRunBlocks = true }
        }
        executedThrough = t
    }
    private var hasRunBlocks = false

    private func context(at time: Double) -> SceneContext {
        SceneContext(time: time, events: animationEvents) { [unowned self] when, block in
            self.scheduled.push(time: max(when, time), user: false, block)
        }
    }

    /// Animations added while building get their start/stop events (delegates, removal on
    /// completion, completion blocks) planned in scene time.
    private func installBuildTimeAnimationsIfNeeded() {
        guard !installedBuildTimeDelegates else { return }
        installedBuildTimeDelegates = true
        let ctx = context(at: 0)
        SceneClock.run(in: ctx) { animationEvents.adopt(tree: rootLayer, in: ctx) }
    }

    // MARK: Presentation

    /// The presentation of `layer` at scene time `t` (runs blocks scheduled up to t).
    public func presentation(of layer: CALayer, at t: Double) throws -> CALayer? {
        try advance(to: t)
        let tree = PresentationBuilder(time: t).presentationTree(of: rootLayer)
        return tree.findPresentation(of: layer)
    }

    /// The Sendable snapshot of the whole tree at time `t` (after layout and custom drawing).
    public func snapshot(at t: Double) throws -> LayerSnapshot {
        try advance(to: t)
        let errors = AnimationErrorLog.take()
        if !errors.isEmpty { throw SceneError.invalidAnimation(errors.joined(separator: "; ")) }
        rootLayer.layoutIfNeeded()
        rootLayer.displayTreeIfNeeded()
        return PresentationBuilder(time: t).snapshotTree(of: rootLayer)
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
        let snap = try snapshot(at: t)
        if checkingMedia { try checkShownVideos(at: t) }
        return FrameRenderer(width: pixelWidth, height: pixelHeight, scale: Double(contentsScale), options: options,
                             cache: backingStores, history: frameHistory).render(snap)
    }

    /// Throws the error of the first player layer in the tree whose current item at `t` failed
    /// to open or decode.
    private func checkShownVideos(at t: Double) throws {
        func walk(_ layer: CALayer) throws {
            if let player = (layer as? AVPlayerLayer)?.player, let item = player.state(atSceneTime: t).currentItem,
               item.status == .failed, let error = item.error {
                throw error
            }
            if let m = layer.mask { try walk(m) }
            for sub in layer.sublayers ?? [] { try walk(sub) }
        }
        try walk(rootLayer)
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
        for s in sublayers ?? [] { if let f = s.findPresentation(of: model) { return f } }
        return nil
    }
}

/// Problems with a scene's definition or use.
public enum SceneError: Error, CustomStringConvertible, Equatable {
    case invalidSize(String)
    case invalidFrameRate(String)
    case invalidDuration(String)
    case invalidTime(String)
    case invalidFrameRange(String)
    case timeWentBackwards(requested: Double, current: Double)
    /// An animation added with `add(_:forKey:)` was invalid (unknown key path, wrong value type).
    case invalidAnimation(String)

    public var description: String {
        switch self {
        case .invalidSize(let s), .invalidFrameRate(let s), .invalidDuration(let s), .invalidTime(let s),
             .invalidFrameRange(let s), .invalidAnimation(let s): s
        case .timeWentBackwards(let r, let c):
            "cannot render time \(r) s after scheduled changes up to \(c) s have run; render frames in increasing time order (or build a new scene)"
        }
    }
}
