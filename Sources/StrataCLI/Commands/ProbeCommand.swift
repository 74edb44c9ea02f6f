// `strata probe`: what a media file holds.
import ArgumentParser
import Foundation
import Strata

struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "probe", abstract: "Show what a media file holds.")

    @Argument(help: "A video, audio or image file, or a Lottie animation (.json, .tgs, .lottie).")
    var file: String

    func run() throws {
        if LottieInput.handles(file) {
            print(try LottieInput.probe(file))
            return
        }
        do {
            print(try MediaProbe(url: URL(fileURLWithPath: file)))
        } catch {
            throw CLIError(message: "\(error)")
        }
    }
}
