/// The rule that decides which points a filled path covers.
public enum CGPathFillRule: Int, Sendable, Hashable {
    /// Non-zero winding number (Core Graphics' default; `CAShapeLayerFillRule.nonZero`).
    case winding = 0
    /// An odd number of boundary crossings.
    case evenOdd = 1
}
