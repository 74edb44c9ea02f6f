// Sections that follow each other with transitions, in the DSL (Remotion's TransitionSeries):
//
//     Sections {
//         Section(duration: 3) { Text("One").center() }
//         Section(duration: 3) { Text("Two").center() }
//             .transition(.push(.fromRight, duration: 0.6))
//     }
//
// A section's `transition` is how it replaces the section before it; the transition overlaps the
// end of that section and the start of this one, so the two sections above last 3 + 3 − 0.6 s.
// Every transition is ordinary Core Animation underneath (CompositionCompiler+Sections.swift).
import Foundation

/// Sections shown one after another, each replacing the one before it by its transition.
///
/// ```swift
/// Sections {
///     Section(duration: 3) { Text("One").center() }
///     Section(duration: 3) { Text("Two").center() }
///         .transition(.push(.fromRight, duration: 0.6))
/// }
/// ```
///
/// The series fills its parent (the canvas at the top level), so it follows `--size`. Its
/// length is the sum of its sections' durations minus the sum of its transitions' durations.
public struct Sections: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// A series of `content`, which are ``Section``s.
    public init(@LayerBuilder _ content: () -> [Node]) { node = Node(.sections, children: content()) }
}

/// One section of ``Sections``: it fills the series and is shown for `duration`; the times of
/// what it holds (animations' delays, timelines) count from its start.
public struct Section: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node
    /// A section shown for `duration` (transitions included), holding `content`.
    public init(duration: TimeValue, @LayerBuilder _ content: () -> [Node]) {
        node = Node(.section, properties: ["duration": TimeValue.propertyValue(duration)], children: content())
    }

    /// How this section replaces the one before it: `.transition(.push(.fromRight))`,
    /// `.transition(.fade(duration: 1, timing: .linear))`.
    public func transition(_ t: SectionTransition) -> Section { with { $0.properties["transition"] = t.propertyValue } }
}

extension TimeValue {
    /// The time as a property value (seconds as a number, frames as `"12f"`).
    static func propertyValue(_ t: TimeValue) -> PropertyValue {
        guard let data = try? JSONEncoder().encode(t), let v = try? JSONDecoder().decode(PropertyValue.self, from: data) else {
            return .number(0)
        }
        return v
    }
}

extension SectionTransition {
    /// The new section fades in over the old one (`CATransition` `.fade`).
    public static func fade(duration: TimeValue = 0.5, timing: TimingCurve? = nil) -> SectionTransition {
        SectionTransition(.fade, duration: duration, timing: timing)
    }
    /// The new section slides in over the old one from `direction` (`CATransition` `.moveIn`).
    public static func moveIn(_ direction: Direction = .fromRight, duration: TimeValue = 0.5, timing: TimingCurve? = nil) -> SectionTransition {
        SectionTransition(.moveIn, direction: direction, duration: duration, timing: timing)
    }
    /// The new section pushes the old one out, coming from `direction` (`CATransition` `.push`).
    public static func push(_ direction: Direction = .fromRight, duration: TimeValue = 0.5, timing: TimingCurve? = nil) -> SectionTransition {
        SectionTransition(.push, direction: direction, duration: duration, timing: timing)
    }
    /// The old section moves away (towards the side opposite `direction`), uncovering the new
    /// one (`CATransition` `.reveal`).
    public static func reveal(_ direction: Direction = .fromRight, duration: TimeValue = 0.5, timing: TimingCurve? = nil) -> SectionTransition {
        SectionTransition(.reveal, direction: direction, duration: duration, timing: timing)
    }
    /// The new section slides in from `direction` while the old one moves a third of the way out.
    public static func slide(_ direction: Direction = .fromRight, duration: TimeValue = 0.5, timing: TimingCurve? = nil) -> SectionTransition {
        SectionTransition(.slide, direction: direction, duration: duration, timing: timing)
    }
    /// A straight edge sweeps from `direction` across the old section, uncovering the new one.
    public static func wipe(_ direction: Direction = .fromLeft, duration: TimeValue = 0.5, timing: TimingCurve? = nil) -> SectionTransition {
        SectionTransition(.wipe, direction: direction, duration: duration, timing: timing)
    }
    /// A circle grows from `center` (a unit point of the section), uncovering the new section.
    public static func radialWipe(from center: UnitPoint = .center, duration: TimeValue = 0.5, timing: TimingCurve? = nil) -> SectionTransition {
        SectionTransition(.radialWipe, duration: duration, timing: timing, center: [Double(center.x), Double(center.y)])
    }
    /// A hand sweeps clockwise from 12 o'clock around the centre, uncovering the new section.
    public static func clockWipe(duration: TimeValue = 0.5, timing: TimingCurve? = nil) -> SectionTransition {
        SectionTransition(.clockWipe, duration: duration, timing: timing)
    }
    /// The old section closes in a shrinking circle about the centre.
    public static func iris(duration: TimeValue = 0.5, timing: TimingCurve? = nil) -> SectionTransition {
        SectionTransition(.iris, duration: duration, timing: timing)
    }
    /// The old section grows and fades away in front of the new one, which grows to its size.
    public static func zoom(duration: TimeValue = 0.5, timing: TimingCurve? = nil) -> SectionTransition {
        SectionTransition(.zoom, duration: duration, timing: timing)
    }
    /// A cross-fade through a blur.
    public static func blurDissolve(duration: TimeValue = 0.5, timing: TimingCurve? = nil) -> SectionTransition {
        SectionTransition(.blurDissolve, duration: duration, timing: timing)
    }
    /// The old section turns over in 3D, the new one on its back, coming from `direction`;
    /// `perspective` is the viewer's distance as a multiple of the larger side.
    public static func flip(_ direction: Direction = .fromRight, duration: TimeValue = 0.6, timing: TimingCurve? = nil,
                            perspective: Double = 2) -> SectionTransition {
        SectionTransition(.flip, direction: direction, duration: duration, timing: timing, perspective: perspective)
    }
    /// The sections are neighbouring faces of a cube that turns in 3D, the new one coming from
    /// `direction`; `perspective` is the viewer's distance as a multiple of the larger side.
    public static func cube(_ direction: Direction = .fromRight, duration: TimeValue = 0.6, timing: TimingCurve? = nil,
                            perspective: Double = 2) -> SectionTransition {
        SectionTransition(.cube, direction: direction, duration: duration, timing: timing, perspective: perspective)
    }
}
