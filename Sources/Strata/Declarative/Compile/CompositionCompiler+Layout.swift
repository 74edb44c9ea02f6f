// Layout of a composition's layers: a layer with a `frame` or `position` keeps it; one with a
// `layout` is centred or pinned in its parent; stacks place their children in a row, a column or
// on top of each other with spacing and alignment; anything else has its frame's origin at (0, 0).
import Foundation
import StrataCore

extension CompositionCompiler {
    /// Puts `layer` in a parent of `parentSize`: its frame or position when given, else its
    /// layout (centred, pinned), else its frame's origin at (0, 0); then the layout's offset.
    mutating func place(_ node: Node, _ layer: CALayer, in parentSize: CGSize, path: String) {
        let size = layer.bounds.size
        let anchor = layer.anchorPoint
        if let f = node.properties["frame"], let r = try? PropertyDecoding.rect(f) {
            layer.position = CGPoint(x: r.minX + anchor.x * r.width, y: r.minY + anchor.y * r.height)
        } else if let p = node.properties["position"], let pt = try? PropertyDecoding.point(p) {
            layer.position = pt
        } else if let layout = node.layout, layout.center == true || layout.pin != nil {
            let edge = layout.center == true ? LayoutSpec.Edge.center : layout.pin!
            let inset = CGFloat(layout.inset ?? 0)
            let origin = CGPoint(x: alignedX(edge, size.width, parentSize.width, inset),
                                 y: alignedY(edge, size.height, parentSize.height, inset))
            layer.position = CGPoint(x: origin.x + anchor.x * size.width, y: origin.y + anchor.y * size.height)
        } else {
            layer.position = CGPoint(x: anchor.x * size.width, y: anchor.y * size.height)
        }
        if let offset = node.layout?.offset {
            guard offset.count == 2 else { issue("\(path).layout.offset", "expected [x, y]"); return }
            layer.position.x += CGFloat(offset[0])
            layer.position.y += CGFloat(offset[1])
        }
    }

    func alignedX(_ edge: LayoutSpec.Edge, _ w: CGFloat, _ parent: CGFloat, _ inset: CGFloat) -> CGFloat {
        switch edge {
        case .leading, .topLeading, .bottomLeading: inset
        case .trailing, .topTrailing, .bottomTrailing: parent - w - inset
        case .top, .bottom, .center: (parent - w) / 2
        }
    }

    func alignedY(_ edge: LayoutSpec.Edge, _ h: CGFloat, _ parent: CGFloat, _ inset: CGFloat) -> CGFloat {
        switch edge {
        case .top, .topLeading, .topTrailing: inset
        case .bottom, .bottomLeading, .bottomTrailing: parent - h - inset
        case .leading, .trailing, .center: (parent - h) / 2
        }
    }

    /// Places a stack's children and returns the size they take. A stack whose box fixes a
    /// width or height (Layout+Fill) lays its items out in that length: across, by its
    /// alignment; along, centred when no flexible item takes up what is left.
    mutating func layoutStack(_ node: Node, children: [(Node, CALayer, String)], path: String, box: LayoutBox) -> CGSize {
        let spacing = node.properties["spacing"].flatMap { try? PropertyDecoding.number($0) } ?? 8
        let alignment = node.properties["alignment"]?.string ?? "center"
        let sizes = children.map { $0.1.bounds.size }
        let valid: [String] = switch node.type {
        case .hstack: ["top", "center", "bottom"]
        case .vstack: ["leading", "center", "trailing"]
        default: LayoutSpec.Edge.allCases.map(\.rawValue)
        }
        if !valid.contains(alignment) {
            issue("\(path).alignment", "expected one of \(valid.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(alignment)\"")
        }
        let fixedWidth = box.isExplicit ? nil : box.width.map { _ in box.inner.width }
        let fixedHeight = box.isExplicit ? nil : box.height.map { _ in box.inner.height }
        let hasFlexible = children.contains { isFlexible($0.0, in: node.type) }
        var content = CGSize.zero
        var origins: [CGPoint] = []
        switch node.type {
        case .hstack:
            content.height = fixedHeight ?? (sizes.map(\.height).max() ?? 0)
            let used = sizes.reduce(0) { $0 + $1.width } + spacing * CGFloat(max(0, sizes.count - 1))
            var x: CGFloat = hasFlexible ? 0 : max(0, ((fixedWidth ?? used) - used) / 2)
            for s in sizes {
                let y: CGFloat = alignment == "top" ? 0 : alignment == "bottom" ? content.height - s.height : (content.height - s.height) / 2
                origins.append(CGPoint(x: x, y: y))
                x += s.width + spacing
            }
            content.width = fixedWidth ?? (hasFlexible ? max(used, box.inner.width) : used)
        case .vstack:
            content.width = fixedWidth ?? (sizes.map(\.width).max() ?? 0)
            let used = sizes.reduce(0) { $0 + $1.height } + spacing * CGFloat(max(0, sizes.count - 1))
            var y: CGFloat = hasFlexible ? 0 : max(0, ((fixedHeight ?? used) - used) / 2)
            for s in sizes {
                let x: CGFloat = alignment == "leading" ? 0 : alignment == "trailing" ? content.width - s.width : (content.width - s.width) / 2
                origins.append(CGPoint(x: x, y: y))
                y += s.height + spacing
            }
            content.height = fixedHeight ?? (hasFlexible ? max(used, box.inner.height) : used)
        default:
            content = CGSize(width: fixedWidth ?? (sizes.map(\.width).max() ?? 0), height: fixedHeight ?? (sizes.map(\.height).max() ?? 0))
            let edge = LayoutSpec.Edge(rawValue: alignment) ?? .center
            for s in sizes {
                origins.append(CGPoint(x: alignedX(edge, s.width, content.width, 0), y: alignedY(edge, s.height, content.height, 0)))
            }
        }
        for ((child, layer, p), origin) in zip(children, origins) {
            if child.properties["position"] != nil || child.properties["frame"] != nil {
                place(child, layer, in: content, path: p)
                continue
            }
            let s = layer.bounds.size
            layer.position = CGPoint(x: origin.x + layer.anchorPoint.x * s.width, y: origin.y + layer.anchorPoint.y * s.height)
            if let offset = child.layout?.offset, offset.count == 2 {
                layer.position.x += CGFloat(offset[0])
                layer.position.y += CGFloat(offset[1])
            }
        }
        return content
    }
}
