// `--workers`: how many tile worker threads draw a frame. Every command that renders takes it
// (render, still, batch through EncodingOptions); the check is here once.
import ArgumentParser
import Strata

struct WorkerOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Tile worker threads (default: the number of cores).")
    var workers: Int?

    func validate() throws {
        if let workers, !(1...256).contains(workers) {
            throw ValidationError("--workers \(workers) must be between 1 and 256")
        }
    }

    /// The renderer's options with --workers applied.
    var renderOptions: RenderOptions {
        var render = RenderOptions()
        if let workers { render.workers = workers }
        return render
    }
}
