// Settings for the GIF encoder stage: looping, dithering, palette scope and size, whether
// transparency survives, temporal stability, frame-rate reduction and the quality/size goal. The
// defaults (loop forever, Floyd–Steinberg, a palette per frame, 256 colours, composited over
// black, quality goal) suit documentation GIFs of motion graphics.
import Foundation

/// How `GIFEncoder` builds palettes and writes frames.
public struct GIFEncoderOptions: Sendable, Equatable {
    /// How colours between palette entries are approximated.
    public enum Dithering: String, Sendable, CaseIterable {
        /// Nearest palette colour only: flat, may band on gradients.
        case none
        /// An 8×8 Bayer pattern: stable from frame to frame, compresses well.
        case ordered
        /// Floyd–Steinberg error diffusion: the smoothest gradients.
        case floydSteinberg
    }

    /// Which pixels each palette is built from.
    public enum Palette: String, Sendable, CaseIterable {
        /// A local palette per frame, built from that frame's changed area.
        case perFrame
        /// One global palette from every frame's pixels; frames are spooled to a temporary file
        /// until `finish()` so memory stays flat.
        case global
    }

    /// What the encoder optimises for.
    public enum Goal: String, Sendable, CaseIterable {
        /// Fidelity first (the default).
        case quality
        /// Bytes first: at most 128 colours, ordered dithering instead of Floyd–Steinberg (its
        /// pattern stays put from frame to frame and compresses well), and a temporal tolerance
        /// of 6 levels, so small changes (video noise, slow fades) are not re-sent every frame.
        case size
    }

    /// Times the animation plays: 0 loops forever (the default), n ≥ 1 plays it n times in total.
    public var loopCount: Int
    /// The dithering method; `.floydSteinberg` by default.
    public var dithering: Dithering
    /// Per-frame or global palettes; `.perFrame` by default.
    public var palette: Palette
    /// Colours per palette, 2...256 (one is reserved for transparency when it is kept); 256 by default.
    public var maxColors: Int
    /// Keep pixels with alpha < 128 transparent (each frame then replaces the previous one whole);
    /// when false (the default) frames are composited over black.
    public var preservesTransparency: Bool
    /// Keep one frame in n (1, the default, keeps all); delays grow to match, so the GIF lasts as
    /// long. Exports render only the frames kept.
    public var everyNthFrame: Int = 1
    /// A lower frame rate for the GIF (nil: the scene's): frames are taken at k / rate. Exports
    /// render the scene at exactly those times; when frames are appended directly, the first
    /// frame at or after each of those times is kept.
    public var frameRate: FrameRate?
    /// Quality or size; `.quality` by default.
    public var goal: Goal = .quality
    /// Temporal stability: a pixel whose colour is within this many levels (largest channel
    /// difference) of the colour it had when it was last written keeps its previous palette
    /// entry — it is written as transparent, so static regions of lossy or noisy sources do not
    /// shimmer and cost nothing. nil: 2 for `.quality`, 6 for `.size`; 0: exact comparison.
    public var temporalTolerance: Int?

    /// The tolerance in use.
    public var resolvedTemporalTolerance: Int { max(0, temporalTolerance ?? (goal == .size ? 6 : 2)) }
    /// The palette size in use (the size goal caps it at 128).
    public var resolvedMaxColors: Int { goal == .size ? min(maxColors, 128) : maxColors }
    /// The dithering in use (the size goal replaces Floyd–Steinberg by ordered dithering).
    public var resolvedDithering: Dithering { goal == .size && dithering == .floydSteinberg ? .ordered : dithering }

    /// Options with the given values; every parameter has its default.
    public init(loopCount: Int = 0, dithering: Dithering = .floydSteinberg, palette: Palette = .perFrame,
                maxColors: Int = 256, preservesTransparency: Bool = false, goal: Goal = .quality) {
        self.goal = goal
        self.loopCount = loopCount
        self.dithering = dithering
        self.palette = palette
        self.maxColors = maxColors
        self.preservesTransparency = preservesTransparency
    }
}
