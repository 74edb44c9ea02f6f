// Values as flat vectors of numbers, for the parts of the engine that need geometry on them:
// cubic keyframe splines (tangents), paced keyframes (distances) and paths (arc length).
// Numbers, points, sizes, rects, colours and arrays of these are vectors; transforms, images,
// paths, Booleans and discrete values are not (they interpolate on their own terms).
import Foundation

extension AnimatableValue {
    /// The value's components (x, y…; r, g, b, a…), or nil for kinds that are not vectors
    /// (transforms, images, paths, Booleans, discrete values, a nil colour).
    public var components: [Double]? {
        switch self {
        case .number(let n): return [Double(n)]
        case .point(let p): return [Double(p.x), Double(p.y)]
        case .size(let s): return [Double(s.width), Double(s.height)]
        case .rect(let r): return [Double(r.origin.x), Double(r.origin.y), Double(r.size.width), Double(r.size.height)]
        case .color(let c?): return [Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha)]
        case .array(let a):
            var out: [Double] = []
            for e in a {
                guard let c = e.components else { return nil }
                out.append(contentsOf: c)
            }
            return out
        default: return nil
        }
    }

    /// A value of the same kind and shape as `self` built from `c` (as produced by `components`).
    public func withComponents(_ c: [Double]) -> AnimatableValue {
        var i = 0
        return rebuilt(from: c, at: &i)
    }

    private func rebuilt(from c: [Double], at i: inout Int) -> AnimatableValue {
        func next() -> CGFloat {
            defer { i += 1 }
            return i < c.count ? CGFloat(c[i]) : 0
        }
        switch self {
        case .number: return .number(next())
        case .point: let x = next(), y = next(); return .point(CGPoint(x: x, y: y))
        case .size: let w = next(), h = next(); return .size(CGSize(width: w, height: h))
        case .rect:
            let x = next(), y = next(), w = next(), h = next()
            return .rect(CGRect(x: x, y: y, width: w, height: h))
        case .color(.some):
            let r = next(), g = next(), b = next(), a = next()
            return .color(CGColor(red: r, green: g, blue: b, alpha: a))
        case .array(let a):
            var out: [AnimatableValue] = []
            out.reserveCapacity(a.count)
            for e in a { out.append(e.rebuilt(from: c, at: &i)) }
            return .array(out)
        default: return self
        }
    }

    /// The distance between two values of one kind, used by paced keyframes: Euclidean over
    /// the components; transforms by the Frobenius norm of their difference; 1 for any other
    /// pair of different values (so paced steps through them evenly), 0 for equal ones.
    public static func distance(_ a: AnimatableValue, _ b: AnimatableValue) -> Double {
        if let x = a.components, let y = b.components, x.count == y.count {
            var sum = 0.0
            for k in 0..<x.count { sum += (x[k] - y[k]) * (x[k] - y[k]) }
            return sum.squareRoot()
        }
        if case .transform(let p) = a, case .transform(let q) = b {
            let d = p.elementsForDistance.enumerated().map { $0.element - q.elementsForDistance[$0.offset] }
            return d.reduce(0) { $0 + $1 * $1 }.squareRoot()
        }
        return a == b ? 0 : 1
    }
}

extension CATransform3D {
    fileprivate var elementsForDistance: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44].map { Double($0) }
    }
}
