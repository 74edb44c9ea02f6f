// An animation of one key path through a sequence of values, or along a path.
import Foundation

// @unchecked: see CAAnimation.
/// Animates a key path through `values` (or, for point properties, along `path`).
///
/// - `keyTimes` (0…1, ascending, one per value; discrete mode: one more) place the values in time;
///   without them (or when invalid, as Apple documents) the values are spread evenly.
/// - `timingFunctions` (one per interval) ease each interval; the animation's own
///   `timingFunction` applies first, to the whole progress.
/// - `calculationMode`: `.linear` (default), `.discrete`, `.paced` (constant speed; key times and
///   timing functions ignored), `.cubic` (a Kochanek–Bartels spline shaped by `tensionValues`,
///   `continuityValues` and `biasValues`, one per value, default 0 = Catmull-Rom), `.cubicPaced`.
/// - `path`: each line, curve or close element is one interval (move-to elements define no
///   keyframe, as Apple documents); linear mode moves along each element by its own parameter,
///   the paced modes at constant speed along the whole path. `values` is ignored when set.
/// - `rotationMode` `.rotateAuto` / `.rotateAutoReverse` turns the layer to the direction of
///   travel (plus 180° for the reverse mode): the presentation's `transform` gets a rotation about
///   z by the tangent's angle, applied before the model transform (`CATransform3DRotate(transform,
///   angle, 0, 0, 1)`), after every other animation of the layer. As on iOS, the layer's artwork
///   should face right (+x) to point along the path.
///
/// Values arrive as any type the property accepts (numbers as Int, Double, CGFloat or NSNumber,
/// CGPoint, CGColor, CATransform3D…); a value of the wrong type is an error when the animation
/// is added, naming its index.
///
///     let fly = CAKeyframeAnimation(keyPath: "position")
///     fly.path = bezier.cgPath
///     fly.rotationMode = .rotateAuto
///     fly.calculationMode = .paced
///     fly.duration = 4
///     plane.add(fly, forKey: "fly")
open class CAKeyframeAnimation: CAPropertyAnimation, @unchecked Sendable {
    /// The keyframe values, in order (default nil), of any type the property accepts; ignored when
    /// `path` is set.
    public var values: [Any]?
    /// A path for a point property (such as `"position"`) to follow, in the superlayer's coordinates
    /// (default nil); it takes precedence over `values`.
    public var path: CGPath?
    /// When each value is reached, as fractions 0…1 of the duration, ascending, one per value (one more
    /// in `.discrete` mode); nil, or an invalid list, spreads the values evenly.
    public var keyTimes: [NSNumber]?
    /// The easing of each interval between two values (one fewer than the values); nil is linear.
    public var timingFunctions: [CAMediaTimingFunction]?
    /// How the values between keyframes are computed (default `.linear`); see the type's overview.
    public var calculationMode: CAAnimationCalculationMode = .linear
    /// The tension of the `.cubic` curve at each value (default 0, Catmull-Rom): 1 shrinks the
    /// tangent there to zero (tight), −1 doubles it (slack, rounder).
    public var tensionValues: [NSNumber]?
    /// The continuity of the `.cubic` curve at each value (default 0: the tangents arriving and
    /// leaving agree, a smooth curve); values away from 0 make them differ, a corner.
    public var continuityValues: [NSNumber]?
    /// The bias of the `.cubic` curve at each value (default 0): positive values weight the
    /// tangent there towards the segment arriving (the curve overshoots the value), negative ones
    /// towards the segment leaving it.
    public var biasValues: [NSNumber]?
    /// Turns the layer to face the direction of travel along `path` (default nil: no turning); see the
    /// type's overview.
    public var rotationMode: CAAnimationRotationMode?

    /// A keyframe animation with no key path and no values.
    public required init() { super.init() }

    /// **Strata:** no archives: a keyframe animation with default values.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CAKeyframeAnimation
        c.values = values; c.path = path; c.keyTimes = keyTimes; c.timingFunctions = timingFunctions
        c.calculationMode = calculationMode; c.tensionValues = tensionValues
        c.continuityValues = continuityValues; c.biasValues = biasValues; c.rotationMode = rotationMode
        return c
    }

    var curveMode: KeyframeCurve.Mode {
        switch calculationMode {
        case .discrete: .discrete
        case .paced: .paced
        case .cubic: .cubic
        case .cubicPaced: .cubicPaced
        default: .linear
        }
    }

    open override func prepare(for kind: AnimatableValue.Kind) throws -> PreparedAnimation? {
        let keyPath = self.keyPath ?? ""
        func doubles(_ a: [NSNumber]?) -> [Double] { (a ?? []).map(\.doubleValue) }
        let rotationOffset: Double? = switch rotationMode {
        case .rotateAuto?: 0
        case .rotateAutoReverse?: Double.pi
        default: nil
        }
        let curve: KeyframeCurve
        if let path {
            guard kind == .point else {
                throw AnimationError.wrongValueType(keyPath: keyPath, field: "path", expected: kind, got: "CGPath (a path animates point properties only)")
            }
            curve = KeyframeCurve(path: path, keyTimes: keyTimes.map { doubles($0) }, timingFunctions: timingFunctions,
                                  mode: curveMode, rotationOffset: rotationOffset)
        } else {
            var converted: [AnimatableValue] = []
            for (i, v) in (values ?? []).enumerated() {
                guard let c = AnimatableValue.convert(v, to: kind) else {
                    throw AnimationError.wrongValueType(keyPath: keyPath, field: "values[\(i)]", expected: kind,
                                                        got: String(describing: type(of: v)))
                }
                converted.append(c)
            }
            curve = KeyframeCurve(values: converted, keyTimes: keyTimes.map { doubles($0) }, timingFunctions: timingFunctions,
                                  mode: curveMode, tension: doubles(tensionValues), continuity: doubles(continuityValues),
                                  bias: doubles(biasValues), rotationOffset: kind == .point ? rotationOffset : nil)
        }
        return PreparedAnimation(keyPath: keyPath, timing: timingValues, timingFunction: timingFunction,
                                 isAdditive: isAdditive, isCumulative: isCumulative, curve: .keyframes(curve))
    }
}
