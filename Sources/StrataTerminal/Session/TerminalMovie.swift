// A terminal session ready to render: its timeline, its look, a frame rate and a length. A
// recording (asciicast) or a tape builds one; `makeScene()` puts a `TerminalLayer` in a scene
// of its size. The scene is an ordinary Strata scene: render, still, sheet and every export
// option apply.
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

    /// A movie of `timeline` drawn with `style`, at `frameRate` frames per second for `duration`
    /// seconds, at `size` points (nil: the window's size for the grid).
    public init(timeline: TerminalTimeline, style: TerminalStyle, frameRate: Double, duration: Double, size: CGSize? = nil) {
        self.timeline = timeline; self.style = style; self.frameRate = frameRate; self.duration = duration; self.size = size
    }

    /// A scene showing the terminal, the layer filling it.
    public func makeScene() -> Scene {
        let layer = TerminalLayer(timeline: timeline, style: style, size: size.map { CGSize(width: $0.width.rounded(), height: $0.height.rounded()) })
        let size = layer.bounds.size
        layer.position = CGPoint(x: size.width / 2, y: size.height / 2)
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.addSublayer(layer)
        return Scene(rootLayer: root, size: size, frameRate: frameRate, duration: max(duration, 1 / frameRate))
    }

    /// The text of the last screen (a tape's `.txt` / `.ascii` output).
    public var finalText: String { timeline.finalState.text + "\n" }
}
