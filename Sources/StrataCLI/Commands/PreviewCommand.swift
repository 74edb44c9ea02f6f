// `preview`: Strata Studio — a local page showing any frame of a template (or terminal session,
// the built-in demo, a script's scene) exactly as `still` renders it, reloading when the files it
// reads change, with a timeline, a parameters panel and a render queue (StrataStudio). Runs until
// Ctrl-C, then cancels its renders (their partial files removed) and stops.
import ArgumentParser
import Foundation
import Strata
import StrataStudio

struct PreviewCommand<Source: SceneSource>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "preview",
                             abstract: "Open Strata Studio: preview \(Source.what) in the browser, reloading on every change.",
                             discussion: """
                             Prints the page's address and serves until Ctrl-C. Frames equal `still --time T --scale S` exactly; \
                             renders from the page are written only to --output-folder with the export flags given here. \
                             The HTTP contract is in docs/studio.md.
                             """)
    }

    @OptionGroup var source: Source
    @Option(help: "The port to serve on (0: a free one, printed).")
    var port: Int = 7878
    @Option(help: "The address to bind; anything but loopback makes the studio reachable from other machines.")
    var host: String = "127.0.0.1"
    @Option(name: .customLong("output-folder"), help: ArgumentHelp("The folder renders from the page are written to.", valueName: "dir"))
    var outputFolder: String = "out"
    @OptionGroup var encoding: EncodingOptions
    @Option(help: "With a Swift package folder as the target: the executable product (a StrataScript) to build and preview, when it has several.")
    var product: String?
    @Option(name: .customLong("build-configuration"), help: ArgumentHelp("With a Swift package folder as the target: how `swift build` builds it, debug or release.", valueName: "debug|release"))
    var buildConfiguration: String = "debug"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) must be between 0 and 65535") }
        guard !host.isEmpty else { throw ValidationError("--host must name an address, e.g. 127.0.0.1") }
        guard ["debug", "release"].contains(buildConfiguration) else {
            throw ValidationError("--build-configuration \(buildConfiguration): expected debug or release")
        }
        if product != nil || buildConfiguration != "debug", packageFolder == nil {
            throw ValidationError("--product and --build-configuration apply to a Swift package folder as the target")
        }
    }

    /// The Swift package folder TARGET names (only `strata preview` takes one).
    private var packageFolder: String? { (source as? TemplateSource)?.swiftPackageFolder }

    private func studioConfiguration(log: @escaping @Sendable (String) -> Void) -> StudioConfiguration {
        var configuration = StudioConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.outputFolder = URL(fileURLWithPath: outputFolder).standardizedFileURL
        configuration.exportOptions = encoding.exportOptions()
        configuration.defaultScale = source.previewScale
        configuration.log = log
        // Started by `strata preview PACKAGE` (StudioSupervisor): its token and generations.
        let environment = ProcessInfo.processInfo.environment
        if let token = environment["STRATA_STUDIO_TOKEN"], !token.isEmpty { configuration.token = token }
        if let text = environment["STRATA_STUDIO_GENERATION"], let first = Int(text), first >= 0 { configuration.firstGeneration = first }
        return configuration
    }

    /// `strata preview PACKAGE-FOLDER`: what builds and supervises the script's own studio.
    /// `arguments`: this command's arguments (after `preview`); the ones for the script's scene
    /// (--scale, --limit, the export options …) are given to its `preview`.
    func makeSupervisor(arguments: [String], log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) throws -> StudioSupervisor? {
        guard let folder = packageFolder else { return nil }
        var package = SwiftPackagePreview(folder: URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL, product: product)
        if let swift = ProcessInfo.processInfo.environment["STRATA_SWIFT"], !swift.isEmpty { package.swift = swift }
        package.buildConfiguration = buildConfiguration
        package.previewArguments = Self.scriptArguments(arguments, target: folder)
        do {
            return try StudioSupervisor(package: package, configuration: studioConfiguration(log: log))
        } catch {
            throw CLIError(message: "\(error)")
        }
    }

    /// `arguments` without the target and the options the supervisor answers itself.
    static func scriptArguments(_ arguments: [String], target: String) -> [String] {
        let own: Set<String> = ["--port", "--host", "--product", "--build-configuration", "--output-folder"]
        var result: [String] = []
        var i = 0, targetSeen = false
        while i < arguments.count {
            let a = arguments[i]
            if own.contains(a) { i += 2; continue }
            if let eq = a.firstIndex(of: "="), own.contains(String(a[..<eq])) { i += 1; continue }
            if !targetSeen, a == target { targetSeen = true; i += 1; continue }
            result.append(a)
            i += 1
        }
        return result
    }

    /// The studio these options describe, not yet serving.
    func makeStudio(log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) throws -> Studio {
        let configuration = studioConfiguration(log: log)
        do {
            return try Studio(target: try source.studioTarget(), configuration: configuration)
        } catch let e as CLIError {
            throw e
        } catch let e as ValidationError {
            throw e
        } catch {
            throw CLIError(message: "\(error)")
        }
    }

    func run() throws {
        InterruptSignals.shared.install()
        let environment = ProcessInfo.processInfo.environment
        if environment["STRATA_STUDIO_SUPERVISED"] == "1" { Self.stopWhenStandardInputCloses() }
        let serving: (port: Int, url: String, stop: () -> Void)
        let arguments = Array(CommandLine.arguments.dropFirst().drop { $0 != "preview" }.dropFirst())
        if let supervisor = try makeSupervisor(arguments: arguments) {
            // Ctrl-C during the first build (minutes) stops it: the build runs in a process
            // group of its own, which the terminal's signal does not reach.
            let starting = ExportCancellation()
            let interrupt = Thread {
                while !starting.isCancelled && !InterruptSignals.shared.cancellation.isCancelled { Thread.sleep(forTimeInterval: 0.1) }
                if !starting.isCancelled { supervisor.stop() }
            }
            interrupt.start()
            defer { starting.cancel() }
            do {
                try supervisor.start()
            } catch {
                if let status = InterruptSignals.shared.exitStatus {
                    FileHandle.standardError.write(Data("studio: stopped during the first build\n".utf8))
                    throw ExitCode(status)
                }
                throw CLIError(message: "\(error)")
            }
            serving = (supervisor.port, supervisor.url, supervisor.stop)
        } else {
            let studio = try makeStudio()
            // Not handed on to what the scene runs (an ffmpeg of a render, the user's code).
            for name in ["STRATA_STUDIO_TOKEN", "STRATA_STUDIO_GENERATION", "STRATA_STUDIO_SUPERVISED"] { unsetenv(name) }
            do { try studio.start() } catch { throw CLIError(message: "\(error)") }
            serving = (studio.port, studio.url, studio.stop)
        }
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            FileHandle.standardError.write(Data("warning: --host \(host) makes the studio reachable from other machines: anyone who can reach \(host):\(serving.port) and load the page can render files into \(outputFolder)\n".utf8))
        }
        // Unbuffered: a script that started the studio reads the address at once.
        InterruptSignals.shared.writeToStandardOutput("Strata Studio: \(serving.url)  (Ctrl-C stops)\n")
        while !InterruptSignals.shared.cancellation.isCancelled { Thread.sleep(forTimeInterval: 0.1) }
        serving.stop()
        InterruptSignals.shared.writeToStandardOutput("Strata Studio stopped\n")
    }

    /// A studio run by `strata preview PACKAGE` stops when its supervisor's end of standard
    /// input closes — however the supervisor ended, even killed: no orphan keeps serving.
    private static func stopWhenStandardInputCloses() {
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let n = read(STDIN_FILENO, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
            }
            InterruptSignals.shared.cancellation.cancel(reason: "the studio's supervisor has gone")
        }
        thread.name = "studio-supervised"
        thread.start()
    }
}

extension SceneSource {
    /// The scale of a frame request without one: --scale where the source has it.
    var previewScale: Double { 1 }

    func studioTarget() throws -> any StudioTarget {
        SceneSourceStudioTarget(name: "scene", files: []) { try self.makeScene() }
    }
}

/// A target that is a whole scene made by a source (a terminal session, the demo, a script's
/// scene): no parameters; the files it names are watched.
// @unchecked: `make` reads a parsed command line, never changed after parsing, and makes a new
// scene at every call.
struct SceneSourceStudioTarget: StudioTarget, @unchecked Sendable {
    let name: String
    let files: [URL]
    let make: () throws -> Scene

    func load() throws -> StudioDocument {
        _ = try make()
        return StudioDocument(name: name, watchedFiles: files) { parameters, scale in
            if parameters != nil { throw CLIError(message: "\(name) takes no parameters") }
            let scene = try make()
            scene.contentsScale = CGFloat(scale)
            try scene.validated()
            return scene
        }
    }
}

/// A template read afresh from its file at every load, filled with the command line's values
/// (--set, --data) overridden by the page's.
// @unchecked: the parsed options are only read (ArgumentParser's property wrappers are not
// marked Sendable).
struct TemplateStudioTarget: StudioTarget, @unchecked Sendable {
    let source: TemplateSource
    let reference: String

    func load() throws -> StudioDocument {
        let url = try TemplateLibrary.locate(reference)
        let template = try Template(contentsOf: url)
        let text = try source.parameters.assignments()
        let limits = try source.limits()
        let adjust = try source.format.adjustment()
        let allow = source.allowedAssetFolders
        let dataFile = source.data
        let watched = Self.watchedFiles(of: url)
        var document = StudioDocument(name: template.name, parametersSchema: Data(template.parametersSchema.utf8),
                                      commandLineValues: text, watchedFiles: watched) { parameters, scale in
            var page: [String: Any] = [:]
            if let parameters { page = (try JSONSerialization.jsonObject(with: parameters) as? [String: Any]) ?? [:] }
            var arguments = TemplateArguments(text: text.filter { page[$0.key] == nil })
            if let dataFile { try arguments.addJSON(contentsOf: URL(fileURLWithPath: dataFile), limits: limits) }
            if let parameters { try arguments.addJSON(parameters, file: "the studio's values", limits: limits) }
            let scene = try template.makeScene(arguments, allowAssets: allow, limits: limits, adjust: adjust)
            scene.contentsScale = CGFloat(scale)
            scene.limits = limits
            try scene.validated()
            return scene
        }
        document.assetFiles = watched.dropFirst().filter { !$0.hasDirectoryPath }.map(\.lastPathComponent)
        document.assetFolder = url.deletingLastPathComponent()
        return document
    }

    /// The template's file, the files beside it (its assets and data, at most 500) and their
    /// folder (a file added, removed or saved by renaming changes it).
    static func watchedFiles(of url: URL) -> [URL] {
        var files = [url]
        let folder = url.deletingLastPathComponent()
        let keys: [URLResourceKey] = [.isRegularFileKey]
        if let items = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]) {
            for item in items.sorted(by: { $0.path < $1.path }) where item.standardizedFileURL != url.standardizedFileURL {
                guard files.count < 500 else { break }
                if (try? item.resourceValues(forKeys: Set(keys)))?.isRegularFile == true { files.append(item) }
            }
        }
        return files + [URL(fileURLWithPath: folder.path, isDirectory: true)]
    }
}

extension TemplateSource {
    var previewScale: Double { format.scale ?? 1 }

    /// TARGET when it is a Swift package folder (with Package.swift, and not a template's folder).
    var swiftPackageFolder: String? {
        guard let template, SwiftPackagePreview.isPackage(template), (try? TemplateLibrary.locate(template)) == nil else { return nil }
        return template
    }

    func studioTarget() throws -> any StudioTarget {
        guard let template else {
            return SceneSourceStudioTarget(name: "demo", files: []) { try self.makeScene() }
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: template, isDirectory: &isFolder)
        if TerminalInput.handles(template) {
            let files = exists && !isFolder.boolValue ? [URL(fileURLWithPath: template).standardizedFileURL] : []
            return SceneSourceStudioTarget(name: URL(fileURLWithPath: template).lastPathComponent, files: files) { try self.makeScene() }
        }
        return TemplateStudioTarget(source: self, reference: template)
    }
}

extension ScriptSource {
    var previewScale: Double { format.scale ?? 1 }

    func studioTarget() throws -> any StudioTarget {
        SceneSourceStudioTarget(name: String(describing: Script.self), files: []) { try self.makeScene() }
    }
}
