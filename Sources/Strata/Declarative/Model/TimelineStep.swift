// Timelines in the declarative model: steps that start one after another (`chain`), together
// (`parallel`), at a fixed interval (`stagger`), after a pause (`wait`), repeated (`loop`), at a
// named point (`marker`, `at`), or that animate a layer by its id. Durations come from the parts;
// the compiler turns a timeline into begin times of ordinary Core Animation animations.
import Foundation

/// One step of a timeline.
public indirect enum TimelineStep: Codable, Hashable, Sendable {
    /// Animates the layer with `target` id (nil: the layer the timeline belongs to).
    case animate(target: String?, AnimationSpec)
    /// Sets properties of `target` at once (a zero-length step).
    case set(target: String?, [String: PropertyValue])
    /// Animates the properties of `target`'s named state from wherever they are.
    case transition(target: String?, state: String, duration: TimeValue, timing: TimingCurve?)
    /// Steps one after another; its length is the sum.
    case chain([TimelineStep])
    /// Steps together; its length is the longest.
    case parallel([TimelineStep])
    /// Steps starting `interval` apart; its length is the last one's end.
    case stagger(interval: TimeValue, [TimelineStep])
    /// A pause.
    case wait(TimeValue)
    /// The body `count` times in a row (nil: until the scene ends).
    case loop(count: Int?, [TimelineStep])
    /// Names this point of the timeline; `at` steps elsewhere can start there.
    case marker(String)
    /// Steps starting at a marker (by name) or at a time, whatever comes before them; length 0.
    case at(marker: String?, time: TimeValue?, [TimelineStep])

    private enum Keys: String, CodingKey {
        case type, target, animation, properties, state, duration, timing, steps, interval, count, name, marker, time
    }

    public init(from decoder: Decoder) throws {
        let k = try decoder.container(keyedBy: Keys.self)
        let type = try k.decode(String.self, forKey: .type)
        switch type {
        case "animate":
            self = .animate(target: try k.decodeIfPresent(String.self, forKey: .target),
                            try AnimationSpec(from: decoder))
        case "set":
            self = .set(target: try k.decodeIfPresent(String.self, forKey: .target),
                        try k.decode([String: PropertyValue].self, forKey: .properties))
        case "transition":
            self = .transition(target: try k.decodeIfPresent(String.self, forKey: .target),
                               state: try k.decode(String.self, forKey: .state),
                               duration: try k.decodeIfPresent(TimeValue.self, forKey: .duration) ?? .seconds(0.35),
                               timing: try k.decodeIfPresent(TimingCurve.self, forKey: .timing))
        case "chain": self = .chain(try k.decode([TimelineStep].self, forKey: .steps))
        case "parallel": self = .parallel(try k.decode([TimelineStep].self, forKey: .steps))
        case "stagger":
            self = .stagger(interval: try k.decode(TimeValue.self, forKey: .interval),
                            try k.decode([TimelineStep].self, forKey: .steps))
        case "wait": self = .wait(try k.decode(TimeValue.self, forKey: .duration))
        case "loop":
            var count: Int?
            if let text = try? k.decodeIfPresent(String.self, forKey: .count) {
                guard text == "forever" else {
                    throw DecodingError.dataCorruptedError(forKey: .count, in: k, debugDescription: "expected a whole number of times or \"forever\"")
                }
            } else {
                // Read as a number: a count of 1e300 would not fit an Int. Past 1e15 it is as good
                // as forever to a scene of at most a day (iterations after the scene ends are not
                // scheduled), so it is clamped there.
                if let n = try k.decodeIfPresent(Double.self, forKey: .count) {
                    guard n == n.rounded(), n >= 0 else {
                        throw DecodingError.dataCorruptedError(forKey: .count, in: k, debugDescription: "expected a whole number of times ≥ 0 or \"forever\", got \(PropertyValue.number(n))")
                    }
                    count = Int(min(n, 1e15))
                }
            }
            self = .loop(count: count, try k.decode([TimelineStep].self, forKey: .steps))
        case "marker": self = .marker(try k.decode(String.self, forKey: .name))
        case "at":
            self = .at(marker: try k.decodeIfPresent(String.self, forKey: .marker),
                       time: try k.decodeIfPresent(TimeValue.self, forKey: .time),
                       try k.decode([TimelineStep].self, forKey: .steps))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: k,
                debugDescription: "unknown timeline step type \"\(type)\" (expected animate, set, transition, chain, parallel, stagger, wait, loop, marker or at)")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var k = encoder.container(keyedBy: Keys.self)
        switch self {
        case .animate(let target, let spec):
            try k.encode("animate", forKey: .type)
            try k.encodeIfPresent(target, forKey: .target)
            try spec.encode(to: encoder)
        case .set(let target, let props):
            try k.encode("set", forKey: .type)
            try k.encodeIfPresent(target, forKey: .target)
            try k.encode(props, forKey: .properties)
        case .transition(let target, let state, let duration, let timing):
            try k.encode("transition", forKey: .type)
            try k.encodeIfPresent(target, forKey: .target)
            try k.encode(state, forKey: .state)
            try k.encode(duration, forKey: .duration)
            try k.encodeIfPresent(timing, forKey: .timing)
        case .chain(let steps):
            try k.encode("chain", forKey: .type); try k.encode(steps, forKey: .steps)
        case .parallel(let steps):
            try k.encode("parallel", forKey: .type); try k.encode(steps, forKey: .steps)
        case .stagger(let interval, let steps):
            try k.encode("stagger", forKey: .type); try k.encode(interval, forKey: .interval)
            try k.encode(steps, forKey: .steps)
        case .wait(let d):
            try k.encode("wait", forKey: .type); try k.encode(d, forKey: .duration)
        case .loop(let count, let steps):
            try k.encode("loop", forKey: .type)
            if let count { try k.encode(count, forKey: .count) } else { try k.encode("forever", forKey: .count) }
            try k.encode(steps, forKey: .steps)
        case .marker(let name):
            try k.encode("marker", forKey: .type); try k.encode(name, forKey: .name)
        case .at(let marker, let time, let steps):
            try k.encode("at", forKey: .type)
            try k.encodeIfPresent(marker, forKey: .marker)
            try k.encodeIfPresent(time, forKey: .time)
            try k.encode(steps, forKey: .steps)
        }
    }
}
