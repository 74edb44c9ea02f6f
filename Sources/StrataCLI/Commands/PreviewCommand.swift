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

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) must be between 0 and 65535") }
        guard !host.isEmpty else { throw ValidationError("--host must name an address, e.g. 127.0.0.1") }
    }

    /// The studio these options describe, not yet serving.
    func makeStudio(log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) throws -> Studio {
        var configuration = StudioConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.outputFolder = URL(fileURLWithPath: outputFolder).standardizedFileURL
        configuration.exportOptions = encoding.exportOptions()
        configuration.defaultScale = source.previewScale
        configuration.log = log
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
        let studio = try makeStudio()
        do { try studio.start() } catch { throw CLIError(message: "\(error)") }
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            FileHandle.standardError.write(Data("warning: --host \(host) makes the studio reachable from other machines: anyone who can reach \(host):\(studio.port) and load the page can render files into \(outputFolder)\n".utf8))
        }
        // Unbuffered: a script that started the studio reads the address at once.
        InterruptSignals.shared.writeToStandardOutput("Strata Studio: \(studio.url)  (Ctrl-C stops)\n")
        while !InterruptSignals.shared.cancellation.isCancelled { Thread.sleep(forTimeInterval: 0.1) }
        studio.stop()
        InterruptSignals.shared.writeToStandardOutput("Strata Studio stopped\n")
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

    func studioTarget() throws -> any StudioTarget {
        guard let template else {
            return SceneSourceStudioTarget(name: "demo", files: []) { try self.makeScene() }
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: template, isDirectory: &isFolder)
        if exists, isFolder.boolValue, FileManager.default.fileExists(atPath: (template as NSString).appendingPathComponent("Package.swift")),
           (try? TemplateLibrary.locate(template)) == nil {
            throw CLIError(message: "\(template): previewing a Swift package folder is not supported yet; run `swift run PRODUCT preview` in the package (its StrataScript has the command), which previews the scene without hot rebuilds")
        }
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
