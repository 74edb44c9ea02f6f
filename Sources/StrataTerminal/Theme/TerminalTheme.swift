// A terminal colour theme as data, in the JSON shape VHS, xterm.js and iTerm2 exporters share:
// background, foreground, cursor, selection and the 16 ANSI colours (black…brightWhite;
// "purple"/"brightPurple" are read as magenta, as Windows Terminal names them). Colours 16–255
// are the xterm palette (a 6×6×6 cube and a grey ramp), whatever the theme.
import Foundation
import Strata

/// The colours a terminal is drawn with.
///
/// ```swift
/// let theme = try TerminalTheme(json: #"{"name": "Mine", "background": "#101010", …}"#)
/// theme.resolve(.indexed(1), isForeground: true)   // the theme's red
/// ```
public struct TerminalTheme: Hashable, Sendable, Codable {
    /// A name to choose it by (`Set Theme "Name"`).
    public var name: String
    /// The colour behind text without a background of its own.
    public var background: TerminalRGB
    /// The colour of text without a colour of its own.
    public var foreground: TerminalRGB
    /// The cursor's colour.
    public var cursor: TerminalRGB
    /// The selection's colour (kept for themes written for other tools; nothing is selected in
    /// a recording).
    public var selection: TerminalRGB
    /// The 16 ANSI colours: black, red, green, yellow, blue, magenta, cyan, white, then the
    /// bright ones in the same order.
    public var ansi: [TerminalRGB]

    /// The JSON keys of the 16 colours, in palette order.
    public static let ansiKeys = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
                                  "brightBlack", "brightRed", "brightGreen", "brightYellow", "brightBlue",
                                  "brightMagenta", "brightCyan", "brightWhite"]

    /// A theme of the given colours; `cursor` defaults to the foreground, `selection` to a blend of
    /// the foreground and the background. `ansi` must hold 16 colours (black … white, then the
    /// bright ones).
    public init(name: String, background: TerminalRGB, foreground: TerminalRGB, cursor: TerminalRGB? = nil,
                selection: TerminalRGB? = nil, ansi: [TerminalRGB]) {
        precondition(ansi.count == 16, "TerminalTheme: \(ansi.count) ANSI colours, 16 expected")
        self.name = name; self.background = background; self.foreground = foreground
        self.cursor = cursor ?? foreground; self.selection = selection ?? foreground.mixed(with: background, amount: 0.7)
        self.ansi = ansi
    }

    /// A theme from its JSON text; missing ANSI colours are an error naming them.
    public init(json: String) throws {
        self = try JSONDecoder().decode(TerminalTheme.self, from: Data(json.utf8))
    }

    // MARK: Colours

    /// The RGB of a cell colour: the default foreground or background, a palette entry, or the
    /// colour itself.
    public func resolve(_ color: TerminalColor, isForeground: Bool) -> TerminalRGB {
        switch color {
        case .default: isForeground ? foreground : background
        case .indexed(let i): paletteColor(Int(i))
        case .rgb(let r, let g, let b): TerminalRGB(r, g, b)
        }
    }

    /// Entry `index` of the 256-colour palette.
    public func paletteColor(_ index: Int) -> TerminalRGB {
        switch index {
        case 0..<16: return ansi[index]
        case 16..<232:
            let i = index - 16
            let level: (Int) -> UInt8 = { $0 == 0 ? 0 : UInt8(55 + 40 * $0) }
            return TerminalRGB(level(i / 36), level(i / 6 % 6), level(i % 6))
        case 232..<256:
            let v = UInt8(8 + 10 * (index - 232))
            return TerminalRGB(v, v, v)
        default: return foreground
        }
    }

    // MARK: Codable

    private typealias Key = NamedCodingKey

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        name = try c.decodeIfPresent(String.self, forKey: Key("name")) ?? "Custom"
        background = try c.decode(TerminalRGB.self, forKey: Key("background"))
        foreground = try c.decode(TerminalRGB.self, forKey: Key("foreground"))
        cursor = try c.decodeIfPresent(TerminalRGB.self, forKey: Key("cursor"))
            ?? c.decodeIfPresent(TerminalRGB.self, forKey: Key("cursorColor")) ?? foreground
        selection = try c.decodeIfPresent(TerminalRGB.self, forKey: Key("selection"))
            ?? c.decodeIfPresent(TerminalRGB.self, forKey: Key("selectionBackground")) ?? foreground.mixed(with: background, amount: 0.7)
        var colors: [TerminalRGB] = []
        var missing: [String] = []
        for key in Self.ansiKeys {
            let alternatives = [key] + (key == "magenta" ? ["purple"] : key == "brightMagenta" ? ["brightPurple"] : [])
            if let v = try alternatives.lazy.compactMap({ try c.decodeIfPresent(TerminalRGB.self, forKey: Key($0)) }).first {
                colors.append(v)
            } else {
                missing.append(key)
            }
        }
        guard missing.isEmpty else {
            throw DecodingError.keyNotFound(Key(missing[0]), .init(codingPath: decoder.codingPath,
                debugDescription: "the theme has no \(missing.joined(separator: ", ")) (a theme names all 16 ANSI colours)"))
        }
        ansi = colors
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: Key("name"))
        try c.encode(background, forKey: Key("background"))
        try c.encode(foreground, forKey: Key("foreground"))
        try c.encode(cursor, forKey: Key("cursor"))
        try c.encode(selection, forKey: Key("selection"))
        for (key, color) in zip(Self.ansiKeys, ansi) { try c.encode(color, forKey: Key(key)) }
    }
}
