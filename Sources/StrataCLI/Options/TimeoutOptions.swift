// `--timeout`: a command that renders stops after this many seconds (exit status 124, as GNU
// `timeout`), leaving nothing behind; and what a stopped command prints and exits with, whether
// its timeout ran out or a signal interrupted it.
import ArgumentParser
import Foundation
import Strata

struct TimeoutOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Stop after this many seconds (exit status \(CommandTimeout.exitStatus)); nothing is left behind.",
        discussion: "Counted from the start of the command: reading and filling in the template, rendering and encoding.",
        valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        if let timeout { try Self.checkSeconds(timeout, option: "--timeout") }
    }

    /// Checks a number of seconds given to `option` (--timeout, --row-timeout).
    static func checkSeconds(_ seconds: Double, option: String) throws {
        guard seconds.isFinite, seconds > 0, seconds <= 30 * 86_400 else {
            throw ValidationError("\(option) \(seconds) must be a number of seconds in (0, 2592000]")
        }
    }

    /// Starts the clock and its watchdog (nil without --timeout); signals cancel it too.
    func start() -> CommandTimeout? {
        guard let timeout else { return nil }
        let t = CommandTimeout(seconds: timeout, parent: InterruptSignals.shared.cancellation)
        t.startWatchdog()
        return t
    }
}

/// The cancellation a command's work checks: its timeout's, or the signals'.
func commandCancellation(_ timeout: CommandTimeout?) -> ExportCancellation {
    timeout?.cancellation ?? InterruptSignals.shared.cancellation
}

/// The exit status of a command stopped by `cancellation`: 124 for its timeout, 128 + the signal.
func stoppedStatus(_ timeout: CommandTimeout?) -> Int32 {
    timeout?.timedOut == true ? CommandTimeout.exitStatus : InterruptSignals.shared.exitStatus ?? 130
}

/// Throws the stop of a command whose timeout has run out or that a signal interrupted: the
/// message on standard error, then the exit status.
func checkStopped(_ timeout: CommandTimeout?, _ what: String) throws {
    guard let reason = commandCancellation(timeout).reason else { return }
    FileHandle.standardError.write(Data("strata: \(what) \(reason); nothing was written\n".utf8))
    throw ExitCode(stoppedStatus(timeout))
}
