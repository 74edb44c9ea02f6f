// The progress of a batch: on a terminal one line (rows done, failures, each job's row and
// frames, the time left); with --json one object per event on stdout.
import Foundation
import Strata
import Synchronization

final class BatchProgressDisplay: Sendable {
    private struct State {
        var done = 0, failed = 0
        var jobs: [Int: (row: Int, fraction: Double)] = [:]
        var lastPrint = Date.distantPast
        var printed = false
    }

    private let style: ProgressLine.Style
    private let total: Int
    private let started = Date()
    private let state = Mutex(State())

    init(style: ProgressLine.Style, total: Int) {
        self.style = style == .terminal && isatty(STDERR_FILENO) == 0 ? .quiet : style
        self.total = total
    }

    func handle(_ event: BatchEvent) {
        state.withCheckedLock { state in
            switch event {
            case .started(let row, let output, let job):
                state.jobs[job] = (row, 0)
                if style == .json { emit(["event": "start", "row": row, "output": output, "job": job]) }
            case .progress(let row, let job, let p):
                state.jobs[job] = (row, p.frameCount > 0 ? Double(p.framesDone) / Double(p.frameCount) : 0)
                if style == .json && (p.framesDone == p.frameCount || p.framesDone % 30 == 0) {
                    emit(["event": "progress", "row": row, "job": job, "frames": p.framesDone, "total": p.frameCount])
                }
            case .finished(let item, let done, _):
                state.done = done
                if item.status == .failed { state.failed += 1 }
                state.jobs = state.jobs.filter { $0.value.row != item.row }
                if style == .json {
                    var d: [String: Any] = ["event": "row", "row": item.row, "status": item.status.rawValue]
                    d["output"] = item.output ?? NSNull()
                    d["error"] = item.error ?? NSNull()
                    emit(d)
                }
            }
            if style == .terminal { draw(&state) }
        }
    }

    private func emit(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        InterruptSignals.shared.writeToStandardOutput(String(decoding: data, as: UTF8.self) + "\n")
    }

    private func draw(_ state: inout State) {
        let now = Date()
        guard now.timeIntervalSince(state.lastPrint) > 0.2 || state.done == total else { return }
        state.lastPrint = now
        let progress = Double(state.done) + state.jobs.values.reduce(0) { $0 + $1.fraction }
        let elapsed = now.timeIntervalSince(started)
        let eta = progress > 0 ? String(format: "%.0fs", elapsed * (Double(total) - progress) / progress) : "?"
        let running = state.jobs.sorted { $0.key < $1.key }.map { String(format: "row %d %.0f%%", $0.value.row, $0.value.fraction * 100) }
        var line = "\r  \(state.done)/\(total) rows"
        if state.failed > 0 { line += ", \(state.failed) failed" }
        if !running.isEmpty { line += "  [" + running.joined(separator: ", ") + "]" }
        line += "  ETA \(eta)   "
        FileHandle.standardError.write(Data(line.utf8))
        state.printed = true
    }

    func finish() {
        state.withCheckedLock { state in
            if state.printed { FileHandle.standardError.write(Data("\n".utf8)) }
            state.printed = false
        }
    }
}
