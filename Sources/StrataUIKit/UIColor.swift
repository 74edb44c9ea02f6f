// UIKit's colour object for ported code: an sRGB colour with UIKit's named colours (their
// documented component values) and the conversions ported code uses (`cgColor`, components,
// alpha). Strata draws in 8-bit sRGB: components outside 0…1 (extended range, or
// `arc4random()`-style arithmetic that overshoots) are clamped when drawn.
import Foundation
import StrataCore

// @unchecked: immutable (a `let` colour), but an open NSObject subclass cannot be checked.
/// A colour (UIKit's `UIColor`).
///
/// ```swift
/// layer.backgroundColor = UIColor.red.cgColor
/// layer.borderColor = UIColor(red: 0.2, green: 0.4, blue: 1, alpha: 1).cgColor
/// ```
open class UIColor: NSObject, @unchecked Sendable {
    /// The colour as a Core Graphics colour.
    public let cgColor: CGColor

    /// A colour from sRGB components (0…1; values outside are kept and clamped when drawn).
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        cgColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
        super.init()
    }

    /// A grey of brightness `white`.
    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// The colour of `cgColor`.
    public convenience init(cgColor: CGColor) {
        let c = cgColor.components ?? [0, 0, 0, 1]
        if c.count >= 4 { self.init(red: c[0], green: c[1], blue: c[2], alpha: c[3]) }
        else if c.count == 2 { self.init(white: c[0], alpha: c[1]) }
        else { self.init(red: 0, green: 0, blue: 0, alpha: cgColor.alpha) }
    }

    /// A colour from hue, saturation and brightness (0…1 each), as UIKit converts them.
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let h = (hue - hue.rounded(.down)) * 6, s = min(max(saturation, 0), 1), v = brightness
        let i = Int(h) % 6, f = h - CGFloat(Int(h))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (CGFloat, CGFloat, CGFloat) = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    /// **Strata:** no archives: opaque black.
    public required init?(coder: NSCoder) {
        cgColor = .black
        super.init()
    }

    /// The same colour with `alpha`.
    open func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        let c = rgba
        return UIColor(red: c.r, green: c.g, blue: c.b, alpha: alpha)
    }

    /// Reads the sRGB components; returns true (every colour here converts).
    @discardableResult
    open func getRed(_ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
                     blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let c = rgba
        red?.pointee = c.r; green?.pointee = c.g; blue?.pointee = c.b; alpha?.pointee = c.a
        return true
    }

    /// Reads the grey level (the mean of the components) and alpha.
    @discardableResult
    open func getWhite(_ white: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let c = rgba
        white?.pointee = (c.r + c.g + c.b) / 3
        alpha?.pointee = c.a
        return true
    }

    private var rgba: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat) {
        let c = cgColor.components ?? [0, 0, 0, 1]
        if c.count >= 4 { return (c[0], c[1], c[2], c[3]) }
        if c.count == 2 { return (c[0], c[0], c[0], c[1]) }
        return (0, 0, 0, cgColor.alpha)
    }

    /// Sets the fill and stroke colour of the current context (`UIGraphicsGetCurrentContext()`).
    open func set() { setFill(); setStroke() }
    /// Sets the fill colour of the current context (`UIGraphicsGetCurrentContext()`).
    open func setFill() { UIGraphicsGetCurrentContext()?.setFillColor(cgColor) }
    /// Sets the stroke colour of the current context (`UIGraphicsGetCurrentContext()`).
    open func setStroke() { UIGraphicsGetCurrentContext()?.setStrokeColor(cgColor) }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UIColor else { return false }
        return cgColor == other.cgColor
    }

    open override var hash: Int { cgColor.hashValue }

    open override var description: String {
        let c = rgba
        return "UIExtendedSRGBColorSpace \(c.r) \(c.g) \(c.b) \(c.a)"
    }

    // MARK: Named colours (UIKit's values)

    /// Black: a grey of white 0, opaque.
    open class var black: UIColor { UIColor(white: 0, alpha: 1) }
    /// Dark gray: a grey of white 0.333, opaque.
    open class var darkGray: UIColor { UIColor(white: 1.0 / 3.0, alpha: 1) }
    /// Light gray: a grey of white 0.667, opaque.
    open class var lightGray: UIColor { UIColor(white: 2.0 / 3.0, alpha: 1) }
    /// White: a grey of white 1, opaque.
    open class var white: UIColor { UIColor(white: 1, alpha: 1) }
    /// Gray: a grey of white 0.5, opaque.
    open class var gray: UIColor { UIColor(white: 0.5, alpha: 1) }
    /// Red: sRGB red 1, green 0, blue 0, opaque.
    open class var red: UIColor { UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
    /// Green: sRGB red 0, green 1, blue 0, opaque.
    open class var green: UIColor { UIColor(red: 0, green: 1, blue: 0, alpha: 1) }
    /// Blue: sRGB red 0, green 0, blue 1, opaque.
    open class var blue: UIColor { UIColor(red: 0, green: 0, blue: 1, alpha: 1) }
    /// Cyan: sRGB red 0, green 1, blue 1, opaque.
    open class var cyan: UIColor { UIColor(red: 0, green: 1, blue: 1, alpha: 1) }
    /// Yellow: sRGB red 1, green 1, blue 0, opaque.
    open class var yellow: UIColor { UIColor(red: 1, green: 1, blue: 0, alpha: 1) }
    /// Magenta: sRGB red 1, green 0, blue 1, opaque.
    open class var magenta: UIColor { UIColor(red: 1, green: 0, blue: 1, alpha: 1) }
    /// Orange: sRGB red 1, green 0.5, blue 0, opaque.
    open class var orange: UIColor { UIColor(red: 1, green: 0.5, blue: 0, alpha: 1) }
    /// Purple: sRGB red 0.5, green 0, blue 0.5, opaque.
    open class var purple: UIColor { UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1) }
    /// Brown: sRGB red 0.6, green 0.4, blue 0.2, opaque.
    open class var brown: UIColor { UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1) }
    /// Fully transparent black (alpha 0).
    open class var clear: UIColor { UIColor(white: 0, alpha: 0) }

    // The system colours in their light-appearance values.
    /// UIKit's system red in its light appearance: sRGB red 1, green 0.231, blue 0.188.
    open class var systemRed: UIColor { UIColor(red: 1, green: 59 / 255, blue: 48 / 255, alpha: 1) }
    /// UIKit's system orange in its light appearance: sRGB red 1, green 0.584, blue 0.
    open class var systemOrange: UIColor { UIColor(red: 1, green: 149 / 255, blue: 0, alpha: 1) }
    /// UIKit's system yellow in its light appearance: sRGB red 1, green 0.8, blue 0.
    open class var systemYellow: UIColor { UIColor(red: 1, green: 204 / 255, blue: 0, alpha: 1) }
    /// UIKit's system green in its light appearance: sRGB red 0.204, green 0.78, blue 0.349.
    open class var systemGreen: UIColor { UIColor(red: 52 / 255, green: 199 / 255, blue: 89 / 255, alpha: 1) }
    /// UIKit's system teal in its light appearance: sRGB red 0.188, green 0.69, blue 0.78.
    open class var systemTeal: UIColor { UIColor(red: 48 / 255, green: 176 / 255, blue: 199 / 255, alpha: 1) }
    /// UIKit's system blue in its light appearance: sRGB red 0, green 0.478, blue 1.
    open class var systemBlue: UIColor { UIColor(red: 0, green: 122 / 255, blue: 1, alpha: 1) }
    /// UIKit's system indigo in its light appearance: sRGB red 0.345, green 0.337, blue 0.839.
    open class var systemIndigo: UIColor { UIColor(red: 88 / 255, green: 86 / 255, blue: 214 / 255, alpha: 1) }
    /// UIKit's system purple in its light appearance: sRGB red 0.686, green 0.322, blue 0.871.
    open class var systemPurple: UIColor { UIColor(red: 175 / 255, green: 82 / 255, blue: 222 / 255, alpha: 1) }
    /// UIKit's system pink in its light appearance: sRGB red 1, green 0.176, blue 0.333.
    open class var systemPink: UIColor { UIColor(red: 1, green: 45 / 255, blue: 85 / 255, alpha: 1) }
    /// UIKit's system gray in its light appearance: sRGB red 0.557, green 0.557, blue 0.576.
    open class var systemGray: UIColor { UIColor(red: 142 / 255, green: 142 / 255, blue: 147 / 255, alpha: 1) }
    /// The system background colour: white (the light appearance).
    open class var systemBackground: UIColor { .white }
    /// The colour of primary text: black (the light appearance).
    open class var label: UIColor { .black }
}
