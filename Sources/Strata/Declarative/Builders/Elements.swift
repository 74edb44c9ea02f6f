// The DSL's elements: one per kind of layer. Each builds a node of the declarative model; kind
// specific modifiers (`fill`, `font`, `gravity`, …) sit with the element they belong to.
import Foundation
import StrataCore

/// A plain layer (`CALayer`), optionally holding sublayers.
public struct Layer: LayerElement {
    public var node: Node
    public init() { node = Node(.layer) }
    public init(@LayerBuilder _ content: () -> [Node]) { node = Node(.layer, children: content()) }
}

/// A vector shape (`CAShapeLayer`).
public struct Shape: LayerElement {
    public var node: Node
    public init(_ path: ShapePath) { node = Node(.shape, properties: ["path": path.propertyValue]) }

    /// The fill colour (Core Animation's default is opaque black; `.clear` for none).
    public func fill(_ c: Color) -> Shape { set(.fillColor, c) }
    /// Strokes the outline.
    public func stroke(_ c: Color, width: CGFloat = 1, cap: CAShapeLayerLineCap? = nil, join: CAShapeLayerLineJoin? = nil,
                       dash: [CGFloat]? = nil) -> Shape {
        var s = set(.strokeColor, c).set(.lineWidth, width)
        if let cap { s = s.property("lineCap", cap.rawValue) }
        if let join { s = s.property("lineJoin", join.rawValue) }
        if let dash { s = s.property("lineDashPattern", dash) }
        return s
    }
    /// The part of the outline stroked (0…1 each).
    public func trim(from start: CGFloat = 0, to end: CGFloat = 1) -> Shape { set(.strokeStart, start).set(.strokeEnd, end) }
    public func fillRule(_ rule: CAShapeLayerFillRule) -> Shape { property("fillRule", rule.rawValue) }
}

/// Text (`CATextLayer`), sized to fit its string.
public struct Text: LayerElement {
    public var node: Node
    public init(_ string: String) { node = Node(.text, properties: ["string": .string(string)]) }

    /// The font by name (a family, "Family Style", or a PostScript name) and size in points.
    public func font(_ name: String, size: CGFloat) -> Text { property("font", name).set(.fontSize, size) }
    public func fontSize(_ size: CGFloat) -> Text { set(.fontSize, size) }
    public func foreground(_ c: Color) -> Text { set(.foregroundColor, c) }
    public func alignment(_ a: CATextLayerAlignmentMode) -> Text { property("alignmentMode", a.rawValue) }
    /// Wraps lines at `width` points.
    public func wrapped(width: CGFloat) -> Text { property("isWrapped", true).property("wrapWidth", width) }
    public func truncation(_ t: CATextLayerTruncationMode) -> Text { property("truncationMode", t.rawValue) }
}

/// A gradient (`CAGradientLayer`).
public struct Gradient: LayerElement {
    public var node: Node
    /// Colours from `start` to `end` (unit points of the bounds), evenly spaced unless
    /// `locations` is given.
    public init(_ colors: [Color], from start: UnitPoint = .top, to end: UnitPoint = .bottom,
                type: CAGradientLayerType = .axial, locations: [Double]? = nil) {
        var props: [String: PropertyValue] = ["colors": colors.propertyValue, "startPoint": start.point.propertyValue,
                                              "endPoint": end.point.propertyValue, "gradientType": .string(type.rawValue)]
        if let locations { props["locations"] = locations.propertyValue }
        node = Node(.gradient, properties: props)
    }
}

/// A point in a unit square: (0, 0) top-left, (1, 1) bottom-right.
public struct UnitPoint: Hashable, Sendable {
    public var x: CGFloat, y: CGFloat
    public init(x: CGFloat, y: CGFloat) { self.x = x; self.y = y }
    var point: CGPoint { CGPoint(x: x, y: y) }
    public static let top = UnitPoint(x: 0.5, y: 0), bottom = UnitPoint(x: 0.5, y: 1)
    public static let leading = UnitPoint(x: 0, y: 0.5), trailing = UnitPoint(x: 1, y: 0.5)
    public static let topLeading = UnitPoint(x: 0, y: 0), topTrailing = UnitPoint(x: 1, y: 0)
    public static let bottomLeading = UnitPoint(x: 0, y: 1), bottomTrailing = UnitPoint(x: 1, y: 1)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
}

/// An image file (PNG, JPEG, WebP) shown as a layer's contents, at its size unless given one.
public struct Image: LayerElement {
    public var node: Node
    /// `path` is relative to the current folder (to the template's folder in templates).
    public init(_ path: String) { node = Node(.image, properties: ["image": .string(path)]) }
    /// How the image fills the layer (`.resizeAspectFill`, `.center`, …).
    public func gravity(_ g: CALayerContentsGravity) -> Image { property("contentsGravity", g.rawValue) }
}

/// A video file playing in the layer (`AVPlayerLayer`), from scene time `start`.
public struct Video: LayerElement {
    public var node: Node
    public init(_ path: String, start: TimeValue = 0, loop: Bool = false, muted: Bool = false) {
        var props: [String: PropertyValue] = ["video": .string(path), "start": start.propertyValue]
        if loop { props["loop"] = .bool(true) }
        if muted { props["muted"] = .bool(true) }
        node = Node(.video, properties: props)
    }
    /// How the video fills the layer (`.resizeAspect` by default).
    public func gravity(_ g: AVLayerVideoGravity) -> Video { property("videoGravity", g.rawValue) }
}

extension TimeValue: PropertyValueConvertible {
    public var propertyValue: PropertyValue {
        switch self {
        case .seconds(let s): .number(s)
        case .frames(let f): .string("\(f)f")
        case .sum(let parts): .array(parts.map(\.propertyValue))
        }
    }
}

/// A layer that holds others (sized to them unless given a size).
public struct Group: LayerElement {
    public var node: Node
    public init(@LayerBuilder _ content: () -> [Node]) { node = Node(.group, children: content()) }
}

/// A 3D rendering context (`CATransformLayer`): its sublayers share one 3D space, depth-sorted.
public struct TransformGroup: LayerElement {
    public var node: Node
    public init(@LayerBuilder _ content: () -> [Node]) { node = Node(.transformGroup, children: content()) }
}

/// Vertical alignment of the items of a row.
public enum VerticalAlignment: String, Sendable { case top, center, bottom }
/// Horizontal alignment of the items of a column.
public enum HorizontalAlignment: String, Sendable { case leading, center, trailing }

/// Sublayers in a row, left to right, `spacing` apart.
public struct HStack: LayerElement {
    public var node: Node
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat = 8, @LayerBuilder _ content: () -> [Node]) {
        node = Node(.hstack, properties: ["spacing": .number(Double(spacing)), "alignment": .string(alignment.rawValue)],
                    children: content())
    }
}

/// Sublayers in a column, top to bottom, `spacing` apart.
public struct VStack: LayerElement {
    public var node: Node
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat = 8, @LayerBuilder _ content: () -> [Node]) {
        node = Node(.vstack, properties: ["spacing": .number(Double(spacing)), "alignment": .string(alignment.rawValue)],
                    children: content())
    }
}

/// Sublayers on top of each other, aligned in the largest one's box.
public struct ZStack: LayerElement {
    public var node: Node
    public init(alignment: LayoutSpec.Edge = .center, @LayerBuilder _ content: () -> [Node]) {
        node = Node(.zstack, properties: ["alignment": .string(alignment.rawValue)], children: content())
    }
}
