// A layer that does not flatten: its sublayers share its parent's 3D space (a 3D rendering
// context). It draws none of its own content.
import Foundation

/// A container whose sublayers stay in its parent's 3D space instead of being flattened into its
/// plane, so faces of a cube turned together hide each other by depth. It draws nothing of its
/// own: background, border, contents and shadow are ignored.
///
/// ```swift
/// let cube = CATransformLayer()
/// for face in faces { cube.addSublayer(face) }     // each face turned and moved into place
/// cube.transform = CATransform3DMakeRotation(.pi / 6, 1, 1, 0)
/// container.sublayerTransform.m34 = -1 / 600       // perspective from the container
/// container.addSublayer(cube)
/// ```
open class CATransformLayer: CALayer {
    open override var isTransformLayerForSnapshot: Bool { true }
}
