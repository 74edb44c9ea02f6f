// `render`: a scene (a template, a terminal session, the built-in demo, or a script's own) to
// MP4, MOV, WebM, WebP, GIF or a folder of PNG frames, with progress, --frames chunks,
// --hash-frames digests and --timeout. One command for `strata` and every `StrataScript`. A
// terminal session may name its own outputs (a tape's Output lines, used without -o), text
// outputs (.txt: the final screen; .ascii: VHS's golden format, the screen after each tape step)
// and screenshots.
import ArgumentParser
import Foundation
import Strata
import StrataTerminal

struct RenderCommand<Source: SceneSource>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "render",
                             abstract: "Render \(Source.what) to MP4, MOV, WebM, WebP, GIF or a folder of PNGs.",
                             discussion: Source.renderExamples)
    }

    @OptionGroup var source: Source
    @Option(name: .shortAndLong, help: "Output file (.mp4 .mov .webm .webp .gif; .txt for a terminal session's final screen, .ascii or .test for its screens in VHS's golden format) or folder for PNG frames (default: \(Source.defaultOutputHelp)).")
    var output: String?
    @OptionGroup var range: FrameRangeOptions
    @OptionGroup var encoding: EncodingOptions
    @OptionGroup var progress: ProgressOptions
    @Flag(help: ArgumentHelp("Print a digest of every rendered frame (FRAME DIGEST lines); without -o, write no file.",
                             discussion: "The digest is of the RGBA pixels before encoding: the same on every run, worker count and tile size, so CI can diff renders line by line."))
    var hashFrames = false
    @OptionGroup var timing: TimeoutOptions

    /// A terminal session's text outputs: .txt (the final screen), .ascii and .test (VHS's
    /// golden format).
    static var textExtensions: [String] { ["txt", "ascii", "test"] }

    func run() throws {
        // Export flags that do not fit the output are refused before anything runs or is written.
        let defaults = try source.exportDefaults()
        if let output, !Self.textExtensions.contains(URL(fileURLWithPath: output).pathExtension.lowercased()) {
            _ = try encoding.check(output: URL(fileURLWithPath: output), defaults: defaults)
        }
        let timeout = timing.start()
        defer { timeout?.finish() }
        let render: SourceRender
        do {
            render = try source.makeRender(cancellation: commandCancellation(timeout))
        } catch let stopped as TapeStopped {
            FileHandle.standardError.write(Data("strata: \(stopped)\n".utf8))
            throw ExitCode(stoppedStatus(timeout))
        }
        let s = render.scene
        if hashFrames && output == nil { return try printDigests(s, timeout: timeout) }
        // -o, else the outputs the input names (a tape's), else the default.
        let paths = try output.map { [$0] } ?? (render.outputs.isEmpty ? [source.defaultOutput()] : render.outputs)
        for path in paths {
            let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
            if Self.textExtensions.contains(ext) {
                let ascii = ext != "txt"
                guard let text = ascii ? render.asciiText : render.finalText else {
                    throw CLIError(message: "\(path): a .txt, .ascii or .test output is the text of a terminal session (.cast, .tape)")
                }
                try checkStopped(timeout, "render")
                do { try writeAtomically(Data(text.utf8), to: URL(fileURLWithPath: path)) } catch let e as CLIError { throw e } catch {
                    throw CLIError(message: "cannot write \(path): \(readReason(error))")
                }
                if progress.style != .quiet && progress.style != .json {
                    print("wrote \(path): \(ascii ? "the screens' text (VHS's .ascii format)" : "the final screen's text")")
                }
                continue
            }
            try export(s, to: path, defaults: defaults, timeout: timeout)
        }
        for still in render.stills {
            try checkStopped(timeout, "render")
            let frame: Bitmap
            do { frame = try s.renderFrame(at: min(still.time, s.duration), options: encoding.render.renderOptions) } catch { throw CLIError(message: "\(error)") }
            do { try frame.writePNG(to: URL(fileURLWithPath: still.path)) } catch { throw CLIError(message: "\(error)") }
            if progress.style != .quiet && progress.style != .json { print("wrote \(still.path): screenshot at t = \(formatNumber(still.time)) s") }
        }
    }

    /// Exports the scene to one output (a video, a GIF, a folder of PNGs).
    private func export(_ s: Scene, to path: String, defaults: ExportSettings, timeout: CommandTimeout?) throws {
        var options = try encoding.exportOptions(for: URL(fileURLWithPath: path), defaults: defaults)
        options.frameRange = try range.range(frameCount: s.frameCount)
        if let range = options.frameRange, let note = chunkAlignmentNote(range: range, path: path, rate: try s.validated(), options: options) {
            FileHandle.standardError.write(Data("note: \(note)\n".utf8))
        }
        let line = ProgressLine(style: progress.style, label: URL(fileURLWithPath: path).lastPathComponent)
        options.progress = { line.report($0) }
        let json = progress.style == .json
        options.warning = { message in
            line.finish()
            if json, let data = try? JSONSerialization.data(withJSONObject: ["event": "warning", "output": path, "message": message],
                                                            options: [.sortedKeys, .withoutEscapingSlashes]) {
                InterruptSignals.shared.writeToStandardOutput(String(decoding: data, as: UTF8.self) + "\n")
            } else {
                FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
            }
        }
        InterruptSignals.shared.install()
        options.cancellation = commandCancellation(timeout)
        if hashFrames {
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
        let frames = try range.range(frameCount: s.frameCount) ?? 0..<s.frameCount
        let render = encoding.render.renderOptions
        InterruptSignals.shared.install()
        for index in frames {
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
