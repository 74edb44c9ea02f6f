// The `strata` command line: render a template or the built-in demo to video, GIF, PNG frames,
// a still or a contact sheet; batch-render a template over rows of data; check, list and describe
// templates and print their schema; join rendered chunks; probe media files. The `strata`
// executable's `main` runs it.
import ArgumentParser
import Strata

/// The `strata` command (`StrataCommand.main()` runs the process's command line).
public struct StrataCommand: ParsableCommand {
    /// The command's name, summary and subcommands (`render`, `still`, `sheet`, `batch`, `validate`,
    /// `templates`, `schema`, `concat`, `probe`, `new`, `preview`).
    public static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Core Animation for Linux, rendered to video and GIF.",
        subcommands: [RenderCommand<TemplateSource>.self, StillCommand<TemplateSource>.self, SheetCommand<TemplateSource>.self,
                      BatchCommand.self, ValidateCommand.self, TemplatesCommand.self, SchemaCommand.self,
                      ConcatCommand.self, ProbeCommand.self, NewCommand.self, PreviewCommand<TemplateSource>.self])

    /// A command with default options (ArgumentParser fills them in when parsing).
    public init() {}

    /// Registers the node kinds of the modules the command line links (a template's `terminal`
    /// node), then parses the process's arguments and runs the command.
    public static func main() {
        LinkedNodeKinds.register()
        main(nil)
    }
}
