// The DSL's elements: one per kind of layer. Each builds a node of the declarative model; kind
// specific modifiers (`fill`, `font`, `gravity`, …) sit with the element they belong to.
import Foundation
import StrataCore

/// A plain layer (`CALayer`), optionally holding sublayers.
public struct Layer: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// An empty layer: give it a frame and a background.
    ///
    /// ```swift
    /// Layer().frame(width: 200, height: 120).background(.hex("#1F6FEB")).cornerRadius(16)
    /// ```
    public init() { node = Node(.layer) }
    /// A layer holding `content` as sublayers (placed by their own frames or layout).
    public init(@LayerBuilder _ content: () -> [Node]) { node = Node(.layer, children: content()) }
}

/// A vector shape (`CAShapeLayer`).
public struct Shape: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// A shape with `path`, filled opaque black until `fill` says otherwise.
    ///
    /// ```swift
    /// Shape(.circle(center: CGPoint(x: 50, y: 50), radius: 40)).fill(.clear).stroke(.white, width: 6).draw(duration: 1)
    /// ```
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
    /// How overlapping parts of the path are filled: `.nonZero` (the default) or `.evenOdd`
    /// (holes where the path crosses itself an even number of times).
    public func fillRule(_ rule: CAShapeLayerFillRule) -> Shape { property("fillRule", rule.rawValue) }
}

/// Text (`CATextLayer`), sized to fit its string.
public struct Text: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// A line (or, with `wrapped(width:)`, a paragraph) of text, sized to fit it.
    ///
    /// ```swift
    /// Text("Hello").font("DejaVu Sans Bold", size: 96).foreground(.white).center()
    /// ```
    public init(_ string: String) { node = Node(.text, properties: ["string": .string(string)]) }

    /// The font by name (a family, "Family Style", or a PostScript name) and size in points.
    public func font(_ name: String, size: CGFloat) -> Text { property("font", name).set(.fontSize, size) }
    /// The font size in points (keeping the font).
    public func fontSize(_ size: CGFloat) -> Text { set(.fontSize, size) }
    /// The text's colour.
    public func foreground(_ c: Color) -> Text { set(.foregroundColor, c) }
    /// How lines align within the layer (`.left`, `.center`, `.right`, `.justified`, `.natural`).
    public func alignment(_ a: CATextLayerAlignmentMode) -> Text { property("alignmentMode", a.rawValue) }
    /// Wraps lines at `width` points.
    public func wrapped(width: CGFloat) -> Text { property("isWrapped", true).property("wrapWidth", width) }
    /// Where text too long for the layer is cut with an ellipsis (`.end`, `.middle`, `.start`).
    public func truncation(_ t: CATextLayerTruncationMode) -> Text { property("truncationMode", t.rawValue) }
}

/// A gradient (`CAGradientLayer`).
public struct Gradient: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// Colours from `start` to `end` (unit points of the bounds), evenly spaced unless
    /// `locations` is given.
    ///
    /// ```swift
    /// Gradient([.hex("#0F2027"), .hex("#2C5364")], from: .topLeading, to: .bottomTrailing)
    ///     .frame(maxWidth: .infinity, maxHeight: .infinity)
    /// ```
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
    /// The coordinates, 0…1 across and down the box.
    public var x: CGFloat, y: CGFloat
    /// A point at (`x`, `y`) of the unit square.
    public init(x: CGFloat, y: CGFloat) { self.x = x; self.y = y }
    var point: CGPoint { CGPoint(x: x, y: y) }
    /// The middle of the top edge; the middle of the bottom edge.
    public static let top = UnitPoint(x: 0.5, y: 0), bottom = UnitPoint(x: 0.5, y: 1)
    /// The middle of the left edge; the middle of the right edge.
    public static let leading = UnitPoint(x: 0, y: 0.5), trailing = UnitPoint(x: 1, y: 0.5)
    /// The top-left corner; the top-right corner.
    public static let topLeading = UnitPoint(x: 0, y: 0), topTrailing = UnitPoint(x: 1, y: 0)
    /// The bottom-left corner; the bottom-right corner.
    public static let bottomLeading = UnitPoint(x: 0, y: 1), bottomTrailing = UnitPoint(x: 1, y: 1)
    /// The centre.
    public static let center = UnitPoint(x: 0.5, y: 0.5)
}

/// An image file (PNG, JPEG, WebP) shown as a layer's contents, at its size unless given one.
public struct Image: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// `path` is relative to the current folder (to the template's folder in templates).
    ///
    /// ```swift
    /// Image("photo.jpg").frame(width: 640, height: 360).gravity(.resizeAspectFill).clipped()
    /// ```
    public init(_ path: String) { node = Node(.image, properties: ["image": .string(path)]) }
    /// How the image fills the layer (`.resizeAspectFill`, `.center`, …).
    public func gravity(_ g: CALayerContentsGravity) -> Image { property("contentsGravity", g.rawValue) }
}

/// A video file playing in the layer (`AVPlayerLayer`), from scene time `start`.
public struct Video: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// A video from the file at `path` (any format FFmpeg opens), starting at scene time `start`;
    /// `loop` plays it again from its start when it ends; `muted` leaves its sound out of the export.
    ///
    /// ```swift
    /// Video("clip.mp4", start: 1, muted: true).frame(width: 640, height: 360).gravity(.resizeAspectFill)
    /// ```
    public init(_ path: String, start: TimeValue = 0, loop: Bool = false, muted: Bool = false) {
        var props: [String: PropertyValue] = ["video": .string(path), "start": start.propertyValue]
        if loop { props["loop"] = .bool(true) }
        if muted { props["muted"] = .bool(true) }
        node = Node(.video, properties: props)
    }
    /// How the video fills the layer (`.resizeAspect` by default).
    public func gravity(_ g: AVLayerVideoGravity) -> Video {
        property("videoGravity", PropertyTable.videoGravities.first { $0.gravity == g }?.name ?? "resizeAspect")
    }
}

extension TimeValue: PropertyValueConvertible {
    /// Seconds as a number, frames as `"12f"`, a sum as a list.
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
    /// The node of the declarative model this element builds.
    public var node: Node
    /// A group of `content`, sized to hold it: move, fade or scale them together.
    public init(@LayerBuilder _ content: () -> [Node]) { node = Node(.group, children: content()) }
}

/// A 3D rendering context (`CATransformLayer`): its sublayers share one 3D space, depth-sorted.
public struct TransformGroup: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// A 3D context of `content`: faces of a cube turned with `rotation3D` and seen through a
    /// parent's `perspective`.
    public init(@LayerBuilder _ content: () -> [Node]) { node = Node(.transformGroup, children: content()) }
}

/// Vertical alignment of the items of a row.
public enum VerticalAlignment: String, Sendable {
    /// Items share the row's top edge.
    case top
    /// Items are centred vertically in the row (the default).
    case center
    /// Items share the row's bottom edge.
    case bottom
}
/// Horizontal alignment of the items of a column.
public enum HorizontalAlignment: String, Sendable {
    /// Items share the column's left edge.
    case leading
    /// Items are centred horizontally in the column (the default).
    case center
    /// Items share the column's right edge.
    case trailing
}

/// Sublayers in a row, left to right, `spacing` apart.
public struct HStack: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// A row of `content`, each item aligned by `alignment` and `spacing` points from the next.
    ///
    /// ```swift
    /// HStack(spacing: 12) { for word in ["One", "Two"] { Text(word).fontSize(48) } }.center()
    /// ```
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat = 8, @LayerBuilder _ content: () -> [Node]) {
        node = Node(.hstack, properties: ["spacing": .number(Double(spacing)), "alignment": .string(alignment.rawValue)],
                    children: content())
    }
}

/// Sublayers in a column, top to bottom, `spacing` apart.
public struct VStack: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// A column of `content`, each item aligned by `alignment` and `spacing` points from the next.
    ///
    /// ```swift
    /// VStack(alignment: .leading, spacing: 12) {
    ///     Text("Strata").fontSize(72)
    ///     Text("Core Animation, rendered to video").fontSize(32)
    /// }
    /// .center()
    /// ```
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat = 8, @LayerBuilder _ content: () -> [Node]) {
        node = Node(.vstack, properties: ["spacing": .number(Double(spacing)), "alignment": .string(alignment.rawValue)],
                    children: content())
    }
}

/// Sublayers on top of each other, aligned in the largest one's box.
public struct ZStack: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// `content` stacked (the first at the back), each aligned by `alignment` in the box of
    /// the largest.
    ///
    /// ```swift
    /// ZStack(alignment: .bottomTrailing) {
    ///     Layer().frame(width: 320, height: 180).background(.hex("#161B22"))
    ///     Text("LIVE").fontSize(20).foreground(.hex("#F85149"))
    /// }
    /// ```
    public init(alignment: LayoutSpec.Edge = .center, @LayerBuilder _ content: () -> [Node]) {
        node = Node(.zstack, properties: ["alignment": .string(alignment.rawValue)], children: content())
    }
}
