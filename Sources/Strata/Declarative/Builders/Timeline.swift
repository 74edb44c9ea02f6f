// Timelines in the DSL, in the spirit of Motion Canvas's generators and Manim's `play`: steps
// that run one after another (`Chain`), together (`Parallel`), staggered (`Stagger`), after a
// pause (`Wait`), repeated (`Loop`), from a named point (`Marker`, `At`). Lengths come from the
// parts. A timeline compiles to begin times of ordinary Core Animation animations.
//
// (There is no `Sequence`: a type of that name in a module you import hides Swift's `Sequence`
// protocol in every file that imports it, which would break ported code. `Chain` is the same.)
import Foundation

/// The steps of a scene's timeline, in a scene's body.
public struct Timeline: TimelineConvertible {
    public let steps: [TimelineStep]
    public init(@TimelineBuilder _ steps: () -> [TimelineStep]) { self.steps = steps() }
}

/// Steps one after another.
public struct Chain: TimelineConvertible {
    public let steps: [TimelineStep]
    public init(@TimelineBuilder _ steps: () -> [TimelineStep]) { self.steps = [.chain(steps())] }
}

/// Steps at the same time; as long as the longest.
public struct Parallel: TimelineConvertible {
    public let steps: [TimelineStep]
    public init(@TimelineBuilder _ steps: () -> [TimelineStep]) { self.steps = [.parallel(steps())] }
}

/// Steps starting `interval` apart (Manim's LaggedStart, Motion Canvas's `sequence`).
public struct Stagger: TimelineConvertible {
    public let steps: [TimelineStep]
    public init(_ interval: TimeValue, @TimelineBuilder _ steps: () -> [TimelineStep]) {
        self.steps = [.stagger(interval: interval, steps())]
    }
}

/// A pause.
public struct Wait: TimelineConvertible {
    public let steps: [TimelineStep]
    public init(_ duration: TimeValue) { steps = [.wait(duration)] }
}

/// The body `count` times in a row, or until the scene ends.
public struct Loop: TimelineConvertible {
    public let steps: [TimelineStep]
    public init(_ count: Int? = nil, @TimelineBuilder _ body: () -> [TimelineStep]) { steps = [.loop(count: count, body())] }
}

/// Names this point of the timeline, for `At`.
public struct Marker: TimelineConvertible {
    public let steps: [TimelineStep]
    public init(_ name: String) { steps = [.marker(name)] }
}

/// Steps starting at a marker or a time, independent of what comes before them.
public struct At: TimelineConvertible {
    public let steps: [TimelineStep]
    public init(_ marker: String, @TimelineBuilder _ body: () -> [TimelineStep]) { steps = [.at(marker: marker, time: nil, body())] }
    public init(time: TimeValue, @TimelineBuilder _ body: () -> [TimelineStep]) { steps = [.at(marker: nil, time: time, body())] }
}

/// Animates a property of the layer with id `target` (nil: the element whose timeline this is).
public struct Animate: TimelineConvertible {
    public private(set) var spec: AnimationSpec
    let target: String?
    public var steps: [TimelineStep] { [.animate(target: target, spec)] }

    public init<V>(_ target: String, _ property: LayerProperty<V>, from: V? = nil, to: V? = nil, by: V? = nil,
                   duration: TimeValue = 0.35, timing: TimingCurve? = nil) {
        self.target = target
        spec = AnimationSpec(property: property.keyPath, from: from?.propertyValue, to: to?.propertyValue,
                             by: by?.propertyValue, duration: duration, timing: timing)
    }

    /// Animates the element whose timeline this is.
    public init<V>(_ property: LayerProperty<V>, from: V? = nil, to: V? = nil, by: V? = nil,
                   duration: TimeValue = 0.35, timing: TimingCurve? = nil) {
        target = nil
        spec = AnimationSpec(property: property.keyPath, from: from?.propertyValue, to: to?.propertyValue,
                             by: by?.propertyValue, duration: duration, timing: timing)
    }

    /// Keyframes (`target` nil: the element whose timeline this is).
    public init<V>(_ target: String? = nil, _ property: LayerProperty<V>, values: [V], keyTimes: [Double]? = nil,
                   duration: TimeValue, timing: TimingCurve? = nil) {
        self.target = target
        spec = AnimationSpec(property: property.keyPath, values: values.map(\.propertyValue), keyTimes: keyTimes,
                             duration: duration, timing: timing)
    }

    /// Repeats the animation (a repeating step lasts as long as all its cycles; forever: the
    /// rest of the scene).
    public func `repeat`(_ r: Repeat, autoreverses: Bool = false) -> Animate {
        var a = self
        a.spec.repeatCount = r.count
        if autoreverses { a.spec.autoreverses = true }
        return a
    }
}

/// Animates the layer with id `target` to its named state.
public struct Transition: TimelineConvertible {
    public let steps: [TimelineStep]
    public init(_ target: String? = nil, to state: String, duration: TimeValue = 0.35, timing: TimingCurve? = nil) {
        steps = [.transition(target: target, state: state, duration: duration, timing: timing)]
    }
}

/// Sets a property at once.
public struct Change: TimelineConvertible {
    public let steps: [TimelineStep]
    public init<V>(_ target: String, _ property: LayerProperty<V>, to value: V) {
        steps = [.set(target: target, [property.keyPath: value.propertyValue])]
    }

    /// Sets a property of the element whose timeline this is.
    public init<V>(_ property: LayerProperty<V>, to value: V) {
        steps = [.set(target: nil, [property.keyPath: value.propertyValue])]
    }
}
