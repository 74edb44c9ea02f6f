// The properties a node of each kind accepts, under Core Animation's names, with what their
// values are and how they are set on the layer. Geometry (`frame`, `size`, `position`,
// `bounds`) is the compiler's, because layout decides it; content (`string`, `image`, `video`,
// stack `spacing`) is read where the layer is made.
import Foundation
import StrataCore

/// One property a node can have.
struct PropertyInfo: Sendable {
    let kind: ValueKind
    /// Sets the (already checked) value on the layer; nil for properties the compiler reads
    /// itself (geometry, content, layout).
    let apply: (@Sendable (CALayer, PropertyValue) throws -> Void)?
}

enum PropertyTable {
    typealias D = PropertyDecoding

    private static func on<L: CALayer>(_ type: L.Type, _ set: @escaping @Sendable (L, PropertyValue) throws -> Void)
        -> @Sendable (CALayer, PropertyValue) throws -> Void {
        { layer, v in if let l = layer as? L { try set(l, v) } }
    }

    /// Properties every kind has.
    static let common: [String: PropertyInfo] = [
        "frame": PropertyInfo(kind: .rect, apply: nil),
        "size": PropertyInfo(kind: .size, apply: nil),
        "position": PropertyInfo(kind: .point, apply: nil),
        "bounds": PropertyInfo(kind: .rect, apply: nil),
        "anchorPoint": PropertyInfo(kind: .point, apply: { $0.anchorPoint = try D.point($1) }),
        "anchorPointZ": PropertyInfo(kind: .number, apply: { $0.anchorPointZ = try D.number($1) }),
        "zPosition": PropertyInfo(kind: .number, apply: { $0.zPosition = try D.number($1) }),
        "transform": PropertyInfo(kind: .transform, apply: { $0.transform = try D.transform($1) }),
        "sublayerTransform": PropertyInfo(kind: .transform, apply: { $0.sublayerTransform = try D.transform($1) }),
        "backgroundColor": PropertyInfo(kind: .color, apply: { $0.backgroundColor = try D.color($1).cgColor }),
        "cornerRadius": PropertyInfo(kind: .number, apply: { $0.cornerRadius = try D.number($1) }),
        "borderWidth": PropertyInfo(kind: .number, apply: { $0.borderWidth = try D.number($1) }),
        "borderColor": PropertyInfo(kind: .color, apply: { $0.borderColor = try D.color($1).cgColor }),
        "opacity": PropertyInfo(kind: .number, apply: { $0.opacity = Float(try D.number($1)) }),
        "hidden": PropertyInfo(kind: .bool, apply: { $0.isHidden = try D.bool($1) }),
        "masksToBounds": PropertyInfo(kind: .bool, apply: { $0.masksToBounds = try D.bool($1) }),
        "doubleSided": PropertyInfo(kind: .bool, apply: { $0.isDoubleSided = try D.bool($1) }),
        "allowsGroupOpacity": PropertyInfo(kind: .bool, apply: { $0.allowsGroupOpacity = try D.bool($1) }),
        "shouldRasterize": PropertyInfo(kind: .bool, apply: { $0.shouldRasterize = try D.bool($1) }),
        "shadowOpacity": PropertyInfo(kind: .number, apply: { $0.shadowOpacity = Float(try D.number($1)) }),
        "shadowColor": PropertyInfo(kind: .color, apply: { $0.shadowColor = try D.color($1).cgColor }),
        "shadowOffset": PropertyInfo(kind: .size, apply: { $0.shadowOffset = try D.size($1) }),
        "shadowRadius": PropertyInfo(kind: .number, apply: { $0.shadowRadius = try D.number($1) }),
        "shadowPath": PropertyInfo(kind: .path, apply: { $0.shadowPath = try D.path($1) }),
        "contentsGravity": PropertyInfo(kind: .choice(gravities), apply: { $0.contentsGravity = CALayerContentsGravity(rawValue: try D.choice($1, gravities)) }),
        "contentsRect": PropertyInfo(kind: .rect, apply: { $0.contentsRect = try D.rect($1) }),
        "contentsCenter": PropertyInfo(kind: .rect, apply: { $0.contentsCenter = try D.rect($1) }),
        "minificationFilter": PropertyInfo(kind: .choice(filters), apply: { $0.minificationFilter = CALayerContentsFilter(rawValue: try D.choice($1, filters)) }),
        "magnificationFilter": PropertyInfo(kind: .choice(filters), apply: { $0.magnificationFilter = CALayerContentsFilter(rawValue: try D.choice($1, filters)) }),
    ]

    static let gravities = ["center", "top", "bottom", "left", "right", "topLeft", "topRight", "bottomLeft", "bottomRight",
                            "resize", "resizeAspect", "resizeAspectFill"]
    static let filters = ["linear", "nearest", "trilinear"]

    static let shape: [String: PropertyInfo] = [
        "path": PropertyInfo(kind: .path, apply: on(CAShapeLayer.self) { $0.path = try D.path($1) }),
        "fillColor": PropertyInfo(kind: .color, apply: on(CAShapeLayer.self) { $0.fillColor = try D.color($1).cgColor }),
        "strokeColor": PropertyInfo(kind: .color, apply: on(CAShapeLayer.self) { $0.strokeColor = try D.color($1).cgColor }),
        "lineWidth": PropertyInfo(kind: .number, apply: on(CAShapeLayer.self) { $0.lineWidth = try D.number($1) }),
        "miterLimit": PropertyInfo(kind: .number, apply: on(CAShapeLayer.self) { $0.miterLimit = try D.number($1) }),
        "lineDashPattern": PropertyInfo(kind: .numberList, apply: on(CAShapeLayer.self) { $0.lineDashLengths = try D.numberList($1) }),
        "lineDashPhase": PropertyInfo(kind: .number, apply: on(CAShapeLayer.self) { $0.lineDashPhase = try D.number($1) }),
        "strokeStart": PropertyInfo(kind: .number, apply: on(CAShapeLayer.self) { $0.strokeStart = try D.number($1) }),
        "strokeEnd": PropertyInfo(kind: .number, apply: on(CAShapeLayer.self) { $0.strokeEnd = try D.number($1) }),
        "lineCap": PropertyInfo(kind: .choice(["butt", "round", "square"]),
                                apply: on(CAShapeLayer.self) { $0.lineCap = CAShapeLayerLineCap(rawValue: try D.choice($1, ["butt", "round", "square"])) }),
        "lineJoin": PropertyInfo(kind: .choice(["miter", "round", "bevel"]),
                                 apply: on(CAShapeLayer.self) { $0.lineJoin = CAShapeLayerLineJoin(rawValue: try D.choice($1, ["miter", "round", "bevel"])) }),
        "fillRule": PropertyInfo(kind: .choice(["non-zero", "even-odd"]),
                                 apply: on(CAShapeLayer.self) { $0.fillRule = CAShapeLayerFillRule(rawValue: try D.choice($1, ["non-zero", "even-odd"])) }),
    ]

    static let alignments = ["natural", "left", "right", "center", "justified"]
    static let truncations = ["none", "start", "middle", "end"]

    static let text: [String: PropertyInfo] = [
        "string": PropertyInfo(kind: .string, apply: on(CATextLayer.self) { $0.string = try D.string($1) }),
        "font": PropertyInfo(kind: .string, apply: on(CATextLayer.self) { $0.font = try D.string($1) }),
        "fontSize": PropertyInfo(kind: .number, apply: on(CATextLayer.self) { $0.fontSize = try D.number($1) }),
        "foregroundColor": PropertyInfo(kind: .color, apply: on(CATextLayer.self) { $0.foregroundColor = try D.color($1).cgColor }),
        "alignmentMode": PropertyInfo(kind: .choice(alignments),
                                      apply: on(CATextLayer.self) { $0.alignmentMode = CATextLayerAlignmentMode(rawValue: try D.choice($1, alignments)) }),
        "truncationMode": PropertyInfo(kind: .choice(truncations),
                                       apply: on(CATextLayer.self) { $0.truncationMode = CATextLayerTruncationMode(rawValue: try D.choice($1, truncations)) }),
        "isWrapped": PropertyInfo(kind: .bool, apply: on(CATextLayer.self) { $0.isWrapped = try D.bool($1) }),
        "wrapWidth": PropertyInfo(kind: .number, apply: nil),
    ]

    static let gradientTypes = ["axial", "radial", "conic"]

    static let gradient: [String: PropertyInfo] = [
        "colors": PropertyInfo(kind: .colorList, apply: on(CAGradientLayer.self) { $0.colors = try D.colors($1).map(\.cgColor) }),
        "locations": PropertyInfo(kind: .numberList, apply: on(CAGradientLayer.self) { $0.locations = try D.numberList($1).map { NSNumber(value: Double($0)) } }),
        "startPoint": PropertyInfo(kind: .point, apply: on(CAGradientLayer.self) { $0.startPoint = try D.point($1) }),
        "endPoint": PropertyInfo(kind: .point, apply: on(CAGradientLayer.self) { $0.endPoint = try D.point($1) }),
        "gradientType": PropertyInfo(kind: .choice(gradientTypes),
                                     apply: on(CAGradientLayer.self) { $0.type = CAGradientLayerType(rawValue: try D.choice($1, gradientTypes)) }),
    ]

    static let image: [String: PropertyInfo] = ["image": PropertyInfo(kind: .string, apply: nil)]

    static let videoGravities = ["resize", "resizeAspect", "resizeAspectFill"]
    static let video: [String: PropertyInfo] = [
        "video": PropertyInfo(kind: .string, apply: nil),
        "start": PropertyInfo(kind: .time, apply: nil),
        "loop": PropertyInfo(kind: .bool, apply: nil),
        "muted": PropertyInfo(kind: .bool, apply: nil),
        "videoGravity": PropertyInfo(kind: .choice(videoGravities),
                                     apply: on(AVPlayerLayer.self) { $0.videoGravity = AVLayerVideoGravity(rawValue: try D.choice($1, videoGravities)) }),
    ]

    static let stack: [String: PropertyInfo] = [
        "spacing": PropertyInfo(kind: .number, apply: nil),
        "alignment": PropertyInfo(kind: .string, apply: nil),
    ]

    static let spacer: [String: PropertyInfo] = ["minLength": PropertyInfo(kind: .number, apply: nil)]

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
