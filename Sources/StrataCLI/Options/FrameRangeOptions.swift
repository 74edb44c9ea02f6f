// `--frames A..B`: the inclusive range of frames a render makes (a chunk for scale-out).
import ArgumentParser
import Strata

struct FrameRangeOptions: ParsableArguments {
    @Option(help: "Frames to render, A..B inclusive (e.g. 300..599).")
    var frames: String?

    func validate() throws {
        if let frames { _ = try Self.parse(frames) }
    }

    /// The range for a scene of `frameCount` frames (nil: every frame).
    func range(frameCount: Int) throws -> Range<Int>? {
        guard let frames else { return nil }
        let (a, b) = try Self.parse(frames)
        guard a >= 0, b >= a, b < frameCount else {
            throw ValidationError("--frames \(a)..\(b) must satisfy 0 ≤ A ≤ B ≤ \(frameCount - 1) (the scene has \(frameCount) frames)")
        }
        return a..<(b + 1)
    }

    private static func parse(_ s: String) throws -> (Int, Int) {
        let parts = s.components(separatedBy: "..")
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]) else {
            throw ValidationError("--frames '\(s)' must be A..B with whole frame numbers, e.g. 0..59")
        }
        return (a, b)
    }
}
