// A looping video that starts part-way through its terminal session (VHS's `Set LoopOffset`):
// the frames from the offset on come first, then the ones before it, so a GIF's first frame —
// the one a page shows before it plays — is a moment worth seeing, and the loop's seam falls
// elsewhere. Nothing is re-recorded: the layer shows the timeline at a shifted, wrapped time.
import Foundation

/// Where a looping terminal video starts: a frame, or a percentage of its frames.
public enum TerminalLoopOffset: Hashable, Sendable {
    /// Starts at this frame (0: the first).
    case frames(Int)
    /// Starts this far through, in percent (0…100).
    case percent(Double)

    /// The first frame shown, of `frameCount` frames: `n mod count`, or
    /// `ceil(p / 100 · count) mod count` (VHS's rounding).
    public func frame(of frameCount: Int) -> Int {
        guard frameCount > 0 else { return 0 }
        switch self {
        case .frames(let n): return max(0, n) % frameCount
        case .percent(let p):
            let n = (max(0, min(p, 100)) / 100 * Double(frameCount)).rounded(.up)
            return Int(n) % frameCount
        }
    }
}

/// A timeline shown from `offset` seconds on, wrapping round to its start after `period`
/// seconds.
public struct TerminalLoop: Hashable, Sendable {
    /// The timeline's time shown at local time 0, in seconds.
    public var offset: Double
    /// The length of the loop, in seconds.
    public var period: Double

    /// A loop showing the timeline from `offset` seconds, wrapping after `period` seconds.
    public init(offset: Double, period: Double) {
        self.offset = offset; self.period = period
    }

    /// The timeline time shown at local time `time`. A microsecond is added so that a frame
    /// time plus the offset, a hair short of a state's time by rounding, still shows that state.
    public func timelineTime(atLocalTime time: Double) -> Double {
        guard period > 0, period.isFinite, offset.isFinite else { return time }
        var t = (time + offset + 1e-6).truncatingRemainder(dividingBy: period)
        if t < 0 { t += period }
        return t
    }

    /// The local time that shows the timeline at `time` (the inverse of
    /// `timelineTime(atLocalTime:)` within one period).
    public func localTime(ofTimelineTime time: Double) -> Double {
        guard period > 0, period.isFinite, offset.isFinite else { return time }
        var t = (time - offset).truncatingRemainder(dividingBy: period)
        if t < -1e-9 { t += period }
        return max(0, t)
    }
}
