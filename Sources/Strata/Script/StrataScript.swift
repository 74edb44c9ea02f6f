// A Swift program that makes a video gets a command line for free, as ArgumentParser's
// `ParsableCommand` gives one: mark a type that conforms to `StrataScript` with `@main`, and
// `swift run my-video` renders, `swift run my-video still --time 1.5` writes a frame,
// `swift run my-video sheet` writes a contact sheet of the whole animation.
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

/// A program that makes one scene; `@main` gives it `render`, `still` and `sheet` commands.
public protocol StrataScript {
    init()
    /// The scene to render.
    var scene: Scene { get }
    /// The file `render` writes when no `-o` is given (default: the type's name in kebab case
    /// with `.mp4`).
    static var defaultOutput: String { get }
}

extension StrataScript {
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
        ScriptCommand<Self>.main()
    }

    /// Runs the command line `arguments` (without the program name); for tests.
    public static func run(arguments: [String]) throws {
        var command = try ScriptCommand<Self>.parseAsRoot(arguments)
        try command.run()
    }
}

/// The root command of a script.
struct ScriptCommand<Script: StrataScript>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "script",
                             abstract: "Render this program's scene to video, GIF, a frame or a contact sheet.",
                             subcommands: [ScriptRender<Script>.self, ScriptStill<Script>.self, ScriptSheet<Script>.self],
                             defaultSubcommand: ScriptRender<Script>.self)
    }
}

/// Options that change the scene: size, frame rate, pixel scale.
struct ScriptSceneOptions: ParsableArguments {
    @Option(help: "Canvas size in points, WIDTHxHEIGHT (DSL scenes are laid out again).")
    var size: String?
    @Option(help: "Frames per second (e.g. 30, 60, 29.97).")
    var fps: Double?
    @Option(help: "Pixels per point of the output (2 renders at twice the size).")
    var scale: Double?

    /// The script's scene with these options applied.
    func makeScene<S: StrataScript>(_ script: S.Type) throws -> Scene {
        var scene = S().scene
        if size != nil || fps != nil {
            guard var composition = scene.composition else {
                throw ValidationError("--size and --fps need a scene built with the DSL (this one is Core Animation code: set its size and frame rate in the code)")
            }
            if let size { composition.size = try parseSize(size).map(Double.init) }
            if let fps { composition.frameRate = fps }
            scene = try Scene(composition: composition)
        }
        if let scale {
            guard scale.isFinite, scale > 0, scale <= 8 else { throw ValidationError("--scale \(scale) must be in (0, 8]") }
            scene.contentsScale = CGFloat(scale)
        }
        do { try scene.validated() } catch { throw ValidationError("\(error)") }
        return scene
    }
}

/// Parses `WIDTHxHEIGHT`.
func parseSize(_ s: String) throws -> [CGFloat] {
    let parts = s.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w.isFinite, h.isFinite else {
        throw ValidationError("--size '\(s)' must be WIDTHxHEIGHT with positive numbers, e.g. 1280x720")
    }
    return [CGFloat(w), CGFloat(h)]
}

/// Parses `A..B` (inclusive frame indices) against a scene's frame count.
func parseFrameRange(_ s: String, frameCount: Int) throws -> Range<Int> {
    let parts = s.components(separatedBy: "..")
    guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]) else {
        throw ValidationError("--frames '\(s)' must be A..B with whole frame numbers, e.g. 0..59")
    }
    guard a >= 0, b >= a, b < frameCount else {
        throw ValidationError("--frames \(a)..\(b) must satisfy 0 ≤ A ≤ B ≤ \(frameCount - 1) (the scene has \(frameCount) frames)")
    }
    return a..<(b + 1)
}

struct ScriptRender<Script: StrataScript>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "render", abstract: "Render to MP4, MOV, WebM, GIF or a folder of PNG frames.")
    }

    @OptionGroup var scene: ScriptSceneOptions
    @Option(name: .shortAndLong, help: "Output file (.mp4 .mov .webm .webp .gif) or folder for PNG frames.")
    var output: String?
    @Option(help: "Frames to render, A..B inclusive (e.g. 300..599).")
    var frames: String?
    @Option(help: "Tile worker threads (default: the number of cores).")
    var workers: Int?
    @Option(help: "H.264 quality: constant rate factor 0–51 (lower is better).")
    var crf: Int?
    @Flag(help: "Let PNG frames replace the frames of an earlier render in the output folder (a folder with other files is refused).")
    var overwrite = false
    @Flag(help: "No progress line.")
    var quiet = false
    @Flag(help: "Progress as JSON lines on stdout.")
    var json = false

    func run() throws {
        let s = try scene.makeScene(Script.self)
        let path = output ?? Script.defaultOutput
        var options = ExportOptions()
        options.overwrite = overwrite
        if let frames { options.frameRange = try parseFrameRange(frames, frameCount: s.frameCount) }
        if let workers {
            guard (1...256).contains(workers) else { throw ValidationError("--workers \(workers) must be between 1 and 256") }
            options.render.workers = workers
        }
        if let crf {
            guard (0...51).contains(crf) else { throw ValidationError("--crf \(crf) must be between 0 and 51") }
            options.video.crf = crf
        }
        let progress = ProgressLine(style: quiet ? .quiet : json ? .json : .terminal)
        options.progress = { progress.report($0) }
        InterruptSignals.shared.install()
        options.cancellation = InterruptSignals.shared.cancellation
        let started = Date()
        defer { progress.finish() }
        do {
            try s.export(to: URL(fileURLWithPath: path), options: options)
        } catch let e as ExportError {
            guard case .interrupted = e else { throw e }
            progress.finish()
            FileHandle.standardError.write(Data("\(e)\n".utf8))
            throw ExitCode(InterruptSignals.shared.exitStatus ?? 130)
        }
        let n = options.frameRange?.count ?? s.frameCount
        if !quiet && !json {
            progress.finish()
            print("wrote \(path): \(n) frames, \(s.pixelWidth)×\(s.pixelHeight), \(String(format: "%.1f", Double(n) / max(Date().timeIntervalSince(started), 1e-9))) frames/s")
        }
    }
}

struct ScriptStill<Script: StrataScript>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "still", abstract: "Render one frame to PNG.")
    }

    @OptionGroup var scene: ScriptSceneOptions
    @Option(help: "Scene time in seconds.")
    var time: Double = 0
    @Option(name: .shortAndLong, help: "Output PNG file.")
    var output: String = "frame.png"

    func run() throws {
        let s = try scene.makeScene(Script.self)
        guard time.isFinite, time >= 0, time <= s.duration else {
            throw ValidationError("--time \(time) must be between 0 and the duration \(s.duration)")
        }
        guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o '\(output)' must name a .png file") }
        try s.renderFrame(at: time).writePNG(to: URL(fileURLWithPath: output))
        print("wrote \(output): \(s.pixelWidth)×\(s.pixelHeight) at t = \(time) s")
    }
}

struct ScriptSheet<Script: StrataScript>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "sheet", abstract: "Write a contact sheet: frames at even times in a grid, to see a whole animation at once.")
    }

    @OptionGroup var scene: ScriptSceneOptions
    @Option(name: .shortAndLong, help: "Output PNG file.")
    var output: String = "sheet.png"
    @Option(help: "Number of frames.")
    var count: Int = 12
    @Option(help: "Frames per row.")
    var columns: Int = 4
    @Option(help: "Shrink each frame by this whole factor.")
    var reduction: Int = 4

    func run() throws {
        let s = try scene.makeScene(Script.self)
        guard (1...400).contains(count) else { throw ValidationError("--count \(count) must be between 1 and 400") }
        guard (1...100).contains(columns) else { throw ValidationError("--columns \(columns) must be between 1 and 100") }
        guard (1...64).contains(reduction) else { throw ValidationError("--reduction \(reduction) must be between 1 and 64") }
        guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o '\(output)' must name a .png file") }
        try s.contactSheet(count: count, columns: columns, reduction: reduction).writePNG(to: URL(fileURLWithPath: output))
        print("wrote \(output): \(count) frames of \(s.pixelWidth)×\(s.pixelHeight) at 1/\(reduction) size")
    }
}

extension Scene {
    /// `count` frames at even times (0, d/count, 2d/count, …) in a grid, each reduced by a whole
    /// factor.
    public func contactSheet(count: Int = 12, columns: Int = 4, reduction: Int = 4) throws -> Bitmap {
        let rate = try validated()
        let frames = try (0..<max(1, count)).map { i -> Bitmap in
            let k = min(frameCount - 1, Int((Double(i) * duration / Double(max(1, count)) * rate.framesPerSecond).rounded(.down)))
            return try renderFrame(index: max(0, k))
        }
        return ContactSheet.make(frames, columns: columns, reduction: reduction)
    }
}
