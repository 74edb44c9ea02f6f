// One list of layer properties: the layer classes' descriptor lists (`CALayer.baseProperties`,
// `CAShapeLayer.shapeProperties`, …) are what key-value access, implicit actions, the templates'
// property table (PropertyTable.swift) and the DSL read. Every descriptor is checked to be reachable
// from each of them with its kind, so a property added to a list is one edit; the DSL's typed names
// (LayerProperty.swift) and the template schema's layer properties are checked against the lists,
// so they cannot drift from them. The emitter's list reaches its frozen configuration too, and the
// named timing curves are one table.
import XCTest
@testable import Strata

final class PropertyTableConsistencyTests: XCTestCase {
    /// The descriptor lists of the classes templates make, as (node type, layer, key, kind, an
    /// array's element kind, implicit).
    private var descriptors: [(type: NodeType, layer: CALayer, key: String, kind: AnimatableValue.Kind, elements: AnimatableValue.Kind?, implicit: Bool)] {
        func list<L: CALayer>(_ type: NodeType, _ layer: L, _ p: AnimatableProperties<L>) -> [(NodeType, CALayer, String, AnimatableValue.Kind, AnimatableValue.Kind?, Bool)] {
            p.all.map { (type, layer, $0.key, $0.kind, $0.elementKind, $0.implicitlyAnimates) }
        }
        return list(.layer, CALayer(), CALayer.baseProperties) + list(.shape, CAShapeLayer(), CAShapeLayer.shapeProperties)
            + list(.text, CATextLayer(), CATextLayer.textProperties) + list(.gradient, CAGradientLayer(), CAGradientLayer.gradientProperties)
    }

    /// A template value of each kind, as JSON.
    private func sample(_ kind: ValueKind) -> String? {
        switch kind {
        case .number: "0.25"
        case .point: "[3, 4]"
        case .size: "[5, 6]"
        case .rect: "[1, 2, 3, 4]"
        case .color: "\"#336699\""
        case .colorList: "[\"#ff0000\", \"#0000ff\"]"
        case .numberList: "[0.25, 0.75]"
        case .transform: "{\"scale\": 2, \"rotation\": 0.5}"
        case .path: "{\"rect\": [0, 0, 10, 8]}"
        case .bool: "true"
        case .string: "\"hi\""
        case .time, .choice: nil
        }
    }

    /// A value the DSL passes through as it is.
    private struct Raw: PropertyValueConvertible {
        let value: PropertyValue
        init(_ value: PropertyValue) { self.value = value }
        var propertyValue: PropertyValue { value }
    }

    /// The DSL's element of a node type (its own content replaced by the property under test).
    private func dslElement(_ type: NodeType) -> any LayerElement {
        switch type {
        case .shape: Shape(.rect(CGRect(x: 0, y: 0, width: 4, height: 4))).id("x")
        case .text: Text("t").id("x")
        case .gradient: Gradient([.red, .blue]).id("x")
        default: Layer().id("x")
        }
    }

    /// Every descriptor: its kind through key-value access, its implicit animation through the
    /// actions, a template property of the same kind that sets it (read back through KVC), and
    /// an animation of it a template or the DSL can make.
    func testEveryDescriptorIsReachableEverywhere() throws {
        var templates = 0
        for d in descriptors {
            let name = "\(type(of: d.layer)).\(d.key)"
            XCTAssertEqual(d.layer.animatableKind(forKey: d.key), d.kind, name)
            // The action found when nothing overrides it: an implicit animation of the key (or
            // for `contents`, a fade), nothing for keys that switch.
            let action = d.layer.action(forKey: d.key)
            XCTAssertEqual((action as? CAPropertyAnimation)?.keyPath, d.implicit ? d.key : nil, name)
            XCTAssertEqual(action is CATransition, d.key == "contents", name)
            guard let kind = ValueKind(d.kind, elements: d.elements) else {
                XCTAssertEqual(d.key, "contents", "only an image has no template kind")
                continue
            }
            let info = try XCTUnwrap(PropertyTable.properties(of: d.type)[d.key], name)
            XCTAssertEqual(info.kind, kind, name)
            // Geometry is the layout's: set, but by the compiler.
            if ["position", "bounds"].contains(d.key) { XCTAssertNil(info.apply); continue }
            let json = try XCTUnwrap(sample(kind), name)
            let value = try JSONDecoder().decode(PropertyValue.self, from: Data(json.utf8))
            let expected = try PropertyDecoding.animatable(value, as: kind)
            // A template sets and animates it …
            let template = try Scene(composition: JSONDecoder().decode(Composition.self, from: Data("""
                {"size": [40, 30], "duration": 1, "layers": [{"type": "\(d.type.rawValue)", "id": "x", "\(d.key)": \(json),
                 "animations": [{"property": "\(d.key)", "to": \(json), "duration": 0.5}]}]}
                """.utf8)))
            // … and so does the DSL, by the property's name.
            let element = dslElement(d.type).property(d.key, Raw(value)).animate(LayerProperty<Raw>(d.key), to: Raw(value), duration: 0.5)
            let dsl = try Scene(composition: Composition(size: CGSize(width: 40, height: 30), frameRate: 30, duration: 1, layers: [element.node]))
            for scene in [template, dsl] {
                let layer = try XCTUnwrap(scene.layer(named: "x"), name)
                XCTAssertEqual(layer.animatableValue(forKey: d.key), expected, name)
                let animated = (layer.animationKeys() ?? []).compactMap { (layer.animation(forKey: $0) as? CAPropertyAnimation)?.keyPath }
                XCTAssertEqual(animated, [d.key], name)
            }
            templates += 1
        }
        XCTAssertGreaterThan(templates, 30)
    }

    /// What the table adds to the lists is the templates' own: nothing it sets is an animatable
    /// property the lists do not have, and no list property is written a second time.
    func testTheTableAddsOnlyTemplateProperties() {
        let own: Set<String> = ["frame", "size", "allowsGroupOpacity", "shouldRasterize", "contentsGravity", "minificationFilter",
                                "magnificationFilter", "compositingFilter", "lineCap", "lineJoin", "fillRule", "font", "alignmentMode",
                                "truncationMode", "isWrapped", "wrapWidth", "gradientType"]
        let keys = Set(descriptors.map(\.key))
        for type in [NodeType.layer, .shape, .text, .gradient] {
            for key in PropertyTable.properties(of: type).keys where !keys.contains(key) {
                XCTAssertTrue(own.contains(key), "\(type) \(key) is neither a descriptor nor a template setting")
            }
        }
    }

    /// The DSL's typed names (`.opacity`, `.position.x`, `.rotation`) are key paths of
    /// descriptors, of the kind of their Swift type. The names are read from LayerProperty.swift,
    /// so a new one is checked without a change here.
    func testTheDSLsNamesAreDescriptorKeyPathsOfTheirKind() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Strata/Declarative/Builders/LayerProperty.swift").standardized, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"public static var (\w+): LayerProperty<([^>]+)> \{ \.init\("([\w.]+)"\) \}"#)
        let matches = pattern.matches(in: source, range: NSRange(source.startIndex..., in: source))
        XCTAssertEqual(matches.count, source.components(separatedBy: "public static var ").count - 1, "every static name is read")
        let kinds: [String: AnimatableValue.Kind] = [
            "CGFloat": .number, "Angle": .number, "CGPoint": .point, "CGSize": .size, "CGRect": .rect, "Color": .color,
            "[Color]": .array, "[Double]": .array, "CATransform3D": .transform, "ShapePath": .path, "Bool": .bool,
        ]
        let classes = descriptors.reduce(into: [String: CALayer]()) { $0[$1.key] = $1.layer }
        for m in matches {
            let text = { (i: Int) in String(source[Range(m.range(at: i), in: source)!]) }
            let (name, type, keyPath) = (text(1), text(2), text(3))
            let base = String(keyPath.prefix { $0 != "." })
            let layer = try XCTUnwrap(classes[base], "\(name): \(keyPath) is no descriptor's")
            XCTAssertEqual(layer.animatableKind(forKeyPath: keyPath), try XCTUnwrap(kinds[type], type), "\(name): \(keyPath)")
        }
        XCTAssertGreaterThan(matches.count, 40)
        XCTAssertEqual(LayerProperty<CGFloat>.opacity.keyPath, "opacity")
        XCTAssertEqual(LayerProperty<Angle>.rotation.keyPath, "transform.rotation.z")
    }

    /// The schema's layer properties that are table properties check JSON of the table's kind.
    func testTheSchemasLayerPropertiesAgreeWithTheTable() throws {
        let schema = try JSONSerialization.jsonObject(with: Data(TemplateSchema.json.utf8)) as? [String: Any]
        let layer = try XCTUnwrap(((schema?["$defs"] as? [String: Any])?["layer"] as? [String: Any])?["properties"] as? [String: Any])
        let table = [NodeType.layer, .shape, .text, .gradient, .video, .image].reduce(into: [String: PropertyInfo]()) {
            $0.merge(PropertyTable.properties(of: $1)) { a, _ in a }
        }
        /// The value kind a schema entry describes.
        func kind(_ entry: [String: Any]) -> ValueKind? {
            if entry["$ref"] as? String == "#/$defs/color" { return .color }
            if let names = entry["enum"] as? [String] { return .choice(names) }
            switch (entry["type"] as? String, entry["minItems"] as? Int) {
            case ("number", _): return .number
            case ("string", _): return .string
            case ("boolean", _): return .bool
            case ("array", 2?): return .point        // or a size
            case ("array", 4?): return .rect
            default: return nil
            }
        }
        var checked = 0
        for (key, entry) in layer {
            guard let info = table[key], let entry = entry as? [String: Any] else { continue }
            let expected = info.kind == .size ? .point : info.kind
            XCTAssertEqual(kind(entry), expected, key)
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 15)
    }

    /// The emitter's list: each property reaches key-value access, its implicit animation, and the
    /// frozen configuration particles read, with its kind.
    func testEveryEmitterDescriptorReachesTheLayerAndItsConfiguration() throws {
        let samples: [AnimatableValue.Kind: AnimatableValue] = [.number: .number(0.5), .point: .point(CGPoint(x: 3, y: 4)),
                                                                .size: .size(CGSize(width: 5, height: 6))]
        XCTAssertEqual(CAEmitterLayer.emitterProperties.all.map(\.key), ["emitterPosition", "emitterZPosition", "emitterSize", "emitterDepth",
                                                                         "birthRate", "lifetime", "velocity", "scale", "spin"])
        for p in CAEmitterLayer.emitterProperties.all {
            let layer = CAEmitterLayer()
            XCTAssertEqual(layer.animatableKind(forKey: p.key), p.kind, p.key)
            XCTAssertEqual((layer.action(forKey: p.key) as? CAPropertyAnimation)?.keyPath, p.key, p.key)
            let v = try XCTUnwrap(samples[p.kind], p.key)
            layer.setValue(v.anyValue, forKey: p.key)
            XCTAssertEqual(layer.animatableValue(forKey: p.key), v, p.key)
            XCTAssertEqual(layer.currentConfiguration.value(forKey: p.key), v, p.key)
            var configuration = EmitterConfiguration()
            XCTAssertFalse(configuration.set(.bool(true), forKey: p.key), p.key)
            XCTAssertTrue(configuration.set(v, forKey: p.key), p.key)
            XCTAssertEqual(configuration.value(forKey: p.key), v, p.key)
        }
    }

    /// One table of named curves: Core Animation's five Béziers with Apple's control points, then
    /// Penner's set; the DSL's and templates' names are these, and an unknown one lists them.
    func testTheNamedCurvesAreOneTable() throws {
        let names = CAMediaTimingFunctionName.allNames.map(\.rawValue)
        XCTAssertEqual(Array(names.prefix(5)), ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"])
        XCTAssertEqual(Array(names.dropFirst(5)), PennerCurve.allCases.map(\.rawValue))
        func points(_ name: CAMediaTimingFunctionName) -> [Float] {
            let f = CAMediaTimingFunction(name: name)
            var p: [Float] = [0, 0]
            return [1, 2].flatMap { i in f.getControlPoint(at: i, values: &p); return p }
        }
        XCTAssertEqual(points(.easeIn), [0.42, 0, 1, 1])
        XCTAssertEqual(points(.easeInEaseOut), [0.42, 0, 0.58, 1])
        XCTAssertEqual(points(.default), [0.25, 0.1, 0.25, 1])
        for curve in [TimingCurve.linear, .easeIn, .easeOut, .easeInOut, .default, .named(.easeOutBack)] {
            guard case .named(let name) = curve else { return XCTFail("\(curve)") }
            XCTAssertTrue(names.contains(name), name)
        }
        let composition = try JSONDecoder().decode(Composition.self, from: Data("""
            {"size": [40, 30], "duration": 1, "layers": [{"type": "layer", "animations": [{"property": "opacity", "to": 0, "duration": 0.5, "timing": "easeInEaseOut"},
             {"property": "cornerRadius", "to": 2, "duration": 0.5, "timing": "easeOutBounce"}, {"property": "borderWidth", "to": 2, "duration": 0.5, "timing": "bouncy"}]}]}
            """.utf8))
        XCTAssertThrowsError(try Scene(composition: composition)) { error in
            let lines = "\(error)".split(separator: "\n")
            XCTAssertEqual(lines.filter { $0.contains("timing") }.count, 1, "\(error)")
            XCTAssertTrue("\(error)".contains("timing: unknown curve \"bouncy\" (expected \(names.joined(separator: ", ")), steps(n) or a spring)"), "\(error)")
        }
    }

    /// A value of each kind, for setting a property through its descriptor.
    private func sample(_ kind: AnimatableValue.Kind, elements: AnimatableValue.Kind?) -> AnimatableValue {
        switch kind {
        case .number: .number(0.5)
        case .point: .point(CGPoint(x: 3, y: 4))
        case .size: .size(CGSize(width: 5, height: 6))
        case .rect: .rect(CGRect(x: 1, y: 2, width: 3, height: 4))
        case .color: .color(CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1))
        case .transform: .transform(CATransform3DMakeScale(2, 2, 1))
        case .path: .path(CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil))
        case .bool: .bool(true)
        case .image: .image(nil)
        case .array: .array(elements == .color ? [.color(.white), .color(.black)] : [.number(0.25), .number(0.75)])
        case .discrete: .discrete(DiscreteBox("x"))
        }
    }

    /// Each class's property setters announce the change under the descriptor's key with a value
    /// of its kind: inside a scene block, setting a property through its descriptor starts the
    /// implicit animation of that key (a fade for `contents`), or none for a key that switches.
    func testEverySettersChangeAnimatesUnderItsKey() throws {
        func check<L: CALayer>(_ make: () -> L, _ list: AnimatableProperties<L>) throws {
            for p in list.all {
                let root = CALayer(), layer = make()
                root.addSublayer(layer)
                let scene = Scene(rootLayer: root, size: CGSize(width: 20, height: 20), frameRate: 10, duration: 5)
                let value = sample(p.kind, elements: p.elementKind)
                scene.at(1) { XCTAssertTrue(p.set(layer, value), p.key) }
                _ = try scene.presentation(of: layer, at: 1.05)
                let actions = (layer.animationKeys() ?? []).compactMap { layer.animation(forKey: $0) }
                let name = "\(L.self).\(p.key)"
                XCTAssertEqual(actions.compactMap { ($0 as? CAPropertyAnimation)?.keyPath }, p.implicitlyAnimates ? [p.key] : [], name)
                XCTAssertEqual(actions.contains { $0 is CATransition }, p.key == "contents", name)
                XCTAssertEqual(layer.animatableValue(forKey: p.key)?.kind, p.kind, name)
            }
        }
        try check({ CALayer() }, CALayer.baseProperties)
        try check({ CAShapeLayer() }, CAShapeLayer.shapeProperties)
        try check({ CATextLayer() }, CATextLayer.textProperties)
        try check({ CAGradientLayer() }, CAGradientLayer.gradientProperties)
        try check({ CAReplicatorLayer() }, CAReplicatorLayer.replicatorProperties)
        try check({ CAEmitterLayer() }, CAEmitterLayer.emitterProperties)
    }
}
