// How progress is shown: a line on a terminal (default), JSON lines on stdout, or nothing.
import ArgumentParser

struct ProgressOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "No progress output.")
    var quiet = false
    @Flag(help: "Progress and results as JSON lines on stdout.")
    var json = false

    var style: ProgressLine.Style { json ? .json : quiet ? .quiet : .terminal }

    func validate() throws {
        if quiet && json { throw ValidationError("--quiet and --json cannot be used together") }
    }
}
