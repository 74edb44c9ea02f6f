// The export pipeline: frames are rendered on the calling thread (the model tree is confined to
// it; the tile workers draw in parallel underneath) and flow through a bounded queue to an
// encoder thread. Output is written under a temporary name in the destination folder and renamed
// only when complete, so a failure never leaves a half-written file under the final name. Video
// files also get the mixed audio of the scene's players and tracks: after each rendered frame the
// audio intervals that frame made final travel through the same queue, and the encoder thread
// mixes (AudioMixer) and encodes them between frames, so audio and video are interleaved as
// they are produced.
import Foundation
import Synchronization
import StrataCore
import StrataRender
import StrataMedia

/// What an export writes, from the destination's extension.
public enum ExportTarget: Equatable, Sendable {
    /// A video file in the container the extension names (.mp4, .mov, .webm, .mkv, .webp).
    case video(ContainerFormat)
    /// An animated GIF (.gif).
    case gif
    /// A folder of PNG files `frame_00000.png …`.
    case pngSequence

    /// The target for a URL: `.mp4 .mov .webm .webp .gif`, or no extension / an existing folder
    /// (whose name has no such extension) for PNGs.
    public init(url: URL) throws {
        let ext = url.pathExtension.lowercased()
        var isDir: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
        if ext == "gif" {
            self = .gif
        } else if let f = ContainerFormat(pathExtension: ext), f.isVideo {
            self = .video(f)
        } else if ext.isEmpty || isFolder {
            self = .pngSequence
        } else {
            throw ExportError.unknownExtension(path: url.path, ext: ext)
        }
    }

    /// Refuses a destination `url` that exists and is not what this target may replace. A file
    /// format replaces only a regular file (OutputDestination: a device, pipe or socket would be
    /// replaced itself; a folder named `x.mp4` is not emptied). PNG frames go into a new folder,
    /// an empty one, or one holding only an earlier render's frames when `overwrite` is set
    /// (FrameSequenceFolder); a file named without an extension is more likely a mistake than a
    /// folder to be.
    func checkReplaceable(_ url: URL, overwrite: Bool) throws {
        if let reason = OutputDestination.refusal(at: url.path) {
            throw ExportError.notWritable(path: url.path, reason: reason)
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else { return }
        switch self {
        case .pngSequence:
            if isDir.boolValue { return try FrameSequenceFolder.checkWritable(url, overwrite: overwrite) }
            throw ExportError.notWritable(path: url.path, reason: "it is a file, and a name without an extension means a folder of "
                                          + "PNG frames (add .mp4, .mov, .webm, .webp or .gif to write that format, or name a folder)")
        case .video, .gif:
            if isDir.boolValue {
                throw ExportError.notWritable(path: url.path, reason: "it is a folder, and a .\(url.pathExtension) output is a file "
                                              + "(name a file that is not a folder; nothing in the folder was touched)")
            }
        }
    }
}

/// Problems exporting.
public enum ExportError: Error, CustomStringConvertible {
    /// The destination's extension names no format Strata writes.
    case unknownExtension(path: String, ext: String)
    /// The folder the destination should be written in does not exist.
    case missingFolder(path: String, folder: String)
    /// The destination cannot be written (permissions, a file where a folder is needed, …).
    case notWritable(path: String, reason: String)
    /// Transparency was asked for in a format or codec that cannot carry it.
    case alphaNotSupported(path: String, format: String)
    /// Writing failed (a full disk, a folder that became unwritable); nothing was left behind.
    case failed(path: String, message: String)
    /// Stopped through `ExportOptions.cancellation` (a signal); nothing was written.
    case interrupted(path: String, reason: String, framesDone: Int, frameCount: Int)

    public var description: String {
        switch self {
        case .unknownExtension(let p, let e):
            "cannot export to \(p): unknown extension '.\(e)' (expected .mp4, .mov, .webm, .webp, .gif, or a folder for PNG frames)"
        case .missingFolder(let p, let f): "cannot export to \(p): the folder \(f) does not exist"
        case .notWritable(let p, let r): "cannot export to \(p): \(r)"
        case .alphaNotSupported(let p, let f):
            "cannot export to \(p) with alpha: \(f) files have no alpha channel (use .mov for ProRes 4444, .webm for VP9, .webp, .gif or PNG frames)"
        case .failed(_, let message): message
        case .interrupted(let p, let r, let done, let count):
            "export to \(p) \(r) after \(done) of \(count) frames; nothing was written"
        }
    }
}

extension Scene {
    /// Renders the scene (or `options.frameRange`) and writes it to `url`; the format comes from
    /// the extension: `.mp4 .mov .webm .webp .gif`, or a folder for PNGs. Video files carry the
    /// mixed audio of the scene's players and audio tracks (see `ExportOptions.audio`).
    public func export(to url: URL, options: ExportOptions = ExportOptions()) throws {
        let target = try ExportTarget(url: url)
        if options.background != nil && options.preservesAlpha {
            throw ExportError.notWritable(path: url.path, reason: "a background colour makes the frames opaque, which cannot go with preservesAlpha")
        }
        warnAboutMissingFonts(options)
        if let maximumBytes = options.maximumBytes {
            guard target == .gif else {
                throw ExportError.notWritable(path: url.path, reason: "a size goal (maximumBytes) applies to GIF files only")
            }
            return try exportGIF(to: url, within: maximumBytes, options: options)
        }
        try exportOnce(to: url, target: target, options: options)
    }

    /// Warns once per export about each font family of the scene's text layers (as built, and in
    /// a DSL scene's composition) that is not installed and falls back to another face. (Fonts
    /// set later by `scene.at` blocks are not seen here.)
    private func warnAboutMissingFonts(_ options: ExportOptions) {
        var names = Set<String>()
        func visit(_ layer: CALayer) {
            if let text = layer as? CATextLayer { names.insert(text.fontName) }
            for sub in layer.sublayers ?? [] { visit(sub) }
            if let mask = layer.mask { visit(mask) }
        }
        visit(rootLayer)
        if let data = try? composition?.jsonData(), let json = try? JSONSerialization.jsonObject(with: data) {
            func walk(_ value: Any) {
                if let object = value as? [String: Any] {
                    for (key, v) in object {
                        if key == "font" || key == "fontFamily", let name = v as? String { names.insert(name) } else { walk(v) }
                    }
                } else if let array = value as? [Any] {
                    array.forEach(walk)
                }
            }
            walk(json)
        }
        var families = Set<String>()
        for name in names.sorted() {
            guard let family = FontAvailability.missingFamily(inFontName: name), families.insert(family).inserted else { continue }
            let fallback = TextMetrics.resolvedFamily(forFontName: name)
            let closest = FontAvailability.closestInstalledFamilies(to: family)
            let message = "the font family \"\(family)\" is not installed; text in it is drawn in \(fallback.isEmpty ? "a fallback face" : fallback)"
                + (closest.isEmpty ? "" : " (closest installed: \(closest.joined(separator: ", ")))")
            if let warning = options.warning { warning(message) } else { FileHandle.standardError.write(Data("warning: \(message)\n".utf8)) }
        }
    }

    /// Exports a GIF that fits in `limit` bytes: the options as given, then smaller settings in
    /// turn (see `ExportOptions.maximumBytes`); the first that fits is renamed to `url`.
    private func exportGIF(to url: URL, within limit: Int, options: ExportOptions) throws {
        guard limit > 0 else { throw ExportError.notWritable(path: url.path, reason: "the size goal \(limit) bytes must be positive") }
        try checkDestination(url, target: .gif, overwrite: options.overwrite)
        var attempts: [(GIFEncoderOptions, String)] = [(options.gif, "as given")]
        var smaller = options.gif
        smaller.goal = .size
        attempts.append((smaller, "the size goal"))
        for colors in [64, 32, 16] where colors < smaller.resolvedMaxColors {
            smaller.maxColors = colors
            attempts.append((smaller, "\(colors) colours"))
        }
        if smaller.frameRate == nil {
            for n in [2, 3] {
                var fewer = smaller
                fewer.everyNthFrame = max(1, options.gif.everyNthFrame) * n
                attempts.append((fewer, "\(smaller.maxColors) colours, every \(n == 2 ? "second" : "third") frame"))
            }
        }
        let attempt = TemporaryOutput.url(for: url).appendingPathExtension("gif")
        TemporaryOutputs.add(attempt)
        defer { TemporaryOutputs.remove(attempt); try? FileManager.default.removeItem(at: attempt) }
        var smallest: (bytes: Int, how: String)?
        for (gif, how) in attempts {
            var o = options
            o.maximumBytes = nil
            o.gif = gif
            try exportOnce(to: attempt, target: .gif, options: o, reportedPath: url.path)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: attempt.path)[.size] as? Int) ?? Int.max
            if bytes <= limit {
                if rename(attempt.path, url.path) != 0 {
                    throw ExportError.notWritable(path: url.path, reason: String(cString: strerror(errno)))
                }
                FilePermissions.applyDefaultMode(to: url.path, isFolder: false)
                return
            }
            if bytes < smallest?.bytes ?? Int.max { smallest = (bytes, how) }
            try? FileManager.default.removeItem(at: attempt)
        }
        throw ExportError.failed(path: url.path, message: "cannot export to \(url.path) within \(limit) bytes: the smallest GIF was "
                                 + "\(smallest?.bytes ?? 0) bytes (\(smallest?.how ?? "")); nothing was written (a smaller size, fewer frames or a larger goal would fit)")
    }

    /// The checks an export makes of its destination before it renders: the folder exists and is
    /// writable, and a file there may be replaced.
    private func checkDestination(_ url: URL, target: ExportTarget, overwrite: Bool) throws {
        let folder = url.deletingLastPathComponent()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDir), isDir.boolValue else {
            throw ExportError.missingFolder(path: url.path, folder: folder.path)
        }
        guard FileManager.default.isWritableFile(atPath: folder.path) else {
            throw ExportError.notWritable(path: url.path, reason: "the folder \(folder.path) is not writable")
        }
        try target.checkReplaceable(url, overwrite: overwrite)
    }

    /// One export to `url` (`reportedPath`: the name messages use, when `url` is a stage).
    private func exportOnce(to url: URL, target: ExportTarget, options: ExportOptions, reportedPath: String? = nil) throws {
        let rate = try validated()
        let total = rate.frameCount(forDuration: duration)
        let range = options.frameRange ?? 0..<total
        guard range.lowerBound >= 0, range.upperBound <= total, !range.isEmpty else {
            throw SceneError.invalidFrameRange("frame range \(range.lowerBound)..<\(range.upperBound) must be non-empty and within 0..<\(total)")
        }
        try checkDestination(url, target: target, overwrite: options.overwrite)
        if let reason = options.cancellation?.reason {
            throw ExportError.interrupted(path: url.path, reason: reason, framesDone: 0, frameCount: range.count)
        }
        // Temporary files of earlier runs into this folder whose process is gone (killed, crashed).
        TemporaryOutput.removeAbandonedOnce(in: url.deletingLastPathComponent())
        let temp = TemporaryOutput.url(for: url)
        /// Removes what was written so far and returns `error`, naming the output where an
        /// encoder's message names the temporary file (the user knows the output's name).
        func discardTemporary(_ error: Error) -> Error {
            try? FileManager.default.removeItem(at: temp)
            let shown = reportedPath ?? url.path
            let message = "\(error)"
            guard message.contains(temp.path) else { return error }
            return ExportError.failed(path: shown, message: message.replacingOccurrences(of: temp.path, with: shown))
        }
        TemporaryOutputs.add(temp)
        defer { TemporaryOutputs.remove(temp) }
        let width = pixelWidth, height = pixelHeight
        var plan = ExportPlan(indices: Array(range), times: range.map { rate.time(ofFrame: $0) },
                              end: rate.time(ofFrame: range.upperBound), encoderRate: rate, firstOutputIndex: range.lowerBound)
        // The media session looks at the tree (its players) as it is at the first frame.
        try advance(to: plan.times[0])
        let sink: FrameSink
        let media: ExportMediaSession
        var audioEncoder: VideoEncoder?
        do {
            switch target {
            case .video(let format):
                var video = options.video.adapted(to: format)
                if options.preservesAlpha {
                    switch format {
                    case .mov: video.codec = .prores; video.pixelFormat = .yuva444p10
                    case .webm: video.codec = .vp9; video.pixelFormat = .yuva420p
                    case .webp: video.pixelFormat = .rgba
                    default: throw ExportError.alphaNotSupported(path: url.path, format: format.rawValue.uppercased())
                    }
                }
                media = try ExportMediaSession(scene: self, options: options, origin: plan.times[0], end: plan.end,
                                               carriesAudio: format.carriesAudio)
                let encoder = try VideoEncoder(url: temp, format: format, width: width, height: height, frameRate: rate,
                                               options: video, audio: media.wantsAudio ? options.audio.encoder : nil,
                                               firstFrameIndex: range.lowerBound)
                if media.wantsAudio { audioEncoder = encoder }
                sink = encoder
            case .gif:
                media = try ExportMediaSession(scene: self, options: options, origin: plan.times[0], end: plan.end, carriesAudio: false)
                var gif = options.gif
                if options.preservesAlpha { gif.preservesTransparency = true }
                plan = try plan.reducedForGIF(gif, sceneRate: rate, range: range, path: url.path)
                gif.everyNthFrame = 1
                gif.frameRate = nil
                sink = try GIFEncoder(url: temp, width: width, height: height, frameRate: plan.encoderRate, options: gif,
                                      firstFrameIndex: plan.firstOutputIndex)
            case .pngSequence:
                media = try ExportMediaSession(scene: self, options: options, origin: plan.times[0], end: plan.end, carriesAudio: false)
                try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: false)
                sink = PNGSequenceWriter(folder: temp, firstIndex: range.lowerBound)
            }
        } catch {
            throw discardTemporary(error)
        }
        // The frames' shared work (previous frame, kept tile prefixes, spare buffers) is let go
        // when the export ends.
        defer { frameHistory.clear() }
        do {
            try pump(plan: plan, sink: sink, media: media, audio: audioEncoder, options: options, path: url.path)
            var isDir: ObjCBool = false
            if target == .pngSequence, FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue {
                // An existing folder (checked above: empty, or an earlier render's frames to
                // overwrite) keeps its own permissions and anything outside this range.
                let kept = try FrameSequenceFolder.moveFrames(from: temp, into: url, written: range)
                if !kept.isEmpty {
                    let warn = options.warning ?? { FileHandle.standardError.write(Data("warning: \($0)\n".utf8)) }
                    warn("\(url.path) still holds \(kept.count) frame\(kept.count == 1 ? "" : "s") of an earlier render outside the frames "
                         + "written (\(FrameSequenceFolder.describe(kept))); they were left as they were")
                }
            } else {
                // Nothing there, or a regular file this export replaces (rename(2) never
                // replaces a folder that is not empty, nor a file by a folder).
                if rename(temp.path, url.path) != 0 {
                    throw ExportError.notWritable(path: url.path, reason: String(cString: strerror(errno)))
                }
                // Temporary files are created private; the result gets the usual permissions.
                FilePermissions.applyDefaultMode(to: url.path, isFolder: target == .pngSequence)
            }
        } catch {
            throw discardTemporary(error)
        }
    }

    /// Renders the planned frames in order and feeds them to `sink` on a second thread, with
    /// the audio each frame makes final.
    private func pump(plan: ExportPlan, sink: FrameSink, media: ExportMediaSession, audio: VideoEncoder?,
                      options: ExportOptions, path: String) throws {
        // Frames overlap (FramePipeline: one drawn while the next is posed) from three workers on
        // (FramePipeline.overlapsByDefault says why). The frame in flight counts towards
        // `queueDepth`, so memory stays as bounded.
        let overlapping = FramePipeline.overlapsByDefault(workers: options.render.workers)
        let waiting = overlapping ? max(1, options.queueDepth - 1) : options.queueDepth
        let queue = FrameQueue<ExportWork>(capacity: waiting * (audio == nil ? 1 : 2))
        let failure = FailureBox()
        let done = DispatchSemaphore(value: 0)
        let count = plan.times.count
        let started = Date()
        let progress = options.progress
        let observer = options.frameObserver
        let mixer: AudioMixer? = audio.flatMap { encoder in
            encoder.audioOptions.map { a in
                AudioMixer(sampleRate: a.sampleRate, channels: a.channels, origin: plan.times[0],
                           onFailure: options.mediaFailure == .fail ? nil : { [options] in
                               ExportMediaSession.warn(options, "\($0) (its audio is left out)")
                           })
            }
        }
        let mixerBox = UncheckedBox(mixer)
        // Frames for an encoder that takes YUV 4:2:0 are converted by the tile workers.
        let yuvSink = sink.takesYUV420 && YUVFrame.supports(width: pixelWidth, height: pixelHeight) && options.background == nil ? sink : nil
        let background = RGBA(options.background)
        let encoderThread = Thread {
            var encoded = 0
            while let work = queue.pop() {
                do {
                    switch work {
                    case .frame(let frame):
                        // Over a background, a copy: the drawn frame stays the history's previous frame.
                        let shown = background.map { frame.composited(over: $0) } ?? frame
                        observer?(plan.indices[encoded], shown)
                        try sink.append(shown)
                        encoded += 1
                    case .yuvFrame(let yuv, let rgba):
                        if let observer, let rgba { observer(plan.indices[encoded], rgba) }
                        try yuv.y.withUnsafeBufferPointer { y in
                            try yuv.u.withUnsafeBufferPointer { u in
                                try yuv.v.withUnsafeBufferPointer { v in
                                    try yuvSink!.appendYUV420(y: y.baseAddress!, u: u.baseAddress!, v: v.baseAddress!,
                                                              yStride: yuv.width, cStride: yuv.width / 2)
                                }
                            }
                        }
                        encoded += 1
                    case .audio(let segments, let through):
                        guard let mixer = mixerBox.value, let audio else { continue }
                        mixer.add(segments)
                        try audio.appendAudio(try mixer.render(through: through))
                        continue
                    }
                } catch {
                    failure.set(error); queue.close(); break
                }
                if let progress {
                    let elapsed = Date().timeIntervalSince(started)
                    let fps = elapsed > 0 ? Double(encoded) / elapsed : 0
                    progress(ExportProgress(framesDone: encoded, frameCount: count, framesPerSecond: fps,
                                            secondsRemaining: fps > 0 ? Double(count - encoded) / fps : .infinity))
                }
            }
            if failure.error == nil {
                do { try sink.finish() } catch { failure.set(error) }
            }
            done.signal()
        }
        encoderThread.stackSize = 8 << 20
        encoderThread.start()
        var renderError: Error?
        // Frame N's tiles are drawn while frame N + 1 is posed and its display list built (when
        // overlapping); frames and audio reach the encoder in the order frame N, audio through
        // N, frame N + 1, … either way, so the output does not depend on it.
        let pipeline = FramePipeline(FrameRenderer(width: pixelWidth, height: pixelHeight, scale: Double(contentsScale),
                                                   options: options.render, cache: backingStores, history: frameHistory),
                                     overlapping: overlapping)
        var pendingAudio: ExportWork?
        /// Queues a drawn frame and the audio its time made final; false once the encoder stopped.
        func push(_ drawn: (Bitmap, YUVFrame?)) -> Bool {
            let (frame, yuv) = drawn
            if yuvSink != nil, let yuv {
                // Only the YUV planes wait in the queue; the RGBA8 frame (kept by the history as
                // the previous frame) is let go here, and its buffer reused two frames on. A frame
                // observer sees it on the encoder thread, as in the RGBA path.
                if !queue.push(.yuvFrame(yuv, rgba: observer == nil ? nil : frame)) { return false }
            } else if !queue.push(.frame(frame)) { return false }
            if let audio = pendingAudio {
                pendingAudio = nil
                if !queue.push(audio) { return false }
            }
            return true
        }
        do {
            var open = true
            var notesWarned = 0   // each of the scene's notes (earlier renders' too) is warned once per export
            for (i, time) in plan.times.enumerated() {
                if let reason = options.cancellation?.reason {
                    throw ExportError.interrupted(path: path, reason: reason, framesDone: i, frameCount: count)
                }
                try validated()
                guard time.isFinite, time >= 0 else { throw SceneError.invalidTime("time \(time) must be ≥ 0 and finite") }
                let snap = try snapshot(at: time)
                while notesWarned < notes.count {
                    let note = notes[notesWarned]
                    notesWarned += 1
                    if let warning = options.warning { warning(note) } else { FileHandle.standardError.write(Data("warning: \(note)\n".utf8)) }
                }
                if let drawn = pipeline.submit(snap, yuv: yuvSink != nil), !push(drawn) { open = false; break }
                let segments = try media.afterFrame(at: time)
                if let mixer { pendingAudio = .audio(segments, through: mixer.sample(at: time)) }
            }
            if open, let drawn = pipeline.finish() { _ = push(drawn) }
            if let mixer, failure.error == nil {
                // Calls scheduled between the last frame and the end still shape the audio.
                try advance(to: plan.end.nextDown)
                let segments = media.finish(at: plan.end)
                queue.push(.audio(segments, through: mixer.sample(at: plan.end)))
            }
        } catch {
            renderError = error
        }
        if let renderError { failure.set(renderError) }
        queue.close()
        done.wait()
        if let e = renderError ?? failure.error { throw e }
    }
}

extension Bitmap {
    /// This premultiplied image over an opaque or translucent `colour` (straight alpha).
    func composited(over colour: RGBA) -> Bitmap {
        var out = self
        let a = Int((colour.a * 255).rounded())
        let bg = [colour.r, colour.g, colour.b].map { Int(($0 * colour.a * 255).rounded()) } + [a]
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let rest = 255 - Int(p[i + 3])
                if rest != 0 {
                    for c in 0..<4 { p[i + c] = UInt8(min(255, Int(p[i + c]) + (bg[c] * rest + 127) / 255)) }
                }
                i += 4
            }
        }
        return out
    }
}

/// Which scene times an export renders and the rate the encoder stamps them with.
struct ExportPlan {
    var indices: [Int]
    var times: [Double]
    /// Scene time at which the export ends (the frame after the last).
    var end: Double
    var encoderRate: FrameRate
    /// The number of the first planned frame at the encoder's rate (the range's first frame, or
    /// its number at a reduced GIF rate): where a chunk sits in the whole animation.
    var firstOutputIndex: Int

    /// GIF frame-rate reduction: every n-th frame, or frames at a lower target rate.
    func reducedForGIF(_ options: GIFEncoderOptions, sceneRate: FrameRate, range: Range<Int>, path: String) throws -> ExportPlan {
        if let target = options.frameRate {
            guard target.framesPerSecond < sceneRate.framesPerSecond else { return self }
            // Frames k / target that fall in [start, end).
            let start = times[0]
            var k = max(0, Int((start * target.framesPerSecond - 1e-9).rounded(.up)))
            var plan = self
            plan.times = []
            plan.indices = []
            while target.time(ofFrame: k) < end - 1e-9 {
                plan.times.append(target.time(ofFrame: k))
                plan.indices.append(k)
                k += 1
            }
            if plan.times.isEmpty { plan.times = [start]; plan.indices = [k] }
            plan.encoderRate = target
            plan.firstOutputIndex = plan.indices[0]
            return plan
        }
        let n = options.everyNthFrame
        guard n > 1 else { return self }
        guard let reduced = FrameRate(numerator: sceneRate.numerator, denominator: sceneRate.denominator * n) else {
            throw MediaError.invalidOption(path: path, reason: "everyNthFrame \(n) gives an invalid frame rate")
        }
        var plan = self
        plan.indices = Array(stride(from: range.lowerBound, to: range.upperBound, by: n))
        plan.times = plan.indices.map { sceneRate.time(ofFrame: $0) }
        plan.encoderRate = reduced
        // Frames 0, n, 2n … of the whole animation are output frames 0, 1, 2 … (a chunk lines up
        // with a whole render when its first frame is a multiple of n).
        plan.firstOutputIndex = range.lowerBound / n
        return plan
    }
}

/// What travels from the scene thread to the encoder thread.
enum ExportWork: Sendable {
    case frame(Bitmap)
    /// A frame already converted to YUV 4:2:0 by the tile workers, with its RGBA8 frame when a
    /// frame observer wants to see it.
    case yuvFrame(YUVFrame, rgba: Bitmap?)
    /// Audio intervals made final by the last frame, and the sample the mix must reach.
    case audio([MixSegment], through: Int64)
}

/// Moves a value confined to the encoder thread into its closure.
// @unchecked: by design; the box is for a value one thread hands to another and no longer uses.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// Where rendered frames go.
protocol FrameSink: AnyObject, Sendable {
    func append(_ frame: Bitmap) throws
    func finish() throws
    /// Whether frames may come as BT.709 limited-range YUV 4:2:0 planes (`appendYUV420`), converted
    /// by the tile workers instead of by the sink (false unless the sink says so).
    var takesYUV420: Bool { get }
    func appendYUV420(y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, yStride: Int, cStride: Int) throws
}

extension FrameSink {
    var takesYUV420: Bool { false }
    func appendYUV420(y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, yStride: Int, cStride: Int) throws {
        preconditionFailure("\(type(of: self)) takes RGBA frames only")
    }
}

extension VideoEncoder: FrameSink {}
extension GIFEncoder: FrameSink {}

/// Writes numbered PNG files into a folder.
final class PNGSequenceWriter: FrameSink, Sendable {
    let folder: URL
    /// The number of the next file.
    private let index: Mutex<Int>
    init(folder: URL, firstIndex: Int) { self.folder = folder; self.index = Mutex(firstIndex) }
    func append(_ frame: Bitmap) throws {
        try index.withCheckedLock { index in
            try frame.writePNG(to: folder.appendingPathComponent(FrameSequenceFolder.name(ofFrame: index)))
            index += 1
        }
    }
    func finish() throws {}
}

/// The first error seen by either thread.
final class FailureBox: Sendable {
    private let stored = Mutex<Error?>(nil)
    var error: Error? { stored.withCheckedLock { $0 } }
    func set(_ e: Error) { stored.withCheckedLock { if $0 == nil { $0 = e } } }
}
