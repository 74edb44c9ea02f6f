// Typed names of animatable layer properties for the DSL: `.opacity` is a property of CGFloat
// values, `.position` of points, `.backgroundColor` of colours, `.rotation` of angles, and a
// value of the wrong type does not compile. The string key path Core Animation uses (`opacity`,
// `position.x`, `transform.rotation.z`) appears only in the animation the DSL produces.
import Foundation
import StrataCore

/// An animatable property whose values are `Value`s.
///
/// ```swift
/// Text("Hi").animate(.opacity, from: 0, to: 1, duration: 0.5)
///           .animate(.position.y, by: -40, duration: 0.5, timing: .easeOut)
///           .animate(.rotation, to: .degrees(10), duration: 0.3)
/// ```
public struct LayerProperty<Value: PropertyValueConvertible>: Hashable, Sendable {
    /// Core Animation's key path.
    public let keyPath: String
    /// A property by Core Animation's key path, for one the static names do not cover:
    /// `LayerProperty<CGFloat>("shadowRadius")`.
    public init(_ keyPath: String) { self.keyPath = keyPath }
}

extension LayerProperty {
    // Numbers.
    /// The opacity (`opacity`), 0…1.
    public static var opacity: LayerProperty<CGFloat> { .init("opacity") }
    /// The corner radius (`cornerRadius`), in points.
    public static var cornerRadius: LayerProperty<CGFloat> { .init("cornerRadius") }
    /// The border's width (`borderWidth`), in points.
    public static var borderWidth: LayerProperty<CGFloat> { .init("borderWidth") }
    /// The shadow's opacity (`shadowOpacity`), 0…1.
    public static var shadowOpacity: LayerProperty<CGFloat> { .init("shadowOpacity") }
    /// The shadow's blur radius (`shadowRadius`, σ of the Gaussian), in points.
    public static var shadowRadius: LayerProperty<CGFloat> { .init("shadowRadius") }
    /// The place along z (`zPosition`).
    public static var zPosition: LayerProperty<CGFloat> { .init("zPosition") }
    /// A shape's stroke width (`lineWidth`), in points.
    public static var lineWidth: LayerProperty<CGFloat> { .init("lineWidth") }
    /// Where a shape's stroke starts along its outline (`strokeStart`), 0…1.
    public static var strokeStart: LayerProperty<CGFloat> { .init("strokeStart") }
    /// Where a shape's stroke ends along its outline (`strokeEnd`), 0…1: animate it from 0 to 1
    /// to draw the outline on.
    public static var strokeEnd: LayerProperty<CGFloat> { .init("strokeEnd") }
    /// The offset of a shape's dash pattern (`lineDashPhase`): animate it for marching ants.
    public static var lineDashPhase: LayerProperty<CGFloat> { .init("lineDashPhase") }
    /// A shape's dash lengths (`lineDashPattern`), animated length by length between patterns
    /// of the same count.
    public static var lineDashPattern: LayerProperty<[Double]> { .init("lineDashPattern") }
    /// A text's font size (`fontSize`), in points.
    public static var fontSize: LayerProperty<CGFloat> { .init("fontSize") }
    /// Uniform scale (`transform.scale`).
    public static var scale: LayerProperty<CGFloat> { .init("transform.scale") }
    /// Scale along x (`transform.scale.x`).
    public static var scaleX: LayerProperty<CGFloat> { .init("transform.scale.x") }
    /// Scale along y (`transform.scale.y`).
    public static var scaleY: LayerProperty<CGFloat> { .init("transform.scale.y") }
    /// Translation along x (`transform.translation.x`), in points.
    public static var translationX: LayerProperty<CGFloat> { .init("transform.translation.x") }
    /// Translation along y (`transform.translation.y`), in points: positive moves down.
    public static var translationY: LayerProperty<CGFloat> { .init("transform.translation.y") }
    /// Translation along z (`transform.translation.z`), in points (seen with perspective).
    public static var translationZ: LayerProperty<CGFloat> { .init("transform.translation.z") }
    /// A custom numeric property stored with `setValue(_:forKey:)` (e.g. a progress a custom
    /// layer draws).
    public static func custom(_ key: String) -> LayerProperty<CGFloat> { .init(key) }

    // Angles.
    /// Rotation about z (`transform.rotation.z`), clockwise on screen.
    public static var rotation: LayerProperty<Angle> { .init("transform.rotation.z") }
    /// Rotation about x (`transform.rotation.x`): tips the layer back or forward in 3D.
    public static var rotationX: LayerProperty<Angle> { .init("transform.rotation.x") }
    /// Rotation about y (`transform.rotation.y`): turns the layer like a door or a card.
    public static var rotationY: LayerProperty<Angle> { .init("transform.rotation.y") }

    // Points, sizes, rectangles.
    /// The position of the anchor point in the parent (`position`); `.position.x` and
    /// `.position.y` animate one coordinate.
    public static var position: LayerProperty<CGPoint> { .init("position") }
    /// The anchor point (`anchorPoint`), in unit coordinates of the bounds.
    public static var anchorPoint: LayerProperty<CGPoint> { .init("anchorPoint") }
    /// A gradient's start point (`startPoint`), in unit coordinates.
    public static var startPoint: LayerProperty<CGPoint> { .init("startPoint") }
    /// A gradient's end point (`endPoint`), in unit coordinates.
    public static var endPoint: LayerProperty<CGPoint> { .init("endPoint") }
    /// The shadow's offset (`shadowOffset`), in points (positive height: down).
    public static var shadowOffset: LayerProperty<CGSize> { .init("shadowOffset") }
    /// The bounds rectangle (`bounds`).
    public static var bounds: LayerProperty<CGRect> { .init("bounds") }
    /// The size of the bounds (`bounds.size`).
    public static var size: LayerProperty<CGSize> { .init("bounds.size") }
    /// The part of the contents image shown (`contentsRect`), in unit coordinates: animate it
    /// to pan across an image.
    public static var contentsRect: LayerProperty<CGRect> { .init("contentsRect") }

    // Colours.
    /// The background colour (`backgroundColor`).
    public static var backgroundColor: LayerProperty<Color> { .init("backgroundColor") }
    /// The border colour (`borderColor`).
    public static var borderColor: LayerProperty<Color> { .init("borderColor") }
    /// The shadow colour (`shadowColor`).
    public static var shadowColor: LayerProperty<Color> { .init("shadowColor") }
    /// A shape's fill colour (`fillColor`).
    public static var fillColor: LayerProperty<Color> { .init("fillColor") }
    /// A shape's stroke colour (`strokeColor`).
    public static var strokeColor: LayerProperty<Color> { .init("strokeColor") }
    /// A text's colour (`foregroundColor`).
    public static var foregroundColor: LayerProperty<Color> { .init("foregroundColor") }
    /// A gradient's colours (`colors`): animating them cross-fades colour by colour.
    public static var colors: LayerProperty<[Color]> { .init("colors") }
    /// A gradient's colour stops (`locations`), 0…1 each.
    public static var locations: LayerProperty<[Double]> { .init("locations") }

    // Whole values.
    /// The whole 3D transform (`transform`), interpolated matrix by matrix.
    public static var transform: LayerProperty<CATransform3D> { .init("transform") }
    /// The transform applied to the sublayers (`sublayerTransform`), e.g. a perspective.
    public static var sublayerTransform: LayerProperty<CATransform3D> { .init("sublayerTransform") }
    /// A shape's path (`path`): animating between paths of the same structure morphs one into
    /// the other.
    public static var path: LayerProperty<ShapePath> { .init("path") }
    /// The outline the shadow is cast from (`shadowPath`), in the layer's coordinates, instead of
    /// the alpha of its content (cheaper: nothing is drawn to find the silhouette).
    public static var shadowPath: LayerProperty<ShapePath> { .init("shadowPath") }
    /// Whether the layer is hidden (`hidden`); not interpolated: it switches at the keyframe.
    public static var hidden: LayerProperty<Bool> { .init("hidden") }
}

extension LayerProperty where Value == CGPoint {
    /// The x coordinate of the point (`KEY.x`): `.position.x`.
    public var x: LayerProperty<CGFloat> { .init(keyPath + ".x") }
    /// The y coordinate of the point (`KEY.y`): `.position.y`.
    public var y: LayerProperty<CGFloat> { .init(keyPath + ".y") }
}

extension LayerProperty where Value == CGSize {
    /// The width of the size (`KEY.width`): `.size.width`.
    public var width: LayerProperty<CGFloat> { .init(keyPath + ".width") }
    /// The height of the size (`KEY.height`): `.size.height`.
    public var height: LayerProperty<CGFloat> { .init(keyPath + ".height") }
}

extension LayerProperty where Value == CGRect {
    /// The origin of the rectangle (`KEY.origin`): `.bounds.origin`.
    public var origin: LayerProperty<CGPoint> { .init(keyPath + ".origin") }
    /// The size of the rectangle (`KEY.size`): `.bounds.size`.
    public var size: LayerProperty<CGSize> { .init(keyPath + ".size") }
}
