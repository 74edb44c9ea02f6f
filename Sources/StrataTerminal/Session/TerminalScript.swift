// A scripted terminal session: commands typed after a prompt and the output they "print", with
// the timing of each, played through the emulator (libvterm) into a `TerminalTimeline`. Nothing
// is run: the output is what the script says (ANSI escapes and all), so a template or a batch
// that shows a session never starts a process. The emulator does what a terminal does with it:
// long lines wrap at the grid's width, a session longer than the grid scrolls, colours and
// attributes come from the escapes.
//
// The clock, for each entry in order:
//   command  the prompt shows; after `delay` (default `commandDelay`) the command is typed one
//            character each 1 / typingSpeed s; after `pause` Enter moves to the next line
//   output   shows at once, and stays `delay` (default `outputDelay`) before what follows
//   clear    the screen is cleared at once
// and at the end the prompt shows again (`endsWithPrompt`). Each change is placed on the first
// frame at or after its time, so that every frame shows the same thing whatever its float time.
import Foundation

/// A terminal session as a script: what is typed, what is printed, and when.
///
/// ```swift
/// var script = TerminalScript([.command("ls --color"), .output("\u{1B}[34mSources\u{1B}[0m  README.md")])
/// script.typingSpeed = 20
/// let (timeline, end) = script.timeline(columns: 60, rows: 10, frameRate: 30)
/// ```
public struct TerminalScript: Hashable, Sendable {
    /// One step of the session.
    public enum Entry: Hashable, Sendable {
        /// A command typed after the prompt, then Enter. `delay`: seconds before the typing
        /// starts; `pause`: seconds between the last character and Enter; `typingSpeed`:
        /// characters a second (each nil: the script's).
        case command(String, delay: Double? = nil, pause: Double? = nil, typingSpeed: Double? = nil)
        /// Text printed at once (ANSI escapes allowed; "\n" starts a new line), then `delay`
        /// seconds before what follows (nil: the script's `outputDelay`).
        case output(String, delay: Double? = nil)
        /// The screen cleared, the cursor at the top left.
        case clear
    }

    /// The steps, in order.
    public var entries: [Entry]
    /// The prompt shown before each command and at the end.
    public var prompt = "$ "
    /// Characters typed per second.
    public var typingSpeed = 18.0
    /// Seconds between a prompt showing and its command being typed.
    public var commandDelay = 0.3
    /// Seconds between a command typed and Enter.
    public var pause = 0.5
    /// Seconds an output line stays before what follows.
    public var outputDelay = 0.12
    /// The prompt's colour (nil: the theme's bright green); the prompt is bold.
    public var promptColor: TerminalRGB?
    /// The colour of output without colours of its own (nil: the theme's foreground).
    public var outputColor: TerminalRGB?
    /// Whether a last prompt shows after the last entry.
    public var endsWithPrompt = true

    /// A script of `entries`, with the default prompt, speeds and delays.
    ///
    /// ```swift
    /// var script = TerminalScript([.command("swift build"), .output("Build complete!")])
    /// script.typingSpeed = 24
    /// ```
    public init(_ entries: [Entry]) { self.entries = entries }

    /// The session read the way `terminal-typing` writes it: lines starting with `prompt` are
    /// commands (typed without the prompt), the others output.
    public init(lines: [String], prompt: String = "$ ") {
        self.init(lines.map { $0.hasPrefix(prompt) ? .command(String($0.dropFirst(prompt.count))) : .output($0) })
        self.prompt = prompt
    }

    /// Unicode scalars the session prints (the bound a template's session is held to).
    public var scalarCount: Int {
        entries.reduce(prompt.unicodeScalars.count) { n, e in
            switch e {
            case .command(let c, _, _, _): n + c.unicodeScalars.count + prompt.unicodeScalars.count
            case .output(let o, _): n + o.unicodeScalars.count
            case .clear: n
            }
        }
    }

    /// The screens of the session on a `columns` × `rows` grid, each change on the frame grid of
    /// `frameRate`; returns the timeline and the time of the last change.
    public func timeline(columns: Int, rows: Int, frameRate: Double) -> (timeline: TerminalTimeline, end: Double) {
        let screen = TerminalScreen(columns: columns, rows: rows)
        let timeline = TerminalTimeline(columns: columns, rows: rows)
        let fps = frameRate > 0 && frameRate.isFinite ? frameRate : 30
        func onGrid(_ t: Double) -> Double { max(0, (t * fps - 1e-6).rounded(.up) / fps) }
        var clock = 0.0
        var last = 0.0
        func show(_ text: String, at time: Double) {
            screen.feed(text)
            last = onGrid(time)
            timeline.append(screen.state, at: last)
        }
        let promptText = "\u{1B}[1m" + (promptColor.map(Self.sgr) ?? "\u{1B}[92m") + prompt + "\u{1B}[0m"
        timeline.append(screen.state, at: 0)
        for entry in entries {
            switch entry {
            case .command(let command, let delay, let pause, let speed):
                show(promptText, at: clock)
                clock += max(0, delay ?? commandDelay)
                let interval = 1 / max(speed ?? typingSpeed, 1e-3)
                for character in command where character != "\n" && character != "\r" {
                    clock += interval
                    show(String(character), at: clock)
                }
                clock += max(0, pause ?? self.pause)
                show("\r\n", at: clock)
            case .output(let text, let delay):
                var body = Self.lines(text)
                if let outputColor { body = Self.sgr(outputColor) + body + "\u{1B}[0m" }
                show(body + "\r\n", at: clock)
                clock += max(0, delay ?? outputDelay)
            case .clear:
                show("\u{1B}[H\u{1B}[2J", at: clock)
            }
        }
        if endsWithPrompt { show(promptText, at: clock) }
        return (timeline, max(last, clock))
    }

    /// `text` with each line break as a terminal's output has it (CR LF).
    static func lines(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
    }

    /// The SGR sequence for a 24-bit foreground colour.
    static func sgr(_ c: TerminalRGB) -> String { "\u{1B}[38;2;\(c.red);\(c.green);\(c.blue)m" }
}
