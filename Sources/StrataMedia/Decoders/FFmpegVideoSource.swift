// Video frames for player layers, decoded ahead of the renderer. Each source owns one
// `VideoDecoder` and one thread. The renderer asks for frame k at a size; a cached frame at that
// size is returned at once, otherwise the request goes to the decoder thread, which answers it
// before anything else. Between requests the thread decodes the frames after the last one asked
// for (`lookahead` of them) and converts them at the last size asked for, so a video playing
// forwards at any rate is ready before the renderer needs it. Decoded pictures stay in the cache
// as reference-counted AVFrames (YUV, small), so a size change re-converts without re-decoding;
// frames more than `keepBehind` behind the last request, or past the lookahead, are released.
// The answer for frame k never depends on what was cached: the converted pixels are a function
// of the decoded picture and the size, so random access and sequential rendering agree.
import Foundation
import Synchronization
import CFFmpeg

/// A `VideoFrameSource` backed by FFmpeg, decoding on its own thread.
public final class FFmpegVideoSource: VideoFrameSource, Sendable {
    /// How much the source decodes ahead and keeps.
    public struct Configuration: Sendable {
        /// Frames decoded ahead of the last one requested.
        public var lookahead: Int
        /// Frames kept behind the last one requested (for rates below 1 and small seeks back).
        public var keepBehind: Int
        /// A configuration decoding `lookahead` frames ahead (default 8) and keeping `keepBehind`
        /// frames behind (default 2); negative counts become 0.
        public init(lookahead: Int = 8, keepBehind: Int = 2) {
            self.lookahead = max(0, lookahead)
            self.keepBehind = max(0, keepBehind)
        }
    }

    /// The file the frames come from.
    public let url: URL
    /// The length of the media in seconds.
    public let duration: Double
    /// The video's size in pixels.
    public let naturalSize: PixelSize
    /// Whether the file has a video stream.
    public let hasVideo: Bool
    /// Whether the file has an audio stream.
    public let hasAudio: Bool
    /// The number of video frames (`frameTimes.count`).
    public var frameCount: Int { frameTimes.count }
    /// Presentation times of the frames (item seconds).
    public let frameTimes: [Double]
    private let worker: DecodeWorker?

    /// Opens `url` (reading its packets once) and starts the decoder thread. Throws
    /// `MediaError.cannotRead` naming the file when it is missing, not media, holds no frames,
    /// or its frames are larger than `limits.videoSize` a side (nil: the limits of the scene
    /// whose code runs on this thread, `MediaContext.current`, or the defaults).
    public init(url: URL, configuration: Configuration = Configuration(), limits: MediaLimits? = nil) throws {
        let decoder = try VideoDecoder(url: url, limits: limits ?? MediaLimits.inForce)
        let info = decoder.info
        self.url = url
        duration = info.duration
        naturalSize = info.naturalSize
        hasVideo = info.hasVideo
        hasAudio = info.hasAudio
        frameTimes = info.frameTimes
        worker = info.hasVideo ? DecodeWorker(decoder: decoder, configuration: configuration) : nil
    }

    deinit { worker?.close() }

    /// Decoder workers alive in the process: each source's is released with the source.
    static var liveWorkerCount: Int { DecodeWorker.live.load(ordering: .relaxed) }

    /// The frame shown at `itemTime` seconds: the last frame whose presentation time is at or before
    /// it (the first frame before the first time), or nil when there are no frames.
    public func frameIndex(atItemTime itemTime: Double) -> Int? {
        guard !frameTimes.isEmpty else { return nil }
        let t = itemTime + 1e-6
        var lo = 0, hi = frameTimes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if frameTimes[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return max(0, lo - 1)
    }

    /// Frame `index` (clamped to the frames there are) at `size` pixels (nil: `naturalSize`).
    /// Throws `MediaError` naming the file when it has no video or the size is not 1…16384 pixels.
    ///
    /// ```swift
    /// let source = try FFmpegVideoSource(url: URL(fileURLWithPath: "clip.mp4"))
    /// let frame = try source.image(forFrame: source.frameIndex(atItemTime: 1.5) ?? 0, size: nil)
    /// ```
    public func image(forFrame index: Int, size: PixelSize?) throws -> CGImage {
        guard let worker, !frameTimes.isEmpty else {
            throw MediaError.cannotRead(path: url.path, reason: "the file has no video stream")
        }
        let target = size ?? naturalSize
        guard target.width > 0, target.height > 0, target.width <= 16_384, target.height <= 16_384 else {
            throw MediaError.invalidFrameSize(path: url.path, reason: "cannot show video frames at \(target)")
        }
        return try worker.image(forFrame: min(max(0, index), frameTimes.count - 1), size: target)
    }
}

/// The decoder thread and its cache.
// @unchecked: the cache, request and answer are touched only with `condition` held (a condition
// variable, not a Mutex, because callers wait for answers); the decoder and converter only on the
// decoder thread.
private final class DecodeWorker: @unchecked Sendable {
    private struct Entry {
        var frame: UnsafeMutablePointer<AVFrame>
        var images: [PixelSize: CGImage] = [:]
    }

    private struct Request {
        let index: Int
        let size: PixelSize
        let serial: Int
    }

    private let condition = NSCondition()
    // Guarded by `condition`:
    private var cache: [Int: Entry] = [:]
    private var request: Request?
    private var answer: (serial: Int, result: Result<CGImage, Error>)?
    private var serial = 0
    private var cursor = 0
    private var prefetchSize: PixelSize?
    private var closed = false
    /// The decoder thread (joined by close()).
    private var thread: JoinableThread?
    // Owned by the decoder thread:
    private let decoder: VideoDecoder
    private let converter = FrameConverter()
    private let configuration: Configuration
    private let path: String
    private let rotation: Int
    private let mirrored: Bool
    private let lastIndex: Int

    typealias Configuration = FFmpegVideoSource.Configuration

    init(decoder: VideoDecoder, configuration: Configuration) {
        self.decoder = decoder
        self.configuration = configuration
        self.path = decoder.url.path
        self.rotation = decoder.info.rotation
        self.mirrored = decoder.info.mirrored
        self.lastIndex = decoder.info.frameTimes.count - 1
        thread = JoinableThread(stackSize: 4 << 20) { [self] in self.run() }
        Self.live.add(1, ordering: .relaxed)
    }

    deinit { Self.live.subtract(1, ordering: .relaxed) }

    /// Workers alive in the process (a test checks that releasing a source releases its worker).
    static let live = Atomic<Int>(0)

    /// Stops the decoder thread and waits for it to end, so that a released source has released
    /// everything (the thread's frames, and its reference to this worker and the decoder).
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        let thread = self.thread
        self.thread = nil
        condition.unlock()
        thread?.join()
    }

    /// Frame `index` at `size`, from the cache or from the decoder thread.
    func image(forFrame index: Int, size: PixelSize) throws -> CGImage {
        condition.lock()
        defer { condition.unlock() }
        cursor = index
        prefetchSize = size
        if let image = cache[index]?.images[size] {
            condition.broadcast()
            return image
        }
        serial += 1
        let mine = serial
        request = Request(index: index, size: size, serial: mine)
        condition.broadcast()
        while answer?.serial != mine { condition.wait() }
        let result = answer!.result
        answer = nil
        return try result.get()
    }

    // MARK: - The decoder thread

    private func run() {
        condition.lock()
        while !closed {
            if let r = request {
                request = nil
                condition.unlock()
                let result = Result { try produce(r.index, size: r.size) }
                condition.lock()
                answer = (r.serial, result)
                condition.broadcast()
                continue
            }
            if prefetchStep() { continue }
            // prefetchStep may have let go of the lock (decoding a frame that turned out to be
            // past the end): a request or close() made meanwhile has already broadcast, so wait
            // only when there is nothing to do (a lost wake-up left both threads waiting).
            if request == nil && !closed { condition.wait() }
        }
        for entry in cache.values {
            var f: UnsafeMutablePointer<AVFrame>? = entry.frame
            av_frame_free(&f)
        }
        cache.removeAll()
        condition.unlock()
    }

    /// One unit of read-ahead work (called and returning with the lock held); false when idle.
    private func prefetchStep() -> Bool {
        guard let size = prefetchSize else { return false }
        let upper = min(lastIndex, cursor + configuration.lookahead)
        guard upper > cursor else { return false }
        let window = (cursor + 1)...upper
        // Convert decoded frames first, then decode the next one.
        for i in window {
            if let entry = cache[i], entry.images[size] == nil {
                let frame = entry.frame
                condition.unlock()
                let image = try? convert(frame, size)
                condition.lock()
                if let image, cache[i] != nil { store(image, index: i, size: size) }
                return true
            }
        }
        guard let missing = window.first(where: { cache[$0] == nil }), !decoder.isAtEnd,
              let position = decoder.position, position <= missing, !decoder.needsSeek(toReach: missing) else { return false }
        condition.unlock()
        let decoded = try? decoder.nextFrame()
        var clone: UnsafeMutablePointer<AVFrame>?
        var image: CGImage?
        if let decoded, window.contains(decoded.index) {
            clone = av_frame_clone(decoded.frame)
            if let clone { image = try? convert(clone, size) }
        }
        condition.lock()
        if let decoded, let clone { insert(clone, index: decoded.index, image: image, size: size) }
        return decoded != nil
    }

    /// Decodes (or finds) frame `index` and converts it at `size`.
    private func produce(_ index: Int, size: PixelSize) throws -> CGImage {
        condition.lock()
        if let entry = cache[index] {
            if let image = entry.images[size] { condition.unlock(); return image }
            let frame = entry.frame
            condition.unlock()
            let image = try convert(frame, size)
            condition.lock()
            if cache[index] != nil { store(image, index: index, size: size) }
            condition.unlock()
            return image
        }
        condition.unlock()

        var fallback: (index: Int, frame: UnsafeMutablePointer<AVFrame>)?
        defer { if let f = fallback?.frame { var p: UnsafeMutablePointer<AVFrame>? = f; av_frame_free(&p) } }
        /// Decodes on to `index`, caching the frames of the window around it and keeping the
        /// last one before the window as `fallback`.
        func decode(seeking: Bool) throws {
            var attempt = 0
            if seeking { try decoder.seek(toward: index) }
            var firstAfterSeek = true
            while true {
                guard let decoded = try decoder.nextFrame() else { break }
                // A seek that landed past the frame: start from an earlier keyframe.
                if firstAfterSeek, decoded.index > index, attempt < 4 {
                    attempt += 1
                    try decoder.seek(toward: index, attempt: attempt)
                    continue
                }
                firstAfterSeek = false
                if decoded.index >= index - configuration.keepBehind, decoded.index <= index + configuration.lookahead,
                   let clone = av_frame_clone(decoded.frame) {
                    condition.lock()
                    insert(clone, index: decoded.index, image: nil, size: size)
                    condition.unlock()
                } else if decoded.index < index, let clone = av_frame_clone(decoded.frame) {
                    if let old = fallback?.frame { var p: UnsafeMutablePointer<AVFrame>? = old; av_frame_free(&p) }
                    fallback = (decoded.index, clone)
                }
                if decoded.index >= index { break }
            }
        }
        /// The frame, or the nearest earlier picture that could be decoded (a truncated or
        /// corrupt file).
        func found() -> UnsafeMutablePointer<AVFrame>? {
            condition.lock()
            defer { condition.unlock() }
            if let frame = cache[index]?.frame { return frame }
            if let earlier = cache.keys.filter({ $0 < index }).max() { return cache[earlier]!.frame }
            return fallback?.frame  // not cached (outside the window): converted from the local copy
        }
        let seeks = decoder.needsSeek(toReach: index)
        try decode(seeking: seeks)
        var frame = found()
        if frame == nil && !seeks {
            // Nothing decodes from where the decoder stands (the end of a cut file) and the
            // pictures before it were read ahead and let go when the request moved on (seen
            // under load): decode again from the keyframe to find the last good picture.
            try decode(seeking: true)
            frame = found()
        }
        guard let frame else {
            throw MediaError.libraryFailure(path: path, operation: "decoding video frame \(index)",
                                            reason: "no picture could be decoded at or before it (the file may be corrupt)")
        }
        let image = try convert(frame, size)
        condition.lock()
        if cache[index] != nil { store(image, index: index, size: size) }
        condition.unlock()
        return image
    }

    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, _ size: PixelSize) throws -> CGImage {
        do {
            return CGImage(bitmap: try converter.convert(frame, to: size, rotation: rotation, mirrored: mirrored))
        } catch let MediaError.libraryFailure(_, operation, reason) {
            throw MediaError.libraryFailure(path: path, operation: operation, reason: reason)
        }
    }

    // MARK: - Cache (lock held)

    private func insert(_ frame: UnsafeMutablePointer<AVFrame>, index: Int, image: CGImage?, size: PixelSize) {
        if let old = cache[index] {
            var f: UnsafeMutablePointer<AVFrame>? = old.frame
            av_frame_free(&f)
        }
        var entry = Entry(frame: frame)
        if let image { entry.images[size] = image }
        cache[index] = entry
        evict()
    }

    private func store(_ image: CGImage, index: Int, size: PixelSize) {
        guard var entry = cache[index] else { return }
        // One size per frame is the common case; keep at most two.
        if entry.images.count >= 2, let drop = entry.images.keys.first(where: { $0 != size }) { entry.images[drop] = nil }
        entry.images[size] = image
        cache[index] = entry
    }

    private func evict() {
        let low = cursor - configuration.keepBehind, high = cursor + configuration.lookahead
        for key in cache.keys where key < low || key > high {
            var f: UnsafeMutablePointer<AVFrame>? = cache[key]!.frame
            av_frame_free(&f)
            cache[key] = nil
        }
    }
}
