// The error of a terminal input (a recording, a tape): the file, the line (and column) and what
// is wrong, printed as `file:line:column: message`.

/// A problem in a recording or a tape, or in running a tape.
public struct TerminalInputError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String

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
