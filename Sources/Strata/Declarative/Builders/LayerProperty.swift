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
    public init(_ keyPath: String) { self.keyPath = keyPath }
}

extension LayerProperty {
    // Numbers.
    public static var opacity: LayerProperty<CGFloat> { .init("opacity") }
    public static var cornerRadius: LayerProperty<CGFloat> { .init("cornerRadius") }
    public static var borderWidth: LayerProperty<CGFloat> { .init("borderWidth") }
    public static var shadowOpacity: LayerProperty<CGFloat> { .init("shadowOpacity") }
    public static var shadowRadius: LayerProperty<CGFloat> { .init("shadowRadius") }
    public static var zPosition: LayerProperty<CGFloat> { .init("zPosition") }
    public static var lineWidth: LayerProperty<CGFloat> { .init("lineWidth") }
    public static var strokeStart: LayerProperty<CGFloat> { .init("strokeStart") }
    public static var strokeEnd: LayerProperty<CGFloat> { .init("strokeEnd") }
    public static var lineDashPhase: LayerProperty<CGFloat> { .init("lineDashPhase") }
    public static var fontSize: LayerProperty<CGFloat> { .init("fontSize") }
    /// Uniform scale (`transform.scale`).
    public static var scale: LayerProperty<CGFloat> { .init("transform.scale") }
    public static var scaleX: LayerProperty<CGFloat> { .init("transform.scale.x") }
    public static var scaleY: LayerProperty<CGFloat> { .init("transform.scale.y") }
    public static var translationX: LayerProperty<CGFloat> { .init("transform.translation.x") }
    public static var translationY: LayerProperty<CGFloat> { .init("transform.translation.y") }
    public static var translationZ: LayerProperty<CGFloat> { .init("transform.translation.z") }
    /// A custom numeric property stored with `setValue(_:forKey:)` (e.g. a progress a custom
    /// layer draws).
    public static func custom(_ key: String) -> LayerProperty<CGFloat> { .init(key) }

    // Angles.
    /// Rotation about z (`transform.rotation.z`), clockwise on screen.
    public static var rotation: LayerProperty<Angle> { .init("transform.rotation.z") }
    public static var rotationX: LayerProperty<Angle> { .init("transform.rotation.x") }
    public static var rotationY: LayerProperty<Angle> { .init("transform.rotation.y") }

    // Points, sizes, rectangles.
    public static var position: LayerProperty<CGPoint> { .init("position") }
    public static var anchorPoint: LayerProperty<CGPoint> { .init("anchorPoint") }
    public static var startPoint: LayerProperty<CGPoint> { .init("startPoint") }
    public static var endPoint: LayerProperty<CGPoint> { .init("endPoint") }
    public static var shadowOffset: LayerProperty<CGSize> { .init("shadowOffset") }
    public static var bounds: LayerProperty<CGRect> { .init("bounds") }
    /// The size of the bounds (`bounds.size`).
    public static var size: LayerProperty<CGSize> { .init("bounds.size") }
    public static var contentsRect: LayerProperty<CGRect> { .init("contentsRect") }

    // Colours.
    public static var backgroundColor: LayerProperty<Color> { .init("backgroundColor") }
    public static var borderColor: LayerProperty<Color> { .init("borderColor") }
    public static var shadowColor: LayerProperty<Color> { .init("shadowColor") }
    public static var fillColor: LayerProperty<Color> { .init("fillColor") }
    public static var strokeColor: LayerProperty<Color> { .init("strokeColor") }
    public static var foregroundColor: LayerProperty<Color> { .init("foregroundColor") }
    public static var colors: LayerProperty<[Color]> { .init("colors") }
    public static var locations: LayerProperty<[Double]> { .init("locations") }

    // Whole values.
    public static var transform: LayerProperty<CATransform3D> { .init("transform") }
    public static var sublayerTransform: LayerProperty<CATransform3D> { .init("sublayerTransform") }
    public static var path: LayerProperty<ShapePath> { .init("path") }
    public static var hidden: LayerProperty<Bool> { .init("hidden") }
}

extension LayerProperty where Value == CGPoint {
    public var x: LayerProperty<CGFloat> { .init(keyPath + ".x") }
    public var y: LayerProperty<CGFloat> { .init(keyPath + ".y") }
}

extension LayerProperty where Value == CGSize {
    public var width: LayerProperty<CGFloat> { .init(keyPath + ".width") }
    public var height: LayerProperty<CGFloat> { .init(keyPath + ".height") }
}

extension LayerProperty where Value == CGRect {
    public var origin: LayerProperty<CGPoint> { .init(keyPath + ".origin") }
    public var size: LayerProperty<CGSize> { .init(keyPath + ".size") }
}
