// The templates' property table (Declarative/Compile/PropertyTable.swift) names layer properties
// a second time, with the value kinds templates decode; the layer classes' own lists
// (`CALayer.baseProperties`, `CAShapeLayer.shapeProperties`, …) are the reference. Every template
// property that is an animatable layer property must take values of that property's kind.
import XCTest
@testable import Strata

final class PropertyTableConsistencyTests: XCTestCase {
    /// Whether a template may write a property of `kind` as `template`.
    private func fits(_ template: ValueKind, _ kind: AnimatableValue.Kind) -> Bool {
        if kind == .discrete {
            // A declared property with a default of its own (lineCap, font, …): a name or a text.
            if case .choice = template { return true }
            return template == .string
        }
        return templateKinds(for: kind).contains(template)
    }

    private func templateKinds(for kind: AnimatableValue.Kind) -> [ValueKind] {
        switch kind {
        case .number: [.number]
        case .point: [.point]
        case .size: [.size]
        case .rect: [.rect]
        case .color: [.color]
        case .transform: [.transform]
        case .path: [.path]
        case .bool: [.bool]
        case .array: [.colorList, .numberList]
        case .image: [.string]
        case .discrete: []
        }
    }

    func testTemplatePropertiesTakeTheLayersKinds() {
        let layers: [(NodeType, CALayer)] = [(.layer, CALayer()), (.shape, CAShapeLayer()), (.text, CATextLayer()),
                                            (.gradient, CAGradientLayer())]
        var checked = 0
        for (type, layer) in layers {
            for (key, info) in PropertyTable.properties(of: type) {
                // Templates name the gradient's kind `gradientType` and the dash pattern as Core
                // Animation does; keys the layer does not animate are the table's alone.
                guard let kind = layer.animatableKind(forKey: key) else { continue }
                XCTAssertTrue(fits(info.kind, kind), "\(type) \(key): template \(info.kind), layer \(kind)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 30)
    }

    /// The layer classes' lists: each key once, and the implicit animations Core Animation has.
    func testTheLayerListsAgreeWithKeyValueAccess() {
        let layer = CAShapeLayer()
        for property in CALayer.baseProperties.all {
            XCTAssertEqual(layer.animatableKind(forKey: property.key), property.kind, property.key)
            XCTAssertEqual(layer.animatableValue(forKey: property.key)?.kind ?? property.kind, property.kind, property.key)
        }
        for property in CAShapeLayer.shapeProperties.all {
            XCTAssertEqual(layer.animatableKind(forKey: property.key), property.kind, property.key)
            XCTAssertTrue(CAShapeLayer.implicitlyAnimates(key: property.key), property.key)
        }
        XCTAssertEqual(CALayer.baseProperties.all.filter { !$0.implicitlyAnimates }.map(\.key).sorted(),
                       ["contents", "doubleSided", "hidden", "masksToBounds", "rasterizationScale"])
        layer.setAnimatableValue(.number(0.25), forKey: "strokeEnd")
        layer.setAnimatableValue(.number(0.5), forKey: "opacity")
        XCTAssertEqual(layer.strokeEnd, 0.25)
        XCTAssertEqual(layer.opacity, 0.5)
    }
}
