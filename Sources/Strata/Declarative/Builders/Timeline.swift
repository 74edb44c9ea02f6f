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
    /// The steps of the model this builds.
    public let steps: [TimelineStep]
    /// A timeline of `steps`, run one after another from the scene's start.
    ///
    /// ```swift
    /// Timeline {
    ///     Wait(1)
    ///     Animate("title", .opacity, to: 0, duration: 0.5)
    /// }
    /// ```
    public init(@TimelineBuilder _ steps: () -> [TimelineStep]) { self.steps = steps() }
}

/// Steps one after another.
public struct Chain: TimelineConvertible {
    /// The steps of the model this builds.
    public let steps: [TimelineStep]
    /// `steps` one after another: each starts when the one before it ends.
    public init(@TimelineBuilder _ steps: () -> [TimelineStep]) { self.steps = [.chain(steps())] }
}

/// Steps at the same time; as long as the longest.
public struct Parallel: TimelineConvertible {
    /// The steps of the model this builds.
    public let steps: [TimelineStep]
    /// `steps` all at once; the step lasts as long as the longest.
    public init(@TimelineBuilder _ steps: () -> [TimelineStep]) { self.steps = [.parallel(steps())] }
}

/// Steps starting `interval` apart (Manim's LaggedStart, Motion Canvas's `sequence`).
public struct Stagger: TimelineConvertible {
    /// The steps of the model this builds.
    public let steps: [TimelineStep]
    /// `steps` started `interval` apart (the first at once), overlapping as they run.
    public init(_ interval: TimeValue, @TimelineBuilder _ steps: () -> [TimelineStep]) {
        self.steps = [.stagger(interval: interval, steps())]
    }
}

/// A pause.
public struct Wait: TimelineConvertible {
    /// The steps of the model this builds.
    public let steps: [TimelineStep]
    /// Nothing for `duration` (seconds, or frames with `.frames(12)`).
    public init(_ duration: TimeValue) { steps = [.wait(duration)] }
}

/// The body `count` times in a row, or until the scene ends.
public struct Loop: TimelineConvertible {
    /// The steps of the model this builds.
    public let steps: [TimelineStep]
    /// `body` `count` times in a row (nil: until the scene ends).
    public init(_ count: Int? = nil, @TimelineBuilder _ body: () -> [TimelineStep]) { steps = [.loop(count: count, body())] }
}

/// Names this point of the timeline, for `At`.
public struct Marker: TimelineConvertible {
    /// The steps of the model this builds.
    public let steps: [TimelineStep]
    /// Names this moment of the timeline for `At(name)`; takes no time.
    public init(_ name: String) { steps = [.marker(name)] }
}

/// Steps starting at a marker or a time, independent of what comes before them.
public struct At: TimelineConvertible {
    /// The steps of the model this builds.
    public let steps: [TimelineStep]
    /// `body` from the moment of the marker `marker`, whatever runs meanwhile.
    public init(_ marker: String, @TimelineBuilder _ body: () -> [TimelineStep]) { steps = [.at(marker: marker, time: nil, body())] }
    /// `body` from scene time `time`.
    public init(time: TimeValue, @TimelineBuilder _ body: () -> [TimelineStep]) { steps = [.at(marker: nil, time: time, body())] }
}

/// Animates a property of the layer with id `target` (nil: the element whose timeline this is).
public struct Animate: TimelineConvertible {
    /// The animation, as the model describes it.
    public private(set) var spec: AnimationSpec
    let target: String?
    /// The one step this is.
    public var steps: [TimelineStep] { [.animate(target: target, spec)] }

    /// Animates `property` of the layer whose id is `target`, from `from` to `to` (or by `by`);
    /// a missing end is the value the property has when the step starts.
    ///
    /// ```swift
    /// Animate("card", .position.x, to: 900, duration: 0.6, timing: .easeInOut)
    /// ```
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
    /// The steps of the model this builds.
    public let steps: [TimelineStep]
    /// Animates the properties named in the state `state` of the layer with id `target` (nil:
    /// the element whose timeline this is) from their values at that moment.
    public init(_ target: String? = nil, to state: String, duration: TimeValue = 0.35, timing: TimingCurve? = nil) {
        steps = [.transition(target: target, state: state, duration: duration, timing: timing)]
    }
}

/// Sets a property at once.
public struct Change: TimelineConvertible {
    /// The steps of the model this builds.
    public let steps: [TimelineStep]
    /// Sets `property` of the layer with id `target` to `value` at once (no animation).
    public init<V>(_ target: String, _ property: LayerProperty<V>, to value: V) {
        steps = [.set(target: target, [property.keyPath: value.propertyValue])]
    }

    /// Sets a property of the element whose timeline this is.
    public init<V>(_ property: LayerProperty<V>, to value: V) {
        steps = [.set(target: nil, [property.keyPath: value.propertyValue])]
    }
}
