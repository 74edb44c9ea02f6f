// One animation in the declarative model: a Core Animation key path and its values, timing and
// repetition. It compiles to a CABasicAnimation, CAKeyframeAnimation or CASpringAnimation with
// the same names (DESIGN.md §1.1: the DSL is sugar over Core Animation, not a second model).
import Foundation

/// An animation of one property of a layer.
public struct AnimationSpec: Codable, Hashable, Sendable {
    /// Core Animation's key path (`opacity`, `position.y`, `transform.rotation.z`, `strokeEnd`, …).
    public var property: String
    /// The start value (nil: the value the property has when the animation starts).
    public var from: PropertyValue?
    /// The end value (nil: from `from` by `by`, or back to the property's own value).
    public var to: PropertyValue?
    /// A change relative to the start value.
    public var by: PropertyValue?
    /// Keyframe values (a keyframe animation when given).
    public var values: [PropertyValue]?
    /// Keyframe times, 0…1, one per value (evenly spaced when nil).
    public var keyTimes: [Double]?
    /// Length of one cycle.
    public var duration: TimeValue
    /// Start, relative to what the animation belongs to (the scene for a layer's own
    /// animations, the enclosing timeline step for a timeline's).
    public var delay: TimeValue?
    /// The timing curve (nil: linear, as a `CABasicAnimation`'s).
    public var timing: TimingCurve?
    /// Number of cycles (`.infinity`: forever).
    public var repeatCount: Double?
    /// Whether each cycle plays forwards then backwards.
    public var autoreverses: Bool?
    /// Adds to the value underneath instead of replacing it.
    public var additive: Bool?

    /// An animation of `property` (Core Animation's key path) with its values and timing.
    public init(property: String, from: PropertyValue? = nil, to: PropertyValue? = nil, by: PropertyValue? = nil,
                values: [PropertyValue]? = nil, keyTimes: [Double]? = nil, duration: TimeValue, delay: TimeValue? = nil,
                timing: TimingCurve? = nil, repeatCount: Double? = nil, autoreverses: Bool? = nil, additive: Bool? = nil) {
        self.property = property; self.from = from; self.to = to; self.by = by; self.values = values
        self.keyTimes = keyTimes; self.duration = duration; self.delay = delay; self.timing = timing
        self.repeatCount = repeatCount; self.autoreverses = autoreverses; self.additive = additive
    }

    private enum Keys: String, CodingKey {
        case property, from, to, by, values, keyTimes, duration, delay, timing, `repeat`, autoreverses, additive
    }

    public init(from decoder: Decoder) throws {
        let k = try decoder.container(keyedBy: Keys.self)
        property = try k.decode(String.self, forKey: .property)
        from = try k.decodeIfPresent(PropertyValue.self, forKey: .from)
        to = try k.decodeIfPresent(PropertyValue.self, forKey: .to)
        by = try k.decodeIfPresent(PropertyValue.self, forKey: .by)
        values = try k.decodeIfPresent([PropertyValue].self, forKey: .values)
        keyTimes = try k.decodeIfPresent([Double].self, forKey: .keyTimes)
        duration = try k.decodeIfPresent(TimeValue.self, forKey: .duration) ?? .seconds(0.25)
        delay = try k.decodeIfPresent(TimeValue.self, forKey: .delay)
        timing = try k.decodeIfPresent(TimingCurve.self, forKey: .timing)
        if let text = try? k.decodeIfPresent(String.self, forKey: .repeat) {
            guard text == "forever" else {
                throw DecodingError.dataCorruptedError(forKey: .repeat, in: k, debugDescription: "expected a number of cycles or \"forever\"")
            }
            repeatCount = .infinity
        } else {
            repeatCount = try k.decodeIfPresent(Double.self, forKey: .repeat)
        }
        autoreverses = try k.decodeIfPresent(Bool.self, forKey: .autoreverses)
        additive = try k.decodeIfPresent(Bool.self, forKey: .additive)
    }

    public func encode(to encoder: Encoder) throws {
        var k = encoder.container(keyedBy: Keys.self)
        try k.encode(property, forKey: .property)
        try k.encodeIfPresent(from, forKey: .from)
        try k.encodeIfPresent(to, forKey: .to)
        try k.encodeIfPresent(by, forKey: .by)
        try k.encodeIfPresent(values, forKey: .values)
        try k.encodeIfPresent(keyTimes, forKey: .keyTimes)
        try k.encode(duration, forKey: .duration)
        try k.encodeIfPresent(delay, forKey: .delay)
        try k.encodeIfPresent(timing, forKey: .timing)
        if let r = repeatCount {
            if r.isInfinite { try k.encode("forever", forKey: .repeat) } else { try k.encode(r, forKey: .repeat) }
        }
        try k.encodeIfPresent(autoreverses, forKey: .autoreverses)
        try k.encodeIfPresent(additive, forKey: .additive)
    }
}
