// Core Graphics' gradient object and its drawing options, for `CGContext.drawLinearGradient`
// and `drawRadialGradient` (replayed by Cairo linear and radial patterns).
import Foundation

/// A smooth transition between colours at locations 0…1, painted with
/// `CGContext.drawLinearGradient` or `drawRadialGradient`.
///
/// ```swift
/// let g = CGGradient(colorsSpace: nil, colors: [.white, .black], locations: [0, 1])!
/// ctx.drawLinearGradient(g, start: .zero, end: CGPoint(x: 0, y: 100), options: [])
/// ```
/// Apple's initialiser takes a `CFArray` of colours; here it is `[CGColor]`.
public final class CGGradient: Hashable, Sendable, CustomStringConvertible {
    /// The colours (straight alpha).
    public let colors: [RGBA]
    /// Where each colour sits, ascending, in 0…1.
    public let locations: [CGFloat]

    /// A gradient through `colors`; `locations` nil spaces them evenly from 0 to 1. Nil when
    /// there is no colour or the location count differs from the colour count.
    public init?(colorsSpace space: CGColorSpace?, colors: [CGColor], locations: [CGFloat]?) {
        guard !colors.isEmpty else { return nil }
        let locs = locations ?? CGGradient.evenLocations(colors.count)
        guard locs.count == colors.count, locs.allSatisfy({ $0.isFinite }) else { return nil }
        self.colors = colors.map { RGBA($0) ?? .clear }
        self.locations = CGGradient.normalised(locs)
    }

    /// A gradient from RGBA components (`count` colours of four components each).
    public init?(colorSpace space: CGColorSpace, colorComponents components: [CGFloat], locations: [CGFloat]?, count: Int) {
        guard count > 0, components.count >= count * 4 else { return nil }
        let locs = locations ?? CGGradient.evenLocations(count)
        guard locs.count >= count, locs.allSatisfy({ $0.isFinite }) else { return nil }
        colors = (0..<count).map { i in
            RGBA(CGColor(red: components[i * 4], green: components[i * 4 + 1], blue: components[i * 4 + 2],
                         alpha: components[i * 4 + 3]))!
        }
        self.locations = CGGradient.normalised(Array(locs.prefix(count)))
    }

    private static func evenLocations(_ n: Int) -> [CGFloat] {
        n == 1 ? [0] : (0..<n).map { CGFloat($0) / CGFloat(n - 1) }
    }

    /// Clamped to 0…1 and made non-decreasing (Core Graphics expects ascending locations).
    private static func normalised(_ locs: [CGFloat]) -> [CGFloat] {
        var out: [CGFloat] = []
        for l in locs { out.append(max(min(max(l, 0), 1), out.last ?? 0)) }
        return out
    }

    public static func == (l: CGGradient, r: CGGradient) -> Bool {
        l === r || (l.colors == r.colors && l.locations == r.locations)
    }
    public func hash(into h: inout Hasher) { h.combine(colors); h.combine(locations) }
    public var description: String { "CGGradient(\(colors.count) colours)" }
}

/// Whether a gradient also paints beyond its start and end.
public struct CGGradientDrawingOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Extend the start colour before the start point (circle).
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1)
    /// Extend the end colour beyond the end point (circle).
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 2)
}
