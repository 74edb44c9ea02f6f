// Every export option on the command line, defined once for `strata render`, a script's
// `render` and `strata batch`: the renderer's workers, the codec and its quality, alpha, pixel
// format, audio, a background colour, GIF palette/dither/loop/size goal/frame rate, WebP quality,
// the keyframe interval, and whether PNG frames may replace an earlier render's. The flags become
// an `ExportSettings` (the library's value, which a template's `export:` block also gives and
// which checks itself against the output) and then `ExportOptions`.
import ArgumentParser
import Foundation
import Strata

/// The export flags. `exportOptions(for:defaults:)` gives the options for one output, checked
/// against it first; `check(output:defaults:)` only checks (for callers that are not commands).
public struct EncodingOptions: ParsableArguments {
    @OptionGroup var render: WorkerOptions

    @Option(help: ArgumentHelp("Video codec of .mp4/.mov/.webm: \(ExportSettings.codecNames.joined(separator: ", ")).",
                               discussion: "MP4 takes h264, hevc, vp9, av1; MOV h264, hevc, prores; WebM vp9, av1. Default: h264 (vp9 for WebM; prores for a .mov with --alpha).",
                               valueName: "codec"))
    var codec: String?
    @Flag(name: [.customLong("alpha"), .customLong("transparent")],
          help: ArgumentHelp("Keep the scene's transparency instead of compositing it over black.",
                             discussion: "Outputs that can carry alpha: \(ExportSettings.alphaOutputs). Refused for MP4."))
    var alpha = false
    @Option(help: ArgumentHelp("Pixel layout of .mp4/.mov/.webm video: yuv420p, yuv422p, yuv444p, yuv420p10, yuv422p10, yuv444p10, yuva420p (VP9 alpha), yuva444p10 (ProRes 4444 alpha).",
                               valueName: "format"))
    var pixelFormat: String?
    @Option(parsing: .unconditional, help: "Constant quality of video (lower is better): 0–51 for H.264/HEVC, 0–63 for VP9/AV1.")
    var crf: Int?
    @Option(help: ArgumentHelp("Average video bit rate instead of constant quality, e.g. 800k or 5M.", valueName: "rate"))
    var bitrate: String?
    @Option(parsing: .unconditional, help: "WebP quality 0–100 (with --lossless, the compression effort).")
    var quality: Int?
    @Option(help: "Encoder speed preset of H.264/HEVC/VP9/AV1 (ultrafast … veryslow).")
    var preset: String?
    @Flag(inversion: .prefixedNo, help: ArgumentHelp("Always an audio track (silence when nothing plays) / never one (default: a track when the scene has audio).",
                                                    discussion: ".mp4, .mov and .webm carry audio."))
    var audio: Bool?
    @Option(help: ArgumentHelp("A colour behind the scene, which frames are composited over instead of black: #RRGGBB, a CSS name, oklch(l c h).",
                               valueName: "colour"))
    var background: String?
    @Option(parsing: .unconditional, help: "GIF: colours per palette, 2–256.")
    var colors: Int?
    @Option(help: ArgumentHelp("GIF dithering: auto, none, ordered or diffusion, optionally with a strength 0–1 (diffusion=0.75; default: auto, none: measured best on text, UI and gradients).",
                               valueName: "method[=strength]"))
    var dither: String?
    @Option(help: ArgumentHelp("GIF/WebP: times the animation plays, or forever (the default).", valueName: "N|forever"))
    var loop: String?
    @Option(help: ArgumentHelp("GIF: a size goal, e.g. 2MB or 500KB; smaller settings are tried until the GIF fits, else nothing is written.",
                               valueName: "size"))
    var maxBytes: String?
    @Option(name: .customLong("gif-fps"), parsing: .unconditional, help: "GIF: a lower frame rate than the scene's.")
    var gifFPS: Double?
    @Flag(help: "WebP: lossless frames.")
    var lossless = false
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Frames per keyframe interval (default: 2 s of frames for video, the whole file for GIF).",
        discussion: "Each interval is encoded on its own, at multiples of N: chunks (--frames) that start on a multiple of N join (strata concat) into exactly the file a whole render gives."))
    var keyframeInterval: Int?
    @Flag(help: ArgumentHelp("Let PNG frames replace the frames of an earlier render in the output folder.",
                             discussion: "Only a folder holding nothing but frame_NNNNN.png files; each frame written replaces the file of its name. Nothing else is ever deleted: a folder with other files is refused with or without this flag."))
    var overwrite = false

    /// Every flag unset (ArgumentParser fills them in).
    public init() {}

    /// --workers (nil: the default).
    var workers: Int? { render.workers }

    /// Checks the values of the flags (not yet against an output).
    public func validate() throws {
        _ = try settings()
        if let keyframeInterval, keyframeInterval < 1 {
            throw ValidationError("--keyframe-interval \(keyframeInterval) must be at least 1")
        }
    }

    /// The flags given, as settings (values checked, not yet against an output).
    public func settings() throws -> ExportSettings {
        var s = ExportSettings()
        let texts: [(ExportSettings.Field, String?)] = [
            (.codec, codec), (.alpha, alpha ? "true" : nil), (.pixelFormat, pixelFormat), (.crf, crf.map { "\($0)" }),
            (.bitrate, bitrate), (.quality, quality.map { "\($0)" }), (.preset, preset), (.audio, audio.map { "\($0)" }),
            (.background, background), (.colors, colors.map { "\($0)" }), (.dither, dither), (.loop, loop),
            (.maxBytes, maxBytes), (.gifFPS, gifFPS.map { "\($0)" }), (.lossless, lossless ? "true" : nil),
        ]
        for case let (field, text?) in texts {
            do { try s.set(field, text: text) } catch let e as ExportSettingsError { throw ValidationError(e.message) }
        }
        return s
    }

    /// The settings for an export to `output`: the flags over `defaults` (a template's `export:`
    /// block), checked against the output. Throws `ValidationError` naming the flag.
    public func check(output: URL, defaults: ExportSettings = ExportSettings()) throws -> ExportSettings {
        do { return try settings().resolved(over: defaults, for: output) } catch let e as ExportSettingsError {
            throw CLIError(message: "\(output.lastPathComponent): \(e.message)")
        }
    }

    /// The export options for `output`: every flag given (over `defaults`), checked against it.
    public func exportOptions(for output: URL, defaults: ExportSettings = ExportSettings()) throws -> ExportOptions {
        var options = exportOptions()
        try check(output: output, defaults: defaults).apply(to: &options, for: output)
        return options
    }

    /// The options of the flags that apply to every output (workers, keyframe interval, overwrite).
    func exportOptions() -> ExportOptions {
        var options = ExportOptions()
        options.overwrite = overwrite
        options.render = render.renderOptions
        if let keyframeInterval {
            options.video.keyframeInterval = keyframeInterval
            options.gif.keyframeInterval = keyframeInterval
        }
        return options
    }
}
