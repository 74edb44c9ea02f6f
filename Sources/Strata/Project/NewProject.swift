// `strata new NAME`: a ready Swift package that makes a video with Strata — Package.swift
// depending on Strata (by path or URL), a `StrataScript` with a small scene (DSL, Core Animation
// code, or a YAML template it fills in), a test that renders a frame, a .gitignore and a README
// with the commands. Files are only ever created: a folder that exists and holds anything is
// refused, and nothing is replaced or deleted.
import Foundation

/// A new Strata project, described before it is written.
public struct NewProject: Sendable {
    /// What the scene is written with.
    public enum Kind: String, Sendable, CaseIterable {
        /// The result-builder DSL (`Scene { VStack { Text(…) } }`).
        case dsl
        /// Core Animation code (`CALayer`, `CABasicAnimation`), as on iOS.
        case coreanimation
        /// A YAML template (`Templates/NAME/NAME.yaml`) that the script fills in; `strata render`
        /// renders it too, without building anything.
        case template
    }

    /// Where Strata comes from: a local checkout or a git URL.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        /// A local checkout of Strata, by path (`.package(path: …)`).
        case path(String)
        /// A git URL of Strata, on its `main` branch (`.package(url: …, branch: "main")`).
        case url(String)

        /// The path or the URL.
        public var description: String {
            switch self {
            case .path(let p): p
            case .url(let u): u
            }
        }

        /// A path (absolute, or relative to `workingDirectory`) or a URL (`https://`, `git@`,
        /// `ssh://`, `file://`).
        public init(_ reference: String, workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
            if reference.contains("://") || reference.hasPrefix("git@") {
                self = .url(reference)
            } else {
                self = .path(TemplateLibrary.resolve(reference, in: workingDirectory).path)
            }
        }

        /// SwiftPM's name for the package: the last component of the path or URL, without `.git`.
        public var identity: String {
            let text: String
            switch self {
            case .path(let p): text = p
            case .url(let u): text = u
            }
            var last = text.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? "strata"
            if last.hasSuffix(".git") { last.removeLast(4) }
            return last.lowercased()
        }

        /// The `.package(…)` line of Package.swift.
        var packageLine: String {
            switch self {
            case .path(let p): ".package(path: \(swiftLiteral(p)))"
            case .url(let u): ".package(url: \(swiftLiteral(u)), branch: \"main\")"
            }
        }
    }

    /// A problem with the name or the folder.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The package's (and its executable's) name, e.g. `my-video`.
    public let name: String
    /// What the scene is written with (default `.dsl`).
    public var kind: Kind
    /// Where the project's Package.swift takes Strata from.
    public var strata: Source

    /// Checks the name: letters, digits, `-` and `_`, starting with a letter.
    public init(name: String, kind: Kind = .dsl, strata: Source) throws {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
              name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
        else {
            throw Problem(description: "\"\(name)\" cannot name a project: use ASCII letters, digits, - and _, starting with a letter (e.g. my-video)")
        }
        self.name = name
        self.kind = kind
        self.strata = strata
    }

    /// The Swift type of the script: `my-video` → `MyVideo`.
    public var typeName: String {
        let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" })
        let joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return joined.first?.isLetter == true ? joined : "Video" + joined
    }

    /// The module name of the executable target (`my-video` → `my_video`), for `@testable import`.
    public var moduleName: String { name.replacingOccurrences(of: "-", with: "_") }

    /// The files to write, by path relative to the project folder.
    public var files: [(path: String, contents: String)] {
        var files: [(String, String)] = [
            ("Package.swift", packageManifest),
            ("Sources/\(name)/\(typeName).swift", script),
            ("Tests/\(typeName)Tests/\(typeName)Tests.swift", tests),
            (".gitignore", gitignore),
            ("README.md", readme),
        ]
        if kind == .template { files.append(("Templates/\(name)/\(name).yaml", NewProjectFiles.template(self))) }
        return files
    }

    /// Writes the project into `folder`, which must not exist or be empty. Never replaces or
    /// deletes anything: a file that appears meanwhile stops the writing with an error.
    public func create(at folder: URL) throws {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        if fm.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw Problem(description: "\(folder.path) exists and is not a folder: choose another name") }
            let items = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
            guard items.isEmpty else {
                throw Problem(description: "\(folder.path) exists and is not empty (\(items.count) item\(items.count == 1 ? "" : "s")): Strata does not write into it; choose another name or an empty folder")
            }
        }
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        // Where the README's commands write (-o out/NAME.mp4): renders refuse a missing folder.
        try fm.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        for (path, contents) in files {
            let url = folder.appendingPathComponent(path)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            // `.withoutOverwriting`: O_EXCL, so a file that appeared meanwhile is kept and reported.
            do { try Data(contents.utf8).write(to: url, options: .withoutOverwriting) } catch {
                throw Problem(description: "cannot write \(url.path): \(error.localizedDescription)")
            }
        }
    }

    /// The Strata checkout a `strata` executable belongs to, for `--strata`'s default: the path
    /// `scripts/install.sh` recorded in `PREFIX/share/strata/checkout`, or the checkout whose
    /// `.build` holds the executable. Nil when neither is found.
    public static func defaultStrata(executable: URL? = nil) -> Source? {
        let program = (executable ?? TemplateLibrary.runningExecutable()).resolvingSymlinksInPath()
        let record = program.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/strata/checkout")
        if let text = try? String(contentsOf: record, encoding: .utf8) {
            let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if isStrataCheckout(URL(fileURLWithPath: path)) { return .path(path) }
        }
        var folder = program.deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            if isStrataCheckout(folder) { return .path(folder.path) }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Whether `folder` holds Strata's package (a Package.swift and Sources/Strata).
    static func isStrataCheckout(_ folder: URL) -> Bool {
        let fm = FileManager.default
        guard let manifest = try? String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8) else { return false }
        return manifest.contains("name: \"Strata\"") && fm.fileExists(atPath: folder.appendingPathComponent("Sources/Strata").path)
    }
}

/// A Swift string literal of `text`.
func swiftLiteral(_ text: String) -> String {
    var out = "\""
    for ch in text.unicodeScalars {
        switch ch {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default: out.unicodeScalars.append(ch)
        }
    }
    return out + "\""
}
