// Where a rendering command's scene comes from. `render`, `still` and `sheet` are one command
// each, generic over their source: `strata` renders a template (or the built-in demo) through
// `TemplateSource`, a `StrataScript` renders its own scene through `ScriptSource`; both take the
// same flags for the rest.
import ArgumentParser
import Strata
import StrataStudio

protocol SceneSource: ParsableArguments {
    /// What is rendered, for the commands' help: "a template (or the built-in demo)".
    static var what: String { get }
    /// Example command lines for `render --help` (empty: none).
    static var renderExamples: String { get }
    /// What `render` writes without -o, for its help.
    static var defaultOutputHelp: String { get }

    /// The scene to render, with the source's options applied and checked.
    func makeScene() throws -> Scene
    /// The scene with what the input asks to write besides (a tape's outputs, text and
    /// screenshots); work that takes long (running a tape) stops when `cancellation` does.
    func makeRender(cancellation: ExportCancellation) throws -> SourceRender
    /// The path `render` writes without -o (a folder it needs is made).
    func defaultOutput() throws -> String
    /// Export settings the input sets itself (a template's `export:` block); the flags win.
    func exportDefaults() throws -> ExportSettings
    /// What `preview` serves: the source read afresh at every reload.
    func studioTarget() throws -> any StudioTarget
    /// The scale of a studio frame request that names none (--scale where the source has it).
    var previewScale: Double { get }
}

extension SceneSource {
    func exportDefaults() throws -> ExportSettings { ExportSettings() }

    func makeRender(cancellation: ExportCancellation) throws -> SourceRender { SourceRender(scene: try makeScene()) }
}
