// A Swift program that makes a video gets a command line for free, as ArgumentParser's
// `ParsableCommand` gives one: mark a type that conforms to `StrataScript` with `@main`, and
// `swift run my-video` renders, `swift run my-video still --time 1.5` writes a frame,
// `swift run my-video sheet` writes a contact sheet of the whole animation, and
// `swift run my-video preview` serves Strata Studio (docs/studio.md). The commands are
// `strata`'s own `render`, `still`, `sheet` and `preview`, with the same flags, rendering the
// program's scene instead of a template.
//
//     import StrataCLI
//
//     @main struct TitleCard: StrataScript {
//         var scene: Scene {
//             Scene(size: CGSize(width: 1280, height: 720), duration: 3, background: .hex("#101820")) {
//                 Text("Hello").font("DejaVu Sans Bold", size: 96).foreground(.white).center().fadeIn()
//             }
//         }
//     }
import ArgumentParser
import Foundation
import Strata

/// A program that makes one scene; `@main` gives it `render`, `still`, `sheet` and `preview`
/// commands.
///
/// ```swift
/// @main struct TitleCard: StrataScript {
///     var scene: Scene {
///         Scene(size: CGSize(width: 1280, height: 720), duration: 3) {
///             Text("Hello").font("DejaVu Sans Bold", size: 96).foreground(.white).center().fadeIn()
///         }
///     }
/// }
/// ```
///
/// Run with no arguments, the program writes `title-card.mp4`; with `still --time 1.5` it writes
/// the frame at 1.5 s.
public protocol StrataScript {
    /// Makes the program's value; `@main` calls it once before asking for `scene`.
    init()
    /// The scene to render.
    var scene: Scene { get }
    /// The file `render` writes when no `-o` is given (default: the type's name in kebab case
    /// with `.mp4`).
    static var defaultOutput: String { get }
}

extension StrataScript {
    /// The type's name in kebab case with `.mp4`: `TitleCard` writes `title-card.mp4`.
    public static var defaultOutput: String {
        var name = ""
        for (i, ch) in String(describing: Self.self).enumerated() {
            if ch.isUppercase, i > 0 { name.append("-") }
            name.append(Character(ch.lowercased()))
        }
        return name + ".mp4"
    }

    /// Parses the command line and runs the command (what `@main` calls).
    public static func main() {
        LinkedNodeKinds.register()
        ScriptCommand<Self>.main()
    }

    /// Runs the command line `arguments` (without the program name); for tests.
    public static func run(arguments: [String]) throws {
        LinkedNodeKinds.register()
        var command = try ScriptCommand<Self>.parseAsRoot(arguments)
        try command.run()
    }
}

/// The root command of a script.
struct ScriptCommand<Script: StrataScript>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "script",
                             abstract: "Render this program's scene to video, GIF, a frame or a contact sheet.",
                             subcommands: [RenderCommand<ScriptSource<Script>>.self, StillCommand<ScriptSource<Script>>.self,
                                           SheetCommand<ScriptSource<Script>>.self, PreviewCommand<ScriptSource<Script>>.self],
                             defaultSubcommand: RenderCommand<ScriptSource<Script>>.self)
    }
}
