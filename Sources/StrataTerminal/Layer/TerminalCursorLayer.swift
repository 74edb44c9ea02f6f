// The cursor of a terminal layer. Its presentation copy moves to the cursor's cell of the state
// shown at its time and draws the cursor's shape there: a block (with the character under it in
// the background colour), a bar or an underline. Blinking is a function of time too: on for one
// interval after each change of the screen (typing keeps it steady, as terminals do), then off
// and on every interval.
import Foundation
import Strata

/// The cursor of a `TerminalLayer` (made by the terminal layer; not used on its own).
final class TerminalCursorLayer: CALayer {
    var terminal: TerminalContent?
    /// On a presentation copy: what is drawn.
    private var shown: (state: TerminalScreenState, on: Bool)?

    override init() { super.init() }
    required init?(coder: NSCoder) { super.init(coder: coder) }
    override init(layer: Any) {
        super.init(layer: layer)
        terminal = (layer as? TerminalCursorLayer)?.terminal
    }

    /// Whether a blinking cursor is on at `time`, `since` seconds after the screen last changed.
    static func isOn(at time: Double, since start: Double, interval: Double) -> Bool {
        guard interval > 0 else { return true }
        return Int(((time - start) / interval).rounded(.down)) % 2 == 0
    }

    override func updatePresentation(atSceneTime time: Double) {
        super.updatePresentation(atSceneTime: time)
        guard let terminal else { return }
        let local = terminal.timelineTime(model().convertTime(time, from: nil))
        let state = terminal.timeline.state(at: local)
        let style = terminal.style
        let on = state.cursorVisible
            && (!style.cursorBlink || Self.isOn(at: local, since: terminal.timeline.startOfState(at: local), interval: style.cursorBlinkInterval))
        shown = (state, on)
        let m = terminal.metrics
        let wide = state[state.cursorRow, state.cursorColumn].width == 2
        frame = CGRect(x: CGFloat(state.cursorColumn) * m.cellWidth, y: CGFloat(state.cursorRow) * m.cellHeight,
                       width: m.cellWidth * (wide ? 2 : 1), height: m.cellHeight)
    }

    override func snapshotContent() -> LayerContent {
        guard let terminal, let (state, on) = shown, on, bounds.width > 0 else { return .none }
        let style = terminal.style
        let ctx = CGContext(recordingIn: CGRect(origin: .zero, size: bounds.size), contentsScale: contentsScale)
        ctx.setFillColor(style.theme.cursor.cgColor)
        let thickness = max(1, (style.fontSize / 11).rounded())
        switch state.cursorShape ?? style.cursorShape {
        case .block:
            ctx.fill(CGRect(origin: .zero, size: bounds.size))
            let cell = state[state.cursorRow, state.cursorColumn]
            if !cell.isBlank, cell.width > 0 {
                let drawing = TerminalRowDrawing(style: style, metrics: terminal.metrics)
                var key = TerminalRowDrawing.RunKey(cell: cell, colors: drawing.colors(of: cell, reverseVideo: state.isReverseVideo))
                key.foreground = style.theme.background
                let top = ((terminal.metrics.cellHeight - terminal.metrics.fontLineHeight) / 2).rounded()
                drawing.drawRun(cell.text, key: key, at: CGPoint(x: 0, y: top), in: ctx)
            }
        case .bar:
            ctx.fill(CGRect(x: 0, y: 0, width: thickness, height: bounds.height))
        case .underline:
            ctx.fill(CGRect(x: 0, y: bounds.height - thickness, width: bounds.width, height: thickness))
        }
        return .drawing(ctx.makeDrawing())
    }
}
