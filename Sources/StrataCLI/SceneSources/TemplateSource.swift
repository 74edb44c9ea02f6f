// What `strata` renders: a template filled in with --set/--data values, or the built-in demo when
// no template is named, with the options that change any scene (--size, --fps, --duration,
// --scale, --limit). Templates are named by path or by name (`strata templates` lists them).
import ArgumentParser
import Foundation
import Strata

struct TemplateSource: SceneSource {
    @Argument(help: ArgumentHelp("A template: a .yaml/.json file, its folder, or a name from `strata templates`.",
                                 discussion: "Without one, the built-in demo is rendered."))
    var template: String?
    @OptionGroup var parameters: ParameterOptions
    @Option(help: ArgumentHelp("A JSON file with an object of parameter values (--set wins over it).", valueName: "file.json"))
    var data: String?
    @OptionGroup var format: SceneFormatOptions
    @OptionGroup var limitOptions: LimitOptions

    static var what: String { "a template (or the built-in demo)" }
    static var renderExamples: String {
        """
        Examples:
          strata render lower-third --set name='Grace Hopper' -o hopper.mp4
          strata render Templates/quote-card --data quote.json -o quote.gif --scale 0.5 --fps 15
          strata render -o demo.mp4 --frames 0..59     (the built-in demo, first 2 seconds)
        """
    }
    static var defaultOutputHelp: String { "out/NAME.mp4" }

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

    func makeScene() throws -> Scene {
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

    func defaultOutput() throws -> String {
        let name = try loadTemplate().map { $0.url.deletingPathExtension().lastPathComponent } ?? "demo"
        try FileManager.default.createDirectory(atPath: "out", withIntermediateDirectories: true)
        return "out/\(name).mp4"
    }
}
