// What the studio previews: a target that (re)reads itself from disk into a document — the
// scene it makes with parameter values at a scale, the parameters' schema and the files it
// read. The command line supplies targets for templates, terminal sessions, the built-in demo
// and a `StrataScript`'s own scene.
import Foundation
import Strata

/// A previewable thing read from disk (a template, a recording, a script's scene).
public protocol StudioTarget: Sendable {
    /// Reads the target afresh; throws its validation error (the studio keeps the last good one).
    func load() throws -> StudioDocument
}

// @unchecked: `makeScene` makes a new scene at every call from what it captured when the target
// was read (a parsed template, the command line's values), never changed afterwards; the studio
// calls it from its request threads and its render queue.
/// One reading of a target.
public struct StudioDocument: @unchecked Sendable {
    /// The name shown on the page ("lower-third").
    public var name: String
    /// A JSON Schema (draft 2020-12) object of the parameter values, as `strata schema`
    /// prints it (nil: the target takes no parameters).
    public var parametersSchema: Data?
    /// Values given on the command line (`--set`), as text; the page's values override them.
    public var commandLineValues: [String: String]
    /// The files whose change reloads the target.
    public var watchedFiles: [URL]
    /// Files a path parameter may name (relative to the template's folder), offered by the page.
    public var assetFiles: [String] = []
    /// The folder `assetFiles` are in (nil: none).
    public var assetFolder: URL?
    /// The scene with `parameters` (a JSON object of values, or nil for none) at `scale`
    /// pixels per point: exactly the scene `strata still … --scale S` renders.
    public var makeScene: (_ parameters: Data?, _ scale: Double) throws -> Scene

    /// A reading named `name` whose scenes `makeScene` makes; the other fields as above.
    public init(name: String, parametersSchema: Data? = nil, commandLineValues: [String: String] = [:], watchedFiles: [URL] = [],
                makeScene: @escaping (_ parameters: Data?, _ scale: Double) throws -> Scene) {
        self.name = name
        self.parametersSchema = parametersSchema
        self.commandLineValues = commandLineValues
        self.watchedFiles = watchedFiles
        self.makeScene = makeScene
    }
}

/// How the studio serves.
public struct StudioConfiguration: Sendable {
    /// The address to bind (loopback unless the user says otherwise).
    public var host = "127.0.0.1"
    /// The port (0: a free one).
    public var port = 0
    /// The only folder renders are written to.
    public var outputFolder = URL(fileURLWithPath: "out")
    /// The export options of the command line (workers, quality, preset …) renders start from.
    public var exportOptions = ExportOptions()
    /// The scale of a frame request without `scale`.
    public var defaultScale = 1.0
    /// Seconds between two looks at the watched files.
    public var watchInterval = 0.25
    /// Where messages for the terminal go (reloads, errors).
    public var log: @Sendable (String) -> Void = { message in FileHandle.standardError.write(Data((message + "\n").utf8)) }
    /// The session token (nil: a random one). A studio run by `StudioSupervisor` gets its
    /// supervisor's, so that the page's token is valid for both.
    public var token: String?
    /// The generation of the first reading (a supervised studio continues the numbering of the
    /// one it replaces, so that the page never takes a new scene for an old one).
    public var firstGeneration = 0

    /// The defaults: loopback, a free port, a random token.
    public init() {}
}

/// A parameter value the page sent that the target refused, with the parameter's name.
struct FieldError: Error {
    let field: String
    let message: String
}

/// The field an error of making a scene names: `title` for `parameters.title`, else nil.
func fieldOf(_ error: Error) -> (field: String?, message: String) {
    if let e = error as? TemplateErrors, let first = e.errors.first {
        return (parameterName(first.path), e.description)
    }
    if let e = error as? TemplateError { return (parameterName(e.path), e.description) }
    return (nil, "\(error)")
}

private func parameterName(_ path: String) -> String? {
    if path.hasPrefix("parameters.") { return String(path.dropFirst("parameters.".count)) }
    return path == "parameters" ? "parameters" : nil
}
