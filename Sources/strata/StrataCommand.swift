// The `strata` command line: render a template or the built-in demo to video, GIF, PNG frames,
// a still or a contact sheet; batch-render a template over rows of data; check, list and describe
// templates and print their schema; join rendered chunks; probe media files.
import ArgumentParser
import Foundation
import Strata

@main
struct StrataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Core Animation for Linux, rendered to video and GIF.",
        subcommands: [RenderCommand.self, StillCommand.self, SheetCommand.self, BatchCommand.self,
                      ValidateCommand.self, TemplatesCommand.self, SchemaCommand.self,
                      ConcatCommand.self, ProbeCommand.self, NewCommand.self])
}

/// Encoder and renderer settings shared by render and batch.
struct EncodingOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Tile worker threads (default: the number of cores).")
    var workers: Int?
    @Option(parsing: .unconditional, help: "H.264 quality: constant rate factor 0–51 (lower is better).")
    var crf: Int?
    @Option(help: "x264 preset (ultrafast … veryslow).")
    var preset: String?
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Frames per keyframe interval (default: 2 s of frames for video, the whole file for GIF).",
        discussion: "Each interval is encoded on its own, at multiples of N: chunks (--frames) that start on a multiple of N join (strata concat) into exactly the file a whole render gives."))
    var keyframeInterval: Int?
    @Flag(help: ArgumentHelp("Let PNG frames replace the frames of an earlier render in the output folder.",
                             discussion: "Only a folder holding nothing but frame_NNNNN.png files; each frame written replaces the file of its name. Nothing else is ever deleted: a folder with other files is refused with or without this flag."))
    var overwrite = false

    func exportOptions() throws -> ExportOptions {
        var options = ExportOptions()
        options.overwrite = overwrite
        if let workers {
            guard workers >= 1, workers <= 256 else { throw ValidationError("--workers \(workers) must be between 1 and 256") }
            options.render.workers = workers
        }
        if let crf {
            guard (0...51).contains(crf) else { throw ValidationError("--crf \(crf) must be between 0 and 51") }
            options.video.crf = crf
        }
        if let preset {
            guard VideoEncoderOptions.presets.contains(preset) else {
                throw ValidationError("--preset '\(preset)' must be one of \(VideoEncoderOptions.presets.joined(separator: ", "))")
            }
            options.video.preset = preset
        }
        if let keyframeInterval {
            guard keyframeInterval >= 1 else { throw ValidationError("--keyframe-interval \(keyframeInterval) must be at least 1") }
            options.video.keyframeInterval = keyframeInterval
            options.gif.keyframeInterval = keyframeInterval
        }
        return options
    }
}

/// `--timeout`, shared by render, still, sheet and batch.
struct TimeoutOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Stop after this many seconds (exit status \(CommandTimeout.exitStatus)); nothing is left behind.",
        discussion: "Counted from the start of the command: reading and filling in the template, rendering and encoding.",
        valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        if let timeout { guard timeout.isFinite, timeout > 0, timeout <= 30 * 86_400 else {
            throw ValidationError("--timeout \(timeout) must be a number of seconds in (0, 2592000]")
        } }
    }

    /// Starts the clock and its watchdog (nil without --timeout); signals cancel it too.
    func start() -> CommandTimeout? {
        guard let timeout else { return nil }
        let t = CommandTimeout(seconds: timeout, parent: InterruptSignals.shared.cancellation)
        t.startWatchdog()
        return t
    }
}

/// The cancellation a command's work checks: its timeout's, or the signals'.
func commandCancellation(_ timeout: CommandTimeout?) -> ExportCancellation {
    timeout?.cancellation ?? InterruptSignals.shared.cancellation
}

/// The exit status of a command stopped by `cancellation`: 124 for its timeout, 128 + the signal.
func stoppedStatus(_ timeout: CommandTimeout?) -> Int32 {
    timeout?.timedOut == true ? CommandTimeout.exitStatus : InterruptSignals.shared.exitStatus ?? 130
}

/// Throws the stop of a command whose timeout has run out or that a signal interrupted: the
/// message on standard error, then the exit status.
func checkStopped(_ timeout: CommandTimeout?, _ what: String) throws {
    guard let reason = commandCancellation(timeout).reason else { return }
    FileHandle.standardError.write(Data("strata: \(what) \(reason); nothing was written\n".utf8))
    throw ExitCode(stoppedStatus(timeout))
}

/// Parses `A..B` (inclusive frame indices).
func parseFrameRange(_ s: String, frameCount: Int) throws -> Range<Int> {
    let parts = s.components(separatedBy: "..")
    guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]) else {
        throw ValidationError("--frames '\(s)' must be A..B with whole frame numbers, e.g. 0..59")
    }
    guard a >= 0, b >= a, b < frameCount else {
        throw ValidationError("--frames \(a)..\(b) must satisfy 0 ≤ A ≤ B ≤ \(frameCount - 1) (the scene has \(frameCount) frames)")
    }
    return a..<(b + 1)
}

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a template (or the built-in demo) to MP4, MOV, WebM, WebP, GIF or a folder of PNGs.",
        discussion: """
            Examples:
              strata render lower-third --set name='Grace Hopper' -o hopper.mp4
              strata render Templates/quote-card --data quote.json -o quote.gif --scale 0.5 --fps 15
              strata render -o demo.mp4 --frames 0..59     (the built-in demo, first 2 seconds)
            """)

    @OptionGroup var source: SceneSource
    @Option(name: .shortAndLong, help: "Output file (.mp4 .mov .webm .webp .gif) or folder for PNG frames (default: out/NAME.mp4).")
    var output: String?
    @Option(help: "Frames to render, A..B inclusive (e.g. 300..599).")
    var frames: String?
    @OptionGroup var encoding: EncodingOptions
    @OptionGroup var progress: ProgressStyleOptions
    @Flag(help: ArgumentHelp("Print a digest of every rendered frame (FRAME DIGEST lines); without -o, write no file.",
                             discussion: "The digest is of the RGBA pixels before encoding: the same on every run, worker count and tile size, so CI can diff renders line by line."))
    var hashFrames = false
    @OptionGroup var timing: TimeoutOptions

    func run() throws {
        let timeout = timing.start()
        defer { timeout?.finish() }
        let s = try source.makeScene()
        if hashFrames && output == nil { return try printDigests(s, timeout: timeout) }
        let path: String
        if let output {
            path = output
        } else {
            let name = try source.loadTemplate().map { $0.url.deletingPathExtension().lastPathComponent } ?? "demo"
            try FileManager.default.createDirectory(atPath: "out", withIntermediateDirectories: true)
            path = "out/\(name).mp4"
        }
        var options = try encoding.exportOptions()
        if let frames { options.frameRange = try parseFrameRange(frames, frameCount: s.frameCount) }
        if let range = options.frameRange, let note = chunkAlignmentNote(range: range, path: path, rate: try s.validated(), options: options) {
            FileHandle.standardError.write(Data("note: \(note)\n".utf8))
        }
        let line = ProgressLine(style: progress.style, label: URL(fileURLWithPath: path).lastPathComponent)
        options.progress = { line.report($0) }
        options.warning = { message in
            line.finish()
            FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
        }
        InterruptSignals.shared.install()
        options.cancellation = commandCancellation(timeout)
        if hashFrames {
            let json = progress.style == .json
            options.frameObserver = { index, frame in
                let text = json ? "{\"event\":\"frame\",\"frame\":\(index),\"digest\":\"\(frame.digest)\"}\n"
                    : "\(index) \(frame.digest)\n"
                InterruptSignals.shared.writeToStandardOutput(text)
            }
        }
        let started = Date()
        do {
            try s.export(to: URL(fileURLWithPath: path), options: options)
        } catch let e as ExportError {
            line.finish()
            guard case .interrupted = e else { throw CLIError(message: "\(e)") }
            FileHandle.standardError.write(Data("strata: \(e)\n".utf8))
            throw ExitCode(stoppedStatus(timeout))
        } catch {
            line.finish()
            throw CLIError(message: "\(error)")
        }
        line.finish()
        let n = options.frameRange?.count ?? s.frameCount
        let secs = Date().timeIntervalSince(started)
        if progress.style == .json {
            printJSON(["event": "done", "output": path, "frames": n, "width": s.pixelWidth, "height": s.pixelHeight, "seconds": secs], pretty: false)
        } else if progress.style != .quiet {
            print("wrote \(path): \(n) frames, \(s.pixelWidth)×\(s.pixelHeight), \(String(format: "%.1f", Double(n) / max(secs, 1e-9))) frames/s")
        }
    }

    /// Renders the frames (or --frames) without encoding and prints their digests.
    private func printDigests(_ s: Scene, timeout: CommandTimeout?) throws {
        let range = try frames.map { try parseFrameRange($0, frameCount: s.frameCount) } ?? 0..<s.frameCount
        var render = RenderOptions()
        if let workers = encoding.workers {
            guard workers >= 1, workers <= 256 else { throw ValidationError("--workers \(workers) must be between 1 and 256") }
            render.workers = workers
        }
        InterruptSignals.shared.install()
        for index in range {
            if let reason = commandCancellation(timeout).reason {
                FileHandle.standardError.write(Data("strata: --hash-frames \(reason) at frame \(index)\n".utf8))
                throw ExitCode(stoppedStatus(timeout))
            }
            let frame: Bitmap
            do { frame = try s.renderFrame(at: s.time(ofFrame: index), options: render) } catch { throw CLIError(message: "\(error)") }
            if progress.style == .json { printJSON(["event": "frame", "frame": index, "digest": frame.digest], pretty: false) }
            else { print("\(index) \(frame.digest)") }
        }
    }
}

/// Why a chunk will not encode exactly like the same frames of a whole render, if it will not:
/// its first frame is not on a keyframe interval boundary (video), or GIF chunks have no interval.
func chunkAlignmentNote(range: Range<Int>, path: String, rate: FrameRate, options: ExportOptions) -> String? {
    guard range.lowerBound > 0 else { return nil }
    let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
    let frames = "--frames \(range.lowerBound)..\(range.upperBound - 1)"
    if ext == "gif" {
        guard let interval = options.gif.keyframeInterval else {
            return "\(frames): a GIF chunk encodes exactly as in a whole render only with --keyframe-interval N (the same N for every chunk and chunks starting at multiples of N)"
        }
        return range.lowerBound % interval == 0 ? nil
            : "\(frames) does not start on a multiple of the keyframe interval \(interval): the chunk joins cleanly, but its frames are encoded differently from a whole render's"
    }
    guard ["mp4", "m4v", "mov", "qt", "webm"].contains(ext) else { return nil }
    let interval = options.video.resolvedKeyframeInterval(frameRate: rate)
    return range.lowerBound % interval == 0 ? nil
        : "\(frames) does not start on a multiple of the keyframe interval \(interval): the chunk joins cleanly, but its frames are encoded differently from a whole render's (start chunks at multiples of \(interval), or set --keyframe-interval)"
}

struct StillCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "still", abstract: "Render one frame of a template (or the built-in demo) to PNG.")

    @OptionGroup var source: SceneSource
    @Option(parsing: .unconditional, help: "Scene time in seconds.")
    var time: Double = 0
    @Option(name: .shortAndLong, help: "Output PNG file.")
    var output: String = "frame.png"
    @Option(parsing: .unconditional, help: "Tile worker threads (default: the number of cores).")
    var workers: Int?
    @OptionGroup var timing: TimeoutOptions

    func run() throws {
        guard output.lowercased().hasSuffix(".png") else {
            throw ValidationError("-o '\(output)' must name a .png file")
        }
        let timeout = timing.start()
        defer { timeout?.finish() }
        InterruptSignals.shared.install()
        let s = try source.makeScene()
        guard time.isFinite, time >= 0, time <= s.duration else {
            throw ValidationError("--time \(time) must be between 0 and the duration \(formatNumber(s.duration))")
        }
        var render = RenderOptions()
        if let workers {
            guard workers >= 1, workers <= 256 else { throw ValidationError("--workers \(workers) must be between 1 and 256") }
            render.workers = workers
        }
        try checkStopped(timeout, "still")
        let frame: Bitmap
        do { frame = try s.renderFrame(at: time, options: render) } catch { throw CLIError(message: "\(error)") }
        try checkStopped(timeout, "still")
        do { try frame.writePNG(to: URL(fileURLWithPath: output)) } catch { throw CLIError(message: "\(error)") }
        print("wrote \(output): \(s.pixelWidth)×\(s.pixelHeight) at t = \(formatNumber(time)) s")
    }
}

struct ConcatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concat",
        abstract: "Join chunks rendered with --frames into one file, without re-encoding.",
        discussion: """
            MP4, MOV and WebM parts are joined by copying their packets; GIF parts by appending their \
            frames (palettes kept, the loop count once). Parts join in the order given and must \
            agree in size, codec, frame rate and encoder settings.
            """)

    @Argument(help: "The chunks, in order (.mp4 .mov .webm, or .gif).")
    var parts: [String] = []
    @Option(name: .shortAndLong, help: "The joined file (.mp4 .mov .webm or .gif).")
    var output: String

    func run() throws {
        guard !parts.isEmpty else { throw CLIError(message: "strata concat needs at least one part: strata concat PART… -o OUT") }
        do {
            let result = try MediaConcatenator.concatenate(parts.map { URL(fileURLWithPath: $0) }, to: URL(fileURLWithPath: output))
            print("wrote \(output): \(result.frames) frames from \(parts.count) parts, \(String(format: "%.3f", result.duration)) s")
        } catch {
            throw CLIError(message: "\(error)")
        }
    }
}

struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "probe", abstract: "Show what a media file holds.")

    @Argument(help: "A video, audio or image file.")
    var file: String

    func run() throws {
        do {
            print(try MediaProbe(url: URL(fileURLWithPath: file)))
        } catch {
            throw CLIError(message: "\(error)")
        }
    }
}

/// An error printed as `Error: message` with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
