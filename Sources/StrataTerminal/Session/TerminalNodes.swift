// The `terminal` node of templates and the DSL: a `TerminalLayer` playing a `TerminalScript`.
// Strata's compiler cannot name the layer (StrataTerminal depends on Strata), so this module
// registers a kind compiler for the node type with `TerminalNodes.register()`; the `strata`
// command, every StrataScript and the DSL's `Terminal` element call it. The node takes a scripted
// session only: there is no property that names a shell, a command to run or a tape, so a
// template (or a batch row) can never make one run.
//
//     - type: terminal
//       session: ["$ ls", "\e[34mSources\e[0m  README.md", {command: "make", pause: 1}]
//       theme: Midnight
//       fontFamily: DejaVu Sans Mono
//       typingSpeed: 20
import Foundation
import Strata

/// Registers the `terminal` node kind with Strata's compiler.
public enum TerminalNodes {
    /// Makes `terminal` nodes compile to `TerminalLayer`s from now on (idempotent).
    public static func register() {
        NodeKindCompilers.register(TerminalNodeCompiler(), for: .terminal)
    }
}

/// Compiles a `terminal` node.
struct TerminalNodeCompiler: NodeKindCompiler {
    /// The most rows or columns a template's terminal may have.
    static let maximumGrid = 1000

    let properties: [String: String] = [
        "session": "a list of lines (text) or entries ({\"command\": …} or {\"output\": …})",
        "prompt": "text", "typingSpeed": "characters per second", "commandDelay": "seconds",
        "pause": "seconds", "outputDelay": "seconds", "promptColor": "a colour", "outputColor": "a colour",
        "finalPrompt": "true or false",
        "theme": "a theme name", "themeBackground": "a colour", "themeForeground": "a colour", "cursorColor": "a colour",
        "fontFamily": "a monospace font family", "fontSize": "points", "lineHeight": "a multiple of the font's line height",
        "letterSpacing": "points", "padding": "points", "columns": "a whole number", "rows": "a whole number",
        "windowBar": "a window bar", "windowBarSize": "points", "windowTitle": "text", "windowRadius": "points",
        "cursorShape": "block, bar or underline", "cursorBlink": "true or false",
    ]

    func makeLayer(for node: Node, context c: NodeKindContext) -> CALayer {
        var style = TerminalStyle()
        if let name = c.string(node, "theme") {
            if let theme = TerminalTheme.named(name) { style.theme = theme } else {
                c.issue("theme", "no built-in theme \"\(name)\" (expected one of \(TerminalTheme.builtIn.map { "\"\($0.name)\"" }.joined(separator: ", ")))")
            }
        }
        if let bg = c.color(node, "themeBackground") { style.theme.background = TerminalRGB(bg) }
        if let fg = c.color(node, "themeForeground") { style.theme.foreground = TerminalRGB(fg) }
        if let cursor = c.color(node, "cursorColor") { style.theme.cursor = TerminalRGB(cursor) }
        if let f = c.string(node, "fontFamily") { style.fontFamily = f }
        if let s = c.number(node, "fontSize", in: 4...200) { style.fontSize = s }
        if let h = c.number(node, "lineHeight", in: 0.5...4) { style.lineHeight = h }
        if let s = c.number(node, "letterSpacing", in: -10...100) { style.letterSpacing = s }
        if let p = c.number(node, "padding", in: 0...1000) { style.padding = p }
        if let b = c.choice(node, "windowBar", TerminalWindowBar.allCases.map(\.rawValue)) { style.windowBar = TerminalWindowBar(rawValue: b) ?? .none }
        if let s = c.number(node, "windowBarSize", in: 0...400) { style.windowBarSize = s }
        if let t = c.string(node, "windowTitle") { style.windowTitle = t }
        if let r = c.number(node, "windowRadius", in: 0...1000) { style.borderRadius = r }
        if let s = c.choice(node, "cursorShape", TerminalCursorShape.allCases.map(\.rawValue)) { style.cursorShape = TerminalCursorShape(rawValue: s) ?? .block }
        if let b = c.bool(node, "cursorBlink") { style.cursorBlink = b }

        var script = TerminalScript(session(node, prompt: c.string(node, "prompt") ?? "$ ", context: c))
        script.prompt = c.string(node, "prompt") ?? script.prompt
        if let s = c.number(node, "typingSpeed", in: 0.01...1000) { script.typingSpeed = s }
        if let d = c.number(node, "commandDelay", in: 0...3600) { script.commandDelay = d }
        if let d = c.number(node, "pause", in: 0...3600) { script.pause = d }
        if let d = c.number(node, "outputDelay", in: 0...3600) { script.outputDelay = d }
        script.promptColor = c.color(node, "promptColor").map(TerminalRGB.init)
        script.outputColor = c.color(node, "outputColor").map(TerminalRGB.init)
        if let b = c.bool(node, "finalPrompt") { script.endsWithPrompt = b }
        // What the emulator is fed is bounded like any text of a composition.
        if script.scalarCount > c.limits.textLength {
            c.issue("session", c.limits.exceededMessage("the session prints more than \(c.limits.textLength) characters", name: "text-length"))
            script.entries = []
        }

        // The grid: given, else the largest that fits the node's size, else 80 × 24.
        let metrics = TerminalMetrics(style: style)
        let fitted = c.explicitSize.map { metrics.grid(fitting: $0, style: style) }
        let range = 1...Double(Self.maximumGrid)
        let columns = c.number(node, "columns", in: range).map { Int($0) } ?? fitted?.columns ?? 80
        let rows = c.number(node, "rows", in: range).map { Int($0) } ?? fitted?.rows ?? 24
        let (timeline, _) = script.timeline(columns: columns, rows: rows, frameRate: c.frameRate)
        return TerminalLayer(timeline: timeline, style: style, size: c.explicitSize)
    }

    /// The `session` list: text entries are commands when they start with the prompt, else
    /// output; object entries say which they are.
    private func session(_ node: Node, prompt: String, context c: NodeKindContext) -> [TerminalScript.Entry] {
        guard let value = node.properties["session"] else {
            c.issue(nil, "a terminal layer needs \"session\": \(properties["session"]!)")
            return []
        }
        guard case .array(let items) = value else { c.issue("session", "expected \(properties["session"]!), got \(value)"); return [] }
        var entries: [TerminalScript.Entry] = []
        for (i, item) in items.enumerated() {
            let key = "session[\(i)]"
            switch item {
            case .string(let line):
                entries.append(line.hasPrefix(prompt) ? .command(String(line.dropFirst(prompt.count))) : .output(line))
            case .object(let o):
                func number(_ k: String) -> Double? {
                    guard let v = o[k] else { return nil }
                    guard let n = v.number, n.isFinite, n >= 0, n <= 3600 else { c.issue("\(key).\(k)", "expected a number of seconds in 0…3600, got \(v)"); return nil }
                    return n
                }
                let known: Set = ["command", "output", "delay", "pause", "typingSpeed", "clear"]
                for k in o.keys.sorted() where !known.contains(k) {
                    c.issue("\(key).\(k)", "unknown key of a session entry (expected \(known.sorted().joined(separator: ", ")))")
                }
                if case .bool(true)? = o["clear"] { entries.append(.clear) }
                let outputs: [String]
                switch o["output"] {
                case nil: outputs = []
                case .string(let s)?: outputs = [s]
                case .array(let a)? where a.allSatisfy({ $0.string != nil }): outputs = a.compactMap(\.string)
                case let v?: c.issue("\(key).output", "expected text or a list of texts, got \(v)"); outputs = []
                }
                if let command = o["command"] {
                    guard let text = command.string else { c.issue("\(key).command", "expected text, got \(command)"); continue }
                    var speed: Double?
                    if let v = o["typingSpeed"] {
                        if let n = v.number, n > 0, n <= 1000 { speed = n } else { c.issue("\(key).typingSpeed", "expected characters per second in (0, 1000], got \(v)") }
                    }
                    entries.append(.command(text, delay: number("delay"), pause: number("pause"), typingSpeed: speed))
                    entries += outputs.map { .output($0) }
                } else if !outputs.isEmpty {
                    // The delay follows the last line of the entry.
                    let delay = number("delay")
                    entries += outputs.enumerated().map { .output($1, delay: $0 == outputs.count - 1 ? delay : nil) }
                } else if o["clear"] == nil {
                    c.issue(key, "a session entry needs \"command\", \"output\" or \"clear\"")
                }
            default:
                c.issue(key, "expected a line (text) or an entry ({\"command\": …} or {\"output\": …}), got \(item)")
            }
        }
        return entries
    }
}

extension TerminalRGB {
    /// The colour's red, green and blue in 0…255 (alpha dropped: a terminal's colours are opaque).
    init(_ color: Color) {
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        self.init(byte(color.red), byte(color.green), byte(color.blue))
    }
}
