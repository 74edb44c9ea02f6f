// Plays a tape for real: a shell in a pseudo-terminal, keys written to it, its output fed to
// libvterm, and every change of the screen placed on the tape's clock — the video's time —
// never on the wall clock, so that a loaded machine gives the same video for commands whose
// output does not depend on time:
//
// - A typed character or key takes its typing interval and is shown at the interval's end (the
//   first frame shows the prompt before anything is typed); the runner waits for the echo (up
//   to `echoWait`, then until the output is quiet for `quietTime`) before the next key.
// - Output that arrives during a `Sleep` within `promptWindow` of its start (a command's prompt
//   answer) is shown on the first frame after the sleep begins; later output at the frame at or
//   after its arrival (a command that prints over seconds is shown over seconds). The sleep
//   lasts its length, in real time too (the commands run meanwhile).
// - A `Wait` ends when the screen matches; whatever arrived while it waited is shown on the
//   first frame after it began, and it takes one more frame (the matching screen is seen).
//   `Wait` (`Wait+Line`) looks at the lines from the one where Enter was last pressed down to
//   the cursor's, and at the last line that is not blank (VHS looks at the last line only, so
//   a command's output is missed once the next prompt is printed); `Wait+Screen` at the whole
//   screen.
// - While hidden, commands run but the clock stands still: the first frame after `Show` shows
//   the screen as the hidden part left it; a tape that ends hidden ends on its last shown screen.
// - `ScrollUp`/`ScrollDown` move the view through the scrollback a line per typing interval;
//   the view keeps showing the same lines while output arrives, and a key (typed, pasted)
//   brings it back to the bottom, as xterm.js (VHS's terminal) does. `Copy` puts text on the
//   tape's own clipboard (not the system's); `Paste` types it at once, as one key press.
// - After each step that is shown, the screen's text is kept for a `.ascii` output (VHS's
//   golden-file format: every row, then a line of 80 `─`).
//
// A Wait that runs out, or the command's --timeout, kills the terminal's foreground process
// group and the shell's, and the error names the tape line.
import Foundation

/// What a tape recorded.
public struct TapeRecording: Sendable {
    /// The movie: timeline, look, frame rate, length, size.
    public var movie: TerminalMovie
    /// Screenshots asked for: the time on the movie's timeline and the PNG path (with a loop
    /// offset, `movie.videoTime(ofTimelineTime:in:)` gives the video's time).
    public var screenshots: [(time: Double, path: String)]
    /// The tape's `Output` paths.
    public var outputs: [String]
}

/// A tape stopped from outside (--timeout, a signal) while a step ran.
public struct TapeStopped: Error, CustomStringConvertible {
    /// Why the tape stopped (a timeout, a signal), as a phrase that completes "the tape …".
    public var reason: String
    /// The step that was running (nil: none was).
    public var step: TapeStep?
    public var description: String {
        let place = step.map { "\($0.file):\($0.line):\($0.column): " } ?? ""
        return "\(place)the tape \(reason); the shell and its processes were killed"
    }
}

/// Runs a tape's steps in a real shell.
public final class TapeRunner {
    /// The tape being run.
    public let tape: Tape
    /// Frames per second (nil: the tape's Framerate).
    public var frameRate: Double?
    /// Polled while the tape runs: a reason to stop (a timeout, a signal), or nil.
    public var stopReason: () -> String? = { nil }
    /// How long a key waits for its echo, in seconds.
    public var echoWait = 0.25
    /// Output is settled after this long without any, in seconds.
    public var quietTime = 0.03
    /// Output this soon after a Sleep starts is shown on the sleep's first frame, in seconds.
    public var promptWindow = 0.25
    /// How long the shell may take to print its first prompt, in seconds.
    public var startupWait = 5.0

    /// The step running now (nil while the shell starts and after the last step).
    public private(set) var currentStep: TapeStep?

    /// A runner for `tape` with the default waits.
    public init(tape: Tape) { self.tape = tape }

    /// Runs the tape.
    public func run() throws -> TapeRecording {
        let settings = tape.settings
        let fps = frameRate ?? settings.frameRate
        let speed = settings.playbackSpeed
        let frame = 1 / fps
        let style = settings.style
        let metrics = TerminalMetrics(style: style)
        let size = CGSize(width: settings.width, height: settings.height)
        let (columns, rows) = metrics.grid(fitting: size, style: style)

        for step in tape.requirements {
            guard case .require(let program) = step.command else { continue }
            guard Self.findExecutable(program) != nil else { throw step.error("Require: '\(program)' is not on PATH") }
        }
        let (arguments, shellEnvironment) = try shellCommand(settings.shell)
        var environment = ProcessInfo.processInfo.environment
        for key in ["PROMPT_COMMAND", "PS1", "PS2", "PROMPT", "RPROMPT", "ENV", "BASH_ENV", "COLUMNS", "LINES"] { environment[key] = nil }
        environment["TERM"] = "xterm-256color"
        environment["COLORTERM"] = "truecolor"
        environment["HISTFILE"] = "/dev/null"
        if environment["LANG"] == nil && environment["LC_ALL"] == nil { environment["LANG"] = "C.UTF-8" }
        environment.merge(shellEnvironment) { $1 }
        for (key, value) in tape.environment { environment[key] = value }

        let pty: PseudoTerminal
        do {
            pty = try PseudoTerminal(arguments: arguments, environment: environment, columns: columns, rows: rows)
        } catch {
            throw TerminalInputError(file: tape.file, line: nil, message: "cannot start the shell \(arguments[0]) in a terminal (\(error))")
        }
        defer { pty.stop() }
        let screen = TerminalScreen(columns: columns, rows: rows)
        screen.onReply = { [unowned pty] in pty.write($0) }
        let timeline = TerminalTimeline(columns: columns, rows: rows)
        // Times are placed on the frame grid (a sum of typing intervals drifts off it).
        // How far the view is scrolled back into the scrollback, and how many lines had scrolled
        // off when it was last looked at (lines scrolling off while scrolled back keep the view
        // on the same lines).
        var scrolledBack = 0
        var scrolledOffSeen = 0
        func shown() -> TerminalScreenState {
            let off = screen.linesScrolledOff
            if scrolledBack > 0 { scrolledBack = min(scrolledBack + off - scrolledOffSeen, screen.scrollback.count) }
            scrolledOffSeen = off
            if screen.state.isAlternateScreen { scrolledBack = 0 }
            return scrolledBack > 0 ? screen.viewport(scrolledBack: scrolledBack) : screen.state
        }
        // While hidden nothing is recorded (`Show` records the screen the hidden steps left, and
        // a tape that ends hidden ends with the last screen shown).
        var hidden = false
        func record(at time: Double) {
            guard !hidden else { return }
            timeline.append(shown(), at: ((time / speed) * fps - 1e-6).rounded(.up) / fps)
        }
        func checkStop() throws {
            if let reason = stopReason() { throw TapeStopped(reason: reason, step: currentStep) }
        }
        func now() -> Double { ProcessInfo.processInfo.systemUptime }
        /// Reads until `firstWait` passes without output, then until `quiet` passes without
        /// any (at most 2 s of steady output), showing each change at `time`.
        func settle(firstWait: Double, quiet: Double, at time: Double) throws {
            let start = now()
            var deadline = start + firstWait
            while now() < deadline, now() < start + max(firstWait, 2) {
                try checkStop()
                let bytes = pty.read(timeout: min(deadline - now(), 0.1))
                if !bytes.isEmpty {
                    screen.feed(bytes); record(at: time)
                    deadline = now() + quiet
                } else if pty.exited { break }
            }
        }
        // The clock is a sum of intervals (0.2 s seven times is 1.5999…): a time within a
        // microsecond of a frame counts as on it.
        func firstFrame(after t: Double) -> Double { ((t * fps + 1e-6).rounded(.down) + 1) / fps }
        func frameAtOrAfter(_ t: Double) -> Double { (t * fps - 1e-6).rounded(.up) / fps }

        // The shell's start and first prompt, at time 0.
        record(at: 0)
        try settle(firstWait: startupWait, quiet: 0.2, at: 0)

        var clock = 0.0
        var typingSpeed = settings.typingSpeed
        var waitTimeout = settings.waitTimeout
        var waitPattern = settings.waitPattern
        var screenshots: [(time: Double, path: String)] = []

        /// The line (counting scrolled-off lines) the cursor was on when Enter was last pressed.
        var enterLine: Int?
        func cursorLine() -> Int { screen.scrollback.count + screen.state.cursorRow }
        /// The lines from the last Enter's down to the cursor's (the alternate screen: the
        /// cursor's line), and the last line that is not blank.
        func recentLines() -> [String] {
            let state = screen.state
            var lines: [String] = []
            if let start = enterLine, !state.isAlternateScreen {
                let back = screen.scrollback.count
                for line in max(start, back - 1000)...max(start, cursorLine()) {
                    let row = line - back
                    if row < 0 { lines.append(TerminalScreenState.text(of: screen.scrollback[line])) }
                    else if row < state.rows { lines.append(state.text(ofRow: row)) }
                }
            } else {
                lines.append(state.text(ofRow: state.cursorRow))
            }
            if let last = state.cells.map({ TerminalScreenState.text(of: $0) }).last(where: { !$0.isEmpty }) { lines.append(last) }
            return lines
        }

        var clipboard = ""
        var ascii = ""
        /// Brings a scrolled view back to the bottom (shown at the clock's time).
        func scrollToBottom() {
            _ = shown()
            guard scrolledBack > 0 else { return }
            scrolledBack = 0
            record(at: clock)
        }

        /// Writes `bytes` to the program, reading its output whenever the terminal's input is
        /// full: a program echoing a long paste blocks until its echo is read, and would never
        /// read the rest of the paste otherwise.
        func send(_ bytes: [UInt8]) throws {
            var offset = 0
            while offset < bytes.count, !pty.exited {
                try checkStop()
                let n = pty.writeSome(bytes[offset...])
                offset += n
                if n == 0 {
                    let out = pty.read(timeout: 0.1)
                    if !out.isEmpty { screen.feed(out); record(at: clock) }
                }
            }
        }

        // A key takes its typing interval; what it does is shown at the interval's end. It
        // brings a scrolled view back to the bottom.
        func press(_ bytes: [UInt8], speed: Double) throws {
            if !hidden { clock += speed }
            scrollToBottom()
            try send(bytes)
            try settle(firstWait: echoWait, quiet: quietTime, at: clock)
        }

        for step in tape.steps {
            currentStep = step
            try checkStop()
            switch step.command {
            case .type(let text, let speed):
                if hidden {
                    // Nothing typed out of sight is shown, so it goes in at once, as a paste
                    // (a key at a time, git-graph.tape's 700-character set-up line waited 20 s
                    // for echoes).
                    try press(text.unicodeScalars.flatMap { screen.bytes(for: $0) }, speed: 0)
                } else {
                    for scalar in text.unicodeScalars {
                        try press(screen.bytes(for: scalar), speed: speed ?? typingSpeed)
                    }
                }
            case .key(let key, let speed, let count):
                let bytes: [UInt8]
                switch key {
                case .key(let k, let m):
                    bytes = screen.bytes(for: k, modifiers: m)
                    if k == .enter { enterLine = cursorLine() }
                case .character(let c, let m): bytes = screen.bytes(for: c, modifiers: m)
                }
                for _ in 0..<count { try press(bytes, speed: speed ?? typingSpeed) }
            case .sleep(let seconds):
                let start = clock, t0 = now()
                while now() < t0 + seconds {
                    try checkStop()
                    let bytes = pty.read(timeout: min(t0 + seconds - now(), 0.1))
                    guard !bytes.isEmpty else { continue }
                    screen.feed(bytes)
                    let offset = now() - t0
                    let shown = offset < promptWindow ? firstFrame(after: start) : frameAtOrAfter(start + offset)
                    record(at: hidden ? clock : min(shown, start + seconds))
                }
                if !hidden { clock += seconds }
            case .wait(let scope, let timeout, let pattern):
                let source = pattern ?? waitPattern
                let regex = try NSRegularExpression(pattern: source)
                let limit = timeout ?? waitTimeout
                let start = clock, t0 = now()
                func matches() -> Bool {
                    let state = screen.state
                    let text: String
                    switch scope {
                    case .screen: text = state.text
                    case .line:
                        return recentLines().contains { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
                    }
                    return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                }
                while !matches() {
                    try checkStop()
                    if now() - t0 > limit {
                        let last = screen.state.cells.map { TerminalScreenState.text(of: $0) }.last { !$0.isEmpty } ?? ""
                        throw step.error("Wait\(scope == .screen ? "+Screen" : "") /\(source)/ timed out after \(Self.seconds(limit)) (the last line: \"\(last)\"); the shell and its processes were killed")
                    }
                    if pty.exited {
                        throw step.error("Wait /\(source)/: the shell exited before the screen matched")
                    }
                    let bytes = pty.read(timeout: 0.1)
                    if !bytes.isEmpty {
                        screen.feed(bytes)
                        record(at: hidden ? clock : firstFrame(after: start))
                    }
                }
                if !hidden { clock = firstFrame(after: start) + frame }
            case .hide:
                hidden = true
            case .show:
                hidden = false
                record(at: clock)
            case .screenshot(let path):
                screenshots.append((clock / speed, path))
            case .set(let name, let value):
                switch name {
                case "TypingSpeed": typingSpeed = TapeParser.parseTime(value) ?? typingSpeed
                case "WaitTimeout": waitTimeout = TapeParser.parseTime(value) ?? waitTimeout
                case "WaitPattern": waitPattern = value
                default: break
                }
            case .require:
                break
            case .copy(let text):
                clipboard = text
            case .paste:
                try press(clipboard.unicodeScalars.flatMap { screen.bytes(for: $0) }, speed: typingSpeed)
            case .scroll(let up, let speed, let count):
                for _ in 0..<count {
                    if !hidden { clock += speed ?? typingSpeed }
                    _ = shown()
                    scrolledBack = max(0, min(scrolledBack + (up ? 1 : -1), screen.state.isAlternateScreen ? 0 : screen.scrollback.count))
                    record(at: clock)
                    try settle(firstWait: quietTime, quiet: quietTime, at: clock)
                }
            }
            switch step.command {
            case .set, .require: break
            default: if !hidden { ascii += TerminalMovie.asciiSnapshot(shown()) }
            }
        }
        currentStep = nil
        try settle(firstWait: quietTime, quiet: quietTime, at: clock)
        var movie = TerminalMovie(timeline: timeline, style: style, frameRate: fps, duration: clock / speed + frame, size: size,
                                  loopOffset: settings.loopOffset)
        movie.asciiText = ascii
        return TapeRecording(movie: movie, screenshots: screenshots, outputs: tape.outputs)
    }

    static func seconds(_ t: Double) -> String {
        t == t.rounded() ? "\(Int(t)) s" : String(format: "%g s", t)
    }

    /// The shell's command line and the environment that gives it a plain prompt ("> ") and no
    /// start-up files.
    private func shellCommand(_ shell: String) throws -> ([String], [String: String]) {
        guard let path = Self.findExecutable(shell) else {
            throw TerminalInputError(file: tape.file, line: nil, message: "Set Shell: '\(shell)' is not on PATH")
        }
        switch URL(fileURLWithPath: shell).lastPathComponent {
        case "bash": return ([path, "--noprofile", "--norc", "-i"], ["PS1": "\\[\\e[38;5;111m\\]>\\[\\e[0m\\] "])
        case "zsh": return ([path, "-f", "-i"], ["PS1": "%F{111}>%f "])
        case "fish": return ([path, "--no-config", "-i", "-C", "function fish_prompt; set_color 87afff; printf '>'; set_color normal; printf ' '; end"], [:])
        default: return ([path, "-i"], ["PS1": "> "])
        }
    }

    /// The path of `program` (itself when it has a slash), if it is an executable file.
    static func findExecutable(_ program: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
