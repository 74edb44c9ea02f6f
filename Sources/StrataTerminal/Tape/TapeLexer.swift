// The words of one tape line: bare words, quoted strings ("…", '…', `…` — no escapes, as in
// VHS: choose a quote the text does not contain), /regular expressions/ (\/ for a slash), a
// JSON object (a theme) and `#` comment lines. Columns count characters from 1.

/// A token of a tape line.
struct TapeToken {
    enum Kind { case word(String), string(String), regex(String) }
    var kind: Kind
    var column: Int
    /// The token's value as text (a word, or a string's content).
    var text: String {
        switch kind {
        case .word(let s), .string(let s), .regex(let s): s
        }
    }
}

/// Splits one line into tokens.
struct TapeLexer {
    let file: String
    let number: Int
    private let chars: [Character]
    private var i = 0
    private var tokens = 0

    init(line: String, file: String, number: Int) {
        self.file = file; self.number = number; chars = Array(line)
    }

    func error(at token: TapeToken, _ message: String) -> TerminalInputError {
        TerminalInputError(file: file, line: number, column: token.column, message: message)
    }

    private func error(column: Int, _ message: String) -> TerminalInputError {
        TerminalInputError(file: file, line: number, column: column, message: message)
    }

    /// The next token (nil at the end of the line or at a comment).
    mutating func next() throws -> TapeToken? {
        while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
        // A comment is a whole line (a later # is text: `Set MarginFill #336699`).
        guard i < chars.count, !(chars[i] == "#" && tokens == 0) else { return nil }
        tokens += 1
        let start = i
        let c = chars[i]
        if c == "\"" || c == "'" || c == "`" {
            i += 1
            guard let end = chars[i...].firstIndex(of: c) else { throw error(column: start + 1, "this string has no closing \(c)") }
            let s = String(chars[i..<end])
            i = end + 1
            return TapeToken(kind: .string(s), column: start + 1)
        }
        if c == "/" {
            i += 1
            var s = ""
            while i < chars.count, chars[i] != "/" {
                if chars[i] == "\\", i + 1 < chars.count, chars[i + 1] == "/" { s.append("/"); i += 2; continue }
                s.append(chars[i]); i += 1
            }
            guard i < chars.count else { throw error(column: start + 1, "this regular expression has no closing /") }
            i += 1
            return TapeToken(kind: .regex(s), column: start + 1)
        }
        if c == "{" {
            // A JSON object to the end of the line.
            let s = String(chars[i...])
            i = chars.count
            return TapeToken(kind: .word(s), column: start + 1)
        }
        while i < chars.count, chars[i] != " ", chars[i] != "\t" { i += 1 }
        return TapeToken(kind: .word(String(chars[start..<i])), column: start + 1)
    }

    /// The next token, or an error saying what was `expected`.
    mutating func expect(_ expected: String) throws -> TapeToken {
        guard let t = try next() else { throw error(column: chars.count + 1, "expected \(expected)") }
        return t
    }

    /// The next token's text (a word or a string).
    mutating func expectText(_ expected: String) throws -> String {
        let t = try expect(expected)
        if case .regex = t.kind { throw error(at: t, "expected \(expected)") }
        return t.text
    }
}
