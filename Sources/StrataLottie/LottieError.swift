// What goes wrong reading a Lottie, always with where: the JSON path of the value at fault
// (`layers[3].ks.p.k[2].s`) and what was expected there, or the limit that was passed.
import Foundation
import Strata

/// A Lottie that cannot be read: the JSON path of the value at fault and what was wrong with it.
///
///     do { _ = try LottieAnimation(data: data) } catch let e as LottieError {
///         print(e)   // layers[3].ks.p.k[2].s: expected an array of numbers
///     }
public struct LottieError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The JSON path of the value at fault (`layers[0].shapes[2].ty`); empty for the whole file.
    public let path: String
    /// What was wrong, e.g. "expected an array of numbers".
    public let message: String

    /// An error at the JSON `path` (empty for the whole file) saying `message`.
    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// The bounds a Lottie must keep so that reading and rendering it cannot exhaust the machine.
/// The defaults come from `SceneLimits` (`--limit` on the command line) where one applies.
public struct LottieLimits: Sendable, Equatable {
    /// Largest file (JSON, or an archive) in bytes, and largest decompressed .tgs/.lottie entry.
    public var fileBytes = 64 << 20
    /// Largest width or height of the animation, in points.
    public var size = 16_384
    /// Most frames between the animation's in and out points.
    public var frames = 1_080_000
    /// Most layers in all compositions, counted as compiled (a precomposition used twice counts twice).
    public var layers = 250_000
    /// Deepest nesting of precompositions.
    public var precompDepth = 32
    /// Most copies a repeater may make.
    public var repeaterCopies = 1_000
    /// Most ridges a zig-zag (`zz`) may put on each segment.
    public var zigZagRidges = 1_000
    /// Most segments one merge paths (`mm` 2…5) combines at a frame, its curves flattened into chords.
    public var mergeSegments = 100_000
    /// Most steps one merge paths takes to combine them at a frame (pairs of segments tested,
    /// crossings cut, pieces looked at to tell inside from outside).
    public var mergeSteps = 50_000_000
    /// Most steps all merge paths may take in all, at every frame they are combined at.
    public var mergeStepsInAll = 2_000_000_000
    /// Most values the compiler may pre-sample in all (curves Core Animation cannot express).
    public var samples = 4_000_000
    /// Most path points the pre-sampled paths may hold in all (an animated path that Core
    /// Animation cannot morph is drawn anew twice a frame: modifiers, trims, several paths).
    public var sampledPathPoints = 20_000_000
    /// Most characters in all text documents together (each is measured and laid out).
    public var textCharacters = 1_000_000

    /// The default limits (the table in docs/lottie.md).
    public init() {}

    /// Limits taken from a scene's limits (pixel size, frames, layers, file and expansion bytes).
    public init(_ scene: SceneLimits) {
        size = scene.pixelSize
        frames = scene.frames
        layers = scene.layers
        fileBytes = min(scene.dataFileBytes, scene.expansionBytes)
        textCharacters = scene.textLength * 5
    }
}
