// The progress of a batch: on a terminal one line (rows done, failures, each job's row and
// frames, the time left); with --json one object per event on stdout.
import Foundation
import Strata
import Synchronization

final class BatchProgressDisplay: Sendable {
    private struct State {
        var progress: BatchProgress
        var lastPrint = Date.distantPast
        var printed = false
    }

    private let style: ProgressLine.Style
    private let total: Int
    private let started = Date()
    private let state: Mutex<State>

    init(style: ProgressLine.Style, total: Int) {
        self.style = style == .terminal && isatty(STDERR_FILENO) == 0 ? .quiet : style
        self.total = total
        state = Mutex(State(progress: BatchProgress(total: total)))
    }

    func handle(_ event: BatchEvent) {
        state.withCheckedLock { state in
            state.progress.handle(event)
            switch event {
            case .started(let row, let output, let job):
                if style == .json { emit(["event": "start", "row": row, "output": output, "job": job]) }
            case .progress(let row, let job, let p):
                if style == .json && (p.framesDone == p.frameCount || p.framesDone % 30 == 0) {
                    emit(["event": "progress", "row": row, "job": job, "frames": p.framesDone, "total": p.frameCount])
                }
            case .finished(let item, _, _):
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
        guard now.timeIntervalSince(state.lastPrint) > 0.2 || state.progress.done == total else { return }
        state.lastPrint = now
        let line = "\r  " + state.progress.line(elapsed: now.timeIntervalSince(started)) + "   "
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
