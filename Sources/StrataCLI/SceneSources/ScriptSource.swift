// What a `StrataScript` renders: the program's own scene, with the options that change any scene
// applied. --size, --fps and --duration lay a DSL scene out again; Core Animation code sets them
// in the code. --scale and --limit apply to any scene (--limit on top of the scene's own limits).
import ArgumentParser
import Strata

struct ScriptSource<Script: StrataScript>: SceneSource {
    @OptionGroup var format: SceneFormatOptions
    @OptionGroup var limitOptions: LimitOptions

    static var what: String { "this program's scene" }
    static var renderExamples: String { "" }
    static var defaultOutputHelp: String { Script.defaultOutput }

    func makeScene() throws -> Scene {
        var scene = Script().scene
        if let adjust = try format.adjustment() {
            guard var composition = scene.composition else {
                throw ValidationError("--size, --fps and --duration need a scene built with the DSL (this one is Core Animation code: set its size, frame rate and duration in the code)")
            }
            adjust(&composition)
            scene = try Scene(composition: composition)
        }
        if format.scale != nil { scene.contentsScale = format.contentsScale }
        if !limitOptions.values.isEmpty { scene.limits = try limitOptions.limits(from: scene.limits) }
        do { try scene.validated() } catch { throw CLIError(message: "\(error)") }
        return scene
    }

    func defaultOutput() throws -> String { Script.defaultOutput }
}
