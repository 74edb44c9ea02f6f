// Reading property values of the declarative model as the Swift values Core Animation takes:
// numbers, points ([x, y] or {x, y}), sizes, rectangles, colours ("#RRGGBB", names,
// "oklch(l c h)", [r, g, b, a]), transforms ({"rotation": …, "scale": …, "perspective": …} or
// {"matrix": [16 numbers]}), paths, choices. A value of the wrong shape throws an issue saying
// what was expected.
import Foundation
import StrataCore

/// What a property's values are.
enum ValueKind: Equatable, Sendable {
    case number, point, size, rect, color, colorList, numberList, transform, path, bool, string, time
    case choice([String])

    /// How templates write the values of a Core Animation property of `kind` (an array by its
    /// elements, a discrete text as a string); nil for what they cannot write (an image: an
    /// image layer names its file in `image`).
    init?(_ kind: AnimatableValue.Kind, elements: AnimatableValue.Kind?) {
        switch (kind, elements) {
        case (.number, _): self = .number
        case (.point, _): self = .point
        case (.size, _): self = .size
        case (.rect, _): self = .rect
        case (.color, _): self = .color
        case (.transform, _): self = .transform
        case (.path, _): self = .path
        case (.bool, _): self = .bool
        case (.discrete, _): self = .string
        case (.array, .color?): self = .colorList
        case (.array, .number?): self = .numberList
        case (.array, _), (.image, _): return nil
        }
    }

    /// "a number", "a point [x, y]", … for error messages.
    var expectation: String {
        switch self {
        case .number: "a number"
        case .point: "a point [x, y]"
        case .size: "a size [width, height]"
        case .rect: "a rectangle [x, y, width, height]"
        case .color: "a colour (\"#RRGGBB\", \"#RRGGBBAA\", a name, \"oklch(l c h)\" or [r, g, b, a] in 0…1)"
        case .colorList: "a list of colours"
        case .numberList: "a list of numbers"
        case .transform: "a transform ({\"rotation\": radians, \"scale\": s, \"translation\": [x, y], \"perspective\": d, …} or {\"matrix\": [16 numbers]})"
        case .path: "a path ({\"rect\": [x, y, w, h], \"cornerRadius\": r}, {\"ellipse\": […]}, {\"circle\": [cx, cy, r]}, {\"polygon\": [[x, y], …]} or {\"svg\": \"M0 0 L…\"})"
        case .bool: "true or false"
        case .string: "a string"
        case .time: "seconds (a number) or frames (\"12f\")"
        case .choice(let options): "one of " + options.map { "\"\($0)\"" }.joined(separator: ", ")
        }
    }
}

enum PropertyDecoding {
    struct Mismatch: Error { let expected: String }

    static func number(_ v: PropertyValue) throws -> CGFloat {
        guard let n = v.number, n.isFinite else { throw Mismatch(expected: ValueKind.number.expectation) }
        return CGFloat(n)
    }

    static func numbers(_ v: PropertyValue, count: Int, keys: [String], kind: ValueKind) throws -> [CGFloat] {
        if let ns = v.numbers, ns.count == count, ns.allSatisfy(\.isFinite) { return ns.map { CGFloat($0) } }
        if case .object(let o) = v, o.count == count {
            let ns = keys.compactMap { o[$0]?.number }
            if ns.count == count, ns.allSatisfy(\.isFinite) { return ns.map { CGFloat($0) } }
        }
        throw Mismatch(expected: kind.expectation)
    }

    static func point(_ v: PropertyValue) throws -> CGPoint {
        let n = try numbers(v, count: 2, keys: ["x", "y"], kind: .point)
        return CGPoint(x: n[0], y: n[1])
    }

    static func size(_ v: PropertyValue) throws -> CGSize {
        let n = try numbers(v, count: 2, keys: ["width", "height"], kind: .size)
        return CGSize(width: n[0], height: n[1])
    }

    static func rect(_ v: PropertyValue) throws -> CGRect {
        let n = try numbers(v, count: 4, keys: ["x", "y", "width", "height"], kind: .rect)
        return CGRect(x: n[0], y: n[1], width: n[2], height: n[3])
    }

    static func color(_ v: PropertyValue) throws -> Color {
        switch v {
        case .string(let s):
            let t = s.trimmingCharacters(in: .whitespaces).lowercased()
            if t.hasPrefix("#"), let c = Color(hex: t) { return c }
            if let c = Color.named[t] { return c }
            if t.hasPrefix("oklch("), t.hasSuffix(")") {
                let body = t.dropFirst(6).dropLast().replacingOccurrences(of: "/", with: " ")
                let parts = body.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
                if parts.count == 3 || parts.count == 4 {
                    return Color(oklch: parts[0], parts[1], parts[2], alpha: parts.count == 4 ? parts[3] : 1)
                }
            }
        case .array(let a):
            let ns = a.compactMap(\.number)
            if ns.count == a.count, ns.count == 3 || ns.count == 4, ns.allSatisfy({ $0.isFinite }) {
                return Color(red: ns[0], green: ns[1], blue: ns[2], alpha: ns.count == 4 ? ns[3] : 1)
            }
        default: break
        }
        throw Mismatch(expected: ValueKind.color.expectation)
    }

    static func colors(_ v: PropertyValue) throws -> [Color] {
        guard case .array(let a) = v else { throw Mismatch(expected: ValueKind.colorList.expectation) }
        return try a.map(color)
    }

    static func numberList(_ v: PropertyValue) throws -> [CGFloat] {
        guard let ns = v.numbers, ns.allSatisfy(\.isFinite) else { throw Mismatch(expected: ValueKind.numberList.expectation) }
        return ns.map { CGFloat($0) }
    }

    static func bool(_ v: PropertyValue) throws -> Bool {
        guard case .bool(let b) = v else { throw Mismatch(expected: ValueKind.bool.expectation) }
        return b
    }

    static func string(_ v: PropertyValue) throws -> String {
        guard case .string(let s) = v else { throw Mismatch(expected: ValueKind.string.expectation) }
        return s
    }

    static func choice(_ v: PropertyValue, _ options: [String]) throws -> String {
        guard case .string(let s) = v, options.contains(s) else { throw Mismatch(expected: ValueKind.choice(options).expectation) }
        return s
    }

    static func time(_ v: PropertyValue, fps: Double) throws -> Double {
        switch v {
        case .number(let n) where n.isFinite: return n
        case .string, .array:
            if let data = try? JSONEncoder().encode(v), let t = try? JSONDecoder().decode(TimeValue.self, from: data) {
                return t.seconds(at: fps)
            }
        default: break
        }
        throw Mismatch(expected: ValueKind.time.expectation)
    }

    /// A transform: a matrix, or parts applied in the order scale, rotations (x, y, 3D, z),
    /// perspective, translation.
    static func transform(_ v: PropertyValue) throws -> CATransform3D {
        guard case .object(let o) = v else { throw Mismatch(expected: ValueKind.transform.expectation) }
        if let m = o["matrix"] {
            guard let ns = m.numbers, ns.count == 16 else { throw Mismatch(expected: "a matrix of 16 numbers (m11 … m44, row by row)") }
            var t = CATransform3DIdentity
            (t.m11, t.m12, t.m13, t.m14) = (CGFloat(ns[0]), CGFloat(ns[1]), CGFloat(ns[2]), CGFloat(ns[3]))
            (t.m21, t.m22, t.m23, t.m24) = (CGFloat(ns[4]), CGFloat(ns[5]), CGFloat(ns[6]), CGFloat(ns[7]))
            (t.m31, t.m32, t.m33, t.m34) = (CGFloat(ns[8]), CGFloat(ns[9]), CGFloat(ns[10]), CGFloat(ns[11]))
            (t.m41, t.m42, t.m43, t.m44) = (CGFloat(ns[12]), CGFloat(ns[13]), CGFloat(ns[14]), CGFloat(ns[15]))
            return t
        }
        let known: Set<String> = ["scale", "rotation", "rotationX", "rotationY", "rotationZ", "rotation3D", "perspective", "translation"]
        if let unknown = o.keys.sorted().first(where: { !known.contains($0) }) {
            throw Mismatch(expected: "transform parts (\(known.sorted().joined(separator: ", "))), not \"\(unknown)\"")
        }
        var t = CATransform3DIdentity
        if let s = o["scale"] {
            if let n = s.number { t = CATransform3DMakeScale(CGFloat(n), CGFloat(n), 1) }
            else if let ns = s.numbers, ns.count == 2 || ns.count == 3 {
                t = CATransform3DMakeScale(CGFloat(ns[0]), CGFloat(ns[1]), ns.count == 3 ? CGFloat(ns[2]) : 1)
            } else { throw Mismatch(expected: "scale as a number or [sx, sy(, sz)]") }
        }
        func angle(_ key: String) throws -> CGFloat? {
            guard let a = o[key] else { return nil }
            return try number(a)
        }
        if let a = try angle("rotationX") { t = t.concatenating(CATransform3DMakeRotation(a, 1, 0, 0)) }
        if let a = try angle("rotationY") { t = t.concatenating(CATransform3DMakeRotation(a, 0, 1, 0)) }
        if case .object(let r)? = o["rotation3D"] {
            guard let a = r["angle"]?.number, let axis = r["axis"]?.numbers, axis.count == 3 else {
                throw Mismatch(expected: "rotation3D as {\"angle\": radians, \"axis\": [x, y, z]}")
            }
            t = t.concatenating(CATransform3DMakeRotation(CGFloat(a), CGFloat(axis[0]), CGFloat(axis[1]), CGFloat(axis[2])))
        }
        if let a = try angle("rotation") ?? angle("rotationZ") { t = t.concatenating(CATransform3DMakeRotation(a, 0, 0, 1)) }
        if let d = o["perspective"] {
            let distance = try number(d)
            guard distance > 0 else { throw Mismatch(expected: "a perspective distance > 0") }
            var p = CATransform3DIdentity
            p.m34 = -1 / distance
            t = t.concatenating(p)
        }
        if let tr = o["translation"] {
            guard let ns = tr.numbers, ns.count == 2 || ns.count == 3 else { throw Mismatch(expected: "translation as [x, y(, z)]") }
            t = t.concatenating(CATransform3DMakeTranslation(CGFloat(ns[0]), CGFloat(ns[1]), ns.count == 3 ? CGFloat(ns[2]) : 0))
        }
        return t
    }

    static func path(_ v: PropertyValue) throws -> CGPath {
        guard case .object(let o) = v else { throw Mismatch(expected: ValueKind.path.expectation) }
        if let r = o["rect"] {
            let rect = try self.rect(r)
            let radius = try o["cornerRadius"].map(number) ?? 0
            return radius > 0 ? CGPath(roundedRect: rect, cornerWidth: min(radius, rect.width / 2), cornerHeight: min(radius, rect.height / 2), transform: nil)
                              : CGPath(rect: rect, transform: nil)
        }
        if let e = o["ellipse"] { return CGPath(ellipseIn: try rect(e), transform: nil) }
        if let c = o["circle"] {
            let n = try numbers(c, count: 3, keys: ["x", "y", "radius"], kind: .path)
            return CGPath(ellipseIn: CGRect(x: n[0] - n[2], y: n[1] - n[2], width: 2 * n[2], height: 2 * n[2]), transform: nil)
        }
        if case .array(let pts)? = o["polygon"] {
            let points = try pts.map(point)
            let p = CGMutablePath()
            if let first = points.first {
                p.move(to: first)
                for q in points.dropFirst() { p.addLine(to: q) }
                if (try o["closed"].map(bool)) ?? true { p.closeSubpath() }
            }
            return p
        }
        if case .string(let d)? = o["svg"] {
            do { return try SVGPathData.parse(d) } catch let e as SVGPathData.SVGError { throw Mismatch(expected: e.message) }
        }
        throw Mismatch(expected: ValueKind.path.expectation)
    }

    /// `v`, checked to be of `kind`, as the value a layer property of that kind stores.
    static func animatable(_ v: PropertyValue, as kind: ValueKind) throws -> AnimatableValue {
        switch kind {
        case .colorList: return .array(try colors(v).map { .color($0.cgColor) })
        case .numberList: return .array(try numberList(v).map { .number($0) })
        case .string: return .discrete(DiscreteBox(try string(v)))
        case .number: return .number(try number(v))
        case .point: return .point(try point(v))
        case .size: return .size(try size(v))
        case .rect: return .rect(try rect(v))
        case .color: return .color(try color(v).cgColor)
        case .transform: return .transform(try transform(v))
        case .path: return .path(try path(v))
        case .bool: return .bool(try bool(v))
        case .time, .choice: throw Mismatch(expected: "a value a layer property stores")
        }
    }

    /// `v` as an animatable value of `kind` (what an animation of a property of that kind takes).
    static func animatable(_ v: PropertyValue, kind: AnimatableValue.Kind) throws -> AnimatableValue {
        switch kind {
        case .array:
            guard case .array(let items) = v else { throw Mismatch(expected: "a list") }
            if items.allSatisfy({ $0.number != nil }) { return .array(items.map { .number(CGFloat($0.number!)) }) }
            return .array(try items.map { .color(try color($0).cgColor) })
        case .discrete:
            // A text layer's `string` (discretely animatable in Strata): a text, or a number
            // written as the model writes it ("2015", not "2015.0").
            switch v {
            case .string(let s): return .discrete(DiscreteBox(s))
            case .number: return .discrete(DiscreteBox(v.description))
            default: throw Mismatch(expected: "a text")
            }
        default:
            guard let single = ValueKind(kind, elements: nil) else { throw Mismatch(expected: "a value this property can animate to") }
            return try animatable(v, as: single)
        }
    }
}
