// The tape language, read line by line: a command word (with `+Modifier` and `@time`
// suffixes: `Type@100ms`, `Wait+Screen@10s`, `Ctrl+C`, `Enter@80ms 3`), then its arguments —
// words, numbers, times (`500ms`, `2s`, `1.5`), strings in "…", '…' or `…`, and /regex/. A
// mistake stops the parse with `file:line:column: what was expected`. `Source other.tape`
// plays another tape's steps in place (its Output lines are left out, as VHS does). `Paste`
// before any `Copy` is an error at the Paste (the clipboard is the tape's own, empty at start).
import Foundation
import Strata

/// Parses tapes.
public enum TapeParser {
    /// How deep `Source` may nest.
    public static let sourceDepthLimit = 8

    /// Parses the tape at `url`.
    public static func parse(contentsOf url: URL) throws -> Tape {
        try parse(contentsOf: url, depth: 0)
    }

    private static func parse(contentsOf url: URL, depth: Int) throws -> Tape {
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw TerminalInputError(file: url.path, line: nil, message: "cannot read the tape (\(error.localizedDescription))")
        }
        return try parse(text, file: url.path, directory: url.deletingLastPathComponent(), depth: depth)
    }

    /// Parses a tape's text; `file` names it in errors, `directory` resolves `Source` paths.
    public static func parse(_ text: String, file: String = "<tape>", directory: URL? = nil) throws -> Tape {
        try parse(text, file: file, directory: directory, depth: 0)
    }

    /// A Paste with nothing copied before it (in the order the steps play, Sourced tapes
    /// included) is a mistake at the Paste.
    private static func checkClipboard(_ tape: Tape) throws {
        var copied = false
        for step in tape.steps {
            switch step.command {
            case .copy: copied = true
            case .paste where !copied: throw step.error("Paste: nothing has been copied yet (Copy \"text\" first; the clipboard is the tape's own)")
            default: break
            }
        }
    }

    private static func parse(_ text: String, file: String, directory: URL?, depth: Int) throws -> Tape {
        var tape = Tape(file: file)
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var lexer = TapeLexer(line: String(raw.hasSuffix("\r") ? raw.dropLast() : raw), file: file, number: index + 1)
            guard let head = try lexer.next() else { continue }
            try parseLine(head: head, lexer: &lexer, into: &tape, directory: directory, depth: depth)
        }
        if depth == 0 { try checkClipboard(tape) }
        return tape
    }

    private static let keyNames: [String: TerminalKey] = [
        "enter": .enter, "tab": .tab, "backspace": .backspace, "escape": .escape, "esc": .escape, "up": .up, "down": .down,
        "left": .left, "right": .right, "insert": .insert, "delete": .delete, "home": .home, "end": .end,
        "pageup": .pageUp, "pagedown": .pageDown,
    ]

    private static func parseLine(head: TapeToken, lexer: inout TapeLexer, into tape: inout Tape, directory: URL?, depth: Int) throws {
        guard case .word(let word) = head.kind else { throw lexer.error(at: head, "expected a command (Type, Enter, Sleep, Wait, Set, Output…)") }
        // Split "Name+Mod+Mod@time".
        var name = word
        var speed: Double?
        if let at = word.firstIndex(of: "@") {
            name = String(word[..<at])
            let timeText = String(word[word.index(after: at)...])
            guard let t = parseTime(timeText) else { throw lexer.error(at: head, "'\(timeText)' after @ is not a time (e.g. 100ms, 2s)") }
            speed = t
        }
        let parts = name.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        let file = lexer.file, line = lexer.number
        let step = { (command: TapeCommand) in TapeStep(command: command, file: file, line: line, column: head.column) }
        let noSpeedError = lexer.error(at: head, "\(parts[0]) takes no @time")
        func noSpeed() throws { if speed != nil { throw noSpeedError } }

        switch parts[0] {
        case "Output":
            try noSpeed()
            tape.outputs.append(try lexer.expectText("a file name (demo.gif, demo.mp4, frames/, demo.txt)"))
        case "Require":
            try noSpeed()
            let program = try lexer.expectText("a program name")
            tape.requirements.append(step(.require(program)))
        case "Env":
            try noSpeed()
            let key = try lexer.expectText("a variable name")
            let value = try lexer.expectText("a value")
            tape.environment.append((key, value))
        case "Set":
            try noSpeed()
            try parseSet(&lexer, into: &tape, directory: directory, step: step)
        case "Source":
            try noSpeed()
            let path = try lexer.expectText("a tape to play")
            guard depth < sourceDepthLimit else { throw lexer.error(at: head, "Source nests deeper than \(sourceDepthLimit) tapes") }
            let url = resolve(path, in: directory)
            let other = try parse(contentsOf: url, depth: depth + 1)
            tape.requirements += other.requirements
            tape.environment += other.environment
            tape.settings = other.settings
            tape.steps += other.steps
        case "Type":
            let text = try strings(&lexer, command: "Type")
            guard !text.isEmpty else { throw lexer.error(at: head, "Type needs a string, e.g. Type \"echo hello\"") }
            tape.steps.append(step(.type(text, speed: speed)))
        case "Copy":
            try noSpeed()
            let text = try strings(&lexer, command: "Copy")
            guard !text.isEmpty else { throw lexer.error(at: head, "Copy needs a string, e.g. Copy \"https://example.com\"") }
            tape.steps.append(step(.copy(text)))
        case "Paste":
            try noSpeed()
            tape.steps.append(step(.paste))
        case "ScrollUp", "ScrollDown":
            tape.steps.append(step(.scroll(up: parts[0] == "ScrollUp", speed: speed, count: try count(&lexer))))
        case "Sleep":
            try noSpeed()
            let token = try lexer.expect("a time (500ms, 2s)")
            guard case .word(let w) = token.kind, let t = parseTime(w) else { throw lexer.error(at: token, "expected a time (500ms, 2s)") }
            tape.steps.append(step(.sleep(t)))
        case "Hide", "Show":
            try noSpeed()
            tape.steps.append(step(parts[0] == "Hide" ? .hide : .show))
        case "Screenshot":
            try noSpeed()
            tape.steps.append(step(.screenshot(try lexer.expectText("a PNG file name"))))
        case "Wait":
            var scope = TapeWaitScope.line
            if parts.count == 2 {
                switch parts[1] {
                case "Screen": scope = .screen
                case "Line": scope = .line
                default: throw lexer.error(at: head, "Wait+\(parts[1]): expected Wait+Screen or Wait+Line")
                }
            } else if parts.count > 2 {
                throw lexer.error(at: head, "expected Wait, Wait+Screen or Wait+Line")
            }
            var pattern: String?
            if let token = try lexer.next() {
                guard case .regex(let r) = token.kind else { throw lexer.error(at: token, "Wait takes a /regular expression/") }
                do { _ = try NSRegularExpression(pattern: r) } catch { throw lexer.error(at: token, "/\(r)/ is not a regular expression") }
                pattern = r
            }
            tape.steps.append(step(.wait(scope: scope, timeout: speed, pattern: pattern)))
        case "Ctrl", "Alt", "Shift":
            var modifiers: TerminalModifiers = []
            for m in parts.dropLast() {
                switch m {
                case "Ctrl": modifiers.insert(.control)
                case "Alt": modifiers.insert(.alt)
                case "Shift": modifiers.insert(.shift)
                default: throw lexer.error(at: head, "'\(m)' is not a modifier (Ctrl, Alt, Shift)")
                }
            }
            guard parts.count >= 2, let last = parts.last, !last.isEmpty else { throw lexer.error(at: head, "expected a key after \(parts[0])+, e.g. Ctrl+C") }
            let press: TapeKeyPress
            if let key = keyNames[last.lowercased()] { press = .key(key, modifiers) }
            else if last == "Space" { press = .character(" ", modifiers) }
            else if last.unicodeScalars.count == 1 { press = .character(last.unicodeScalars.first!, modifiers) }
            else { throw lexer.error(at: head, "'\(last)' is not a key (a character, or Enter, Tab, Up…)") }
            tape.steps.append(step(.key(press, speed: speed, count: try count(&lexer))))
        default:
            guard parts.count == 1 else { throw lexer.error(at: head, "unknown command '\(name)'") }
            if parts[0] == "Space" {
                tape.steps.append(step(.key(.character(" ", []), speed: speed, count: try count(&lexer))))
            } else if let key = keyNames[parts[0].lowercased()], parts[0].first?.isUppercase == true {
                tape.steps.append(step(.key(.key(key, []), speed: speed, count: try count(&lexer))))
            } else {
                throw lexer.error(at: head, "unknown command '\(parts[0])' (expected Type, Enter, Backspace, Tab, Space, Up, Down, Left, Right, Ctrl+…, Alt+…, Sleep, Wait, Hide, Show, Screenshot, Copy, Paste, ScrollUp, ScrollDown, Set, Env, Output, Source, Require)")
            }
        }
        if let extra = try lexer.next() { throw lexer.error(at: extra, "unexpected '\(extra.text)' at the end of the line") }
    }

    /// The strings up to the end of the line, joined by spaces (`Type "a" "b"` types "a b", as
    /// in VHS).
    private static func strings(_ lexer: inout TapeLexer, command: String) throws -> String {
        var parts: [String] = []
        while let token = try lexer.next() {
            guard case .string(let s) = token.kind else { throw lexer.error(at: token, "\(command) takes strings in quotes") }
            parts.append(s)
        }
        return parts.joined(separator: " ")
    }

    /// A path in a tape: absolute, or relative to the tape's folder (the working directory
    /// without one).
    private static func resolve(_ path: String, in directory: URL?) -> URL {
        guard !path.hasPrefix("/"), let directory else { return URL(fileURLWithPath: path).standardizedFileURL }
        return directory.appendingPathComponent(path).standardizedFileURL
    }

    /// An optional repeat count.
    private static func count(_ lexer: inout TapeLexer) throws -> Int {
        guard let token = try lexer.next() else { return 1 }
        guard case .word(let w) = token.kind, let n = Int(w), n >= 1, n <= 10_000 else {
            throw lexer.error(at: token, "expected a repeat count (1…10000)")
        }
        return n
    }

    /// "500ms", "2s", "1.5", "1m" → seconds.
    public static func parseTime(_ text: String) -> Double? {
        var number = text, scale = 1.0
        if text.hasSuffix("ms") { number = String(text.dropLast(2)); scale = 0.001 }
        else if text.hasSuffix("s") { number = String(text.dropLast()) }
        else if text.hasSuffix("m") { number = String(text.dropLast()); scale = 60 }
        guard let v = Double(number), v.isFinite, v >= 0, v * scale <= 86_400 else { return nil }
        return v * scale
    }

    // MARK: Set

    private static func parseSet(_ lexer: inout TapeLexer, into tape: inout Tape, directory: URL?, step: (TapeCommand) -> TapeStep) throws {
        let nameToken = try lexer.expect("a setting name (FontSize, Width, Theme…)")
        let name = nameToken.text
        let valueToken = try lexer.expect("a value for \(name)")
        let value = valueToken.text
        func number(_ range: ClosedRange<Double>) throws -> Double {
            guard let v = Double(value), range.contains(v) else { throw lexer.error(at: valueToken, "Set \(name) takes a number in \(range.lowerBound)…\(range.upperBound)") }
            return v
        }
        func time() throws -> Double {
            guard let t = parseTime(value) else { throw lexer.error(at: valueToken, "Set \(name) takes a time (100ms, 2s)") }
            return t
        }
        var s = tape.settings
        switch name {
        case "Shell": s.shell = value
        case "FontFamily": s.style.fontFamily = value
        case "FontSize": s.style.fontSize = try number(4...200)
        case "Width": s.width = try number(16...8192)
        case "Height": s.height = try number(16...8192)
        case "LetterSpacing": s.style.letterSpacing = try number(-10...50)
        case "LineHeight": s.style.lineHeight = try number(0.5...4)
        case "Padding": s.style.padding = try number(0...1000)
        case "Margin": s.style.margin = try number(0...1000)
        case "MarginFill":
            if let c = TerminalRGB(hex: value) {
                s.style.marginFill = c
                s.style.marginImage = nil
            } else {
                // A picture, as in VHS (its path relative to the tape's folder).
                let url = resolve(value, in: directory)
                guard FileManager.default.fileExists(atPath: url.path) else {
                    throw lexer.error(at: valueToken, "Set MarginFill takes a colour (#rrggbb) or an image file (no file '\(url.path)')")
                }
                do { _ = try CGImage.load(contentsOf: url) } catch {
                    throw lexer.error(at: valueToken, "Set MarginFill: '\(url.path)' is not a PNG, JPEG or WebP image (\(error))")
                }
                s.style.marginImage = url.path
            }
        case "WindowBar":
            guard let bar = TerminalWindowBar.allCases.first(where: { $0.rawValue.lowercased() == value.lowercased() }) else {
                throw lexer.error(at: valueToken, "Set WindowBar takes \(TerminalWindowBar.allCases.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() }.joined(separator: ", "))")
            }
            s.style.windowBar = bar
        case "WindowBarSize": s.style.windowBarSize = try number(8...200)
        case "BorderRadius": s.style.borderRadius = try number(0...500)
        case "Shadow":
            guard let b = Bool(value.lowercased()) else { throw lexer.error(at: valueToken, "Set Shadow takes true or false") }
            s.style.shadow = b
        case "CursorBlink":
            guard let b = Bool(value.lowercased()) else { throw lexer.error(at: valueToken, "Set CursorBlink takes true or false") }
            s.style.cursorBlink = b
        case "CursorShape":
            guard let shape = TerminalCursorShape(rawValue: value.lowercased()) else { throw lexer.error(at: valueToken, "Set CursorShape takes Block, Bar or Underline") }
            s.style.cursorShape = shape
        case "Theme":
            if value.hasPrefix("{") {
                do { s.style.theme = try TerminalTheme(json: value) } catch {
                    throw lexer.error(at: valueToken, "the theme's JSON: \(error)")
                }
            } else if let theme = TerminalTheme.named(value) {
                s.style.theme = theme
            } else {
                throw lexer.error(at: valueToken, "no theme named '\(value)' (built in: \(TerminalTheme.builtIn.map(\.name).joined(separator: ", ")); or give the theme's JSON)")
            }
        case "Framerate": s.frameRate = try number(1...120)
        case "PlaybackSpeed": s.playbackSpeed = try number(0.01...100)
        case "TypingSpeed": _ = try time(); tape.steps.append(step(.set(name, value)))
        case "WaitTimeout": _ = try time(); tape.steps.append(step(.set(name, value)))
        case "WaitPattern":
            do { _ = try NSRegularExpression(pattern: value) } catch { throw lexer.error(at: valueToken, "'\(value)' is not a regular expression") }
            tape.steps.append(step(.set(name, value)))
        case "LoopOffset":
            // VHS's README: `Set LoopOffset 5` starts at the 5th frame, `50%` half-way.
            // VHS also takes `50 %`.
            var percent = value.hasSuffix("%")
            let number = percent ? String(value.dropLast()) : value
            if !percent, let sign = try lexer.next() {
                guard sign.text == "%" else { throw lexer.error(at: sign, "unexpected '\(sign.text)' at the end of the line") }
                percent = true
            }
            if percent {
                guard let p = Double(number), p >= 0, p <= 100 else { throw lexer.error(at: valueToken, "Set LoopOffset takes a frame (5) or a percentage in 0…100 (50%)") }
                s.loopOffset = .percent(p)
            } else {
                guard let n = Int(number), n >= 0, n <= 10_000_000 else { throw lexer.error(at: valueToken, "Set LoopOffset takes a frame (5) or a percentage in 0…100 (50%)") }
                s.loopOffset = .frames(n)
            }
        default:
            throw lexer.error(at: nameToken, "unknown setting '\(name)' (Shell, FontFamily, FontSize, Width, Height, LetterSpacing, LineHeight, Padding, Margin, MarginFill, WindowBar, WindowBarSize, BorderRadius, Shadow, Theme, TypingSpeed, Framerate, PlaybackSpeed, LoopOffset, CursorBlink, CursorShape, WaitTimeout, WaitPattern)")
        }
        tape.settings = s
    }
}
