// Frame rates are rational so that 29.97 (30000/1001) is exact and frame k sits at exactly
// k · denominator / numerator seconds, with no accumulated float drift.
import Foundation

/// A rational frame rate: `numerator / denominator` frames per second.
///
/// ```swift
/// let ntsc = FrameRate(numerator: 30000, denominator: 1001)!
/// ntsc.framesPerSecond   // 29.97002997…
/// ```
public struct FrameRate: Hashable, Sendable, CustomStringConvertible {
    /// Frames per `denominator` seconds (lowest terms; 30000 for 29.97 fps).
    public let numerator: Int
    /// The seconds the `numerator` frames take (lowest terms; 1001 for 29.97 fps).
    public let denominator: Int

    /// A frame rate of `numerator / denominator` fps, reduced to lowest terms.
    /// Returns nil when either part is not positive.
    public init?(numerator: Int, denominator: Int = 1) {
        guard numerator > 0, denominator > 0 else { return nil }
        var a = numerator, b = denominator
        while b != 0 { (a, b) = (b, a % b) }
        self.numerator = numerator / a
        self.denominator = denominator / a
    }

    /// A frame rate from a number of frames per second; common NTSC rates (23.976, 29.97, 59.94)
    /// become their exact 1001-denominator fractions. Returns nil when not positive and finite.
    public init?(_ fps: Double) {
        // (Up to 1e12, so that fps × 1000 below converts to Int: a scene checks for ≤ 1000.)
        guard fps.isFinite, fps > 0, fps < 1e12 else { return nil }
        if fps.rounded() == fps, fps <= Double(Int32.max) {
            self.init(numerator: Int(fps))
            return
        }
        for base in [24, 30, 48, 60, 120] where abs(fps - Double(base) * 1000 / 1001) < 0.005 {
            self.init(numerator: base * 1000, denominator: 1001)
            return
        }
        self.init(numerator: Int((fps * 1000).rounded()), denominator: 1000)
    }

    /// The rate as a floating-point number of frames per second (29.97002997… for 30000/1001).
    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

    /// The exact time of frame `index` in seconds.
    public func time(ofFrame index: Int) -> Double {
        Double(index) * Double(denominator) / Double(numerator)
    }

    /// The number of whole frames that start before `duration` seconds (`ceil(duration · fps)`,
    /// tolerant of float noise so that 4 s at 30 fps is exactly 120 frames).
    public func frameCount(forDuration duration: Double) -> Int {
        let exact = duration * Double(numerator) / Double(denominator)
        // Saturating: a duration of 1e300 s (refused by a scene's checks) is not a trap.
        guard exact < 0x1p62 else { return exact.isNaN ? 0 : 1 << 62 }
        guard exact > -0x1p62 else { return -(1 << 62) }
        let rounded = exact.rounded()
        if abs(exact - rounded) < 1e-9 * max(1, exact) { return Int(rounded) }
        return Int(exact.rounded(.up))
    }

    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }
}
