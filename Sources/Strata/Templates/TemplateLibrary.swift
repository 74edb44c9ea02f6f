// Where templates are found. A template is named by a path (a .yaml/.yml/.json file, or a folder
// holding one named like the folder) or by a bare name looked up in the template folders, first
// match winning: each folder of $STRATA_TEMPLATES (colon-separated), ./Templates, the
// share/strata/Templates folder beside the executable's bin folder, and /opt/strata/Templates
// (where the Docker image puts them).
import Foundation

public enum TemplateLibrary {
    /// The extensions a template file may have.
    public static let extensions = ["yaml", "yml", "json"]

    /// The folders searched for templates by name, in order (existing ones only).
    public static func searchFolders(environment: [String: String] = ProcessInfo.processInfo.environment,
                                     workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        -> [URL]
    {
        var folders: [URL] = []
        if let list = environment["STRATA_TEMPLATES"] {
            for part in list.split(separator: ":") where !part.isEmpty {
                folders.append(URL(fileURLWithPath: String(part), relativeTo: workingDirectory).standardizedFileURL)
            }
        }
        folders.append(workingDirectory.appendingPathComponent("Templates"))
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        folders.append(executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/strata/Templates"))
        folders.append(URL(fileURLWithPath: "/opt/strata/Templates"))
        var seen = Set<String>()
        return folders.filter { url in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { return false }
            return seen.insert(url.standardizedFileURL.path).inserted
        }
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
        let hint = looksLikePath ? "no such file"
            : "no template of this name in \(folders.isEmpty ? "any template folder (none exists)" : folders.map(\.path).joined(separator: ", "))"
                + (known.isEmpty ? "" : "; templates: \(known.joined(separator: ", "))")
        throw TemplateError(file: reference, line: nil, path: "", message: hint)
    }

    /// A template found in the search folders.
    public struct Entry: Sendable {
        /// The name it is found by (its folder's or file's name).
        public let name: String
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
