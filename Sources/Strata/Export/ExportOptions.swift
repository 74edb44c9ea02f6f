// Everything an export can be told, each with a sensible default.
import Foundation
import StrataCore
import StrataRender
import StrataMedia

/// Progress of an export.
public struct ExportProgress: Sendable {
    /// Frames rendered and handed to the encoder so far.
    public var framesDone: Int
    /// Frames the export writes in all (its frame range, not the scene's length).
    public var frameCount: Int
    /// Frames per second so far (render + encode).
    public var framesPerSecond: Double
    /// Estimated seconds remaining.
    public var secondsRemaining: Double
}

/// Whether exported video files carry an audio track.
public struct AudioExportOptions: Sendable {
    /// When a file gets an audio track.
    public enum Mode: Sendable {
        /// A track when the scene has audio tracks or audio players, or when a player in the
        /// layer tree at the first exported frame has an item with audio.
        case automatic
        /// Always a track (silence when nothing plays); needed when players with audio join the
        /// layer tree only later in the scene.
        case always
        /// Never a track.
        case never
    }

    /// When a file gets an audio track (`.automatic` by default).
    public var mode: Mode
    /// Codec (AAC for MP4/MOV, Opus for WebM by default), sample rate, channels, bit rate.
    public var encoder: AudioEncoderOptions

    /// Audio options: a track when the scene has sound, encoded with the container's default codec.
    public init(mode: Mode = .automatic, encoder: AudioEncoderOptions = AudioEncoderOptions()) {
        self.mode = mode
        self.encoder = encoder
    }
}

/// What an export does when a video or audio file it needs cannot be opened or decoded.
public enum MediaFailurePolicy: Sendable {
    /// Stop with the error, which names the file (the default).
    case fail
    /// Show the player layer's placeholder (a grey frame), leave its audio silent, and report a
    /// warning once per file.
    case placeholder
}

/// Options of `Scene.export(to:options:)`.
public struct ExportOptions: Sendable {
    /// Video codec, quality (CRF) or bit rate, preset, pixel format, keyframe interval, WebP
    /// settings. A codec the container cannot hold is adapted (H.264 in WebM becomes VP9; see
    /// `VideoEncoderOptions.adapted(to:)`).
    public var video = VideoEncoderOptions()
    /// GIF palette, dithering, loop count, frame-rate reduction.
    public var gif = GIFEncoderOptions()
    /// The audio track of MP4/MOV/WebM files.
    public var audio = AudioExportOptions()
    /// Keep the scene's transparency: ProRes 4444 (`yuva444p10`) in `.mov`, VP9 `yuva420p` in
    /// `.webm`, RGBA in `.webp`, transparent pixels in `.gif`; PNG frames always keep it. MP4
    /// cannot (an error says so). False by default: frames are composited over black.
    public var preservesAlpha = false
    /// The colour frames are composited over before they are encoded (nil: black, or nothing
    /// with `preservesAlpha`). Frames become opaque, so it cannot go with `preservesAlpha`.
    public var background: CGColor?
    /// A size goal for GIF files, in bytes (nil: none). The GIF is encoded with the options
    /// given, then, while it is larger, with smaller settings in turn — the size goal, 64, 32 and
    /// 16 colours, then every second and third frame — and the first that fits is written; when
    /// none does, the export fails naming the smallest size reached and nothing is written.
    public var maximumBytes: Int?
    /// Missing or corrupt media: stop (the default) or show a placeholder with a warning.
    public var mediaFailure = MediaFailurePolicy.fail
    /// Receives warnings (placeholder media); nil prints them to standard error.
    public var warning: (@Sendable (String) -> Void)?
    /// Whether PNG frames may go into a folder that holds frames of an earlier render
    /// (`frame_NNNNN.png` and nothing else): each frame written replaces the file of its name.
    /// An export never deletes anything else, whatever this says: a folder holding other files
    /// is refused, and a file format replaces only a regular file at the exact path.
    public var overwrite = false
    /// Frames to export (half-open, by index); nil = all. A range is a chunk of the whole video:
    /// its timestamps (and GIF delays) are the whole video's, its first frame is a keyframe, and
    /// `MediaConcatenator` joins chunks into the file a whole export gives when each chunk starts
    /// on a multiple of the keyframe interval (`video.keyframeInterval`, `gif.keyframeInterval`).
    public var frameRange: Range<Int>?
    /// Tile workers and tile size.
    public var render = RenderOptions()
    /// Frames waiting between the renderer and the encoder (memory bound: each is one frame),
    /// the one being drawn while the next is posed included (three workers or more). Two: the
    /// renderer and the encoder each run ahead of the other by a frame, which is all the slack
    /// a steady export uses (x264 buffers its own frames); each more costs a frame's memory
    /// (3 MB of YUV at 1080p, 8 MB of RGBA8 for the other encoders).
    public var queueDepth = 2
    /// Called after each frame is encoded (on the encoding thread).
    public var progress: (@Sendable (ExportProgress) -> Void)?
    /// Stops the export at its next frame when cancelled (`InterruptSignals.shared.cancellation`
    /// for SIGINT/SIGTERM); the export then removes its temporary file and throws
    /// `ExportError.interrupted`.
    public var cancellation: ExportCancellation?
    /// Sees every frame before it is encoded, with its frame number (on the encoder thread, in
    /// order): `strata render --hash-frames` prints their digests.
    public var frameObserver: (@Sendable (Int, Bitmap) -> Void)?

    /// The defaults: every frame, the format's default codec and quality, as many workers as
    /// the measured default, no cancellation.
    public init() {}
}
