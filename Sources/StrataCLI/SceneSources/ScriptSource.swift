// What a `StrataScript` renders: the program's own scene, with the options that change any scene
// applied. --size, --fps and --duration build a DSL scene again at the new format (its scene.at
// blocks and audio with it); Core Animation code sets them in the code. --scale and --limit apply to any scene (--limit on top of the scene's own limits).
import ArgumentParser
import Strata

struct ScriptSource<Script: StrataScript>: SceneSource {
    @OptionGroup var format: SceneFormatOptions
    @OptionGroup var limitOptions: LimitOptions

    static var what: String { "this program's scene" }
    static var renderExamples: String { "" }
    static var defaultOutputHelp: String { Script.defaultOutput }

    func makeScene() throws -> Scene {
        let scene: Scene
        if let adjust = try format.adjustment() {
            // The program builds its scene again with the new format applied to the DSL's
            // composition, so everything it adds besides (scene.at blocks, audio, limits) is kept.
            scene = Scene.building(adjustedBy: adjust) { Script().scene }
            guard scene.composition != nil, scene.isFormatAdjusted else {
                throw ValidationError("--size, --fps and --duration need a scene built with the DSL (this one is Core Animation code: set its size, frame rate and duration in the code)")
            }
        } else {
            scene = Script().scene
        }
        if format.scale != nil { scene.contentsScale = format.contentsScale }
        if !limitOptions.values.isEmpty { scene.limits = try limitOptions.limits(from: scene.limits) }
        do { try scene.validated() } catch { throw CLIError(message: "\(error)") }
        return scene
    }

    func defaultOutput() throws -> String { Script.defaultOutput }
}
