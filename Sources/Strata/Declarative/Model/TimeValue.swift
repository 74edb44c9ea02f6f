// Times and durations in the declarative model: seconds, or frames of the composition's frame
// rate (`.frames(12)`, `"12f"` in templates), resolved when the composition is compiled.
import Foundation

/// A time or duration: seconds, or a number of frames.
public indirect enum TimeValue: Codable, Hashable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// A number of seconds (a Swift number literal, or a number in a template).
    case seconds(Double)
    /// A number of frames of the composition's frame rate (`"12f"` in templates).
    case frames(Int)
    /// Seconds and frames added (`[0.5, "12f"]` in templates).
    case sum([TimeValue])

    /// `a + b` (seconds with seconds, frames with frames, else a sum).
    public static func + (a: TimeValue, b: TimeValue) -> TimeValue {
        switch (a, b) {
        case (.seconds(let x), .seconds(let y)): .seconds(x + y)
        case (.frames(let x), .frames(let y)): .frames(x + y)
        case (.sum(let x), .sum(let y)): .sum(x + y)
        case (.sum(let x), _): .sum(x + [b])
        case (_, .sum(let y)): .sum([a] + y)
        default: .sum([a, b])
        }
    }

    /// A number literal is seconds: `delay: 0.5`.
    public init(floatLiteral value: Double) { self = .seconds(value) }
    /// An integer literal is seconds: `duration: 2`.
    public init(integerLiteral value: Int) { self = .seconds(Double(value)) }

    /// Seconds at `fps` frames per second.
    public func seconds(at fps: Double) -> Double {
        switch self {
        case .seconds(let s): s
        case .frames(let f): Double(f) / fps
        case .sum(let parts): parts.reduce(0) { $0 + $1.seconds(at: fps) }
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let s = try? c.decode(Double.self) { self = .seconds(s); return }
        if let parts = try? c.decode([TimeValue].self) { self = .sum(parts); return }
        if let text = try? c.decode(String.self) {
            let t = text.trimmingCharacters(in: .whitespaces)
            if t.hasSuffix("f"), let f = Int(t.dropLast()) { self = .frames(f); return }
            if t.hasSuffix("s"), let s = Double(t.dropLast()) { self = .seconds(s); return }
            if let s = Double(t) { self = .seconds(s); return }
        }
        throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected seconds (a number, or \"1.5s\") or frames (\"12f\")")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .seconds(let s): try c.encode(s)
        case .frames(let f): try c.encode("\(f)f")
        case .sum(let parts): try c.encode(parts)
        }
    }
}
