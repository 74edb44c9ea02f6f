// `strata concat`: joins chunks rendered with --frames into one file without re-encoding.
import ArgumentParser
import Foundation
import Strata

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
