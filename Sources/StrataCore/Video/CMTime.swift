// Core Media's rational time, as AVFoundation's player API takes it (`seek(to:)`,
// `currentTime()`, `AVPlayerLooper`'s time range). Only what the player API needs: construction,
// seconds, arithmetic and comparison. Arithmetic runs on exact rationals when both timescales
// allow it and falls back to seconds otherwise; player timelines work in seconds internally.
import Foundation

/// A time value as a rational number `value / timescale` seconds (Core Media's `CMTime`).
public struct CMTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Core Media's flags: whether the time is valid, infinite or indefinite.
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Set on every valid time; a time without it is invalid (`CMTime.invalid`).
        public static let valid = Flags(rawValue: 1)
        /// Set when the time was rounded to fit its timescale (`init(seconds:preferredTimescale:)`).
        public static let hasBeenRounded = Flags(rawValue: 2)
        /// The time is +∞.
        public static let positiveInfinity = Flags(rawValue: 4)
        /// The time is −∞.
        public static let negativeInfinity = Flags(rawValue: 8)
        /// The time is unknown (such as the duration of a live stream).
        public static let indefinite = Flags(rawValue: 16)
    }

    /// The numerator: the time is `value / timescale` seconds.
    public var value: Int64
    /// The denominator: units per second (600 is common for video, 1 000 000 000 for nanoseconds).
    public var timescale: Int32
    /// Whether the time is valid, rounded, infinite or indefinite.
    public var flags: Flags
    /// Core Media's epoch, telling apart times of unrelated loops of one timeline (default 0).
    /// **Strata:** kept for ported code; arithmetic and comparison ignore it.
    public var epoch: Int64 = 0

    /// `value / timescale` seconds.
    public init(value: Int64, timescale: Int32) {
        self.value = value
        self.timescale = timescale
        self.flags = timescale > 0 ? .valid : []
    }

    /// The time nearest to `seconds` in units of `1 / preferredTimescale`.
    public init(seconds: Double, preferredTimescale: Int32) {
        if seconds.isNaN || preferredTimescale <= 0 {
            self = .invalid
        } else if seconds.isInfinite {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
        } else {
            let scaled = (seconds * Double(preferredTimescale)).rounded()
            self.init(value: Int64(clamping: Int(exactly: scaled) ?? (scaled > 0 ? Int.max : Int.min)),
                      timescale: preferredTimescale)
            if Double(value) / Double(timescale) != seconds { flags.insert(.hasBeenRounded) }
        }
    }

    private init(flags: Flags) {
        value = 0; timescale = 0; self.flags = flags
    }

    /// Zero seconds.
    public static let zero = CMTime(value: 0, timescale: 1)
    /// An invalid time (no flags): what a failed conversion gives; its `seconds` is NaN.
    public static let invalid = CMTime(flags: [])
    /// An unknown time; its `seconds` is NaN.
    public static let indefinite = CMTime(flags: [.valid, .indefinite])
    /// +∞ (`seconds` is `.infinity`).
    public static let positiveInfinity = CMTime(flags: [.valid, .positiveInfinity])
    /// −∞ (`seconds` is `-.infinity`).
    public static let negativeInfinity = CMTime(flags: [.valid, .negativeInfinity])

    /// Whether the time is valid (has the `.valid` flag).
    public var isValid: Bool { flags.contains(.valid) }
    /// Whether the time is indefinite.
    public var isIndefinite: Bool { flags.contains(.indefinite) }
    /// Whether the time is +∞.
    public var isPositiveInfinity: Bool { flags.contains(.positiveInfinity) }
    /// Whether the time is −∞.
    public var isNegativeInfinity: Bool { flags.contains(.negativeInfinity) }
    /// True for valid, finite, definite times.
    public var isNumeric: Bool { isValid && !isIndefinite && !isPositiveInfinity && !isNegativeInfinity }

    /// The time in seconds (NaN when invalid or indefinite, ±infinity when infinite).
    public var seconds: Double {
        if isPositiveInfinity { return .infinity }
        if isNegativeInfinity { return -.infinity }
        guard isNumeric, timescale > 0 else { return .nan }
        return Double(value) / Double(timescale)
    }

    /// The sum: exact when the timescales allow (the same, or their product fits an `Int32`), else
    /// through seconds at the larger timescale; invalid when either is invalid.
    ///
    /// ```swift
    /// let t = CMTime(value: 1, timescale: 2) + CMTime(seconds: 0.25, preferredTimescale: 600)   // 0.75 s
    /// ```
    public static func + (a: CMTime, b: CMTime) -> CMTime { combine(a, b, sign: 1) }
    /// The difference, computed as `+` does.
    public static func - (a: CMTime, b: CMTime) -> CMTime { combine(a, b, sign: -1) }

    /// a + sign·b: exact when the timescales allow it, otherwise through seconds.
    private static func combine(_ a: CMTime, _ b: CMTime, sign: Int64) -> CMTime {
        guard a.isValid, b.isValid else { return .invalid }
        guard a.isNumeric, b.isNumeric else {
            let s = a.seconds + Double(sign) * b.seconds
            if s.isNaN { return a.isIndefinite || b.isIndefinite ? .indefinite : .invalid }
            return s > 0 ? .positiveInfinity : .negativeInfinity
        }
        if a.timescale == b.timescale {
            let (y, o1) = b.value.multipliedReportingOverflow(by: sign)
            let (v, o2) = a.value.addingReportingOverflow(y)
            if !o1 && !o2 { return CMTime(value: v, timescale: a.timescale) }
        }
        let scale = Int64(a.timescale) * Int64(b.timescale)
        if scale <= Int64(Int32.max) {
            let (x, o1) = a.value.multipliedReportingOverflow(by: Int64(b.timescale))
            let (y, o2) = (b.value * sign).multipliedReportingOverflow(by: Int64(a.timescale))
            let (v, o3) = x.addingReportingOverflow(y)
            if !o1 && !o2 && !o3 { return CMTime(value: v, timescale: Int32(scale)) }
        }
        return CMTime(seconds: a.seconds + Double(sign) * b.seconds, preferredTimescale: max(a.timescale, b.timescale))
    }

    /// Whether `a` is earlier than `b`, comparing seconds (false when either is invalid or
    /// indefinite).
    public static func < (a: CMTime, b: CMTime) -> Bool { a.seconds < b.seconds }
    public static func == (a: CMTime, b: CMTime) -> Bool {
        if a.isNumeric && b.isNumeric { return a.seconds == b.seconds }
        return a.flags.subtracting(.hasBeenRounded) == b.flags.subtracting(.hasBeenRounded)
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(isNumeric ? seconds : Double(flags.rawValue)) }

    public var description: String {
        if !isValid { return "CMTime(invalid)" }
        if isIndefinite { return "CMTime(indefinite)" }
        if isPositiveInfinity { return "CMTime(+infinity)" }
        if isNegativeInfinity { return "CMTime(-infinity)" }
        return "CMTime(\(value)/\(timescale) = \(seconds) s)"
    }
}

/// A range of time: a start and a duration (Core Media's `CMTimeRange`).
public struct CMTimeRange: Hashable, Sendable {
    /// Where the range begins.
    public var start: CMTime
    /// How long the range lasts.
    public var duration: CMTime
    /// A range of `duration` from `start`.
    public init(start: CMTime, duration: CMTime) { self.start = start; self.duration = duration }
    /// The range from `start` to `end` (the duration is `end - start`).
    public init(start: CMTime, end: CMTime) { self.start = start; self.duration = end - start }
    /// The first time after the range: `start + duration`.
    public var end: CMTime { start + duration }
    /// Whether both times are valid and the duration is not negative.
    public var isValid: Bool { start.isValid && duration.isValid && !(duration.seconds < 0) }
    /// A range with invalid start and duration.
    public static let invalid = CMTimeRange(start: .invalid, duration: .invalid)
    /// The empty range at time zero.
    public static let zero = CMTimeRange(start: .zero, duration: .zero)
}

/// `value / timescale` seconds.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime { CMTime(value: value, timescale: timescale) }
/// The time nearest to `seconds` at `preferredTimescale`.
public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}
/// The time in seconds.
public func CMTimeGetSeconds(_ time: CMTime) -> Float64 { time.seconds }
/// A range from a start and a duration.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange { CMTimeRange(start: start, duration: duration) }
