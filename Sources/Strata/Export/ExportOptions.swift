// Everything an export can be told, each with a sensible default.
import Foundation
import StrataCore
import StrataRender
import StrataMedia

/// Progress of an export.
public struct ExportProgress: Sendable {
    public var framesDone: Int
    public var frameCount: Int
    /// Frames per second so far (render + encode).
    public var framesPerSecond: Double
    /// Estimated seconds remaining.
    public var secondsRemaining: Double
}

/// Options of `Scene.export(to:options:)`.
public struct ExportOptions: Sendable {
    /// Video codec, quality (CRF), preset, pixel format, keyframe interval.
    public var video = VideoEncoderOptions()
    /// GIF palette, dithering and loop count.
    public var gif = GIFEncoderOptions()
    /// Frames to export (half-open, by index); nil = all.
    public var frameRange: Range<Int>?
    /// Tile workers and tile size.
    public var render = RenderOptions()
    /// Frames waiting between the renderer and the encoder (memory bound: each is one frame).
    public var queueDepth = 4
    /// Called after each frame is encoded (on the encoding thread).
    public var progress: (@Sendable (ExportProgress) -> Void)?

    public init() {}
}
