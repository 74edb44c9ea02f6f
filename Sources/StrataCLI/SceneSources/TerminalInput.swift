// Terminal sessions as scene sources: an asciinema recording (.cast) played back, or a VHS tape
// (.tape) run in a real shell. `strata render` takes either where it takes a template; what a
// tape asks for besides its video (its Output files, .txt text of the final screen, .ascii
// snapshots, Screenshots) comes back with the scene as a `SourceRender`.
import ArgumentParser
import Foundation
import Strata
import StrataTerminal

/// A scene and what its input asks to write besides the video.
struct SourceRender {
    var scene: Scene
    /// Outputs the input names itself (a tape's Output lines), written when -o is absent.
    var outputs: [String] = []
    /// The final screen's text, for .txt outputs (nil: the input is not a terminal).
    var finalText: String?
    /// The screens' text in VHS's golden format, for .ascii outputs (nil: not a terminal).
    var asciiText: String?
    /// Frames the input asks for as PNGs (a tape's Screenshot lines): time and path.
    var stills: [(time: Double, path: String)] = []
}

/// The options of terminal inputs (.cast, .tape).
struct TerminalOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("A recording (.cast) played this many times faster.", valueName: "factor"))
    var speed: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("A recording's pauses cut to at most this many seconds (default: the recording's own idle_time_limit).", valueName: "seconds"))
    var idleTimeLimit: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("A recording (.cast) played from this point: seconds as recorded, or a marker's label (asciicast v3 \"m\" events); what came before sets the screen up.", valueName: "seconds|marker"))
    var from: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("A recording (.cast) played up to this point: seconds as recorded, or a marker's label.", valueName: "seconds|marker"))
    var to: String?
    @Option(help: ArgumentHelp("A .cast or .tape's theme: a built-in name (\(TerminalTheme.builtIn.map(\.name).joined(separator: ", "))) or a JSON file.", valueName: "theme"))
    var theme: String?

    var isEmpty: Bool { speed == nil && idleTimeLimit == nil && theme == nil && from == nil && to == nil }

    func validate() throws {
        if let speed { guard speed.isFinite, speed > 0, speed <= 100 else { throw ValidationError("--speed \(speed) must be in (0, 100]") } }
        if let idleTimeLimit { guard idleTimeLimit.isFinite, idleTimeLimit > 0 else { throw ValidationError("--idle-time-limit \(idleTimeLimit) must be a positive number of seconds") } }
    }

    /// --theme resolved (nil: not given).
    func resolvedTheme() throws -> TerminalTheme? {
        guard let theme else { return nil }
        if let t = TerminalTheme.named(theme) { return t }
        guard FileManager.default.fileExists(atPath: theme) else {
            throw ValidationError("--theme '\(theme)': no such built-in theme (\(TerminalTheme.builtIn.map(\.name).joined(separator: ", "))) or JSON file")
        }
        do { return try TerminalTheme(json: String(contentsOfFile: theme, encoding: .utf8)) } catch {
            throw CLIError(message: "\(theme): \(error)")
        }
    }
}

/// Which inputs are terminal sessions.
enum TerminalInput {
    /// Whether `path` names a recording or a tape.
    static func handles(_ path: String) -> Bool {
        ["cast", "tape"].contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// The scene (and outputs) of a recording or tape at `path`.
    static func render(_ path: String, options: TerminalOptions, format: SceneFormatOptions,
                       cancellation: ExportCancellation) throws -> SourceRender {
        guard FileManager.default.fileExists(atPath: path) else { throw CLIError(message: "\(path): no such file") }
        if format.size != nil { throw ValidationError("--size does not apply to a terminal session (a tape sets Width and Height; a recording's size follows its terminal)") }
        let url = URL(fileURLWithPath: path)
        let theme = try options.resolvedTheme()
        if url.pathExtension.lowercased() == "cast" {
            let cast: Asciicast
            do { cast = try Asciicast(contentsOf: url) } catch { throw CLIError(message: "\(error)") }
            var style = TerminalStyle()
            style.fontSize = 16
            style.padding = 16
            style.theme = theme ?? cast.theme ?? .strataDark
            let fps = format.fps ?? 30
            let from: Double?, to: Double?
            do {
                from = try options.from.map { try cast.time(of: $0, option: "--from", file: path) }
                to = try options.to.map { try cast.time(of: $0, option: "--to", file: path) }
            } catch { throw CLIError(message: "\(error)") }
            if let from, let to, to <= from {
                throw CLIError(message: "\(path): --to (\(Asciicast.seconds(to)) s) must come after --from (\(Asciicast.seconds(from)) s)")
            }
            let (timeline, end) = cast.timeline(speed: options.speed ?? 1, idleTimeLimit: options.idleTimeLimit, frameRate: fps, from: from, to: to)
            let movie = TerminalMovie(timeline: timeline, style: style, frameRate: fps, duration: format.duration ?? (end + 1))
            let scene = movie.makeScene()
            scene.contentsScale = format.contentsScale
            return SourceRender(scene: scene, finalText: movie.finalText, asciiText: movie.asciiOutput)
        }
        if options.speed != nil || options.idleTimeLimit != nil || options.from != nil || options.to != nil {
            throw ValidationError("--speed, --idle-time-limit, --from and --to apply to recordings (.cast); a tape sets PlaybackSpeed")
        }
        var tape: Tape
        do { tape = try TapeParser.parse(contentsOf: url) } catch { throw CLIError(message: "\(error)") }
        if let theme { tape.settings.style.theme = theme }
        let runner = TapeRunner(tape: tape)
        runner.frameRate = format.fps
        runner.stopReason = { cancellation.reason }
        let recording: TapeRecording
        do { recording = try runner.run() } catch let stopped as TapeStopped { throw stopped } catch { throw CLIError(message: "\(error)") }
        var movie = recording.movie
        if let duration = format.duration { movie.duration = duration }
        let scene = movie.makeScene()
        scene.contentsScale = format.contentsScale
        // A Screenshot is of the moment the tape took it, wherever a loop offset puts it.
        let stills = recording.screenshots.map { (time: movie.videoTime(ofTimelineTime: $0.time, in: scene), path: $0.path) }
        return SourceRender(scene: scene, outputs: recording.outputs, finalText: movie.finalText, asciiText: movie.asciiOutput, stills: stills)
    }
}
