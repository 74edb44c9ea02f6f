// A template's parameter values given on the command line (`--set KEY=VALUE`, for every row of
// a batch) and the folders besides its own it may read files from (`--allow-assets`).
import ArgumentParser
import Strata

struct ParameterOptions: ParsableArguments {
    @Option(name: .customLong("set"), help: ArgumentHelp("A parameter value, KEY=VALUE (repeatable; in a batch, for every row).", valueName: "key=value"))
    var values: [String] = []
    @Option(name: .customLong("allow-assets"), help: ArgumentHelp("A folder the template may read files from besides its own (repeatable).", valueName: "dir"))
    var allowAssets: [String] = []

    /// The `--set` pairs; the key must be a parameter name, the value may be empty or hold `=`.
    func assignments() throws -> [String: String] {
        var result: [String: String] = [:]
        for item in values {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw ValidationError("--set '\(item)' must be KEY=VALUE, e.g. --set title='Hello'")
            }
            result[String(item[..<eq])] = String(item[item.index(after: eq)...])
        }
        return result
    }

    var allowedAssetFolders: [URL] { allowAssets.map { URL(fileURLWithPath: $0).standardizedFileURL } }
}
