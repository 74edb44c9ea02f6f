// The DSL's terminal element: a `terminal` node (a `TerminalLayer` playing a scripted session)
// among the other elements of a Scene's builder. Making one registers the node kind
// (`TerminalNodes.register()`), so a program that writes `Terminal(…)` needs nothing else.
import Foundation
import Strata

/// A terminal window playing a scripted session (nothing is run).
///
/// ```swift
/// Scene(size: CGSize(width: 960, height: 540), duration: 6) {
///     Terminal([.command("ls --color"), .output("\u{1B}[34mSources\u{1B}[0m  Tests")])
///         .theme("Midnight").font("DejaVu Sans Mono", size: 24).grid(columns: 50, rows: 10)
///         .position(x: 480, y: 270)
/// }
/// ```
public struct Terminal: LayerElement {
    /// The node this element builds.
    public var node: Node

    /// A terminal playing `session` (see `TerminalScript.Entry`), after `prompt`.
    public init(_ session: [TerminalScript.Entry], prompt: String = "$ ") {
        TerminalNodes.register()
        node = Node(.terminal, properties: ["session": .array(session.map(Self.value)), "prompt": .string(prompt)])
    }

    /// The session as a template writes it: lines starting with `prompt` are typed, the others printed.
    public init(lines: [String], prompt: String = "$ ") {
        self.init(TerminalScript(lines: lines, prompt: prompt).entries, prompt: prompt)
    }

    /// A built-in theme by name (`TerminalTheme.builtIn`).
    public func theme(_ name: String) -> Terminal { property("theme", name) }
    /// The monospace font family and its size in points.
    public func font(_ family: String, size: CGFloat) -> Terminal { property("fontFamily", family).property("fontSize", size) }
    /// The grid's size in cells (without it: what fits the element's frame, else 80 × 24).
    public func grid(columns: Int, rows: Int) -> Terminal { property("columns", columns).property("rows", rows) }
    /// Characters typed per second.
    public func typingSpeed(_ speed: Double) -> Terminal { property("typingSpeed", speed) }
    /// The title bar and its title.
    public func windowBar(_ bar: TerminalWindowBar, title: String? = nil) -> Terminal {
        let t = property("windowBar", bar.rawValue)
        return title.map { t.property("windowTitle", $0) } ?? t
    }

    static func value(_ entry: TerminalScript.Entry) -> PropertyValue {
        switch entry {
        case .command(let text, let delay, let pause, let speed):
            var o: [String: PropertyValue] = ["command": .string(text)]
            if let delay { o["delay"] = .number(delay) }
            if let pause { o["pause"] = .number(pause) }
            if let speed { o["typingSpeed"] = .number(speed) }
            return .object(o)
        case .output(let text, let delay):
            var o: [String: PropertyValue] = ["output": .string(text)]
            if let delay { o["delay"] = .number(delay) }
            return .object(o)
        case .clear:
            return .object(["clear": .bool(true)])
        }
    }
}
