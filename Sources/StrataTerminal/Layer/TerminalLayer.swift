// A terminal window as a Core Animation layer: a grid of cells showing a `TerminalTimeline`
// (screen states over time), in a window with padding, an optional title bar, rounded corners,
// a shadow and a margin (a colour, or a picture covering it). The window chrome is ordinary sublayers; each grid row is a layer that
// draws its row of the state shown at its presentation time, and the cursor is a layer that
// moves to its cell. The layer is a plain CALayer to the rest of Strata: move it, scale it,
// rotate it in 3D, fade it, put it in any scene.
//
// Time: the state shown is the timeline's state at the layer's local time (its `beginTime`,
// `speed` and `timeOffset`, and its ancestors', apply as to any animation), computed anew for
// every frame from the time alone, so frames come out the same in any order. A `TerminalLoop`
// shows the timeline from part-way through, wrapping round (a tape's LoopOffset).
import Foundation
import Strata

/// A terminal window showing screen states over time.
///
/// ```swift
/// let screen = TerminalScreen(columns: 40, rows: 8)
/// let timeline = TerminalTimeline(columns: 40, rows: 8)
/// screen.feed("$ "); timeline.append(screen.state, at: 0)
/// screen.feed("ls\r\n"); timeline.append(screen.state, at: 0.5)
/// var look = TerminalStyle(); look.windowBar = .colorful
/// let terminal = TerminalLayer(timeline: timeline, style: look)
/// root.addSublayer(terminal)          // its bounds fit the grid; set `position` to place it
/// ```
open class TerminalLayer: CALayer {
    /// The screens shown over time.
    public private(set) var timeline = TerminalTimeline(columns: 80, rows: 24)
    /// The look of the terminal.
    public private(set) var terminalStyle = TerminalStyle()
    /// Cell size and layout of the style's font.
    public private(set) var metrics = TerminalMetrics(cellWidth: 1, cellHeight: 1)
    /// The loop the timeline is shown in, if it starts part-way through (nil: local time is the
    /// timeline's time).
    public private(set) var loop: TerminalLoop?

    /// The window (the theme's background, rounded corners, shadow) inside the margin.
    public private(set) var windowLayer = CALayer()
    /// The layer holding the grid's rows and the cursor, inside the padding.
    public private(set) var gridLayer = CALayer()

    /// A terminal showing `timeline` in `style`, sized to fit its grid or of `size` (the grid at
    /// the top left of the space inside the padding), `bounds` at the origin; with a `loop`, from
    /// part-way through.
    public init(timeline: TerminalTimeline, style: TerminalStyle = TerminalStyle(), size: CGSize? = nil, loop: TerminalLoop? = nil) {
        super.init()
        configure(timeline: timeline, style: style, size: size, loop: loop)
    }

    /// An empty 80 × 24 terminal in the default style.
    public override init() {
        super.init()
        configure(timeline: timeline, style: terminalStyle)
    }

    /// **Strata:** no archives: an empty terminal.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A copy of `layer`'s properties (used for presentation copies; sublayers are copied by
    /// the presentation tree).
    public override init(layer: Any) {
        super.init(layer: layer)
        guard let l = layer as? TerminalLayer else { return }
        timeline = l.timeline; terminalStyle = l.terminalStyle; metrics = l.metrics; loop = l.loop
        windowLayer = l.windowLayer; gridLayer = l.gridLayer
    }

    /// Shows `timeline` in `style`: rebuilds the window and the grid, and sizes `bounds` to fit
    /// the grid (or to `size`); with a `loop`, the timeline from part-way through.
    public func configure(timeline: TerminalTimeline, style: TerminalStyle, size fixedSize: CGSize? = nil, loop: TerminalLoop? = nil) {
        self.timeline = timeline
        terminalStyle = style
        self.loop = loop
        metrics = TerminalMetrics(style: style)
        let content = TerminalContent(timeline: timeline, style: style, metrics: metrics, loop: loop)
        let size = fixedSize ?? metrics.layerSize(columns: timeline.columns, rows: timeline.rows, style: style)
        bounds = CGRect(origin: .zero, size: size)
        backgroundColor = style.margin > 0 ? style.marginFill?.cgColor : nil
        sublayers = nil

        if let path = style.marginImage, style.margin > 0, let image = try? CGImage.load(contentsOfFile: path) {
            let fill = CALayer()
            fill.frame = CGRect(origin: .zero, size: size)
            fill.contents = image
            fill.contentsGravity = .resizeAspectFill
            fill.masksToBounds = true
            addSublayer(fill)
        }

        let window = CALayer()
        window.frame = CGRect(origin: .zero, size: size).insetBy(dx: style.margin, dy: style.margin)
        window.backgroundColor = style.theme.background.cgColor
        window.cornerRadius = style.borderRadius
        if style.shadow {
            window.shadowOpacity = 0.55
            window.shadowRadius = style.shadowRadius
            window.shadowOffset = CGSize(width: 0, height: style.shadowRadius / 3)
            window.shadowColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            window.shadowPath = CGPath(roundedRect: window.bounds, cornerWidth: style.borderRadius, cornerHeight: style.borderRadius, transform: nil)
        }
        addSublayer(window)
        windowLayer = window

        if style.windowBar != .none { window.addSublayer(makeBar(width: window.bounds.width)) }

        let grid = CALayer()
        let gridSize = metrics.gridSize(columns: timeline.columns, rows: timeline.rows)
        grid.frame = CGRect(x: style.padding, y: style.padding + style.barHeight, width: gridSize.width, height: gridSize.height)
        for r in 0..<timeline.rows {
            let row = TerminalRowLayer()
            row.terminal = content
            row.row = r
            row.frame = CGRect(x: 0, y: CGFloat(r) * metrics.cellHeight, width: gridSize.width, height: metrics.cellHeight)
            grid.addSublayer(row)
        }
        let cursor = TerminalCursorLayer()
        cursor.terminal = content
        cursor.frame = CGRect(x: 0, y: 0, width: metrics.cellWidth, height: metrics.cellHeight)
        grid.addSublayer(cursor)
        window.addSublayer(grid)
        gridLayer = grid
    }

    /// The title bar with its three dots.
    private func makeBar(width: CGFloat) -> CALayer {
        let bar = CALayer()
        bar.frame = CGRect(x: 0, y: 0, width: width, height: terminalStyle.barHeight)
        let d = (terminalStyle.barHeight * 0.38).rounded()
        let gap = d * 0.6
        let colors = ["#ff5f58", "#ffbd2e", "#18c132"].compactMap { TerminalRGB(hex: $0) }
        let rings = terminalStyle.windowBar == .rings || terminalStyle.windowBar == .ringsRight
        let right = terminalStyle.windowBar == .colorfulRight || terminalStyle.windowBar == .ringsRight
        let total = 3 * d + 2 * gap
        let x0 = right ? width - terminalStyle.barHeight / 2 - total + d / 2 : terminalStyle.barHeight / 2 - d / 2
        for (i, color) in colors.enumerated() {
            let dot = CALayer()
            dot.frame = CGRect(x: x0 + CGFloat(i) * (d + gap), y: (terminalStyle.barHeight - d) / 2, width: d, height: d)
            dot.cornerRadius = d / 2
            if rings {
                dot.borderWidth = max(1, (d / 8).rounded())
                dot.borderColor = terminalStyle.theme.foreground.mixed(with: terminalStyle.theme.background, amount: 0.6).cgColor
            } else {
                dot.backgroundColor = color.cgColor
            }
            bar.addSublayer(dot)
        }
        if let title = terminalStyle.windowTitle, !title.isEmpty {
            let text = CATextLayer()
            text.string = title
            text.font = "DejaVu Sans"
            text.fontSize = (terminalStyle.barHeight * 0.4).rounded()
            text.foregroundColor = terminalStyle.theme.foreground.mixed(with: terminalStyle.theme.background, amount: 0.35).cgColor
            let size = TextMetrics.size(of: title, font: "DejaVu Sans", fontSize: text.fontSize)
            // Between the dots and the same space on the other side; cut short with "…" if longer.
            let titleWidth = min(size.width.rounded(.up), max(0, width - 2 * (x0 + total + gap)))
            text.truncationMode = .end
            text.bounds = CGRect(x: 0, y: 0, width: titleWidth, height: size.height.rounded(.up))
            text.position = CGPoint(x: width / 2, y: terminalStyle.barHeight / 2)
            bar.addSublayer(text)
        }
        return bar
    }

    /// The screen shown at the layer's local time `time`.
    public func screenState(atLocalTime time: Double) -> TerminalScreenState {
        timeline.state(at: loop?.timelineTime(atLocalTime: time) ?? time)
    }
}

extension TerminalMetrics {
    init(cellWidth: CGFloat, cellHeight: CGFloat) {
        self.cellWidth = cellWidth; self.cellHeight = cellHeight; fontLineHeight = cellHeight
    }
}
