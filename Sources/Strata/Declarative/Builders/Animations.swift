// Typed animations on DSL elements: `.animate(.opacity, from: 0, to: 1, duration: 0.5,
// timing: .easeOut, delay: 0.2)`, keyframes, springs (a spring timing curve), repetition, and a
// few named entrances (fade, slide, scale, draw). Each adds an `AnimationSpec` to the node; the
// compiler makes it a Core Animation animation beginning at `delay` seconds of scene time.
import Foundation
import StrataCore

/// How often an animation runs.
public enum Repeat: Hashable, Sendable {
    /// This many times (fractions play part of a last cycle), as `repeatCount`.
    case count(Double)
    /// Until the scene ends.
    case forever
    var count: Double { if case .count(let n) = self { return n }; return .infinity }
}

/// An edge a layer enters from.
public enum EntranceEdge: Sendable {
    /// From the left: the layer starts moved left (a negative `translationX`).
    case leading
    /// From the right: the layer starts moved right.
    case trailing
    /// From above: the layer starts moved up (a negative `translationY`; y grows downward).
    case top
    /// From below: the layer starts moved down.
    case bottom
}

extension LayerElement {
    /// Animates `property` from `from` to `to` (or by `by`); a missing end is the value the
    /// property has at that point of the scene (its own value, or where the previous animation
    /// of it left it). `delay` is the start in scene seconds.
    ///
    /// ```swift
    /// Text("Hello")
    ///     .animate(.opacity, from: 0, to: 1, duration: 0.5, timing: .easeOut)
    ///     .animate(.translationY, from: 30, to: 0, duration: 0.5, timing: .spring(duration: 0.5, bounce: 0.3))
    ///     .animate(.rotation, to: .degrees(10), duration: 0.3, delay: 2)
    /// ```
    public func animate<V>(_ property: LayerProperty<V>, from: V? = nil, to: V? = nil, by: V? = nil,
                           duration: TimeValue = 0.35, timing: TimingCurve? = nil, delay: TimeValue = 0) -> Self {
        with {
            $0.animations.append(AnimationSpec(property: property.keyPath, from: from?.propertyValue, to: to?.propertyValue,
                                               by: by?.propertyValue, duration: duration, delay: delay, timing: timing))
        }
    }

    /// Animates `property` through `values` (at `keyTimes`, 0…1, evenly spaced when nil).
    ///
    /// ```swift
    /// Layer().frame(width: 80, height: 80).background(.hex("#E3B341"))
    ///     .keyframes(.scale, [1, 1.3, 0.9, 1], keyTimes: [0, 0.3, 0.7, 1], duration: 0.8)
    /// ```
    public func keyframes<V>(_ property: LayerProperty<V>, _ values: [V], keyTimes: [Double]? = nil,
                             duration: TimeValue, timing: TimingCurve? = nil, delay: TimeValue = 0) -> Self {
        with {
            $0.animations.append(AnimationSpec(property: property.keyPath, values: values.map(\.propertyValue),
                                               keyTimes: keyTimes, duration: duration, delay: delay, timing: timing))
        }
    }

    /// Repeats the last animation added: `r` times, or for the rest of the scene; with
    /// `autoreverses` each cycle plays forwards then backwards.
    ///
    /// ```swift
    /// Text("●").animate(.opacity, from: 1, to: 0.2, duration: 0.6).repeat(.forever, autoreverses: true)
    /// ```
    public func `repeat`(_ r: Repeat, autoreverses: Bool = false) -> Self {
        with {
            guard !$0.animations.isEmpty else { return }
            $0.animations[$0.animations.count - 1].repeatCount = r.count
            if autoreverses { $0.animations[$0.animations.count - 1].autoreverses = true }
        }
    }

    /// Fades in from transparent, starting `delay` seconds into the scene.
    ///
    /// ```swift
    /// Text("Title").center().fadeIn(duration: 0.6, delay: 0.2).fadeOut(at: 3)
    /// ```
    public func fadeIn(duration: TimeValue = 0.4, delay: TimeValue = 0, timing: TimingCurve = .easeOut) -> Self {
        animate(.opacity, from: 0, to: 1, duration: duration, timing: timing, delay: delay)
    }

    /// Fades out, starting at `at` seconds.
    public func fadeOut(at start: TimeValue, duration: TimeValue = 0.4, timing: TimingCurve = .easeIn) -> Self {
        animate(.opacity, to: 0, duration: duration, timing: timing, delay: start)
    }

    /// Slides in from `edge` by `distance` points (a translation, so it composes with the
    /// layout), fading in with it.
    ///
    /// ```swift
    /// Text("Subtitle").pin(.bottom, inset: 80).slideIn(from: .bottom, distance: 60, delay: 0.4)
    /// ```
    public func slideIn(from edge: EntranceEdge, distance: CGFloat = 40, duration: TimeValue = 0.5, delay: TimeValue = 0,
                        timing: TimingCurve = .named(.easeOutCubic)) -> Self {
        let (property, start): (LayerProperty<CGFloat>, CGFloat) = switch edge {
        case .leading: (.translationX, -distance)
        case .trailing: (.translationX, distance)
        case .top: (.translationY, -distance)
        case .bottom: (.translationY, distance)
        }
        return animate(property, from: start, to: 0, duration: duration, timing: timing, delay: delay)
            .fadeIn(duration: duration, delay: delay, timing: timing)
    }

    /// Grows in from `scale` (about the anchor point), fading in with it.
    public func scaleIn(from scale: CGFloat = 0.6, duration: TimeValue = 0.5, delay: TimeValue = 0,
                        timing: TimingCurve = .spring(duration: 0.5, bounce: 0.25)) -> Self {
        animate(.scale, from: scale, to: 1, duration: duration, timing: timing, delay: delay)
            .fadeIn(duration: duration, delay: delay)
    }
}

extension LayerElement {
    /// Applies `change` to each sublayer, the animations it adds starting `interval` later for
    /// each one (Manim's LaggedStart, Motion Canvas's `sequence`):
    /// `HStack { … }.stagger(0.08) { $0.slideIn(from: .bottom) }`.
    public func stagger(_ interval: TimeValue, delay: TimeValue = 0, _ change: (Layer) -> Layer) -> Self {
        let template = change(Layer()).node
        return with { node in
            for i in node.children.indices {
                node.children[i].properties.merge(template.properties) { _, new in new }
                for var a in template.animations {
                    let step: TimeValue = switch interval {
                    case .seconds(let s): .seconds(s * Double(i))
                    case .frames(let f): .frames(f * i)
                    case .sum: .sum(Array(repeating: interval, count: i))
                    }
                    a.delay = (a.delay ?? 0) + delay + step
                    node.children[i].animations.append(a)
                }
            }
        }
    }
}

extension CGSize {
    /// 1280 × 720.
    public static let hd720 = CGSize(width: 1280, height: 720)
    /// 1920 × 1080.
    public static let hd1080 = CGSize(width: 1920, height: 1080)
    /// 1080 × 1080 (square posts).
    public static let square1080 = CGSize(width: 1080, height: 1080)
    /// 1080 × 1920 (vertical video).
    public static let vertical1080 = CGSize(width: 1080, height: 1920)
}

extension Shape {
    /// Draws the outline on (`strokeEnd` 0 → 1): the stroke grows along the path from its start.
    ///
    /// ```swift
    /// Shape(.svg("M 10 80 C 40 10, 65 10, 95 80 S 150 150, 180 80"))
    ///     .fill(.clear).stroke(.white, width: 4, cap: .round)
    ///     .draw(duration: 1.5, delay: 0.5)
    /// ```
    public func draw(duration: TimeValue = 1, delay: TimeValue = 0, timing: TimingCurve = .easeInOut) -> Shape {
        animate(.strokeEnd, from: 0, to: 1, duration: duration, timing: timing, delay: delay)
    }
}
