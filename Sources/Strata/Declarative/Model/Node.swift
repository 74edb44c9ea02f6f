// A layer in the declarative model: its kind, its properties under Core Animation's names
// (`position`, `opacity`, `cornerRadius`, `fillColor`, `fontSize`, …), how it is placed in its
// parent (`layout`), its sublayers, mask, animations, named states and its own timeline.
//
// JSON/YAML:  { "type": "text", "id": "title", "string": "Hello", "fontSize": 64,
//               "layout": { "center": true }, "animations": [ … ], "children": [ … ] }
import Foundation

/// The kind of layer a node compiles to.
public enum NodeType: String, Codable, Hashable, Sendable, CaseIterable {
    /// A plain `CALayer`.
    case layer
    /// A `CAShapeLayer` (property `path`).
    case shape
    /// A `CATextLayer` sized to its text (property `string`).
    case text
    /// A `CAGradientLayer`.
    case gradient
    /// A `CALayer` showing an image file (property `image`).
    case image
    /// An `AVPlayerLayer` playing a video file (property `video`).
    case video
    /// A `CALayer` holding sublayers, sized to them.
    case group
    /// A `CATransformLayer`: its sublayers share one 3D space.
    case transformGroup
    /// Groups that lay their sublayers out in a row, a column, or on top of each other.
    case hstack, vstack, zstack
    /// A terminal window playing a scripted session (property `session`). Its layer is
    /// StrataTerminal's `TerminalLayer`, compiled through `NodeKindCompilers`: import
    /// StrataTerminal and call `TerminalNodes.register()` (the `strata` command does).
    case terminal
    /// A Lottie animation (property `lottie`: a .json, .lottie or .tgs file), placed, scaled and
    /// timed like any layer, its colours, images and texts replaceable by name. Its layer is
    /// StrataLottie's, compiled through `NodeKindCompilers`: import StrataLottie and call
    /// `LottieNodes.register()` (the `strata` command does).
    case lottie
    /// Sections shown one after another, each replacing the one before it by its transition
    /// (Remotion's TransitionSeries); fills its parent. Its children are `section` nodes.
    case sections
    /// One section of a `sections` node: fills the series, shown for its `duration`, its
    /// contents' times counted from its start (property `transition`: how it replaces the
    /// section before it).
    case section
    /// Flexible space in a stack: takes an equal share of the length the fixed items leave
    /// (property `minLength`).
    case spacer
}

/// Where a node sits in its parent, when it does not give a `position` or `frame` itself.
public struct LayoutSpec: Codable, Hashable, Sendable {
    /// Centred in the parent's bounds.
    public var center: Bool?
    /// Pinned to an edge or corner of the parent (`top`, `bottomLeading`, …), `inset` points in.
    public var pin: Edge?
    /// How far in from the pinned edge or corner, in points.
    public var inset: Double?
    /// Moved by this much after placing (points, [x, y]).
    public var offset: [Double]?
    /// Sizes relative to the parent (Layout+Fill.swift): a width and height in points, a
    /// percentage (`"50%"`) or `"fill"`; limits the same way (`maxWidth: "fill"` is SwiftUI's
    /// `.frame(maxWidth: .infinity)`).
    public var width: LayoutLength?, height: LayoutLength?
    /// Limits on the width and height (`"fill"`/`"infinity"` as a maximum: as wide as offered).
    public var minWidth: LayoutLength?, maxWidth: LayoutLength?, minHeight: LayoutLength?, maxHeight: LayoutLength?
    /// Width ÷ height the layer keeps, fitting in (`contentMode` `"fit"`) or covering
    /// (`"fill"`) the space it is offered.
    public var aspectRatio: Double?
    /// `"fit"` (default) or `"fill"`, for `aspectRatio`.
    public var contentMode: String?
    /// Space between the layer's bounds and its sublayers (points, percentages, or `"safeArea"`).
    public var padding: LayoutInsets?

    /// Placement: centred, or pinned to an edge `inset` points in, then moved by `offset` ([x, y]).
    public init(center: Bool? = nil, pin: Edge? = nil, inset: Double? = nil, offset: [Double]? = nil) {
        self.center = center; self.pin = pin; self.inset = inset; self.offset = offset
    }

    /// An edge or corner of a rectangle.
    public enum Edge: String, Codable, Hashable, Sendable, CaseIterable {
        /// The four edges (`top`, `bottom`, `leading` = left, `trailing` = right), the four corners
        /// (`topLeading`, …) and the `center`; the JSON spelling is the case's name (`"bottomLeading"`).
        case top, bottom, leading, trailing, topLeading, topTrailing, bottomLeading, bottomTrailing, center
    }
}

/// One layer of a composition.
public struct Node: Codable, Hashable, Sendable {
    /// What kind of layer the node makes.
    public var type: NodeType
    /// The layer's `name`; timelines and scripts find the layer by it.
    public var id: String?
    /// Property values by Core Animation name (and the kind's content: `string`, `path`,
    /// `image`, `video`, stack `spacing`/`alignment`).
    public var properties: [String: PropertyValue]
    /// How the node is placed in its parent (centred, pinned); nil: by its own frame or position.
    public var layout: LayoutSpec?
    /// The sublayers, in order (the first at the back).
    public var children: [Node]
    /// At most one node: the mask layer.
    public var mask: [Node]
    /// The node's own animations, beginning at their delays from the scene's start.
    public var animations: [AnimationSpec]
    /// Named sets of property values that `transition` steps animate to.
    public var states: [String: [String: PropertyValue]]
    /// The node's own timeline (steps without a target animate this node).
    public var timeline: [TimelineStep]

    /// A node of `type` with its id, properties by Core Animation name, layout, sublayers and
    /// animations.
    public init(_ type: NodeType, id: String? = nil, properties: [String: PropertyValue] = [:], layout: LayoutSpec? = nil,
                children: [Node] = [], mask: Node? = nil, animations: [AnimationSpec] = [],
                states: [String: [String: PropertyValue]] = [:], timeline: [TimelineStep] = []) {
        self.type = type; self.id = id; self.properties = properties; self.layout = layout
        self.children = children; self.mask = mask.map { [$0] } ?? []; self.animations = animations
        self.states = states; self.timeline = timeline
    }

    /// The structural keys; every other key of a node object is a property.
    static let structuralKeys: Set<String> = ["type", "id", "layout", "children", "mask", "animations", "states", "timeline"]

    private typealias AnyKey = NamedCodingKey

    public init(from decoder: Decoder) throws {
        let k = try decoder.container(keyedBy: AnyKey.self)
        let typeName = try k.decode(String.self, forKey: AnyKey("type"))
        guard let type = NodeType(rawValue: typeName) else {
            throw DecodingError.dataCorruptedError(forKey: AnyKey("type"), in: k,
                debugDescription: "unknown layer type \"\(typeName)\" (expected \(NodeType.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self.type = type
        id = try k.decodeIfPresent(String.self, forKey: AnyKey("id"))
        layout = try k.decodeIfPresent(LayoutSpec.self, forKey: AnyKey("layout"))
        children = try k.decodeIfPresent([Node].self, forKey: AnyKey("children")) ?? []
        mask = try k.decodeIfPresent(Node.self, forKey: AnyKey("mask")).map { [$0] } ?? []
        animations = try k.decodeIfPresent([AnimationSpec].self, forKey: AnyKey("animations")) ?? []
        states = try k.decodeIfPresent([String: [String: PropertyValue]].self, forKey: AnyKey("states")) ?? [:]
        timeline = try k.decodeIfPresent([TimelineStep].self, forKey: AnyKey("timeline")) ?? []
        var props: [String: PropertyValue] = [:]
        for key in k.allKeys where !Node.structuralKeys.contains(key.stringValue) {
            props[key.stringValue] = try k.decode(PropertyValue.self, forKey: key)
        }
        properties = props
    }

    public func encode(to encoder: Encoder) throws {
        var k = encoder.container(keyedBy: AnyKey.self)
        try k.encode(type.rawValue, forKey: AnyKey("type"))
        try k.encodeIfPresent(id, forKey: AnyKey("id"))
        for (key, value) in properties { try k.encode(value, forKey: AnyKey(key)) }
        try k.encodeIfPresent(layout, forKey: AnyKey("layout"))
        if !children.isEmpty { try k.encode(children, forKey: AnyKey("children")) }
        if let m = mask.first { try k.encode(m, forKey: AnyKey("mask")) }
        if !animations.isEmpty { try k.encode(animations, forKey: AnyKey("animations")) }
        if !states.isEmpty { try k.encode(states, forKey: AnyKey("states")) }
        if !timeline.isEmpty { try k.encode(timeline, forKey: AnyKey("timeline")) }
    }
}
