// `--limit NAME=N`: raises or lowers one of a scene's resource limits (SceneLimits names them).
import ArgumentParser
import Strata

struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("limit"), help: ArgumentHelp("Raise or lower a resource limit, NAME=N (repeatable; the names are listed below).",
                                                           discussion: LimitOptions.help, valueName: "name=n"))
    var values: [String] = []

    /// The limits `--limit` lists, one a line.
    static let help = "Limits: " + SceneLimits.names.map { "\($0.name) (\($0.meaning))" }.joined(separator: "; ") + "."

    /// `base` with --limit applied (the scene made with them decodes its images and videos under
    /// them: `Scene.mediaContext`).
    func limits(from base: SceneLimits = SceneLimits()) throws -> SceneLimits {
        var limits = base
        for item in values {
            guard let eq = item.firstIndex(of: "=") else {
                throw ValidationError("--limit '\(item)' must be NAME=N, e.g. --limit frames=2000000")
            }
            do { try limits.set(String(item[..<eq]), to: String(item[item.index(after: eq)...])) } catch {
                throw ValidationError("--limit: \(error)")
            }
        }
        return limits
    }
}
