// The errors and small output helpers the commands share: an error printed as `Error: message`,
// JSON lines on stdout, numbers as a person writes them, the reason a file could not be read, and
// an atomic write of a small file (a batch report).
import Foundation
import Strata

/// An error printed as `Error: message` with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Prints a JSON object on one line (or pretty).
func printJSON(_ object: [String: Any], pretty: Bool = true) {
    var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
    if pretty { options.insert(.prettyPrinted) }
    if let data = try? JSONSerialization.data(withJSONObject: object, options: options) {
        print(String(decoding: data, as: UTF8.self))
    }
}

/// "30", "29.97".
func formatNumber(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(format: "%g", x)
}

/// The reason a file could not be read, in a few words.
func readReason(_ error: Error) -> String {
    // Strata's own errors say what they mean; NSError's bridge would say "(StrataCLI.CLIError error 1.)".
    let type = type(of: error)
    if type is CustomStringConvertible.Type, !(type is NSError.Type), !(error is CocoaError) { return "\(error)" }
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    if ns.domain == NSCocoaErrorDomain && ns.code == NSFileReadNoSuchFileError { return "no such file" }
    return ns.localizedDescription
}

/// Writes `data` under a temporary name beside `url`, then renames it.
func writeAtomically(_ data: Data, to url: URL) throws {
    if let reason = OutputDestination.refusal(at: url.path) { throw CLIError(message: "cannot write \(url.path): \(reason)") }
    let temp = TemporaryOutput.url(for: url)
    do {
        try data.write(to: temp)
        guard rename(temp.path, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    } catch {
        try? FileManager.default.removeItem(at: temp)
        throw error
    }
}
