// An animation of one key path of a layer.
import Foundation

// @unchecked: see CAAnimation.
/// The abstract base of animations that change one property.
open class CAPropertyAnimation: CAAnimation, @unchecked Sendable {
    /// The key path animated, e.g. `"position"`, `"transform.rotation.z"`, `"bounds.size.width"`.
    public var keyPath: String?
    /// When true the animated value is added to the value underneath instead of replacing it.
    public var isAdditive = false
    /// When true each repeat starts from the end value of the previous one.
    public var isCumulative = false

    /// An animation with no key path.
    public required init() { super.init() }

    /// **Strata:** no archives: an animation with default values.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// An animation of the property at `path` of the layer it is added to, such as `"opacity"` or
    /// `"transform.rotation.z"`.
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CAPropertyAnimation
        c.keyPath = keyPath; c.isAdditive = isAdditive; c.isCumulative = isCumulative
        return c
    }


    /// Checks the animation against the property it targets and converts its values; throws a
    /// clear error for an unknown key path or wrongly typed values. Called when added to a layer.
    open func prepare(for kind: AnimatableValue.Kind) throws -> PreparedAnimation? { nil }
}
