// Encoder and renderer settings of an export (render, a script's render, batch): workers,
// quality, preset, keyframe interval, and whether PNG frames may replace an earlier render's.
import ArgumentParser
import Strata

struct EncodingOptions: ParsableArguments {
    @OptionGroup var render: WorkerOptions
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

    /// --workers (nil: the default).
    var workers: Int? { render.workers }

    func validate() throws {
        if let crf, !(0...51).contains(crf) { throw ValidationError("--crf \(crf) must be between 0 and 51") }
        if let preset, !VideoEncoderOptions.presets.contains(preset) {
            throw ValidationError("--preset '\(preset)' must be one of \(VideoEncoderOptions.presets.joined(separator: ", "))")
        }
        if let keyframeInterval, keyframeInterval < 1 {
            throw ValidationError("--keyframe-interval \(keyframeInterval) must be at least 1")
        }
    }

    /// The export options these flags give (every other option at its default).
    func exportOptions() -> ExportOptions {
        var options = ExportOptions()
        options.overwrite = overwrite
        options.render = render.renderOptions
        if let crf { options.video.crf = crf }
        if let preset { options.video.preset = preset }
        if let keyframeInterval {
            options.video.keyframeInterval = keyframeInterval
            options.gif.keyframeInterval = keyframeInterval
        }
        return options
    }
}
