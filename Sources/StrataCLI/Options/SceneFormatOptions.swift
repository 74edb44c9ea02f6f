// The options that change any scene's format: canvas size, frame rate and length (a template or
// a DSL scene is laid out again), and the pixels per point of the output.
import ArgumentParser
import Strata

struct SceneFormatOptions: ParsableArguments {
    @Option(help: "Canvas size in points, WIDTHxHEIGHT (the scene is laid out again; default: its own, or 1280x720 for the demo).")
    var size: String?
    @Option(parsing: .unconditional, help: "Frames per second, e.g. 30, 60, 29.97 (default: the scene's, or 30).")
    var fps: Double?
    @Option(parsing: .unconditional, help: "Length in seconds (default: the scene's, or 4).")
    var duration: Double?
    @Option(parsing: .unconditional, help: "Pixels per point of the output: 0.5 renders at half size, 2 at twice.")
    var scale: Double?

    func validate() throws {
        _ = try parsedSize()
        if let scale { guard scale.isFinite, scale > 0, scale <= 8 else { throw ValidationError("--scale \(scale) must be in (0, 8]") } }
    }

    /// --size as a size (nil when not given).
    func parsedSize() throws -> CGSize? {
        guard let size else { return nil }
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w.isFinite, h.isFinite, w > 0, h > 0 else {
            throw ValidationError("--size '\(size)' must be WIDTHxHEIGHT with positive numbers, e.g. 1280x720")
        }
        return CGSize(width: w, height: h)
    }

    /// Whether --size, --fps or --duration is given (they need a scene made from a composition).
    var changesComposition: Bool { size != nil || fps != nil || duration != nil }

    /// The change --size, --fps and --duration make to a composition (nil: none), checked. (The
    /// built-in demo takes the numbers as they are: the scene's own check names a bad one.)
    func adjustment() throws -> (@Sendable (inout Composition) -> Void)? {
        if let fps { guard fps.isFinite, fps > 0, fps <= 240 else { throw ValidationError("--fps \(fps) must be in (0, 240]") } }
        if let duration {
            guard duration.isFinite, duration > 0, duration <= 24 * 3600 else { throw ValidationError("--duration \(duration) must be in (0, 86400] seconds") }
        }
        guard changesComposition else { return nil }
        let size = try parsedSize(), fps = fps, duration = duration
        return { c in
            if let size { c.size = [Double(size.width), Double(size.height)] }
            if let fps { c.frameRate = fps }
            if let duration { c.duration = duration }
        }
    }

    /// The checked --scale (1 when not given).
    var contentsScale: CGFloat { scale.map { CGFloat($0) } ?? 1 }
}
