// `strata schema`: the JSON Schema of the template format, or of one template's parameter values.
import ArgumentParser
import Strata

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of the template format (or of one template's parameter values).")

    @Option(help: "Print instead the schema of this template's parameter values (a --data file, a JSON Lines row).")
    var parameters: String?

    func run() throws {
        if let parameters {
            let t: Template
            do { t = try Template(contentsOf: TemplateLibrary.locate(parameters)) } catch { throw CLIError(message: "\(error)") }
            print(t.parametersSchema)
        } else {
            print(TemplateSchema.json)
        }
    }
}
