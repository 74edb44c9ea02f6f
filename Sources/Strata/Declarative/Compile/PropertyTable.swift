// The properties a node of each kind accepts, under Core Animation's names. A layer class's
// animatable properties are its descriptor list (`CALayer.baseProperties`,
// `CAShapeLayer.shapeProperties`, …, AnimatableProperty.swift): name, kind and setter are read
// from there, so a property added to a list is a template property too. What is written here is
// the templates' own: geometry the compiler lays out (`frame`, `size`, `position`, `bounds`),
// content read where the layer is made (`image`, `video`, stack `spacing`, `wrapWidth`), and the
// layer settings Core Animation does not animate (`lineCap`, `contentsGravity`, …) with the
// values they allow.
import Foundation
import StrataCore

/// One property a node can have.
struct PropertyInfo: Sendable {
    let kind: ValueKind
    /// Sets the (already checked) value on the layer; nil for properties the compiler reads
    /// itself (geometry, content, layout).
    let apply: (@Sendable (CALayer, PropertyValue) throws -> Void)?

    /// A property the compiler reads itself.
    static func read(_ kind: ValueKind) -> PropertyInfo { PropertyInfo(kind: kind, apply: nil) }

    /// A property set on layers of class `L` (others ignore it).
    static func on<L: CALayer>(_ kind: ValueKind, _ set: @escaping @Sendable (L, PropertyValue) throws -> Void) -> PropertyInfo {
        PropertyInfo(kind: kind) { layer, v in if let l = layer as? L { try set(l, v) } }
    }

    /// A setting Core Animation does not animate.
    static func bool<L: CALayer>(_ path: ReferenceWritableKeyPath<L, Bool> & Sendable) -> PropertyInfo {
        on(.bool) { (layer: L, v) in layer[keyPath: path] = try PropertyDecoding.bool(v) }
    }

    /// A setting named by one of `names`, made with the type's `init(rawValue:)`.
    static func choice<L: CALayer, T: RawRepresentable & Sendable>(_ path: ReferenceWritableKeyPath<L, T> & Sendable, _ names: [String]) -> PropertyInfo
        where T.RawValue == String {
        on(.choice(names)) { (layer: L, v) in
            if let value = T(rawValue: try PropertyDecoding.choice(v, names)) { layer[keyPath: path] = value }
        }
    }

    /// A setting whose allowed values are `values`, by their raw values.
    static func choice<L: CALayer, T: RawRepresentable & Sendable>(_ path: ReferenceWritableKeyPath<L, T> & Sendable, _ values: [T]) -> PropertyInfo
        where T.RawValue == String {
        choice(path, values.map(\.rawValue))
    }
}

enum PropertyTable {
    typealias D = PropertyDecoding

    /// The animatable properties of layers of class `L` (a descriptor list), each with the
    /// template kind of its values and set through the descriptor (as the property's own setter
    /// is: `opacity`'s `Float`, a gradient's `NSNumber` locations). A kind templates cannot write
    /// (`contents`: an image layer names its file in `image`) is left out.
    static func animatable<L: CALayer>(_ properties: AnimatableProperties<L>) -> [String: PropertyInfo] {
        var table: [String: PropertyInfo] = [:]
        for property in properties.all {
            guard let kind = ValueKind(property.kind, elements: property.elementKind) else { continue }
            table[property.key] = .on(kind) { (layer: L, v) in _ = property.set(layer, try D.animatable(v, as: kind)) }
        }
        return table
    }

    /// Properties every kind has: CALayer's animatable ones and its settings; geometry is the
    /// layout's.
    static let common: [String: PropertyInfo] = animatable(CALayer.baseProperties).merging([
        "frame": .read(.rect), "size": .read(.size), "position": .read(.point), "bounds": .read(.rect),
        "allowsGroupOpacity": .bool(\CALayer.allowsGroupOpacity), "shouldRasterize": .bool(\CALayer.shouldRasterize),
        "contentsGravity": .choice(\CALayer.contentsGravity, [.center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight,
                                                              .resize, .resizeAspect, .resizeAspectFill]),
        "minificationFilter": .choice(\CALayer.minificationFilter, filters),
        "magnificationFilter": .choice(\CALayer.magnificationFilter, filters),
        // A blend mode by its Core Image filter name, as ported code sets it ("multiplyBlendMode").
        "compositingFilter": .on(.choice(compositingFilters)) { (l: CALayer, v) in
            l.compositingFilter = try D.choice(v, compositingFilters)
        },
    ]) { _, template in template }

    static let compositingFilters = CALayer.compositingFilterNames.keys.sorted()

    static let filters: [CALayerContentsFilter] = [.linear, .nearest, .trilinear]

    static let shape = animatable(CAShapeLayer.shapeProperties).merging([
        "lineCap": .choice(\CAShapeLayer.lineCap, [.butt, .round, .square]),
        "lineJoin": .choice(\CAShapeLayer.lineJoin, [.miter, .round, .bevel]),
        "fillRule": .choice(\CAShapeLayer.fillRule, [.nonZero, .evenOdd]),
    ]) { _, template in template }

    static let text = animatable(CATextLayer.textProperties).merging([
        "font": .on(.string) { (l: CATextLayer, v) in l.font = try D.string(v) },
        "alignmentMode": .choice(\CATextLayer.alignmentMode, [.natural, .left, .right, .center, .justified]),
        "truncationMode": .choice(\CATextLayer.truncationMode, [.none, .start, .middle, .end]),
        "isWrapped": .bool(\CATextLayer.isWrapped),
        "wrapWidth": .read(.number),
    ]) { _, template in template }

    static let gradient = animatable(CAGradientLayer.gradientProperties).merging([
        "gradientType": .choice(\CAGradientLayer.type, [.axial, .radial, .conic]),
    ]) { _, template in template }

    static let image: [String: PropertyInfo] = ["image": .read(.string)]

    static let video: [String: PropertyInfo] = [
        "video": .read(.string), "start": .read(.time), "loop": .read(.bool), "muted": .read(.bool),
        // Templates name a gravity as Swift spells the constant (`resizeAspectFill`); the
        // constant's raw value is AVFoundation's longer string, so the name is looked up.
        "videoGravity": .on(.choice(videoGravities.map(\.name))) { (l: AVPlayerLayer, v) in
            let name = try D.choice(v, videoGravities.map(\.name))
            if let g = videoGravities.first(where: { $0.name == name }) { l.videoGravity = g.gravity }
        },
    ]

    /// The video gravities by their template names.
    static let videoGravities: [(name: String, gravity: AVLayerVideoGravity)] =
        [("resize", .resize), ("resizeAspect", .resizeAspect), ("resizeAspectFill", .resizeAspectFill)]

    static let stack: [String: PropertyInfo] = ["spacing": .read(.number), "alignment": .read(.string)]

    static let spacer: [String: PropertyInfo] = ["minLength": .read(.number)]

    /// Every property a node of `type` accepts.
    static func properties(of type: NodeType) -> [String: PropertyInfo] {
        let own: [String: PropertyInfo] = switch type {
        case .shape: shape
        case .text: text
        case .gradient: gradient
        case .image: image
        case .video: video
        case .hstack, .vstack, .zstack: stack
        case .layer, .group, .transformGroup: [:]
        // The kind's own properties are its kind compiler's (NodeKindCompiler.properties).
        case .terminal, .lottie: [:]
        case .sections, .section: [:]
        case .spacer: spacer
        }
        return common.merging(own) { a, _ in a }
    }
}
