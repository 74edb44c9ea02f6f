// QuartzCore's and UIKit's NSValue boxes for geometry, as ported code puts them in animation
// values (`toValue = NSValue(caTransform3D: t)`, `values = [NSValue(cgPoint: p), …]`) and reads
// them back (`.caTransform3DValue`). Animations accept these boxes wherever they accept the bare
// value (AnimatableValue.convert).
import Foundation

extension NSValue {
    // Foundation on Linux boxes arrays of doubles but not structs, so the transforms travel as
    // arrays of their fields (Apple's type strings are struct encodings; nothing here reads them
    // back but these accessors).
    private static let transform3DType = "[16d]"
    private static let affineType = "[6d]"

    /// A box holding a 3D transform.
    public convenience init(caTransform3D t: CATransform3D) {
        var v = t
        self.init(bytes: &v, objCType: NSValue.transform3DType)
    }

    /// The 3D transform in the box (identity when it holds something else).
    public var caTransform3DValue: CATransform3D {
        guard String(cString: objCType) == NSValue.transform3DType else { return CATransform3DIdentity }
        var t = CATransform3DIdentity
        getValue(&t)
        return t
    }

    /// A box holding an affine transform.
    public convenience init(cgAffineTransform t: CGAffineTransform) {
        var v = t
        self.init(bytes: &v, objCType: NSValue.affineType)
    }

    /// The affine transform in the box (identity when it holds something else).
    public var cgAffineTransformValue: CGAffineTransform {
        guard String(cString: objCType) == NSValue.affineType else { return .identity }
        var t = CGAffineTransform.identity
        getValue(&t)
        return t
    }

    /// A box holding a point.
    public convenience init(cgPoint point: CGPoint) { self.init(point: point) }
    /// The point in the box.
    public var cgPointValue: CGPoint { pointValue }
    /// A box holding a size.
    public convenience init(cgSize size: CGSize) { self.init(size: size) }
    /// The size in the box.
    public var cgSizeValue: CGSize { sizeValue }
    /// A box holding a rectangle.
    public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }
    /// The rectangle in the box.
    public var cgRectValue: CGRect { rectValue }

    /// The geometry value in the box as the Swift value, or nil for other contents. Reads the
    /// type once: corelibs Foundation's `objCType` returns a fresh C string it never frees
    /// (13 bytes a call for a boxed point; LeakSanitizer reports it, see
    /// scripts/sanitize-suppressions/lsan.txt).
    var unboxedGeometry: Any? {
        let type = String(cString: objCType)
        switch type {
        case NSValue.transform3DType:
            var t = CATransform3DIdentity
            getValue(&t)
            return t
        case NSValue.affineType:
            var t = CGAffineTransform.identity
            getValue(&t)
            return t
        default:
            if type.hasPrefix("{CGPoint") || type.hasPrefix("{NSPoint") || type.hasPrefix("{_NSPoint") { return pointValue }
            if type.hasPrefix("{CGSize") || type.hasPrefix("{NSSize") || type.hasPrefix("{_NSSize") { return sizeValue }
            if type.hasPrefix("{CGRect") || type.hasPrefix("{NSRect") || type.hasPrefix("{_NSRect") { return rectValue }
            return nil
        }
    }
}
