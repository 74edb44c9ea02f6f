// What expressions reach of a file's shape contents, as After Effects' property groups:
// `content("Group 1").transform.rotation`, `thisLayer(2)("Arm")(2)("Path 1")`,
// `thisProperty.propertyGroup(1)(2)`. The layer parser records each shape item's kind, names
// and index (`ix`), each contents list's items, each group's transform, and every numeric
// property it reads, by JSON path; LottieExpressions walks them.
import Foundation

struct LottieShapeIndex {
    struct Item {
        /// The item's `ty` ("gr", "rc", "fl", …).
        var type: String
        var name: String
        var matchName: String
        /// After Effects' index of the item in its group (`ix`).
        var index: Double?
    }

    /// Shape items by JSON path.
    var items: [String: Item] = [:]
    /// Contents lists (a layer's `shapes`, a group's `it`) by JSON path: their items' paths in
    /// order, transforms left out (as After Effects counts them).
    var contents: [String: [String]] = [:]
    /// A group's transform item, by the group's path.
    var transforms: [String: String] = [:]
    /// Numeric properties by JSON path, with After Effects' index (`ix`).
    var properties: [String: (index: Double?, value: LottieAnimated<[Double]>)] = [:]
    /// Paths (a shape's `ks`, a mask's `pt`) by JSON path, and a shape path's index (`ix`).
    var paths: [String: LottieAnimated<LottieBezier>] = [:]
    var pathIndices: [String: Double?] = [:]

    /// A shape item's numeric properties by the names expressions use, per kind (lottie-web's
    /// interfaces name the same ones).
    static let members: [String: [String: String]] = [
        "tr": ["anchorPoint": "a", "position": "p", "scale": "s", "rotation": "r", "opacity": "o", "skew": "sk", "skewAxis": "sa"],
        "rc": ["size": "s", "position": "p", "roundness": "r"],
        "el": ["size": "s", "position": "p"],
        "sr": ["position": "p", "rotation": "r", "points": "pt", "innerRadius": "ir", "outerRadius": "or",
               "innerRoundness": "is", "outerRoundness": "os"],
        "fl": ["color": "c", "opacity": "o"],
        "st": ["color": "c", "opacity": "o", "strokeWidth": "w"],
        "gf": ["startPoint": "s", "endPoint": "e", "opacity": "o"],
        "gs": ["startPoint": "s", "endPoint": "e", "opacity": "o", "strokeWidth": "w"],
        "tm": ["start": "s", "end": "e", "offset": "o"],
        "rp": ["copies": "c", "offset": "o"],
        "rd": ["radius": "r"],
    ]

    /// The contents list an item is in, and whether the item is its group's transform.
    static func container(of item: String) -> String? {
        guard let open = item.lastIndex(of: "[") else { return nil }
        return String(item[..<open])
    }
}

extension LottieAnimation {
    /// The layers with each linked path (a shape's `ks`, a mask's `pt`, by JSON path) given
    /// the keyframes of the path it links to. Shape items are found by their JSON paths:
    /// `shapes[k]` and a group's `it[k]` are the model's items in order (a group's transform,
    /// always last, taken out of the list).
    static func linking(_ layers: [LottieLayerModel], _ links: [String: String],
                        _ paths: [String: LottieAnimated<LottieBezier>]) -> [LottieLayerModel] {
        func relink(_ items: [LottieShapeItem], _ base: String) -> [LottieShapeItem] {
            items.enumerated().map { k, item in
                let p = "\(base)[\(k)]"
                switch item {
                case .group(let inner, let t): return .group(items: relink(inner, p + ".it"), transform: t)
                case .path(_, let reversed):
                    guard let target = links[p + ".ks"], let shape = paths[target] else { return item }
                    return .path(shape, reversed: reversed)
                default: return item
                }
            }
        }
        return layers.map { l in
            var l = l
            if case .shapes(let items) = l.content { l.content = .shapes(relink(items, l.path + ".shapes")) }
            for i in l.masks.indices {
                if let target = links[l.masks[i].path + ".pt"], let shape = paths[target] { l.masks[i].shape = shape }
            }
            return l
        }
    }
}
