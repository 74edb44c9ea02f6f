/// How the ends of stroked open subpaths are drawn (Core Graphics' `CGLineCap`).
public enum CGLineCap: Int32, Sendable, Hashable {
    /// The stroke stops at the end point.
    case butt = 0
    /// A half-circle of diameter `lineWidth` caps each end.
    case round = 1
    /// The stroke extends half of `lineWidth` beyond each end.
    case square = 2
}
