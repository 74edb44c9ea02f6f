// Strata's command line, defined once: every command and option of `strata` (the executable is
// a thin `main` over this module) and the commands a `StrataScript` gets. Options are
// `ParsableArguments` groups in Options/ (encoding, workers, frame range, scene format, limits,
// progress, timeout, template parameters); a command that renders takes its scene from a
// `SceneSource` — a template for `strata`, the program's own scene for a script — so `strata
// render` and a script's `render` are one command with one set of flags.
//
// The module re-exports Strata: a script needs one import.
//
//     import StrataCLI
//
//     @main struct TitleCard: StrataScript {
//         var scene: Scene { Scene(size: CGSize(width: 1280, height: 720), duration: 3) { … } }
//     }
@_exported import Strata
@_exported import StrataTerminal
import StrataLottie

/// The node kinds that modules above Strata supply, registered with Strata's compiler before any
/// template or script scene is compiled (explicitly: Strata never looks a kind up by name).
enum LinkedNodeKinds {
    static func register() {
        TerminalNodes.register()
        LottieNodes.register()
    }
}
