// An animation of one key path through a sequence of values, or along a path.
import Foundation

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
// @unchecked: see CAAnimation.
open class CAKeyframeAnimation: CAPropertyAnimation, @unchecked Sendable {
    public var values: [Any]?
    public var path: CGPath?
    public var keyTimes: [NSNumber]?
    public var timingFunctions: [CAMediaTimingFunction]?
    public var calculationMode: CAAnimationCalculationMode = .linear
    public var tensionValues: [NSNumber]?
    public var continuityValues: [NSNumber]?
    public var biasValues: [NSNumber]?
    public var rotationMode: CAAnimationRotationMode?

    public required init() { super.init() }

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
