// `strata validate`: checks a template (and parameter values) without rendering.
import ArgumentParser
import Foundation
import Strata

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a template (and parameter values) without rendering.",
        discussion: "Reads the template, fills it in with its defaults and any --set/--data values, checks it against the schema and compiles it. Prints every problem found as FILE:LINE PATH: MESSAGE and exits 1, or prints a summary.")

    @OptionGroup var source: TemplateSource
    @Flag(help: "Print the filled-in document (every expression evaluated) as JSON instead of checking it.")
    var expanded = false

    func validate() throws {
        if source.template == nil { throw ValidationError("strata validate needs a template: strata validate TEMPLATE") }
    }

    /// The template named (validate() made sure one is).
    private func template() throws -> Template {
        guard let template = try source.loadTemplate() else {
            throw ValidationError("strata validate needs a template: strata validate TEMPLATE")
        }
        return template
    }

    func run() throws {
        if expanded {
            let template = try template()
            do {
                print(try template.expandedJSON(try source.arguments(), allowAssets: source.allowedAssetFolders, limits: try source.limits()))
            } catch let e as ValidationError { throw e } catch { throw CLIError(message: "\(error)") }
            return
        }
        let scene = try source.makeScene()
        let template = try template()
        print("ok: \(template.url.path): \(scene.pixelWidth)×\(scene.pixelHeight), \(scene.frameRate.map { "\($0)" } ?? "?") fps, \(formatNumber(scene.duration)) s (\(scene.frameCount) frames), \(template.parameters.count) parameter\(template.parameters.count == 1 ? "" : "s")")
    }
}
