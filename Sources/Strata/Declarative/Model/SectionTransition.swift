// Transitions between the sections of a `sections` node, in the declarative model. A section's
// `transition` says how it replaces the section before it: the transition's duration overlaps
// the end of that section and the start of this one (Remotion's TransitionSeries), so a series
// lasts the sum of its sections' durations minus the sum of its transitions' durations.
//
// JSON/YAML:  { "type": "section", "duration": 3,
//               "transition": { "type": "push", "direction": "fromRight", "duration": 0.5, "timing": "easeInEaseOut" },
//               "children": [ … ] }
//
// Every transition compiles to ordinary Core Animation animations of the two section layers
// (position, transform, opacity, zPosition, anchorPointZ, a mask's position, scale, lineWidth or
// locations, the series layer's sublayerTransform) in CompositionCompiler+Sections.swift.
import Foundation

/// How a section replaces the one before it.
public struct SectionTransition: Codable, Hashable, Sendable {
    /// The kinds of transition.
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// The new section fades in over the old one (`CATransition` type `fade`).
        case fade
        /// The new section slides in over the old one (`CATransition` type `moveIn`).
        case moveIn
        /// The new section pushes the old one out (`CATransition` type `push`).
        case push
        /// The old section slides away, uncovering the new one (`CATransition` type `reveal`).
        case reveal
        /// A straight edge sweeps across, uncovering the new section (a linear wipe).
        case wipe
        /// A circle grows from `center`, uncovering the new section.
        case radialWipe
        /// A hand sweeps clockwise from 12 o'clock around the centre, uncovering the new section.
        case clockWipe
        /// The new section slides in while the old one moves a third of the way out (parallax).
        case slide
        /// The old section grows and fades away in front of the new one, which grows to its size.
        case zoom
        /// The old section closes in a shrinking circle (an iris) around the centre.
        case iris
        /// A cross-fade through a blur (each section drawn at a lower resolution and scaled up).
        case blurDissolve
        /// The old section turns over in 3D (about the vertical or horizontal axis); the new one
        /// is on its back.
        case flip
        /// The two sections are neighbouring faces of a cube that turns in 3D.
        case cube
    }

    /// The side the new section comes from (Core Animation's `CATransitionSubtype` names).
    public enum Direction: String, Codable, Hashable, Sendable, CaseIterable {
        /// The new section enters from the left (and travels right).
        case fromLeft
        /// The new section enters from the right.
        case fromRight
        /// The new section enters from the top.
        case fromTop
        /// The new section enters from the bottom.
        case fromBottom

        /// The unit direction the new section travels in, in layer coordinates (y down).
        var travel: (x: Double, y: Double) {
            switch self {
            case .fromLeft: (1, 0)
            case .fromRight: (-1, 0)
            case .fromTop: (0, 1)
            case .fromBottom: (0, -1)
            }
        }
    }

    /// The kind of transition.
    public var type: Kind
    /// The side the new section comes from (moving, wiping and 3D kinds; nil: `fromRight`).
    public var direction: Direction?
    /// How long the two sections overlap.
    public var duration: TimeValue
    /// The timing curve of the transition (nil: `easeInEaseOut`). Springs are not accepted.
    public var timing: TimingCurve?
    /// Where a radial wipe grows from, in unit coordinates of the section ([0.5, 0.5]: the
    /// centre).
    public var center: [Double]?
    /// The distance of the viewer for `flip` and `cube`, as a multiple of the section's larger
    /// side (nil: 2), so the look is the same at any size.
    public var perspective: Double?

    /// A transition of `type` from `direction`, lasting `duration`, along `timing`.
    public init(_ type: Kind, direction: Direction? = nil, duration: TimeValue = 0.5, timing: TimingCurve? = nil,
                center: [Double]? = nil, perspective: Double? = nil) {
        self.type = type; self.direction = direction; self.duration = duration; self.timing = timing
        self.center = center; self.perspective = perspective
    }

    private enum Keys: String, CodingKey { case type, direction, duration, timing, center, perspective }

    public init(from decoder: Decoder) throws {
        let k = try decoder.container(keyedBy: Keys.self)
        let name = try k.decode(String.self, forKey: .type)
        guard let kind = Kind(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: k,
                debugDescription: "unknown transition \"\(name)\"\(NearestName.didYouMean(name, among: Kind.allCases.map(\.rawValue)))(expected \(Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        type = kind
        if let d = try k.decodeIfPresent(String.self, forKey: .direction) {
            guard let dir = Direction(rawValue: d) else {
                throw DecodingError.dataCorruptedError(forKey: .direction, in: k,
                    debugDescription: "unknown direction \"\(d)\" (expected \(Direction.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            direction = dir
        }
        duration = try k.decodeIfPresent(TimeValue.self, forKey: .duration) ?? .seconds(0.5)
        timing = try k.decodeIfPresent(TimingCurve.self, forKey: .timing)
        center = try k.decodeIfPresent([Double].self, forKey: .center)
        perspective = try k.decodeIfPresent(Double.self, forKey: .perspective)
    }

    public func encode(to encoder: Encoder) throws {
        var k = encoder.container(keyedBy: Keys.self)
        try k.encode(type.rawValue, forKey: .type)
        try k.encodeIfPresent(direction?.rawValue, forKey: .direction)
        try k.encode(duration, forKey: .duration)
        try k.encodeIfPresent(timing, forKey: .timing)
        try k.encodeIfPresent(center, forKey: .center)
        try k.encodeIfPresent(perspective, forKey: .perspective)
    }

    /// The transition as a property value of a section node (`"transition": {…}`).
    var propertyValue: PropertyValue {
        // Encoding a value of this type cannot fail; the fallback keeps the type at least.
        guard let data = try? JSONEncoder().encode(self), let v = try? JSONDecoder().decode(PropertyValue.self, from: data) else {
            return .object(["type": .string(type.rawValue)])
        }
        return v
    }

    /// The transition a section node's `transition` value describes (throws a message).
    static func decode(_ value: PropertyValue) throws -> SectionTransition {
        let data = try JSONEncoder().encode(value)
        do { return try JSONDecoder().decode(SectionTransition.self, from: data) } catch let DecodingError.dataCorrupted(c) {
            throw PropertyDecoding.Mismatch(expected: c.debugDescription)
        } catch let DecodingError.keyNotFound(key, _) {
            throw PropertyDecoding.Mismatch(expected: "a transition needs \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, c) {
            let at = c.codingPath.map(\.stringValue).joined(separator: ".")
            throw PropertyDecoding.Mismatch(expected: "\(at.isEmpty ? "" : at + ": ")\(c.debugDescription)")
        }
    }
}
