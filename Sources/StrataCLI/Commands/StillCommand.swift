// `still`: one frame of a scene (a template, the built-in demo, or a script's own) to PNG.
import ArgumentParser
import Foundation
import Strata

struct StillCommand<Source: SceneSource>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "still", abstract: "Render one frame of \(Source.what) to PNG.")
    }

    @OptionGroup var source: Source
    @Option(parsing: .unconditional, help: "Scene time in seconds.")
    var time: Double = 0
    @Option(name: .shortAndLong, help: "Output PNG file.")
    var output: String = "frame.png"
    @OptionGroup var render: WorkerOptions
    @OptionGroup var timing: TimeoutOptions

    func validate() throws {
        guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o '\(output)' must name a .png file") }
    }

    func run() throws {
        let timeout = timing.start()
        defer { timeout?.finish() }
        InterruptSignals.shared.install()
        let s = try source.makeScene()
        guard time.isFinite, time >= 0, time <= s.duration else {
            throw ValidationError("--time \(time) must be between 0 and the duration \(formatNumber(s.duration))")
        }
        try checkStopped(timeout, "still")
        let frame: Bitmap
        do { frame = try s.renderFrame(at: time, options: render.renderOptions) } catch { throw CLIError(message: "\(error)") }
        try checkStopped(timeout, "still")
        do { try frame.writePNG(to: URL(fileURLWithPath: output)) } catch { throw CLIError(message: "\(error)") }
        print("wrote \(output): \(s.pixelWidth)×\(s.pixelHeight) at t = \(formatNumber(time)) s")
    }
}
