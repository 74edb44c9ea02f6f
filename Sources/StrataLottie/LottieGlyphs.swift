// Glyph outlines embedded in the file (`chars`): each character's advance (`w`) and outline
// (`data.shapes`: groups of paths, as a shape layer's, in a 100-unit em with the baseline at
// y = 0 and y growing down) for one font family (`fFamily`) and style (`style`). A text document
// whose every character has a glyph for its font's family and style is drawn from them
// (LottieText+Glyphs.swift); the `size` of an entry is ignored, as lottie-web ignores it.
//
// Only paths (`sh`) inside groups (`gr`) make an outline, as exporters write glyphs (a group
// transform that moves nothing is allowed); any other item is reported and left out, an
// animated path draws its first keyframe. Entries read after
// one for the same character, family and style are ignored (lottie-web takes the first).
import Foundation
import Strata

/// One embedded glyph: its advance and outline in a 100-unit em.
struct LottieGlyph {
    /// The advance (`w`), hundredths of the font size.
    var advance: Double
    /// The outline's contours, in em units (100 to the font size), the baseline at y = 0.
    var contours: [LottieBezier]

    /// The outline at `size` points, its origin on the baseline at `origin`.
    func path(size: Double, at origin: CGPoint = .zero) -> CGPath {
        let path = CGMutablePath()
        let scale = size / 100
        let t = CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: origin.x, ty: origin.y)
        for c in contours { c.add(to: path, transform: t) }
        return path
    }
}

/// The file's embedded glyphs by font family, style and character.
struct LottieGlyphTable {
    private var glyphs: [String: LottieGlyph] = [:]

    /// Whether the file embeds no glyphs.
    var isEmpty: Bool { glyphs.isEmpty }

    private static func key(_ character: String, family: String, style: String) -> String {
        "\(family)\u{0}\(style)\u{0}\(character)"
    }

    /// The glyph of `character` in `family` and `style`, if the file has one.
    func glyph(_ character: Character, family: String, style: String) -> LottieGlyph? {
        glyphs[Self.key(String(character), family: family, style: style)]
    }

    /// The glyphs of every character of `text` but its line breaks, or nil when one has none.
    func glyphs(for text: String, family: String, style: String) -> [Character: LottieGlyph]? {
        var out: [Character: LottieGlyph] = [:]
        for c in text where !LottieCompiler.isLineBreak(c) && out[c] == nil {
            guard let g = glyph(c, family: family, style: style) else { return nil }
            out[c] = g
        }
        return out
    }

    /// Reads the `chars` array; its contours count towards `limits.sampledPathPoints`.
    static func parse(_ chars: JSONNode, limits: LottieLimits, notes: inout LottieNotes) throws -> LottieGlyphTable {
        var table = LottieGlyphTable()
        let entries = try chars.elements()
        guard entries.count <= limits.textCharacters else {
            throw chars.error("\(entries.count) embedded glyphs, over the limit of \(limits.textCharacters)")
        }
        var points = 0
        for e in entries {
            guard e.isObject else { throw e.error("expected a glyph object") }
            let ch = try e.required("ch").string()
            let family = try e.string("fFamily") ?? "", style = try e.string("style") ?? ""
            let w = try e.required("w").number()
            guard w >= 0 && w <= 100_000 else { throw LottieError(path: e.path + ".w", "\(w) is not an advance in 0…100000") }
            var contours: [LottieBezier] = []
            // No `data` (as a space often has) or no shapes: a glyph without ink.
            if let data = try e.optional("data") {
                guard data.isObject else { throw data.error("expected an object with the glyph's shapes") }
                if let shapes = try data.optional("shapes") {
                    try collect(shapes, into: &contours, points: &points, limits: limits, notes: &notes)
                }
            }
            let key = Self.key(ch, family: family, style: style)
            if table.glyphs[key] == nil { table.glyphs[key] = LottieGlyph(advance: w, contours: contours) }
        }
        return table
    }

    /// Whether a group transform (`tr`) leaves its paths where they are: fixed values, the
    /// position equal to the anchor, scale 100 %, no rotation or skew.
    private static func isIdentity(_ tr: JSONNode) throws -> Bool {
        func fixed(_ key: String, _ expected: [Double]?) throws -> [Double]? {
            guard let p = try tr.optional(key) else { return expected }
            guard p.isObject, let k = try p.optional("k"), let v = try? k.numbers(), !v.isEmpty else { return nil }
            return v
        }
        let a = try fixed("a", [0, 0]), p = try fixed("p", [0, 0])
        guard let a, let p, Array(a.prefix(2)) == Array(p.prefix(2)) else { return false }
        guard let s = try fixed("s", [100, 100]), s.prefix(2).allSatisfy({ $0 == 100 }) else { return false }
        for key in ["r", "sk"] { guard let v = try fixed(key, [0]), v.allSatisfy({ $0 == 0 }) else { return false } }
        return true
    }

    /// A glyph's shape items (an array): the paths of its groups, in order.
    private static func collect(_ items: JSONNode, into contours: inout [LottieBezier], points: inout Int,
                                limits: LottieLimits, notes: inout LottieNotes) throws {
        for item in try items.elements() {
            guard item.isObject else { throw item.error("expected a shape item object") }
            let type = try item.string("ty") ?? ""
            switch type {
            case "gr":
                if let it = try item.optional("it") { try collect(it, into: &contours, points: &points, limits: limits, notes: &notes) }
            case "sh":
                let ks = try item.required("ks")
                var k = try ks.required("k")
                if k.isArray {
                    // Animated: the first keyframe's path.
                    notes.add(ks.path, "animated glyph path (its first keyframe is drawn)")
                    guard let first = try k.elements().first else { throw k.error("expected at least one keyframe") }
                    let s = try first.required("s")
                    k = s.isArray ? (try s.elements().first ?? s) : s
                }
                let b = try LottieBezier.parse(k)
                points += b.vertices.count
                guard points <= limits.sampledPathPoints else {
                    throw k.error("more than \(limits.sampledPathPoints) glyph points in all, over the path point limit")
                }
                guard (b.vertices + b.inTangents + b.outTangents).allSatisfy({ abs($0.x) <= 1_000_000 && abs($0.y) <= 1_000_000 }) else {
                    throw k.error("glyph points beyond ±1000000 em units")
                }
                contours.append(b)
            case "tr" where try isIdentity(item):
                break   // a group's transform that moves nothing, as some exporters write one
            default:
                notes.add(item.path, "glyph shape item '\(type)' (only groups and paths make a glyph; left out)")
            }
        }
    }
}
