// A layer that does not flatten: its sublayers share its parent's 3D space (a 3D rendering
// context). It draws none of its own content.
import Foundation

/// Objects used to create true 3D layer hierarchies.
open class CATransformLayer: CALayer {
    open override var isTransformLayerForSnapshot: Bool { true }
}
