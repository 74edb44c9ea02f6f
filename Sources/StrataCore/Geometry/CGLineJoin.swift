/// How corners between stroked segments are drawn (Core Graphics' `CGLineJoin`).
public enum CGLineJoin: Int32, Sendable, Hashable {
    /// Sharp corners, bevelled beyond `miterLimit`.
    case miter = 0
    /// Rounded corners.
    case round = 1
    /// Corners cut off square to the bisector.
    case bevel = 2
}
