// `strata new NAME`: writes a ready Swift package that renders a small scene with Strata (see
// `NewProject`). Refuses a folder that exists and is not empty; never replaces or deletes.
import ArgumentParser
import Foundation
import Strata

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a Swift package that makes a video with Strata.",
        discussion: """
            Writes NAME/Package.swift (depending on Strata), NAME/Sources/NAME/ with a StrataScript \
            (a small scene in the DSL, in Core Animation code, or filling in a YAML template), a test, \
            a .gitignore and a README. Then: cd NAME && swift run NAME -o out/NAME.mp4
            """)

    @Argument(help: "The project's folder (created) and name, e.g. my-video.")
    var name: String
    @Option(help: "What the scene is written with: dsl, coreanimation or template.")
    var template: String = NewProject.Kind.dsl.rawValue
    @Option(help: "Strata's checkout (a path) or git URL (default: the checkout this strata was built or installed from).")
    var strata: String?

    func validate() throws {
        guard NewProject.Kind(rawValue: template) != nil else {
            throw ValidationError("--template \(template): expected one of \(NewProject.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let kind = NewProject.Kind(rawValue: template) ?? .dsl
        let folder = URL(fileURLWithPath: name)
        guard let source = strata.map({ NewProject.Source($0) }) ?? NewProject.defaultStrata() else {
            throw CLIError(message: "cannot tell where Strata's source is: give --strata PATH (a checkout) or --strata URL (its git repository)")
        }
        if case .path(let path) = source, !FileManager.default.fileExists(atPath: path + "/Package.swift") {
            throw CLIError(message: "--strata \(path): no Package.swift there (expected a checkout of Strata)")
        }
        let project: NewProject
        do {
            project = try NewProject(name: folder.lastPathComponent, kind: kind, strata: source)
            try project.create(at: folder)
        } catch { throw CLIError(message: "\(error)") }
        print("created \(name)/ (\(kind.rawValue) scene, Strata from \(source.description))")
        print("""

            cd \(name)
            swift run \(project.name) -o out/\(project.name).mp4   # build (debug; the first build takes minutes) and render
            swift test   # its tests; more in \(name)/README.md
            """)
    }
}
