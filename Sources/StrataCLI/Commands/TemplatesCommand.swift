// `strata templates`: lists the installed templates, or describes one's parameters.
import ArgumentParser
import Foundation
import Strata

struct TemplatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "List the templates, or describe one's parameters.",
        discussion: "Templates are found in $STRATA_TEMPLATES (folders separated by ':'), ./Templates, PREFIX/share/strata/Templates for PREFIX/bin/strata (where scripts/install.sh PREFIX puts them), and /opt/strata/Templates.")

    @Argument(help: "A template to describe (name or path).")
    var template: String?
    @Flag(help: "Print JSON.")
    var json = false

    /// One installed template: its summary, or why it cannot be read.
    private struct Entry {
        let name: String
        let path: String
        let outcome: Result<(description: String, format: String), CLIError>

        var jsonObject: [String: Any] {
            switch outcome {
            case .success(let t): ["name": name, "path": path, "description": t.description, "format": t.format]
            case .failure(let e): ["name": name, "path": path, "error": e.message]
            }
        }
    }

    func run() throws {
        if let template {
            let t: Template
            do { t = try Template(contentsOf: TemplateLibrary.locate(template)) } catch { throw CLIError(message: "\(error)") }
            describe(t)
            return
        }
        let folders = TemplateLibrary.searchFolders()
        let entries = TemplateLibrary.installed(in: folders).map { entry in
            do {
                let t = try Template(contentsOf: entry.url)
                return Entry(name: entry.name, path: entry.url.path, outcome: .success((t.summary ?? "", format(t))))
            } catch {
                return Entry(name: entry.name, path: entry.url.path, outcome: .failure(CLIError(message: "\(error)")))
            }
        }
        if json {
            printJSON(["folders": folders.map(\.path), "templates": entries.map(\.jsonObject)])
            return
        }
        if entries.isEmpty {
            print(TemplateLibrary.nothingFoundMessage())
            return
        }
        let width = entries.map(\.name.count).max() ?? 0
        for entry in entries {
            let name = entry.name.padding(toLength: width, withPad: " ", startingAt: 0)
            switch entry.outcome {
            case .success(let t): print("\(name)  \(t.format)  \(t.description)")
            case .failure(let e): print("\(name)  (invalid: \(e.message))")
            }
        }
        print("\nDescribe one with: strata templates NAME")
    }

    /// "1920×1080 30 fps 5 s" with the template's defaults ("?" where they do not fill it in).
    private func format(_ t: Template) -> String {
        guard let (c, _) = try? t.composition() else { return "?" }
        return "\(formatNumber(c.size[0]))×\(formatNumber(c.size[1])) \(formatNumber(c.frameRate)) fps \(formatNumber(c.duration)) s"
    }

    private func describe(_ t: Template) {
        if json {
            var parameters: [[String: Any]] = []
            for p in t.parameters {
                var d: [String: Any] = ["name": p.name, "type": p.kind.rawValue]
                if let h = p.help { d["description"] = h }
                d["default"] = p.defaultText ?? NSNull()
                if let v = p.values { d["values"] = v }
                if let m = p.minimum { d["min"] = m }
                if let m = p.maximum { d["max"] = m }
                if let m = p.maxLength { d["maxLength"] = m }
                parameters.append(d)
            }
            printJSON(["name": t.name, "path": t.url.path, "description": t.summary ?? "", "format": format(t), "parameters": parameters])
            return
        }
        print("\(t.name) — \(t.url.path)")
        if let s = t.summary { print(s) }
        print("Format (defaults): \(format(t))")
        if t.parameters.isEmpty { print("\nNo parameters."); return }
        print("\nParameters (--set NAME=VALUE):")
        for p in t.parameters { print("  " + p.summary) }
    }
}
