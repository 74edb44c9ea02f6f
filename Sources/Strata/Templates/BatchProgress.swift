// What a batch's progress line says, kept apart from drawing it so that it can be tested: rows
// done (rendered, skipped or failed — an interrupted row is not done), the fraction of each
// running row, and the time left. The time left is estimated from the work this run has done:
// rows skipped by --resume cost nothing, so counting them as work would promise an ETA far too
// short for the rows still to render.
import Foundation

/// The state of a running batch, fed with its events.
public struct BatchProgress: Sendable {
    /// Rows this run is to handle (the shard's).
    public let total: Int
    /// Rows whose video was written.
    public private(set) var rendered = 0
    /// Rows skipped because their output was already there (`--resume`).
    public private(set) var skipped = 0
    /// Rows that failed.
    public private(set) var failed = 0
    /// Rows a signal or the batch's timeout stopped while they rendered.
    public private(set) var interrupted = 0
    /// The rows rendering now, by job: the row's number and the fraction of its frames done.
    public private(set) var running: [Int: (row: Int, fraction: Double)] = [:]

    /// The state before any event, for `total` rows.
    public init(total: Int) { self.total = total }

    /// Rows finished: rendered, skipped or failed (not interrupted ones).
    public var done: Int { rendered + skipped + failed }

    /// Counts a finished row by its status and follows the fraction done of the running ones.
    public mutating func handle(_ event: BatchEvent) {
        switch event {
        case .started(let row, _, let job):
            running[job] = (row, 0)
        case .progress(let row, let job, let p):
            running[job] = (row, p.frameCount > 0 ? Double(p.framesDone) / Double(p.frameCount) : 0)
        case .finished(let item, _, _):
            switch item.status {
            case .rendered: rendered += 1
            case .skipped: skipped += 1
            case .failed: failed += 1
            case .interrupted: interrupted += 1
            }
            running = running.filter { $0.value.row != item.row }
        }
    }

    /// Seconds left after `elapsed` seconds of this run, or nil before any rendering work has
    /// been measured: the rows still to do (and the rest of the running ones) at the pace of
    /// the rows rendered or failed so far (skipped rows are not work).
    public func secondsRemaining(elapsed: TimeInterval) -> Double? {
        let partial = running.values.reduce(0) { $0 + $1.fraction }
        let work = Double(rendered + failed) + partial
        guard work > 0, elapsed > 0 else { return nil }
        let left = max(0, Double(total - done - interrupted) - partial)
        return elapsed * left / work
    }

    /// `3/6 rows, 1 failed  [row 4 50%]  ETA 12s`.
    public func line(elapsed: TimeInterval) -> String {
        var line = "\(done)/\(total) rows"
        if skipped > 0 { line += ", \(skipped) already there" }
        if failed > 0 { line += ", \(failed) failed" }
        if interrupted > 0 { line += ", \(interrupted) interrupted" }
        let jobs = running.sorted { $0.key < $1.key }.map { String(format: "row %d %.0f%%", $0.value.row, $0.value.fraction * 100) }
        if !jobs.isEmpty { line += "  [" + jobs.joined(separator: ", ") + "]" }
        return line + "  ETA " + (secondsRemaining(elapsed: elapsed).map { String(format: "%.0fs", $0) } ?? "?")
    }
}
