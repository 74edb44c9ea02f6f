// Image sampling quality of the Core Graphics drawing model, replayed as Cairo filters.
import Foundation

/// How images are sampled when drawn scaled.
public enum CGInterpolationQuality: Int32, Hashable, Sendable {
    /// Bilinear, as `.medium`.
    case `default` = 0
    /// Nearest neighbour.
    case none = 1
    /// Bilinear.
    case low = 2
    /// Bilinear with filtering when minified (Cairo's "good").
    case medium = 4
    /// Cairo's "best".
    case high = 3
}
