// What a command renders: a template filled in with --set/--data values, or the built-in demo when
// no template is named; and the options that change any scene (--size, --fps, --duration,
// --scale). Templates are named by path or by name (`strata templates` lists them).
import ArgumentParser
import Foundation
import Strata

struct SceneSource: ParsableArguments {
    @Argument(help: ArgumentHelp("A template: a .yaml/.json file, its folder, or a name from `strata templates`.",
                                 discussion: "Without one, the built-in demo is rendered."))
    var template: String?
    @Option(name: .customLong("set"), help: ArgumentHelp("A parameter value, KEY=VALUE (repeat for more).", valueName: "key=value"))
    var values: [String] = []
    @Option(help: ArgumentHelp("A JSON file with an object of parameter values (--set wins over it).", valueName: "file.json"))
    var data: String?
    @Option(name: .customLong("allow-assets"), help: ArgumentHelp("A folder the template may read files from besides its own (repeatable).", valueName: "dir"))
    var allowAssets: [String] = []
    @Option(help: "Canvas size in points, WIDTHxHEIGHT (a template is laid out again; default: its own, or 1280x720 for the demo).")
    var size: String?
    @Option(parsing: .unconditional, help: "Frames per second, e.g. 30, 60, 29.97 (default: the template's, or 30).")
    var fps: Double?
    @Option(parsing: .unconditional, help: "Length in seconds (default: the template's, or 4).")
    var duration: Double?
    @Option(parsing: .unconditional, help: "Pixels per point of the output: 0.5 renders at half size, 2 at twice.")
    var scale: Double?
    @Option(name: .customLong("limit"), help: ArgumentHelp("Raise or lower a resource limit, NAME=N (repeatable; the names are listed below).",
                                                           discussion: limitsHelp, valueName: "name=n"))
    var limitValues: [String] = []

    /// The limits with --limit applied (and the process-wide ones set on the image cache).
    func limits() throws -> SceneLimits { try parseLimits(limitValues) }

    /// The template named, read and checked for syntax (nil: the demo).
    func loadTemplate() throws -> Template? {
        guard let template else { return nil }
        do {
            return try Template(contentsOf: TemplateLibrary.locate(template))
        } catch {
            throw CLIError(message: "\(error)")
        }
    }

    /// The parameter values given on the command line.
    func arguments() throws -> TemplateArguments {
        var arguments = TemplateArguments(text: try parseAssignments(values))
        if let data {
            guard template != nil else { throw ValidationError("--data needs a template: the built-in demo has no parameters") }
            if let problem = InputFile.problem(at: data) { throw CLIError(message: "\(data): cannot read the file (\(problem))") }
            do { try arguments.addJSON(contentsOf: URL(fileURLWithPath: data), limits: try limits()) } catch let e as ValidationError {
                throw e
            } catch {
                throw CLIError(message: "\(error)")
            }
        } else if !values.isEmpty && template == nil {
            throw ValidationError("--set needs a template: the built-in demo has no parameters")
        }
        return arguments
    }

    var allowedAssetFolders: [URL] { allowAssets.map { URL(fileURLWithPath: $0).standardizedFileURL } }

    /// Checks --size/--fps/--duration and returns the change they make to a composition.
    func compositionAdjustment() throws -> (@Sendable (inout Composition) -> Void)? {
        try makeAdjustment(size: size, fps: fps, duration: duration)
    }

    /// The checked --scale.
    func contentsScale() throws -> CGFloat { try checkedScale(scale) }

    /// The scene to render: the filled-in template, or the demo.
    func makeScene() throws -> Scene {
        let scale = try contentsScale()
        let limits = try self.limits()
        let scene: Scene
        if let template = try loadTemplate() {
            let arguments = try self.arguments()
            let adjust = try compositionAdjustment()
            do {
                scene = try template.makeScene(arguments, allowAssets: allowedAssetFolders, limits: limits, adjust: adjust)
            } catch {
                throw CLIError(message: "\(error)")
            }
        } else {
            if !values.isEmpty || data != nil { _ = try arguments() }
            let size = try self.size.map(parseSize) ?? CGSize(width: 1280, height: 720)
            scene = BuiltInDemo.makeScene(size: size, frameRate: fps ?? 30, duration: duration ?? 4)
        }
        scene.contentsScale = scale
        scene.limits = limits
        do { try scene.validated() } catch { throw CLIError(message: "\(error)") }
        return scene
    }
}

/// The change --size, --fps and --duration make to a composition (nil: none), checked.
func makeAdjustment(size: String?, fps: Double?, duration: Double?) throws -> (@Sendable (inout Composition) -> Void)? {
    let size = try size.map(parseSize)
    if let fps { guard fps.isFinite, fps > 0, fps <= 240 else { throw ValidationError("--fps \(fps) must be in (0, 240]") } }
    if let duration { guard duration.isFinite, duration > 0, duration <= 24 * 3600 else { throw ValidationError("--duration \(duration) must be in (0, 86400] seconds") } }
    guard size != nil || fps != nil || duration != nil else { return nil }
    return { c in
        if let size { c.size = [Double(size.width), Double(size.height)] }
        if let fps { c.frameRate = fps }
        if let duration { c.duration = duration }
    }
}

/// The checked --scale (1 when not given).
func checkedScale(_ scale: Double?) throws -> CGFloat {
    guard let scale else { return 1 }
    guard scale.isFinite, scale > 0, scale <= 8 else { throw ValidationError("--scale \(scale) must be in (0, 8]") }
    return CGFloat(scale)
}

/// The limits `--limit` lists, one a line.
let limitsHelp = "Limits: " + SceneLimits.names.map { "\($0.name) (\($0.meaning))" }.joined(separator: "; ") + "."

/// The default limits with `items` (NAME=N) applied; the process-wide ones (images) are set on
/// the image cache at once, before templates load their images.
func parseLimits(_ items: [String]) throws -> SceneLimits {
    var limits = SceneLimits()
    for item in items {
        guard let eq = item.firstIndex(of: "=") else {
            throw ValidationError("--limit '\(item)' must be NAME=N, e.g. --limit frames=2000000")
        }
        do { try limits.set(String(item[..<eq]), to: String(item[item.index(after: eq)...])) } catch {
            throw ValidationError("--limit: \(error)")
        }
    }
    limits.applyToDecoders()
    return limits
}

/// `key=value` pairs; the key must be a parameter name, the value may be empty or hold `=`.
func parseAssignments(_ items: [String]) throws -> [String: String] {
    var result: [String: String] = [:]
    for item in items {
        guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
            throw ValidationError("--set '\(item)' must be KEY=VALUE, e.g. --set title='Hello'")
        }
        result[String(item[..<eq])] = String(item[item.index(after: eq)...])
    }
    return result
}

/// Parses `WIDTHxHEIGHT`.
func parseSize(_ s: String) throws -> CGSize {
    let parts = s.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w.isFinite, h.isFinite, w > 0, h > 0 else {
        throw ValidationError("--size '\(s)' must be WIDTHxHEIGHT with positive numbers, e.g. 1280x720")
    }
    return CGSize(width: w, height: h)
}

/// The reason a file could not be read, in a few words.
func readReason(_ error: Error) -> String {
    // Strata's own errors say what they mean; NSError's bridge would say "(strata.CLIError error 1.)".
    let type = type(of: error)
    if type is CustomStringConvertible.Type, !(type is NSError.Type), !(error is CocoaError) { return "\(error)" }
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    if ns.domain == NSCocoaErrorDomain && ns.code == NSFileReadNoSuchFileError { return "no such file" }
    return ns.localizedDescription
}

/// How progress is shown: a line on a terminal (default), JSON lines on stdout, or nothing.
struct ProgressStyleOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "No progress output.")
    var quiet = false
    @Flag(help: "Progress and results as JSON lines on stdout.")
    var json = false

    var style: ProgressLine.Style { json ? .json : quiet ? .quiet : .terminal }

    func validate() throws {
        if quiet && json { throw ValidationError("--quiet and --json cannot be used together") }
    }
}
