// Settings for the GIF encoder stage: looping, dithering, palette scope and size, whether
// transparency survives, temporal stability, frame-rate reduction and the quality/size goal. The
// defaults (loop forever, Floyd–Steinberg at half strength on flat graphics and none on gradients,
// automatic palettes, 256 colours, composited over black, quality goal) suit documentation GIFs of
// motion graphics.
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
        /// The encoder's choice; the default. Now none everywhere: gradient content, video and
        /// photographs (more than 4 096 colours) get palettes cut from fine enough statistics to
        /// render them within a level or two (Benchmarks/doc-gifs.sh: no diffusion on the title
        /// card and the demo raises SSIM by 0.0013–0.0003 and saves 3–1 % of the bytes), and flat
        /// graphics (at most 4 096 colours: text, UI, terminals) a smaller palette whose frames
        /// that it draws poorly map onto the whole table. Diffusion at half strength on flat
        /// graphics → none (bytes, SSIM against the lossless frames; Benchmarks/doc-gifs.sh): lower third
        /// 83 361 → 80 817 B, 0.999968 → 0.999972; countdown 126 510 → 125 005, 0.999939 →
        /// 0.999944; the quote card 294 568 → 285 557, 0.999910 → 0.999928; terminal-typing
        /// 21 395 → 20 393, 0.998922 → 0.998944; the example tapes colors, git-graph, less
        /// 26 778 → 26 435, 24 570 → 24 281, 73 616 → 72 918 B, each 0.000005–0.000007 higher.
        case automatic
    }

    /// Which pixels each palette is built from.
    public enum Palette: String, Sendable, CaseIterable {
        /// A local palette per frame, built from that frame's changed area.
        case perFrame
        /// One global palette from every frame's pixels; frames are spooled to a temporary file
        /// until `finish()` so memory stays flat.
        case global
        /// The global palette for frames it renders closely (RMS error ≤ 2.5 levels: flat
        /// graphics and motion graphics over gradients, where 90 local tables would cost more
        /// than they save), a local palette for the others (video). Frames are spooled like
        /// `.global`. The default.
        case automatic
    }

    /// The colour space palettes are built and pixels matched in.
    public enum QuantizationSpace: String, Sendable, CaseIterable {
        /// sRGB-encoded values (the default). Gamma encoding already spaces lightness roughly
        /// perceptually, and it is the space viewers, SSIM and PSNR see: measured on the GIF
        /// benchmark clips (Benchmarks/media), palettes built here score higher SSIM and PSNR than
        /// Oklab ones (video in a layer: 0.973 vs 0.944 SSIM), with matching error diffusion.
        case srgb
        /// Oklab, a perceptually uniform space: spends more entries on dark and desaturated
        /// tones; fewer bytes on photographic content, lower RGB SSIM/PSNR.
        case oklab
    }

    /// What the encoder optimises for.
    public enum Goal: String, Sendable, CaseIterable {
        /// Fidelity first (the default).
        case quality
        /// Bytes first: a temporal tolerance of 6 levels (small changes — video noise, slow
        /// fades — are not re-sent every frame) and at most 128 colours for frames that need
        /// quantising (frames with few enough exact colours keep them).
        case size
    }

    /// Times the animation plays: 0 loops forever (the default), n ≥ 1 plays it n times in total.
    public var loopCount: Int
    /// The dithering method; `.automatic` by default.
    public var dithering: Dithering
    /// How strongly `dithering` dithers, 0...1 (nil, the default: half of the error diffused for
    /// Floyd–Steinberg, the palette's spacing as the Bayer amplitude for ordered; 1 is full
    /// strength, 0 is none).
    public var ditherStrength: Double?
    /// Per-frame, global or automatic palettes; `.automatic` by default.
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
    /// The space palettes are built and matched in; `.srgb` by default.
    public var quantizationSpace: QuantizationSpace = .srgb
    /// Temporal stability: a pixel whose colour is within this many levels (largest channel
    /// difference) of the colour it had when it was last written keeps its previous palette
    /// entry — it is written as transparent, so static regions of lossy or noisy sources do not
    /// shimmer and cost nothing. nil: 2 for `.quality` (0 when global or automatic palettes find
    /// the animation is flat graphics, at most 4096 distinct colours; and gradient content mapped
    /// onto the interval's palette without dithering is held against what the screen shows
    /// instead: while the colour shown is within 2 levels² of the palette's best), 6 for
    /// `.size`; 0: exact.
    public var temporalTolerance: Int?
    /// Frames (at the output rate) per independently encoded interval, or nil (the default) for
    /// one interval over the whole file. At each multiple of the interval (counted in the whole
    /// animation's frame numbers, see `GIFEncoder`'s `firstFrameIndex`) the encoder starts afresh:
    /// a full frame, no reference to earlier frames, and (global or automatic palettes) a palette
    /// built from that interval's frames alone, written as a local colour table after the first
    /// interval. Chunks of an animation rendered apart that start on such multiples, joined by
    /// `MediaConcatenator`, then give the same file as a whole render.
    public var keyframeInterval: Int?
    /// Threads coding a frame's candidate LZW codings (up to three) at once; 1 codes them one
    /// after another. The bytes are the same either way. `strata batch` sets 1: its parallelism
    /// is its jobs.
    public var codingThreads = 2
    /// Bytes of an interval's frames (global and automatic palettes, which see every frame of
    /// the interval before writing the first) kept in memory; the frames past it wait in a
    /// temporary file (its name removed at once). 256 MiB by default (thirty 1080p frames);
    /// 0 sends every frame to the file. `strata batch` sets 0: its jobs' memory is counted
    /// without it. The bytes written are the same either way.
    public var spoolMemoryLimit = 256 << 20

    /// The tolerance in use.
    public var resolvedTemporalTolerance: Int { max(0, temporalTolerance ?? (goal == .size ? 6 : 2)) }
    /// The palette size for quantised frames (the size goal caps it at 128).
    public var resolvedMaxColors: Int { goal == .size ? min(maxColors, 128) : maxColors }

    /// Options with the given values; every parameter has its default.
    public init(loopCount: Int = 0, dithering: Dithering = .automatic, palette: Palette = .automatic,
                maxColors: Int = 256, preservesTransparency: Bool = false, goal: Goal = .quality) {
        self.goal = goal
        self.loopCount = loopCount
        self.dithering = dithering
        self.palette = palette
        self.maxColors = maxColors
        self.preservesTransparency = preservesTransparency
    }
}
