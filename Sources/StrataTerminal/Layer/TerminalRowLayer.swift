// One row of a terminal grid as a layer. Its presentation copy finds the screen state for the
// time it is presented at and draws that state's row; rows that did not change draw the same
// content, which the renderer's backing-store cache already holds, so a typing animation
// re-rasterises one row per change, not the whole window.
import Foundation
import Strata

/// A row of a `TerminalLayer`'s grid (made by the terminal layer; not used on its own).
final class TerminalRowLayer: CALayer {
    /// The shared timeline, style and metrics.
    var terminal: TerminalContent?
    /// Which row of the grid.
    var row = 0
    /// On a presentation copy: the cells shown, and whether the screen is in reverse video.
    private var shown: (cells: [TerminalCell], reverse: Bool)?

    override init() { super.init() }
    required init?(coder: NSCoder) { super.init(coder: coder) }
    override init(layer: Any) {
        super.init(layer: layer)
        guard let l = layer as? TerminalRowLayer else { return }
        terminal = l.terminal; row = l.row
    }

    override func updatePresentation(atSceneTime time: Double) {
        super.updatePresentation(atSceneTime: time)
        guard let terminal else { return }
        let state = terminal.timeline.state(at: terminal.timelineTime(model().convertTime(time, from: nil)))
        shown = (row < state.cells.count ? state.cells[row] : [], state.isReverseVideo)
    }

    override func snapshotContent() -> LayerContent {
        guard let terminal else { return super.snapshotContent() }
        let (cells, reverse) = shown ?? {
            let s = terminal.timeline.state(at: terminal.timelineTime(0))
            return (row < s.cells.count ? s.cells[row] : [], s.isReverseVideo)
        }()
        let ctx = CGContext(recordingIn: CGRect(origin: .zero, size: bounds.size), contentsScale: contentsScale)
        if reverse {
            ctx.setFillColor(terminal.style.theme.foreground.cgColor)
            ctx.fill(CGRect(origin: .zero, size: bounds.size))
        }
        TerminalRowDrawing(style: terminal.style, metrics: terminal.metrics).draw(cells, reverseVideo: reverse, y: 0, in: ctx)
        let drawing = ctx.makeDrawing()
        return drawing.recording.isEmpty ? .none : .drawing(drawing)
    }
}

/// What the parts of a terminal layer share: the timeline, the style, the cell metrics and the
/// loop, if the layer shows the timeline from part-way through.
final class TerminalContent: Sendable {
    let timeline: TerminalTimeline
    let style: TerminalStyle
    let metrics: TerminalMetrics
    let loop: TerminalLoop?

    init(timeline: TerminalTimeline, style: TerminalStyle, metrics: TerminalMetrics, loop: TerminalLoop? = nil) {
        self.timeline = timeline; self.style = style; self.metrics = metrics; self.loop = loop
    }

    /// The timeline's time shown at the layer's local time `time`.
    func timelineTime(_ time: Double) -> Double { loop?.timelineTime(atLocalTime: time) ?? time }
}
