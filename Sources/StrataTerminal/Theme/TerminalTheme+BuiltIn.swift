// The themes Strata ships, chosen by name (`Set Theme "Strata Light"`, `--theme`). Their values
// are Strata's own: a dark and a light default, and three with a character of their own.

extension TerminalTheme {
    private static func make(_ name: String, bg: String, fg: String, cursor: String, selection: String, _ ansi: [String]) -> TerminalTheme {
        TerminalTheme(name: name, background: TerminalRGB(hex: bg)!, foreground: TerminalRGB(hex: fg)!,
                      cursor: TerminalRGB(hex: cursor)!, selection: TerminalRGB(hex: selection)!,
                      ansi: ansi.map { TerminalRGB(hex: $0)! })
    }

    /// The default: a dark grey-blue background with soft, readable colours.
    public static let strataDark = make("Strata Dark", bg: "#1b1d23", fg: "#d6d9e0", cursor: "#f2c14e", selection: "#3a4150", [
        "#23262d", "#e2666b", "#8cc265", "#e0b55a", "#5fa3e8", "#c07ae0", "#4fc1c9", "#c8ccd4",
        "#5a606c", "#f2878b", "#a8dc84", "#f0cd7a", "#86bdf5", "#d79cf0", "#78d8de", "#f4f6fa"])
    /// Dark text on warm white.
    public static let strataLight = make("Strata Light", bg: "#fbf9f4", fg: "#2b2d33", cursor: "#d9480f", selection: "#dcd8cc", [
        "#2b2d33", "#c8283a", "#2e8a32", "#a86d00", "#2459c2", "#8e3bb5", "#11808a", "#d3d0c8",
        "#6b6e76", "#e04455", "#44a64a", "#c48b14", "#3b74de", "#a957cf", "#239aa4", "#f2f0ea"])
    /// Deep blue night with cool accents.
    public static let midnight = make("Midnight", bg: "#0d1321", fg: "#c9d4e6", cursor: "#7fdbca", selection: "#24324d", [
        "#141c2e", "#ef6f7b", "#7fd1a0", "#ecc97a", "#6aa8ff", "#b48cf2", "#6fd6e0", "#b4c0d3",
        "#3d4a63", "#ff8e98", "#9ee6b8", "#f7dc9a", "#93c1ff", "#cbaaf7", "#92e6ee", "#eef3fb"])
    /// Green phosphor on black, every colour a shade of green.
    public static let phosphor = make("Phosphor", bg: "#050a05", fg: "#5cff7a", cursor: "#9dffad", selection: "#16401f", [
        "#050a05", "#2fa84a", "#46d362", "#7be88f", "#2c8a3f", "#3fbf5a", "#5fe07a", "#8cf59e",
        "#1f5c2b", "#4cc867", "#66ef80", "#a0f5ae", "#40a955", "#5ad873", "#83f497", "#c8ffd2"])
    /// Paper and ink: near-monochrome, for documentation on light pages.
    public static let paper = make("Paper", bg: "#ffffff", fg: "#1a1a1a", cursor: "#1a1a1a", selection: "#e3e3e3", [
        "#1a1a1a", "#b3261e", "#2f6b2f", "#7a5a00", "#1f4f99", "#6b2d86", "#1d6470", "#9e9e9e",
        "#595959", "#d0453b", "#3f8a3f", "#9c7700", "#3366bb", "#8746a3", "#2b8293", "#f0f0f0"])

    /// Every built-in theme, the default first.
    public static let builtIn: [TerminalTheme] = [strataDark, strataLight, midnight, phosphor, paper]

    /// The built-in theme called `name` (case and spaces, dashes and underscores ignored).
    public static func named(_ name: String) -> TerminalTheme? {
        func key(_ s: String) -> String { s.lowercased().filter { $0.isLetter || $0.isNumber } }
        return builtIn.first { key($0.name) == key(name) }
    }
}
