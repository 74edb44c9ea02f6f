// Fill/stroke combinations for `CGContext.drawPath(using:)`.
import Foundation

/// What `drawPath(using:)` paints.
public enum CGPathDrawingMode: Int32, Hashable, Sendable {
    /// `fill` (non-zero winding rule), `eoFill` (even-odd rule), `stroke`, and `fillStroke` /
    /// `eoFillStroke`: fill, then stroke the same path.
    case fill = 0, eoFill, stroke, fillStroke, eoFillStroke
}
