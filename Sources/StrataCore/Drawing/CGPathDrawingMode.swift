// Fill/stroke combinations for `CGContext.drawPath(using:)`.
import Foundation

/// What `drawPath(using:)` paints.
public enum CGPathDrawingMode: Int32, Hashable, Sendable {
    case fill = 0, eoFill, stroke, fillStroke, eoFillStroke
}
