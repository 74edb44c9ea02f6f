// A one-line progress display (frames, fps, ETA) on a terminal; silent when stderr is a pipe.
import Foundation
import Strata

final class ProgressReporter: @unchecked Sendable {
    private let enabled = isatty(STDERR_FILENO) != 0
    private let lock = NSLock()
    private var lastPrint = Date.distantPast
    private var printed = false

    func report(_ p: ExportProgress) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastPrint) > 0.2 || p.framesDone == p.frameCount else { return }
        lastPrint = now
        let eta = p.secondsRemaining.isFinite ? String(format: "%.0fs", p.secondsRemaining) : "?"
        let line = String(format: "\r  %d/%d frames  %.1f fps  ETA %@   ", p.framesDone, p.frameCount, p.framesPerSecond, eta)
        FileHandle.standardError.write(line.data(using: .utf8)!)
        printed = true
    }

    func finish() {
        lock.lock(); defer { lock.unlock() }
        if printed { FileHandle.standardError.write("\n".data(using: .utf8)!) }
        printed = false
    }
}
