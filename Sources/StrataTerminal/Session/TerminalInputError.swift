// The error of a terminal input (a recording, a tape): the file, the line (and column) and what
// is wrong, printed as `file:line:column: message`.

/// A problem in a recording or a tape, or in running a tape.
public struct TerminalInputError: Error, CustomStringConvertible, Equatable {
    /// The file with the problem.
    public var file: String
    /// The 1-based line, when the problem has one.
    public var line: Int?
    /// The 1-based column, when known.
    public var column: Int?
    /// What is wrong.
    public var message: String

    /// An error in `file` at `line` (and `column`) saying `message`; printed as `file:line:column: message`.
    public init(file: String, line: Int?, column: Int? = nil, message: String) {
        self.file = file; self.line = line; self.column = column; self.message = message
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let column { s += ":\(column)" }
        return "\(s): \(message)"
    }
}
