// Keys a tape presses, encoded by libvterm as the terminal's current modes want them (arrows
// are `ESC O A` in application cursor mode, `ESC [ A` otherwise; Ctrl+C is 0x03; Alt prefixes
// ESC; bracketed paste is honoured by the program, not here).
import CVTerm

/// A key that is not a character.
public enum TerminalKey: String, Sendable, Hashable, CaseIterable {
    /// Enter, Tab, Backspace, Escape, the arrow keys, Insert, Delete, Home, End, Page Up and Page Down.
    case enter, tab, backspace, escape, up, down, left, right, insert, delete, home, end, pageUp, pageDown

    var vterm: VTermKey {
        switch self {
        case .enter: VTERM_KEY_ENTER
        case .tab: VTERM_KEY_TAB
        case .backspace: VTERM_KEY_BACKSPACE
        case .escape: VTERM_KEY_ESCAPE
        case .up: VTERM_KEY_UP
        case .down: VTERM_KEY_DOWN
        case .left: VTERM_KEY_LEFT
        case .right: VTERM_KEY_RIGHT
        case .insert: VTERM_KEY_INS
        case .delete: VTERM_KEY_DEL
        case .home: VTERM_KEY_HOME
        case .end: VTERM_KEY_END
        case .pageUp: VTERM_KEY_PAGEUP
        case .pageDown: VTERM_KEY_PAGEDOWN
        }
    }
}

/// Modifier keys held with a key.
public struct TerminalModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The Shift key.
    public static let shift = TerminalModifiers(rawValue: 1)
    /// The Alt (Option, Meta) key: the key's bytes are prefixed with ESC.
    public static let alt = TerminalModifiers(rawValue: 2)
    /// The Control key (Ctrl+C sends 0x03).
    public static let control = TerminalModifiers(rawValue: 4)
}

extension TerminalScreen {
    /// The bytes the terminal sends the program for `key` with `modifiers`.
    public func bytes(for key: TerminalKey, modifiers: TerminalModifiers = []) -> [UInt8] {
        capturingReplies { vterm_keyboard_key(vt, key.vterm, VTermModifier(rawValue: UInt32(modifiers.rawValue))) }
    }

    /// The bytes the terminal sends the program for a character typed with `modifiers`
    /// (Ctrl+C: 0x03).
    public func bytes(for character: Unicode.Scalar, modifiers: TerminalModifiers = []) -> [UInt8] {
        if modifiers.isEmpty { return Array(String(character).utf8) }
        return capturingReplies { vterm_keyboard_unichar(vt, character.value, VTermModifier(rawValue: UInt32(modifiers.rawValue))) }
    }
}
