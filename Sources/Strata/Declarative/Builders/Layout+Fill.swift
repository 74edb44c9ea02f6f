// Layout that follows the canvas, in SwiftUI's spelling: `.frame(maxWidth: .infinity)` (fill
// what the parent offers), `.frame(width: .percent(50))`, `.padding(24)`, `.padding(.safeArea)`,
// `.aspectRatio(16 / 9, contentMode: .fit)`, and `Spacer()` in stacks. Sizes are resolved
// against the space the parent offers (the canvas at the top level) when the scene is compiled,
// so a scene laid out again at another size (`--size 1080x1920`) keeps its design.
import Foundation

/// How an aspect ratio meets the space offered: inside it, or covering it (SwiftUI's names).
public enum ContentMode: String, Sendable {
    /// The largest size of the ratio that fits inside the space offered (SwiftUI's `.fit`).
    case fit
    /// The smallest size of the ratio that covers the space offered; the parent may clip the
    /// overflow (SwiftUI's `.fill`).
    case fill
}

/// Flexible space in an ``HStack`` or ``VStack``: the length the fixed items leave is shared
/// equally among the spacers (and items that fill along the stack).
///
/// ```swift
/// HStack { Text("Left"); Spacer(); Text("Right") }.frame(maxWidth: .infinity)
/// ```
public struct Spacer: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// A spacer at least `minLength` points long.
    public init(minLength: CGFloat? = nil) {
        node = Node(.spacer, properties: minLength.map { ["minLength": .number(Double($0))] } ?? [:])
    }
}

extension LayerElement {
    func withLayout(_ change: (inout LayoutSpec) -> Void) -> Self {
        with {
            var l = $0.layout ?? LayoutSpec()
            change(&l)
            $0.layout = l
        }
    }

    /// Limits of the size; `.infinity` as a maximum makes the element as wide (high) as its
    /// parent offers — SwiftUI's `.frame(maxWidth: .infinity)`. A text made wider is centred.
    ///
    /// ```swift
    /// Layer().background(.hex("#0B1021")).frame(maxWidth: .infinity, maxHeight: .infinity)
    /// ```
    public func frame(minWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
                      maxHeight: CGFloat? = nil) -> Self {
        func length(_ v: CGFloat?) -> LayoutLength? { v.map { $0.isInfinite ? .fill : .points(Double($0)) } }
        let changed = withLayout {
            if let v = length(minWidth) { $0.minWidth = v }
            if let v = length(maxWidth) { $0.maxWidth = v }
            if let v = length(minHeight) { $0.minHeight = v }
            if let v = length(maxHeight) { $0.maxHeight = v }
        }
        return changed.centeringText(if: maxWidth?.isInfinite == true)
    }

    /// A width and height relative to the parent: `.frame(width: .percent(80))`,
    /// `.frame(width: .fill, height: .percent(30))` (nil: from the content).
    public func frame(width: LayoutLength? = nil, height: LayoutLength? = nil) -> Self {
        withLayout {
            if let width { $0.width = width }
            if let height { $0.height = height }
        }.centeringText(if: width != nil)
    }

    /// A text made wider than its string keeps it in the middle (SwiftUI's default alignment).
    private func centeringText(if wider: Bool) -> Self {
        guard wider, node.type == .text, node.properties["alignmentMode"] == nil else { return self }
        return with { $0.properties["alignmentMode"] = .string("center") }
    }

    /// Space between the element's bounds and its sublayers, on every side (an element sized
    /// by its content grows by it). Pad a text, shape or image by padding a ``Group`` around it.
    public func padding(_ length: CGFloat = 16) -> Self { padding(.points(Double(length))) }

    /// Padding relative to the space offered: `.padding(.percent(5))` (percentages of the
    /// offered height above and below, of the offered width on the sides).
    public func padding(_ length: LayoutLength) -> Self { withLayout { $0.padding = .all(length) } }

    /// Padding per edge (nil: none on that edge).
    public func padding(top: LayoutLength? = nil, leading: LayoutLength? = nil, bottom: LayoutLength? = nil,
                        trailing: LayoutLength? = nil) -> Self {
        let zero = LayoutLength.points(0)
        return withLayout {
            $0.padding = .edges(top: top ?? zero, leading: leading ?? zero, bottom: bottom ?? zero, trailing: trailing ?? zero)
        }
    }

    /// Padding given as insets, or the safe area of the format: `.padding(.safeArea)` keeps
    /// the content clear of what TikTok, Reels and Shorts draw over a vertical video (10 % top,
    /// 20 % bottom, 6 % leading, 12 % trailing) and inside the title-safe area (5 %) of square
    /// and landscape formats.
    public func padding(_ insets: LayoutInsets) -> Self { withLayout { $0.padding = insets } }

    /// Keeps width ÷ height at `ratio`, as large as fits in (`.fit`) or covers (`.fill`) the
    /// space offered — or, when a width or height is set, the other side follows.
    public func aspectRatio(_ ratio: CGFloat, contentMode: ContentMode = .fit) -> Self {
        withLayout {
            $0.aspectRatio = Double(ratio)
            $0.contentMode = contentMode == .fit ? nil : contentMode.rawValue
        }
    }
}
