// `sheet`: a contact sheet of a scene (a template, the built-in demo, or a script's own) —
// frames at even times in a grid, one PNG, to see a whole animation at once.
import ArgumentParser
import Foundation
import Strata

struct SheetCommand<Source: SceneSource>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "sheet",
                             abstract: "Render a contact sheet of \(Source.what): frames at even times, in a grid, to one PNG.")
    }

    @OptionGroup var source: Source
    @Option(name: .shortAndLong, help: "Output PNG file.")
    var output: String = "sheet.png"
    @Option(parsing: .unconditional, help: "Number of frames.")
    var count: Int = 12
    @Option(parsing: .unconditional, help: "Frames per row.")
    var columns: Int = 4
    @Option(parsing: .unconditional, help: "Shrink each frame by this whole factor.")
    var reduction: Int = 4
    @Flag(inversion: .prefixedNo, help: "Label each frame with its time and frame number (1.50s #45).")
    var labels = true
    @OptionGroup var timing: TimeoutOptions

    func validate() throws {
        guard (1...400).contains(count) else { throw ValidationError("--count \(count) must be between 1 and 400") }
        guard (1...100).contains(columns) else { throw ValidationError("--columns \(columns) must be between 1 and 100") }
        guard (1...64).contains(reduction) else { throw ValidationError("--reduction \(reduction) must be between 1 and 64") }
        guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o '\(output)' must name a .png file") }
    }

    func run() throws {
        let timeout = timing.start()
        defer { timeout?.finish() }
        InterruptSignals.shared.install()
        let scene = try source.makeScene()
        try checkStopped(timeout, "sheet")
        let sheet: Bitmap
        do { sheet = try scene.contactSheet(count: count, columns: columns, reduction: reduction, labels: labels) } catch { throw CLIError(message: "\(error)") }
        try checkStopped(timeout, "sheet")
        do { try sheet.writePNG(to: URL(fileURLWithPath: output)) } catch { throw CLIError(message: "\(error)") }
        print("wrote \(output): \(sheet.width)×\(sheet.height), \(count) frames")
    }
}
