// Paths for `Shape` nodes, as values of the declarative model: rectangles (rounded), ellipses,
// circles, polygons, lines, and any CGPath written as SVG path data — the template format's
// `{"roundedRect": [x, y, w, h], "cornerRadius": 12}`, `{"svg": "M0 0 L10 10 Z"}`, ….
import Foundation
import StrataCore

/// The outline a shape draws.
public struct ShapePath: Hashable, Sendable, PropertyValueConvertible {
    /// The path as the model stores it (a rectangle, circle, … or SVG path data).
    public let propertyValue: PropertyValue

    init(_ value: PropertyValue) { propertyValue = value }

    private static func nums(_ xs: [CGFloat]) -> PropertyValue { .array(xs.map { .number(Double($0)) }) }

    /// A rectangle (rounded when `cornerRadius` > 0).
    public static func rect(_ r: CGRect, cornerRadius: CGFloat = 0) -> ShapePath {
        var o: [String: PropertyValue] = ["rect": nums([r.minX, r.minY, r.width, r.height])]
        if cornerRadius > 0 { o["cornerRadius"] = .number(Double(cornerRadius)) }
        return ShapePath(.object(o))
    }

    /// A rectangle of `size` at the origin, rounded by `cornerRadius`.
    public static func roundedRect(_ r: CGRect, cornerRadius: CGFloat) -> ShapePath { rect(r, cornerRadius: cornerRadius) }

    /// The ellipse inscribed in `r`.
    public static func ellipse(in r: CGRect) -> ShapePath { ShapePath(.object(["ellipse": nums([r.minX, r.minY, r.width, r.height])])) }

    /// A circle.
    public static func circle(center: CGPoint, radius: CGFloat) -> ShapePath {
        ShapePath(.object(["circle": nums([center.x, center.y, radius])]))
    }

    /// Straight segments through `points`, closed back to the first unless `closed` is false.
    public static func polygon(_ points: [CGPoint], closed: Bool = true) -> ShapePath {
        ShapePath(.object(["polygon": .array(points.map(\.propertyValue)), "closed": .bool(closed)]))
    }

    /// A line segment.
    public static func line(from a: CGPoint, to b: CGPoint) -> ShapePath { polygon([a, b], closed: false) }

    /// A circular arc about `center` from `startAngle` to `endAngle` (clockwise on screen).
    public static func arc(center: CGPoint, radius: CGFloat, from startAngle: Angle, to endAngle: Angle) -> ShapePath {
        let p = CGMutablePath()
        p.addArc(center: center, radius: radius, startAngle: CGFloat(startAngle.radians), endAngle: CGFloat(endAngle.radians), clockwise: false)
        return path(p)
    }

    /// Any Core Graphics path (stored as SVG path data, exactly: coordinates are written in full).
    public static func path(_ p: CGPath) -> ShapePath { ShapePath(.object(["svg": .string(SVGPathData.string(for: p))])) }

    /// SVG path data (`M`, `L`, `H`, `V`, `C`, `S`, `Q`, `T`, `Z`, absolute or relative).
    public static func svg(_ data: String) -> ShapePath { ShapePath(.object(["svg": .string(data)])) }
}

/// SVG path data to and from CGPath.
enum SVGPathData {
    /// The path as SVG data with absolute commands (numbers in Swift's shortest exact form).
    static func string(for path: CGPath) -> String {
        func n(_ v: CGFloat) -> String {
            let d = Double(v)
            return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : "\(d)"
        }
        func p(_ pt: CGPoint) -> String { "\(n(pt.x)) \(n(pt.y))" }
        return path.elements.map { e -> String in
            switch e {
            case .moveToPoint(let a): "M\(p(a))"
            case .addLineToPoint(let a): "L\(p(a))"
            case .addQuadCurveToPoint(let c, let a): "Q\(p(c)) \(p(a))"
            case .addCurveToPoint(let c1, let c2, let a): "C\(p(c1)) \(p(c2)) \(p(a))"
            case .closeSubpath: "Z"
            }
        }.joined(separator: " ")
    }

    /// Parses SVG path data; throws a message naming the offending command.
    static func parse(_ data: String) throws -> CGPath {
        var tokens: [String] = []
        var current = ""
        func flush() { if !current.isEmpty { tokens.append(current); current = "" } }
        for ch in data {
            if ch.isLetter && ch != "e" && ch != "E" { flush(); tokens.append(String(ch)) }
            else if ch == "," || ch.isWhitespace { flush() }
            else if ch == "-", !current.isEmpty, !(current.last == "e" || current.last == "E") { flush(); current.append(ch) }
            else if ch == ".", current.contains("."), !current.contains("e") { flush(); current.append(ch) }
            else { current.append(ch) }
        }
        flush()
        let path = CGMutablePath()
        var i = 0, cmd: Character = "M"
        var pt = CGPoint.zero, start = CGPoint.zero, lastControl: CGPoint?, lastQuad: CGPoint?
        func number() throws -> CGFloat {
            guard i < tokens.count, let v = Double(tokens[i]) else {
                throw SVGError(message: "path data: expected a number after '\(cmd)' (item \(i + 1))")
            }
            i += 1
            return CGFloat(v)
        }
        func point(_ relative: Bool) throws -> CGPoint {
            let x = try number(), y = try number()
            return relative ? CGPoint(x: pt.x + x, y: pt.y + y) : CGPoint(x: x, y: y)
        }
        while i < tokens.count {
            if let c = tokens[i].first, tokens[i].count == 1, c.isLetter { cmd = c; i += 1 }
            let rel = cmd.isLowercase
            switch cmd.uppercased().first! {
            case "M":
                pt = try point(rel); start = pt; path.move(to: pt)
                cmd = rel ? "l" : "L"   // further pairs are lines
                lastControl = nil; lastQuad = nil
            case "L": pt = try point(rel); path.addLine(to: pt); lastControl = nil; lastQuad = nil
            case "H": let x = try number(); pt = CGPoint(x: rel ? pt.x + x : x, y: pt.y); path.addLine(to: pt); lastControl = nil; lastQuad = nil
            case "V": let y = try number(); pt = CGPoint(x: pt.x, y: rel ? pt.y + y : y); path.addLine(to: pt); lastControl = nil; lastQuad = nil
            case "C":
                let c1 = try point(rel), c2 = try point(rel), e = try point(rel)
                path.addCurve(to: e, control1: c1, control2: c2); pt = e; lastControl = c2; lastQuad = nil
            case "S":
                let c1 = lastControl.map { CGPoint(x: 2 * pt.x - $0.x, y: 2 * pt.y - $0.y) } ?? pt
                let c2 = try point(rel), e = try point(rel)
                path.addCurve(to: e, control1: c1, control2: c2); pt = e; lastControl = c2; lastQuad = nil
            case "Q":
                let c = try point(rel), e = try point(rel)
                path.addQuadCurve(to: e, control: c); pt = e; lastQuad = c; lastControl = nil
            case "T":
                let c = lastQuad.map { CGPoint(x: 2 * pt.x - $0.x, y: 2 * pt.y - $0.y) } ?? pt
                let e = try point(rel)
                path.addQuadCurve(to: e, control: c); pt = e; lastQuad = c; lastControl = nil
            case "Z":
                path.closeSubpath(); pt = start; lastControl = nil; lastQuad = nil
                if i < tokens.count, !(tokens[i].first?.isLetter ?? false) {
                    throw SVGError(message: "path data: a number after 'Z' (item \(i + 1)) needs a command")
                }
            default:
                throw SVGError(message: "path data: command '\(cmd)' is not supported (M L H V C S Q T Z)")
            }
        }
        return path
    }

    struct SVGError: Error { let message: String }
}
