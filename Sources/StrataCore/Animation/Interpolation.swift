// How values move between two ends: numbers linearly, structs per component, colours per RGBA
// component, transforms by decomposition (as CSS does), images and other discrete values switch
// at 0.5. Addition and subtraction serve `byValue`, `isAdditive` and `isCumulative`.
import Foundation

extension AnimatableValue {
    /// The value a fraction `f` of the way from `a` to `b` (f may leave 0…1 for overshooting curves).
    public static func interpolate(_ a: AnimatableValue, _ b: AnimatableValue, _ f: Double) -> AnimatableValue {
        let t = CGFloat(f)
        func mix(_ x: CGFloat, _ y: CGFloat) -> CGFloat { x + (y - x) * t }
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(mix(x, y))
        case (.point(let p), .point(let q)): return .point(CGPoint(x: mix(p.x, q.x), y: mix(p.y, q.y)))
        case (.size(let p), .size(let q)): return .size(CGSize(width: mix(p.width, q.width), height: mix(p.height, q.height)))
        case (.rect(let p), .rect(let q)):
            return .rect(CGRect(x: mix(p.origin.x, q.origin.x), y: mix(p.origin.y, q.origin.y),
                                width: mix(p.size.width, q.size.width), height: mix(p.size.height, q.size.height)))
        case (.color(let p), .color(let q)):
            // A nil colour interpolates as transparent of the other colour's hue.
            guard p != nil || q != nil else { return .color(nil) }
            let c0 = p ?? q!.copy(alpha: 0)!, c1 = q ?? p!.copy(alpha: 0)!
            return .color(CGColor(red: mix(c0.red, c1.red), green: mix(c0.green, c1.green),
                                  blue: mix(c0.blue, c1.blue), alpha: mix(c0.alpha, c1.alpha)))
        case (.transform(let p), .transform(let q)):
            return .transform(CATransform3D.interpolate(from: p, to: q, fraction: f))
        case (.array(let p), .array(let q)) where p.count == q.count:
            return .array(zip(p, q).map { interpolate($0, $1, f) })
        case (.path(let p?), .path(let q?)):
            // Point-wise when the element structure matches, else a jump at the midpoint.
            if let mixed = interpolatePaths(p, q, t) { return .path(mixed) }
            return f < 0.5 ? a : b
        default:
            return f < 0.5 ? a : b
        }
    }

    /// Point-wise interpolation of two paths with the same element kinds in the same order.
    static func interpolatePaths(_ p: CGPath, _ q: CGPath, _ t: CGFloat) -> CGPath? {
        let a = p.elements, b = q.elements
        guard a.count == b.count else { return nil }
        func mix(_ x: CGPoint, _ y: CGPoint) -> CGPoint { CGPoint(x: x.x + (y.x - x.x) * t, y: x.y + (y.y - x.y) * t) }
        var out: [CGPathElement] = []
        out.reserveCapacity(a.count)
        for (e, g) in zip(a, b) {
            switch (e, g) {
            case (.moveToPoint(let x), .moveToPoint(let y)): out.append(.moveToPoint(mix(x, y)))
            case (.addLineToPoint(let x), .addLineToPoint(let y)): out.append(.addLineToPoint(mix(x, y)))
            case (.addQuadCurveToPoint(let c, let x), .addQuadCurveToPoint(let d, let y)):
                out.append(.addQuadCurveToPoint(mix(c, d), mix(x, y)))
            case (.addCurveToPoint(let c1, let c2, let x), .addCurveToPoint(let d1, let d2, let y)):
                out.append(.addCurveToPoint(mix(c1, d1), mix(c2, d2), mix(x, y)))
            case (.closeSubpath, .closeSubpath): out.append(.closeSubpath)
            default: return nil
            }
        }
        return CGPath(elements: out)
    }

    /// `a + b` per component (transforms concatenate: b applied after a); nil when not addable.
    public static func add(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x + y)
        case (.point(let p), .point(let q)): return .point(CGPoint(x: p.x + q.x, y: p.y + q.y))
        case (.size(let p), .size(let q)): return .size(CGSize(width: p.width + q.width, height: p.height + q.height))
        case (.rect(let p), .rect(let q)):
            return .rect(CGRect(x: p.origin.x + q.origin.x, y: p.origin.y + q.origin.y,
                                width: p.size.width + q.size.width, height: p.size.height + q.size.height))
        case (.color(let p?), .color(let q?)):
            return .color(CGColor(red: p.red + q.red, green: p.green + q.green, blue: p.blue + q.blue, alpha: p.alpha + q.alpha))
        case (.transform(let p), .transform(let q)): return .transform(q.concatenating(p))
        case (.array(let p), .array(let q)) where p.count == q.count:
            var out: [AnimatableValue] = []
            for (x, y) in zip(p, q) { guard let s = add(x, y) else { return nil }; out.append(s) }
            return .array(out)
        default: return nil
        }
    }

    /// `a − b` per component; nil when not subtractable.
    public static func subtract(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x - y)
        case (.point(let p), .point(let q)): return .point(CGPoint(x: p.x - q.x, y: p.y - q.y))
        case (.size(let p), .size(let q)): return .size(CGSize(width: p.width - q.width, height: p.height - q.height))
        case (.rect(let p), .rect(let q)):
            return .rect(CGRect(x: p.origin.x - q.origin.x, y: p.origin.y - q.origin.y,
                                width: p.size.width - q.size.width, height: p.size.height - q.size.height))
        case (.color(let p?), .color(let q?)):
            return .color(CGColor(red: p.red - q.red, green: p.green - q.green, blue: p.blue - q.blue, alpha: p.alpha - q.alpha))
        case (.transform(let p), .transform(let q)): return .transform(q.inverted().concatenating(p))
        case (.array(let p), .array(let q)) where p.count == q.count:
            var out: [AnimatableValue] = []
            for (x, y) in zip(p, q) { guard let s = subtract(x, y) else { return nil }; out.append(s) }
            return .array(out)
        default: return nil
        }
    }
}
