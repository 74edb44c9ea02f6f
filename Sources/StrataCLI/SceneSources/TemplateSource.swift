// What `strata` renders: a template filled in with --set/--data values, or the built-in demo when
// no template is named, with the options that change any scene (--size, --fps, --duration,
// --scale, --limit). Templates are named by path or by name (`strata templates` lists them).
// A terminal session — an asciinema recording (.cast) or a VHS tape (.tape) — is rendered where
// a template is named (TerminalInput).
import ArgumentParser
import Foundation
import Strata

struct TemplateSource: SceneSource {
    @Argument(help: ArgumentHelp("A template: a .yaml/.json file, its folder, or a name from `strata templates`; a terminal session: an asciinema recording (.cast) or a VHS tape (.tape); or a Lottie animation (.json, .tgs, .lottie).",
                                 discussion: "Without one, the built-in demo is rendered. A tape runs its commands for real, as you, in a shell in a pseudo-terminal: read a tape before you render it."))
    var template: String?
    @OptionGroup var parameters: ParameterOptions
    @Option(help: ArgumentHelp("A JSON file with an object of parameter values (--set wins over it).", valueName: "file.json"))
    var data: String?
    @OptionGroup var format: SceneFormatOptions
    @OptionGroup var limitOptions: LimitOptions
    @OptionGroup(title: "Terminal sessions (.cast, .tape)") var terminal: TerminalOptions
    @OptionGroup(title: "Lottie animations (.json, .tgs, .lottie)") var lottie: LottieOptions

    static var what: String { "a template, a terminal session (.cast, .tape), a Lottie animation (.json, .tgs, .lottie) or the built-in demo" }
    static var renderExamples: String {
        """
        Examples:
          strata render lower-third --set name='Grace Hopper' -o hopper.mp4
          strata render Templates/quote-card --data quote.json -o quote.gif --scale 0.5 --fps 15
          strata render -o demo.mp4 --frames 0..59     (the built-in demo, first 2 seconds)
          strata render session.cast -o session.gif --speed 2 --idle-time-limit 1
          strata render anim.json -o anim.webm --segment intro   (a Lottie, transparent; --background '#fff')
          strata render demo.tape                       (to the tape's Output files; .txt: the final screen, .ascii: each step's)

        A tape runs its commands as you, with your permissions, in a real shell: render only tapes you trust.
        """
    }
    static var defaultOutputHelp: String { "out/NAME.mp4; a .cast or .tape: its Output lines, else out/NAME.gif" }

    /// The limits with --limit applied (and the process-wide ones set on the image cache).
    func limits() throws -> SceneLimits { try limitOptions.limits() }

    var allowedAssetFolders: [URL] { parameters.allowedAssetFolders }

    /// The template named, read and checked for syntax (nil: the demo).
    func loadTemplate() throws -> Template? {
        guard let template else { return nil }
        do {
            return try Template(contentsOf: TemplateLibrary.locate(template))
        } catch {
            throw CLIError(message: "\(error)")
        }
    }

    /// The parameter values given on the command line.
    func arguments() throws -> TemplateArguments {
        var arguments = TemplateArguments(text: try parameters.assignments())
        if let data {
            guard template != nil else { throw ValidationError("--data needs a template: the built-in demo has no parameters") }
            if let problem = InputFile.problem(at: data) { throw CLIError(message: "\(data): cannot read the file (\(problem))") }
            do { try arguments.addJSON(contentsOf: URL(fileURLWithPath: data), limits: try limits()) } catch let e as ValidationError {
                throw e
            } catch {
                throw CLIError(message: "\(error)")
            }
        } else if !parameters.values.isEmpty && template == nil {
            throw ValidationError("--set needs a template: the built-in demo has no parameters")
        }
        return arguments
    }

    /// A terminal session's scene and outputs, or the template's scene.
    func makeRender(cancellation: ExportCancellation) throws -> SourceRender {
        if let template, LottieInput.handles(template) { return SourceRender(scene: try makeScene()) }
        if !lottie.isEmpty { throw ValidationError("--segment and --replace-color, --replace-text, --replace-image apply to Lottie animations (.json, .tgs, .lottie)") }
        guard let template, TerminalInput.handles(template) else {
            if !terminal.isEmpty { throw ValidationError("--speed, --idle-time-limit, --from, --to and --theme apply to terminal sessions (.cast, .tape)") }
            return SourceRender(scene: try makeScene())
        }
        if !parameters.values.isEmpty || data != nil { throw ValidationError("--set and --data apply to templates, not to a terminal session") }
        // A tape's images are read while it is parsed, before the scene exists: under its limits.
        let limits = try limits()
        let render = try limits.makeMediaContext().run {
            try TerminalInput.render(template, options: terminal, format: format, cancellation: cancellation)
        }
        render.scene.limits = limits
        do { try render.scene.validated() } catch { throw CLIError(message: "\(error)") }
        return render
    }

    func makeScene() throws -> Scene {
        if let template, LottieInput.handles(template) {
            if !parameters.values.isEmpty || data != nil { throw ValidationError("--set and --data apply to templates, not to a Lottie animation") }
            if !terminal.isEmpty { throw ValidationError("--speed, --idle-time-limit, --from, --to and --theme apply to terminal sessions (.cast, .tape)") }
            return try LottieInput.makeScene(template, options: lottie, format: format, limits: try limits())
        }
        if let template, TerminalInput.handles(template) {
            return try makeRender(cancellation: InterruptSignals.shared.cancellation).scene
        }
        let limits = try self.limits()
        let scene: Scene
        let template = try loadTemplate()
        if let template {
            let arguments = try self.arguments()
            let adjust = try format.adjustment()
            do {
                scene = try template.makeScene(arguments, allowAssets: allowedAssetFolders, limits: limits, adjust: adjust)
            } catch {
                throw CLIError(message: "\(error)")
            }
        } else {
            if !parameters.values.isEmpty || data != nil { _ = try arguments() }
            let size = try format.parsedSize() ?? CGSize(width: 1280, height: 720)
            scene = BuiltInDemo.makeScene(size: size, frameRate: format.fps ?? 30, duration: format.duration ?? 4)
        }
        scene.contentsScale = format.contentsScale
        scene.limits = limits
        // A template's size, rate and duration are its file's (or --size's): say which file.
        do { try scene.validated() } catch { throw CLIError(message: template.map { "\($0.url.lastPathComponent): \(error)" } ?? "\(error)") }
        return scene
    }

    func exportDefaults() throws -> ExportSettings {
        guard let template, !TerminalInput.handles(template) else { return ExportSettings() }
        return try loadTemplate()?.exportDefaults ?? ExportSettings()
    }

    func defaultOutput() throws -> String {
        if let template, LottieInput.handles(template) {
            try FileManager.default.createDirectory(atPath: "out", withIntermediateDirectories: true)
            return "out/\(URL(fileURLWithPath: template).deletingPathExtension().lastPathComponent).mp4"
        }
        if let template, TerminalInput.handles(template) {
            try FileManager.default.createDirectory(atPath: "out", withIntermediateDirectories: true)
            return "out/\(URL(fileURLWithPath: template).deletingPathExtension().lastPathComponent).gif"
        }
        let name = try loadTemplate().map { $0.url.deletingPathExtension().lastPathComponent } ?? "demo"
        try FileManager.default.createDirectory(atPath: "out", withIntermediateDirectories: true)
        return "out/\(name).mp4"
    }
}
