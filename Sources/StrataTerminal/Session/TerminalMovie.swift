// A terminal session ready to render: its timeline, its look, a frame rate and a length. A
// recording (asciicast) or a tape builds one; `makeScene()` puts a `TerminalLayer` in a scene
// of its size. The scene is an ordinary Strata scene: render, still, sheet and every export
// option apply. A loop offset (a tape's LoopOffset) makes the video start at that frame and
// show the frames before it at its end.
import Foundation
import Strata

/// A terminal timeline with everything a video of it needs.
public struct TerminalMovie: Sendable {
    /// The screens over time.
    public var timeline: TerminalTimeline
    /// The look.
    public var style: TerminalStyle
    /// Frames per second of the video.
    public var frameRate: Double
    /// Length of the video in seconds.
    public var duration: Double
    /// The video's size in points (nil: the window's size for the grid).
    public var size: CGSize?
    /// The frame the video starts at (nil: the first); the frames before it come last.
    public var loopOffset: TerminalLoopOffset?
    /// Text snapshots for a `.ascii` output: VHS's format, each screen's rows (trailing blanks
    /// removed, blank rows kept) followed by a line of 80 `─` (nil: the final screen is used).
    public var asciiText: String?

    /// A movie of `timeline` drawn with `style`, at `frameRate` frames per second for `duration`
    /// seconds, at `size` points (nil: the window's size for the grid), starting at `loopOffset`
    /// (the frames before it come last; nil: from the first frame).
    public init(timeline: TerminalTimeline, style: TerminalStyle, frameRate: Double, duration: Double, size: CGSize? = nil,
                loopOffset: TerminalLoopOffset? = nil) {
        self.timeline = timeline; self.style = style; self.frameRate = frameRate; self.duration = duration; self.size = size
        self.loopOffset = loopOffset
    }

    /// A scene showing the terminal, the layer filling it.
    public func makeScene() -> Scene {
        let layer = TerminalLayer(timeline: timeline, style: style, size: size.map { CGSize(width: $0.width.rounded(), height: $0.height.rounded()) })
        let size = layer.bounds.size
        layer.position = CGPoint(x: size.width / 2, y: size.height / 2)
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.addSublayer(layer)
        let scene = Scene(rootLayer: root, size: size, frameRate: frameRate, duration: max(duration, 1 / frameRate))
        if let loop = loop(in: scene) {
            layer.configure(timeline: timeline, style: style, size: layer.bounds.size, loop: loop)
            layer.position = CGPoint(x: size.width / 2, y: size.height / 2)
        }
        return scene
    }

    /// The loop a scene of this movie plays (nil: no loop offset, or one of 0 frames): it starts
    /// at frame `loopOffset.frame(of: scene.frameCount)` and wraps after the last frame.
    public func loop(in scene: Scene) -> TerminalLoop? {
        guard let loopOffset else { return nil }
        let count = scene.frameCount
        let first = loopOffset.frame(of: count)
        guard first > 0 else { return nil }
        return TerminalLoop(offset: scene.time(ofFrame: first), period: scene.time(ofFrame: count))
    }

    /// The time in a scene of this movie that shows the timeline at `time` (`time` itself
    /// without a loop offset).
    public func videoTime(ofTimelineTime time: Double, in scene: Scene) -> Double {
        loop(in: scene)?.localTime(ofTimelineTime: time) ?? time
    }

    /// The text of the last screen (a `.txt` output: a golden file of the final screen).
    public var finalText: String { timeline.finalState.text + "\n" }

    /// The separator of `.ascii` snapshots (VHS's: 80 × U+2500).
    public static let asciiSeparator = String(repeating: "─", count: 80)

    /// One `.ascii` snapshot of `state`: every row (trailing blanks removed), then the separator.
    public static func asciiSnapshot(_ state: TerminalScreenState) -> String {
        (0..<state.rows).map { state.text(ofRow: $0) + "\n" }.joined() + asciiSeparator + "\n"
    }

    /// The `.ascii` output: the snapshots a tape took, else every screen of the timeline in turn.
    public var asciiOutput: String {
        asciiText ?? timeline.states.map(Self.asciiSnapshot).joined()
    }
}
