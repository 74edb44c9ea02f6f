// The progress line of long renders: frames done, frames per second and the time left, redrawn
// in place on a terminal (stderr) at most five times a second, silent in a pipe; or one JSON
// object per line for scripts that read progress (`--json`).
import Foundation
import Strata
import Synchronization

/// Shows export progress.
final class ProgressLine: Sendable {
    enum Style: Sendable { case terminal, json, quiet }

    private let style: Style
    private let label: String
    /// When the line was last drawn, and whether one is showing.
    private let state = Mutex<(lastPrint: Date, printed: Bool)>((.distantPast, false))

    /// `.terminal` prints only when stderr is a terminal.
    init(style: Style = .terminal, label: String = "") {
        self.style = style == .terminal && isatty(STDERR_FILENO) == 0 ? .quiet : style
        self.label = label
    }

    /// Reports progress (thread-safe; called from the encoder thread).
    func report(_ p: ExportProgress) {
        state.withCheckedLock { state in report(p, &state) }
    }

    private func report(_ p: ExportProgress, _ state: inout (lastPrint: Date, printed: Bool)) {
        let now = Date()
        guard style != .quiet, now.timeIntervalSince(state.lastPrint) > 0.2 || p.framesDone == p.frameCount else { return }
        state.lastPrint = now
        switch style {
        case .terminal:
            let eta = p.secondsRemaining.isFinite ? String(format: "%.0fs", p.secondsRemaining) : "?"
            let line = String(format: "\r  %@%d/%d frames  %.1f fps  ETA %@   ", label.isEmpty ? "" : label + "  ",
                              p.framesDone, p.frameCount, p.framesPerSecond, eta)
            FileHandle.standardError.write(Data(line.utf8))
            state.printed = true
        case .json:
            let eta = p.secondsRemaining.isFinite ? String(format: "%.3f", p.secondsRemaining) : "null"
            let line = String(format: "{\"event\":\"progress\",\"label\":%@,\"frames\":%d,\"total\":%d,\"fps\":%.3f,\"eta\":%@}\n",
                              ProgressLine.jsonString(label), p.framesDone, p.frameCount, p.framesPerSecond, eta)
            InterruptSignals.shared.writeToStandardOutput(line)
        case .quiet:
            break
        }
    }

    /// Ends the line (before other output).
    func finish() {
        state.withCheckedLock { state in
            if state.printed { FileHandle.standardError.write(Data("\n".utf8)) }
            state.printed = false
        }
    }
}

extension ProgressLine {
    /// `s` as a JSON string literal.
    static func jsonString(_ s: String) -> String {
        let data = (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
