// Where templates are found. A template is named by a path (a .yaml/.yml/.json file, or a folder
// holding one named like the folder) or by a bare name looked up in the template folders, first
// match winning: each folder of $STRATA_TEMPLATES (colon-separated), ./Templates, the
// share/strata/Templates folder beside the executable's bin folder (PREFIX/share/strata/Templates
// for PREFIX/bin/strata, where scripts/install.sh and the Docker image put them), and
// /opt/strata/Templates (older images).
import Foundation

/// Finds templates by path or by name in the template folders (`$STRATA_TEMPLATES`,
/// `./Templates`, `PREFIX/share/strata/Templates`, `/opt/strata/Templates`), and lists them.
public enum TemplateLibrary {
    /// The extensions a template file may have.
    public static let extensions = ["yaml", "yml", "json"]

    /// The folders searched for templates by name, in order (existing ones only).
    public static func searchFolders(environment: [String: String] = ProcessInfo.processInfo.environment,
                                     workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                                     executable: URL? = nil)
        -> [URL]
    {
        var seen = Set<String>()
        return candidateFolders(environment: environment, workingDirectory: workingDirectory, executable: executable).filter { url in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { return false }
            return seen.insert(url.standardizedFileURL.path).inserted
        }
    }

    /// Every folder where templates are looked for, in order, whether it exists or not: each
    /// folder of `$STRATA_TEMPLATES`, `./Templates`, `PREFIX/share/strata/Templates` for the
    /// `PREFIX/bin` holding the executable (where `scripts/install.sh PREFIX` puts them), and
    /// `/opt/strata/Templates`.
    public static func candidateFolders(environment: [String: String] = ProcessInfo.processInfo.environment,
                                        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                                        executable: URL? = nil)
        -> [URL]
    {
        var folders: [URL] = []
        if let list = environment["STRATA_TEMPLATES"] {
            for part in list.split(separator: ":") where !part.isEmpty {
                folders.append(resolve(String(part), in: workingDirectory))
            }
        }
        folders.append(workingDirectory.appendingPathComponent("Templates"))
        folders.append(installedTemplatesFolder(executable: executable))
        folders.append(URL(fileURLWithPath: "/opt/strata/Templates"))
        return folders
    }

    /// `path` made absolute against `folder` (which need not exist yet, nor end in "/").
    static func resolve(_ path: String, in folder: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path).standardizedFileURL
            : URL(fileURLWithPath: folder.path, isDirectory: true).appendingPathComponent(path).standardizedFileURL
    }

    /// `PREFIX/share/strata/Templates` for the executable at `PREFIX/bin/strata` (symbolic
    /// links resolved; default: the running program).
    public static func installedTemplatesFolder(executable: URL? = nil) -> URL {
        let program = executable ?? runningExecutable()
        return program.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/strata/Templates")
    }

    /// The running program's file: /proc/self/exe where there is one (argv[0] may be a bare name
    /// found on PATH), else argv[0].
    static func runningExecutable() -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "")
    }

    /// What to say when no template is found: each folder searched (and whether it exists) and
    /// how to add one.
    public static func nothingFoundMessage(environment: [String: String] = ProcessInfo.processInfo.environment,
                                           workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                                           executable: URL? = nil) -> String
    {
        var lines = ["No templates found. Searched, in order:"]
        let fm = FileManager.default
        for folder in candidateFolders(environment: environment, workingDirectory: workingDirectory, executable: executable) {
            var isFolder: ObjCBool = false
            let state = !fm.fileExists(atPath: folder.path, isDirectory: &isFolder) ? "does not exist"
                : !isFolder.boolValue ? "not a folder" : "no template in it"
            lines.append("  \(folder.path)  (\(state))")
        }
        lines.append("Add a folder with: export STRATA_TEMPLATES=/path/to/templates   (several: separated by ':')")
        lines.append("or install Strata's own with: scripts/install.sh PREFIX   (from a checkout; they go to PREFIX/share/strata/Templates)")
        return lines.joined(separator: "\n")
    }

    /// The template file `reference` names: a file, a folder with `<folder name>.yaml` (or
    /// .yml/.json) in it, or a name in the search folders.
    public static func locate(_ reference: String, in folders: [URL] = searchFolders()) throws -> URL {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        if fm.fileExists(atPath: reference, isDirectory: &isFolder) {
            let url = URL(fileURLWithPath: reference)
            if !isFolder.boolValue { return url }
            if let file = templateFile(inFolder: url) { return file }
            throw TemplateError(file: reference, line: nil, path: "",
                                message: "this folder holds no template (expected \(url.lastPathComponent).yaml, .yml or .json in it)")
        }
        let looksLikePath = reference.contains("/") || extensions.contains(URL(fileURLWithPath: reference).pathExtension.lowercased())
        if !looksLikePath {
            for folder in folders {
                let sub = folder.appendingPathComponent(reference)
                if let file = templateFile(inFolder: sub) { return file }
                for ext in extensions {
                    let file = folder.appendingPathComponent("\(reference).\(ext)")
                    if fm.fileExists(atPath: file.path) { return file }
                }
            }
        }
        let known = installed(in: folders).map(\.name)
        var hint = looksLikePath ? "no such file"
            : "no template of this name in \(folders.isEmpty ? "any template folder (none exists)" : folders.map(\.path).joined(separator: ", "))"
        if !looksLikePath, let near = NearestName.suggestion(for: reference, among: known) { hint += "; did you mean \"\(near)\"?" }
        if !looksLikePath, !known.isEmpty { hint += " (templates: \(known.joined(separator: ", ")))" }
        if !looksLikePath, known.isEmpty { hint += " (set STRATA_TEMPLATES to a folder of templates, or install them with scripts/install.sh)" }
        throw TemplateError(file: reference, line: nil, path: "", message: hint)
    }

    /// A template found in the search folders.
    public struct Entry: Sendable {
        /// The name it is found by (its folder's or file's name).
        public let name: String
        /// The template file (for a template folder, the file inside it named like the folder).
        public let url: URL
    }

    /// The templates in `folders`, each name once (the first folder wins), sorted by name.
    public static func installed(in folders: [URL] = searchFolders()) -> [Entry] {
        let fm = FileManager.default
        var entries: [String: Entry] = [:]
        for folder in folders {
            let items = (try? fm.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
            for item in items.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
                let name: String, file: URL
                if let f = templateFile(inFolder: item) { name = item.lastPathComponent; file = f }
                else if extensions.contains(item.pathExtension.lowercased()) {
                    name = item.deletingPathExtension().lastPathComponent; file = item
                } else { continue }
                if entries[name] == nil { entries[name] = Entry(name: name, url: file) }
            }
        }
        return entries.values.sorted { $0.name < $1.name }
    }

    private static func templateFile(inFolder folder: URL) -> URL? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        for ext in extensions {
            let file = folder.appendingPathComponent("\(folder.lastPathComponent).\(ext)")
            if FileManager.default.fileExists(atPath: file.path) { return file }
        }
        return nil
    }
}
