// Stopping an export from outside: an `ExportCancellation` the caller sets (or a timeout sets),
// checked before every frame, and `InterruptSignals`, which turns SIGINT, SIGTERM and SIGHUP into
// that cancellation for command line programs. A first signal stops the work at the next frame, the export removes its
// temporary file and throws `ExportError.interrupted`; the program then exits 128 + the signal
// (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP). A second signal exits at once, after removing
// the temporary files of the exports still running. SIGPIPE is ignored: a reader of standard
// output that goes away (`strata render … --json | head -1`) makes the next write fail with EPIPE,
// which `writeToStandardOutput` turns into the same clean stop, with status 141 (128 + SIGPIPE).
// Whatever else kills a process (SIGKILL, a crash) leaves its temporary file, which the next run
// into that folder removes (TemporaryOutput).
import Dispatch
import Glibc
import Foundation
import Synchronization

/// A flag that stops exports using it at their next frame. It may also be cancelled by a parent
/// (a batch row's by the batch's) and by a deadline (a timeout: read when the flag is checked,
/// no timer runs).
public final class ExportCancellation: Sendable {
    private let state = Mutex<String?>(nil)
    private let parent: ExportCancellation?
    /// When the time is up, and the reason given then.
    private let deadline: (instant: ContinuousClock.Instant, reason: String)?

    /// A cancellation that only `cancel(reason:)` sets.
    public init() {
        parent = nil
        deadline = nil
    }

    /// A cancellation that is also cancelled when `parent` is and, with a `timeout`, once that
    /// many seconds have passed from now (then `reason` is `timeoutReason` and `timedOut` true).
    public init(parent: ExportCancellation?, timeout: Double? = nil, timeoutReason: String = "timed out") {
        self.parent = parent
        deadline = timeout.map { (ContinuousClock.now + .milliseconds(Int64(min($0, 1e12) * 1000)), timeoutReason) }
    }

    /// Stops the exports; `reason` ends up in their error ("interrupted by SIGINT").
    public func cancel(reason: String = "cancelled") {
        state.withCheckedLock { if $0 == nil { $0 = reason } }
    }

    /// Whether the exports were told to stop.
    public var isCancelled: Bool { reason != nil }

    /// Why it was cancelled (nil: it was not): its own cancellation, its parent's, or its timeout.
    public var reason: String? {
        if let own = state.withCheckedLock({ $0 }) { return own }
        if let inherited = parent?.reason { return inherited }
        guard let deadline, ContinuousClock.now >= deadline.instant else { return nil }
        cancel(reason: deadline.reason)
        // The first reason given wins (a signal may have come in meanwhile).
        return state.withCheckedLock { $0 } ?? deadline.reason
    }

    /// Whether this cancellation's own timeout stopped it (not a signal, nor its parent).
    public var timedOut: Bool {
        guard let deadline else { return false }
        return reason == deadline.reason && parent?.reason != deadline.reason
    }
}

/// SIGINT and SIGTERM as an `ExportCancellation` (for command line programs).
public final class InterruptSignals: Sendable {
    /// The process's one watcher.
    public static let shared = InterruptSignals()

    /// Cancelled when the first signal arrives.
    public let cancellation = ExportCancellation()
    private let state = Mutex<(installed: Bool, signal: Int32?, sources: [DispatchSourceSignal])>((false, nil, []))

    private init() {}

    /// Starts watching (idempotent). Until a signal arrives nothing changes.
    public func install() {
        state.withCheckedLock { s in
            guard !s.installed else { return }
            s.installed = true
            Glibc.signal(SIGPIPE, SIG_IGN)
            for number in [SIGINT, SIGTERM, SIGHUP] {
                Glibc.signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in received(number) }
                source.resume()
                s.sources.append(source)
            }
        }
    }

    /// The signal received first (nil: none).
    public var signal: Int32? { state.withCheckedLock { $0.signal } }

    /// 128 + the signal: the status a program interrupted by it exits with.
    public var exitStatus: Int32? { signal.map { 128 + $0 } }

    /// "SIGINT", "SIGTERM", "SIGHUP" or "SIGPIPE".
    public static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGPIPE: "SIGPIPE"
        default: "signal \(signal)"
        }
    }

    /// Writes `text` to standard output whole; false when the reader has gone (EPIPE), which
    /// stops the work as a first signal would, with the status of SIGPIPE.
    @discardableResult
    public func writeToStandardOutput(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EPIPE {
                let first = state.withCheckedLock { s -> Bool in
                    guard s.signal == nil else { return false }
                    s.signal = SIGPIPE
                    return true
                }
                if first { cancellation.cancel(reason: "stopped: standard output was closed (its reader exited)") }
            }
            return false
        }
        return true
    }

    private func received(_ number: Int32) {
        let first = state.withCheckedLock { s -> Bool in
            guard s.signal == nil else { return false }
            s.signal = number
            return true
        }
        if first {
            cancellation.cancel(reason: "interrupted by \(Self.name(of: number))")
        } else {
            // A second signal: no more waiting.
            TemporaryOutputs.removeAll()
            _exit(128 + number)
        }
    }
}

/// The temporary files of the exports running in this process, so that a forced exit can remove
/// them.
public enum TemporaryOutputs {
    private static let paths = Mutex<Set<String>>([])

    static func add(_ url: URL) { _ = paths.withCheckedLock { $0.insert(url.path) } }
    static func remove(_ url: URL) { _ = paths.withCheckedLock { $0.remove(url.path) } }

    /// Removes the temporary files of every export still running (before a forced exit).
    public static func removeAll() {
        for path in paths.withCheckedLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
