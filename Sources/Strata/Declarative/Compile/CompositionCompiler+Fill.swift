// Layout that follows the canvas: sizes relative to the space a parent offers (`"50%"`, `fill`,
// SwiftUI's `.frame(maxWidth: .infinity)`), limits, aspect ratios, padding (points, percentages,
// the safe area of a social format) and stacks with flexible items (`Spacer`, fill items).
//
// The space offered goes top-down: the canvas to the top-level layers, a layer's own box minus
// its padding to its sublayers. A layer's size is then, per axis: a fixed one (frame, size,
// width/height, `fill`, a `fill` maximum), else its content's plus its padding, limited by
// min/max and adjusted to its aspect ratio. Everything is a function of the offered sizes, so a
// composition laid out again at another `--size` keeps its design.
import Foundation
import StrataCore

/// What a node's layout fixes before its content is known.
struct LayoutBox {
    /// The space the parent offers.
    var proposed: CGSize
    /// The width and height fixed by the layout (nil: from the content).
    var width: CGFloat?, height: CGFloat?
    /// Padding: top, leading, bottom, trailing.
    var top: CGFloat = 0, leading: CGFloat = 0, bottom: CGFloat = 0, trailing: CGFloat = 0
    /// Limits (nil: none).
    var minWidth: CGFloat?, maxWidth: CGFloat?, minHeight: CGFloat?, maxHeight: CGFloat?
    var aspectRatio: CGFloat?
    var fillsAspect = false
    /// Whether the size is the node's own `frame`/`size`/`bounds` (a stack then keeps its
    /// items at its top-left, as before relative layout existed).
    var isExplicit = false

    /// The space offered to the sublayers: the fixed size (or the offered one) inside the padding.
    var inner: CGSize {
        CGSize(width: max(0, (width ?? proposed.width) - leading - trailing),
               height: max(0, (height ?? proposed.height) - top - bottom))
    }

    /// The inside of the padding for a final size.
    func innerSize(of size: CGSize) -> CGSize {
        CGSize(width: max(0, size.width - leading - trailing), height: max(0, size.height - top - bottom))
    }

    /// The final size for a content size: fixed axes kept, the others the content's plus the
    /// padding, limited, then adjusted to the aspect ratio.
    func size(content: CGSize) -> CGSize {
        var w = width ?? content.width + leading + trailing
        var h = height ?? content.height + top + bottom
        if let m = maxWidth, width == nil { w = min(w, m) }
        if let m = maxHeight, height == nil { h = min(h, m) }
        if let m = minWidth { w = max(w, m) }
        if let m = minHeight { h = max(h, m) }
        if let r = aspectRatio, r > 0 {
            switch (width, height) {
            case (.some, nil): h = w / r
            case (nil, .some): w = h * r
            default:
                // Both known (fixed, or from the content): fit in or cover that box.
                let byWidth = CGSize(width: w, height: w / r), byHeight = CGSize(width: h * r, height: h)
                let pick = fillsAspect ? (byWidth.height >= h ? byWidth : byHeight) : (byWidth.height <= h ? byWidth : byHeight)
                w = pick.width; h = pick.height
            }
        }
        return CGSize(width: max(0, w), height: max(0, h))
    }

    /// Moves sublayers placed inside the padding to their place in the bounds.
    func shift(_ layers: [CALayer]) {
        guard leading != 0 || top != 0 else { return }
        for l in layers { l.position.x += leading; l.position.y += top }
    }
}

extension CompositionCompiler {
    /// The layout box of `node` offered `proposed`.
    mutating func layoutBox(of node: Node, proposed: CGSize, path: String) -> LayoutBox {
        var box = LayoutBox(proposed: proposed)
        let l = node.layout
        if let fixed = explicitSize(of: node) {
            box.width = fixed.width; box.height = fixed.height
            box.isExplicit = true
        } else {
            box.width = l?.width?.resolved(in: proposed.width)
            box.height = l?.height?.resolved(in: proposed.height)
            // A `fill` maximum is SwiftUI's `.frame(maxWidth: .infinity)`: as large as offered.
            if box.width == nil, l?.maxWidth == .fill { box.width = proposed.width }
            if box.height == nil, l?.maxHeight == .fill { box.height = proposed.height }
            // A series and its sections fill what they are offered.
            if node.type == .sections || node.type == .section {
                box.width = box.width ?? proposed.width
                box.height = box.height ?? proposed.height
            }
        }
        if let m = l?.maxWidth, m != .fill { box.maxWidth = m.resolved(in: proposed.width) }
        if let m = l?.maxHeight, m != .fill { box.maxHeight = m.resolved(in: proposed.height) }
        box.minWidth = l?.minWidth?.resolved(in: proposed.width)
        box.minHeight = l?.minHeight?.resolved(in: proposed.height)
        if let w = box.width, let m = box.minWidth { box.width = max(w, m) }
        if let h = box.height, let m = box.minHeight { box.height = max(h, m) }
        if let r = l?.aspectRatio {
            if r.isFinite, r > 0 { box.aspectRatio = CGFloat(r) } else {
                issue("\(path).layout.aspectRatio", "expected a width ÷ height ratio > 0, got \(PropertyValue.number(r))")
            }
            switch l?.contentMode {
            case nil, "fit"?: break
            case "fill"?: box.fillsAspect = true
            case let other?: issue("\(path).layout.contentMode", "expected \"fit\" or \"fill\", got \"\(Echo.text(other))\"")
            }
            // With nothing fixed, the ratio fits in (or covers) what is offered.
            if box.width == nil, box.height == nil, box.aspectRatio != nil, explicitSize(of: node) == nil {
                let s = box.size(content: proposed)
                box.width = s.width; box.height = s.height
            } else if box.aspectRatio != nil, let w = box.width, let h = box.height {
                let s = LayoutBox(proposed: proposed, width: w, height: h, aspectRatio: box.aspectRatio, fillsAspect: box.fillsAspect)
                    .size(content: .zero)
                box.width = s.width; box.height = s.height
            }
        }
        if let p = l?.padding {
            let r = p.resolved(in: CGSize(width: box.width ?? proposed.width, height: box.height ?? proposed.height))
            box.top = r.top; box.leading = r.leading; box.bottom = r.bottom; box.trailing = r.trailing
        }
        return box
    }

    /// Whether a stack item stretches along the stack's main axis (a spacer, or a fill width
    /// in a row / height in a column).
    func isFlexible(_ child: Node, in stack: NodeType) -> Bool {
        if child.type == .spacer { return true }
        guard explicitSize(of: child) == nil, let l = child.layout else { return false }
        switch stack {
        case .hstack: return l.width == .fill || (l.width == nil && l.maxWidth == .fill)
        case .vstack: return l.height == .fill || (l.height == nil && l.maxHeight == .fill)
        default: return false
        }
    }

    /// Builds a stack's items: the fixed ones first, offered the stack's inner space; then the
    /// flexible ones (spacers, fill items), each offered an equal share of the length left
    /// along the main axis. Returns them in their order.
    mutating func buildStackChildren(_ node: Node, box: LayoutBox, path: String) -> [(Node, CALayer, String)] {
        let inner = box.inner
        var built: [Int: CALayer] = [:]
        let horizontal = node.type == .hstack
        let spacing = node.properties["spacing"].flatMap { try? PropertyDecoding.number($0) } ?? 8
        var used: CGFloat = 0
        var flexible: [Int] = []
        for (i, child) in node.children.enumerated() {
            if node.type != .zstack, isFlexible(child, in: node.type) { flexible.append(i); continue }
            let l = build(child, path: "\(path).children[\(i)]", proposed: inner)
            built[i] = l
            used += horizontal ? l.bounds.width : l.bounds.height
        }
        if !flexible.isEmpty {
            let main = horizontal ? inner.width : inner.height
            let gaps = spacing * CGFloat(max(0, node.children.count - 1))
            let share = max(0, main - used - gaps) / CGFloat(flexible.count)
            for i in flexible {
                let child = node.children[i]
                let offered = horizontal ? CGSize(width: share, height: inner.height) : CGSize(width: inner.width, height: share)
                let l = build(child, path: "\(path).children[\(i)]", proposed: offered)
                if child.type == .spacer {
                    let minimum = child.properties["minLength"].flatMap { try? PropertyDecoding.number($0) } ?? 0
                    let length = max(share, minimum)
                    l.bounds.size = horizontal ? CGSize(width: length, height: 0) : CGSize(width: 0, height: length)
                }
                built[i] = l
            }
        }
        return node.children.indices.map { (node.children[$0], built[$0]!, "\(path).children[\($0)]") }
    }
}
