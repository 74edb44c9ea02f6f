// A time limit on a whole command (`strata render --timeout 60`), the time dimension of the
// resource limits: an unattended batch must not run for ever on a template that is slow within
// every other limit. The timeout cancels through an `ExportCancellation` — an export checks it
// before every frame, stops, removes its temporary file and throws `ExportError.interrupted`
// naming the timeout. Work between those checks (filling in and compiling a template — bounded
// by the other limits —, one frame, a still or a contact sheet) is covered by a watchdog: if the
// command has not finished a grace period after the timeout, it prints the same message, removes
// the temporary files of running exports and ends the process. Either way the exit status is
// `CommandTimeout.exitStatus` (124, as GNU `timeout`).
import Dispatch
import Foundation
import Glibc
import Synchronization

/// A running time limit on a command.
public final class CommandTimeout: Sendable {
    /// The exit status of a command stopped by its timeout.
    public static let exitStatus: Int32 = 124

    /// The limit in seconds.
    public let seconds: Double
    /// The option that set the limit (`"--timeout"`), named in the error when it is reached.
    public let option: String
    /// Cancelled when the time is up, or when `parent` is (a signal).
    public let cancellation: ExportCancellation
    private let finished = Mutex(false)

    /// Starts the clock now; `parent` (the signals' cancellation) cancels it too.
    public init(seconds: Double, option: String = "--timeout", parent: ExportCancellation? = nil) {
        self.seconds = seconds
        self.option = option
        cancellation = ExportCancellation(parent: parent, timeout: seconds,
                                          timeoutReason: Self.reason(seconds: seconds, option: option))
    }

    /// "stopped by --timeout 5 (the time limit of 5 s)".
    public static func reason(seconds: Double, option: String) -> String {
        let s = seconds == seconds.rounded() && seconds < 1e15 ? String(Int64(seconds)) : String(seconds)
        return "stopped by \(option) \(s) (the time limit of \(s) s)"
    }

    /// The message of the timeout.
    public var message: String { Self.reason(seconds: seconds, option: option) }

    /// Whether the timeout (not a signal) stopped the command.
    public var timedOut: Bool { cancellation.timedOut }

    /// Starts the watchdog: if `finish()` has not been called `grace` seconds after the timeout
    /// (default: 2 s and a tenth of the timeout), it writes "strata: MESSAGE" to standard error,
    /// removes the temporary files of running exports and exits with `exitStatus`.
    public func startWatchdog(grace: Double? = nil) {
        let wait = seconds + (grace ?? 2 + seconds / 10)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(min(wait, 1e9) * 1000))) { [self] in
            guard !finished.withCheckedLock({ $0 }) else { return }
            TemporaryOutputs.removeAll()
            FileHandle.standardError.write(Data("strata: \(message) (it could not stop at a frame: ended, temporary outputs removed)\n".utf8))
            _exit(Self.exitStatus)
        }
    }

    /// The command is done: the watchdog does nothing.
    public func finish() { finished.withCheckedLock { $0 = true } }
}
