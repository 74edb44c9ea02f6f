// What every DSL element has: a node of the declarative model, and the modifiers that mirror
// CALayer's properties with typed values. Each modifier returns a changed copy (value
// semantics), so elements read top to bottom like SwiftUI views.
import Foundation
import StrataCore

/// A DSL element that is one layer.
public protocol LayerElement: NodeConvertible {
    /// The node this element builds.
    var node: Node { get set }
}

extension LayerElement {
    /// The element as a list of one node (what result builders collect).
    public var nodes: [Node] { [node] }

    /// Returns a copy with `change` applied to the node.
    func with(_ change: (inout Node) -> Void) -> Self {
        var copy = self
        change(&copy.node)
        return copy
    }

    /// Sets a property by its typed name (any property `LayerProperty` names).
    public func set<V>(_ property: LayerProperty<V>, _ value: V) -> Self {
        with { $0.properties[property.keyPath] = value.propertyValue }
    }

    /// Sets a property by its Core Animation name (for properties the DSL has no modifier for;
    /// the value is checked when the scene is compiled).
    public func property(_ name: String, _ value: some PropertyValueConvertible) -> Self {
        with { $0.properties[name] = value.propertyValue }
    }

    // MARK: Identity and geometry

    /// The layer's name: timelines and `scene.layer(named:)` find it by this.
    public func id(_ id: String) -> Self { with { $0.id = id } }
    /// The frame in the parent's coordinates.
    public func frame(_ rect: CGRect) -> Self { with { $0.properties["frame"] = rect.propertyValue } }
    /// The frame in the parent's coordinates, from its four numbers.
    public func frame(x: CGFloat, y: CGFloat, width: CGFloat, height: CGFloat) -> Self {
        frame(CGRect(x: x, y: y, width: width, height: height))
    }
    /// The size (its position comes from the layout or `position`).
    public func frame(width: CGFloat, height: CGFloat) -> Self {
        with { $0.properties["size"] = CGSize(width: width, height: height).propertyValue }
    }
    /// Where the anchor point sits in the parent.
    public func position(_ p: CGPoint) -> Self { set(.position, p) }
    /// Where the anchor point sits in the parent: `.position(x: 640, y: 360)`.
    public func position(x: CGFloat, y: CGFloat) -> Self { position(CGPoint(x: x, y: y)) }
    /// The point of the bounds that `position` places and transforms turn about, in unit
    /// coordinates: (0.5, 0.5), the centre, by default.
    public func anchorPoint(x: CGFloat, y: CGFloat) -> Self { set(.anchorPoint, CGPoint(x: x, y: y)) }
    /// The layer's place along z: among siblings, higher draws on top.
    public func zPosition(_ z: CGFloat) -> Self { set(.zPosition, z) }

    // MARK: Placement in the parent (layout)

    /// Centred in the parent.
    public func center() -> Self {
        with {
            var l = $0.layout ?? LayoutSpec()
            l.center = true; l.pin = nil; l.inset = nil
            $0.layout = l
        }
    }
    /// Pinned to an edge or corner of the parent, `inset` points in.
    public func pin(_ edge: LayoutSpec.Edge, inset: CGFloat = 0) -> Self {
        with {
            var l = $0.layout ?? LayoutSpec()
            l.center = nil; l.pin = edge; l.inset = Double(inset)
            $0.layout = l
        }
    }
    /// Moved by (x, y) after placing.
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> Self {
        with {
            var l = $0.layout ?? LayoutSpec()
            l.offset = [Double(x), Double(y)]
            $0.layout = l
        }
    }

    // MARK: Appearance

    /// The opacity, 0 (invisible) to 1; applied to the layer and its sublayers as a group.
    public func opacity(_ o: CGFloat) -> Self { set(.opacity, o) }
    /// The background colour of the bounds (rounded by `cornerRadius`).
    public func background(_ c: Color) -> Self { set(.backgroundColor, c) }
    /// Rounds the corners (of the background, border and clipping).
    public func cornerRadius(_ r: CGFloat) -> Self { set(.cornerRadius, r) }
    /// A border `width` points wide inside the bounds, drawn above the sublayers (as Core
    /// Animation's).
    public func border(_ c: Color, width: CGFloat = 1) -> Self { set(.borderColor, c).set(.borderWidth, width) }
    /// A Gaussian shadow (`shadowRadius` is σ, as Core Animation's).
    public func shadow(_ c: Color = .black, radius: CGFloat = 3, offset: CGSize = CGSize(width: 0, height: 3),
                       opacity: CGFloat = 0.5) -> Self {
        set(.shadowColor, c).set(.shadowRadius, radius).set(.shadowOffset, offset).set(.shadowOpacity, opacity)
    }
    /// The outline the shadow is cast from (`shadowPath`, in the layer's coordinates) instead
    /// of the alpha of the layer and its sublayers: nothing is drawn to find the silhouette.
    public func shadowPath(_ path: ShapePath) -> Self { set(.shadowPath, path) }
    /// Composites the layer and its sublayers onto what is beneath with a blend mode, named as
    /// Core Image's filter (`compositingFilter`): `"multiplyBlendMode"`, `"screenBlendMode"`,
    /// `"overlayBlendMode"`, … `"luminosityBlendMode"`, `"linearDodgeBlendMode"`,
    /// `"additionCompositing"`. A name not in that list fails the scene's compilation.
    ///
    /// ```swift
    /// Layer().frame(CGRect(x: 0, y: 0, width: 200, height: 100)).background(.gray).blendMode("multiplyBlendMode")
    /// ```
    public func blendMode(_ compositingFilter: String) -> Self { property("compositingFilter", compositingFilter) }
    /// Clips contents and sublayers to the (rounded) bounds.
    public func clipped(_ on: Bool = true) -> Self { with { $0.properties["masksToBounds"] = .bool(on) } }
    /// Hides the layer and its sublayers (they are not drawn).
    public func hidden(_ on: Bool = true) -> Self { set(.hidden, on) }
    /// A layer whose alpha masks this one (in this layer's coordinates).
    public func mask(@LayerBuilder _ content: () -> [Node]) -> Self {
        let nodes = content()
        return with { $0.mask = nodes.count == 1 ? nodes : [Node(.group, children: nodes)] }
    }

    // MARK: Transforms

    /// The whole 3D transform.
    public func transform(_ t: CATransform3D) -> Self { set(.transform, t) }
    /// Turns the layer about its anchor (clockwise on screen).
    public func rotation(_ a: Angle) -> Self { transformPart("rotation", .number(a.radians)) }
    /// Scales the layer about its anchor point by `s` in x and y.
    public func scale(_ s: CGFloat) -> Self { transformPart("scale", .number(Double(s))) }
    /// Scales the layer about its anchor point, by `x` and `y` separately.
    public func scale(x: CGFloat, y: CGFloat) -> Self { transformPart("scale", .array([.number(Double(x)), .number(Double(y))])) }
    /// Moves the layer by a translation in its transform.
    public func translation(x: CGFloat = 0, y: CGFloat = 0, z: CGFloat = 0) -> Self {
        transformPart("translation", .array([x, y, z].map { .number(Double($0)) }))
    }
    /// Turns the layer about `axis` in 3D, seen with an eye at `perspective` points (nil: flat
    /// projection).
    public func rotation3D(_ a: Angle, axis: (x: CGFloat, y: CGFloat, z: CGFloat), perspective: CGFloat? = nil) -> Self {
        var r = transformPart("rotation3D", .object(["angle": .number(a.radians),
                                                     "axis": .array([axis.x, axis.y, axis.z].map { .number(Double($0)) })]))
        if let perspective { r = r.transformPart("perspective", .number(Double(perspective))) }
        return r
    }
    /// Perspective for the sublayers (the parent's `sublayerTransform`, m34 = −1/d).
    public func perspective(_ distance: CGFloat) -> Self {
        with { $0.properties["sublayerTransform"] = .object(["perspective": .number(Double(distance))]) }
    }

    func transformPart(_ key: String, _ value: PropertyValue) -> Self {
        with {
            var parts: [String: PropertyValue] = [:]
            if case .object(let o)? = $0.properties["transform"], o["matrix"] == nil { parts = o }
            parts[key] = value
            $0.properties["transform"] = .object(parts)
        }
    }

    // MARK: States

    /// A named set of property values that a timeline `Transition` animates to:
    /// `.state("big") { $0.scale(1.4).opacity(0.6) }`.
    ///
    /// ```swift
    /// Layer().frame(width: 120, height: 120).background(.hex("#58A6FF")).center()
    ///     .state("big") { $0.scale(1.4).opacity(0.6) }
    ///     .timeline {
    ///         Wait(1)
    ///         Transition(to: "big", duration: 0.5)
    ///     }
    /// ```
    public func state(_ name: String, _ change: (Layer) -> Layer) -> Self {
        let props = change(Layer()).node.properties
        return with { $0.states[name] = props }
    }

    /// The element's own timeline (steps without a target animate this element).
    public func timeline(@TimelineBuilder _ steps: () -> [TimelineStep]) -> Self {
        let s = steps()
        return with { $0.timeline += s }
    }
}
