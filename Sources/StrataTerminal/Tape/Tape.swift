// A VHS tape, parsed: what to record (settings for the look, the shell, the typing speed) and
// the steps to play (type, press keys, sleep, wait for the screen, hide, show, screenshot, copy,
// paste, scroll the view),
// each with the file, line and column it came from, for the errors of running it.
import Foundation

/// A parsed tape (see `TapeParser`).
public struct Tape: Sendable {
    /// Where the video goes (`Output` lines), in order.
    public var outputs: [String] = []
    /// Programs that must be on PATH (`Require`).
    public var requirements: [TapeStep] = []
    /// Environment variables for the shell (`Env`), in order.
    public var environment: [(key: String, value: String)] = []
    /// The look and the shell (`Set`), as they stand after every `Set` line.
    public var settings = TapeSettings()
    /// The steps to play, in order (`Source`d tapes' steps included).
    public var steps: [TapeStep] = []
    /// The tape's file.
    public var file: String
}

/// One step of a tape and where it was written.
public struct TapeStep: Sendable {
    /// The command of the step.
    public var command: TapeCommand
    /// The tape file the step is written in.
    public var file: String
    /// The 1-based line of the step.
    public var line: Int
    /// The 1-based column of the step.
    public var column: Int

    /// An error at this step.
    public func error(_ message: String) -> TerminalInputError {
        TerminalInputError(file: file, line: line, column: column, message: message)
    }
}

/// Where `Wait` looks for its pattern.
public enum TapeWaitScope: String, Sendable {
    /// The lines from the last Enter's down to the cursor's, and the last line that is not blank.
    case line
    /// The whole screen.
    case screen
}

/// What a step does.
public enum TapeCommand: Sendable {
    /// Types the text, one character every `speed` seconds (nil: the TypingSpeed setting).
    case type(String, speed: Double?)
    /// Presses a key `count` times.
    case key(TapeKeyPress, speed: Double?, count: Int)
    /// Waits this many seconds.
    case sleep(Double)
    /// Waits until the pattern (nil: the WaitPattern setting) matches, at most `timeout`
    /// seconds (nil: the WaitTimeout setting).
    case wait(scope: TapeWaitScope, timeout: Double?, pattern: String?)
    /// Stops recording frames (commands still run).
    case hide
    /// Records frames again.
    case show
    /// Writes the frame shown now to a PNG.
    case screenshot(String)
    /// Changes a setting that may change while the tape plays (TypingSpeed, WaitTimeout,
    /// WaitPattern).
    case set(String, String)
    /// Requires a program (checked before the shell starts).
    case require(String)
    /// Puts text on the tape's own clipboard (`Copy "text"`; the system clipboard is not
    /// touched).
    case copy(String)
    /// Types what was last copied, at once, as one key press (`Paste`).
    case paste
    /// Scrolls the view `count` lines back into the scrollback (`up`) or forward again, one
    /// line every `speed` seconds (nil: the TypingSpeed setting).
    case scroll(up: Bool, speed: Double?, count: Int)
}

/// A key press: a named key or a character, with modifiers.
public enum TapeKeyPress: Sendable, Hashable {
    /// A named key with modifiers (`Ctrl+Left`, `Enter`).
    case key(TerminalKey, TerminalModifiers)
    /// A character with modifiers (`Ctrl+C`, `Alt+.`).
    case character(Unicode.Scalar, TerminalModifiers)
}

/// The settings of a tape (`Set Name Value`), with VHS's defaults where Strata has the same
/// notion.
public struct TapeSettings: Sendable {
    /// The shell that runs the typed commands: bash, sh, zsh or fish (on PATH).
    public var shell = "bash"
    /// Video width and height in points.
    public var width: CGFloat = 1200
    /// Video height in points.
    public var height: CGFloat = 600
    /// Frames per second.
    public var frameRate: Double = 50
    /// How much faster the video plays than the tape's time.
    public var playbackSpeed: Double = 1
    /// Seconds between typed characters.
    public var typingSpeed: Double = 0.05
    /// The longest `Wait` waits, in seconds.
    public var waitTimeout: Double = 15
    /// What `Wait` waits for when it names no pattern.
    public var waitPattern = ">$"
    /// Where a looping video starts (`Set LoopOffset`; nil: at the tape's start).
    public var loopOffset: TerminalLoopOffset?
    /// The look (font, theme, padding, window).
    public var style: TerminalStyle = {
        var s = TerminalStyle()
        s.padding = 60
        s.fontSize = 22
        return s
    }()
}
