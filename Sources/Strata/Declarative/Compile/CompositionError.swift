// Errors of a composition: each names the JSON path of the value (`layers[2].animations[0].to`)
// and what was expected there. A template error adds the file (and line, where the parser knows
// it) in front.
import Foundation

/// One problem found when compiling a composition.
public struct CompositionIssue: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where, as a JSON path (`layers[1].children[0].fontSize`).
    public var path: String
    /// What is wrong and what was expected.
    public var message: String
    /// `path: message`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every problem a composition has (compiling goes on after the first, so all are reported).
public struct CompositionError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, in the order of the document.
    public var issues: [CompositionIssue]
    /// One issue a line.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
