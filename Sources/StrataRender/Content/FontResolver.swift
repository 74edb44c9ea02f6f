// Font names as ported code gives them → Pango font descriptions that fontconfig resolves.
//
// Accepted forms: a family ("DejaVu Sans"), a family with style words ("DejaVu Sans Bold
// Oblique", as Pango writes them), or a PostScript name ("Helvetica-BoldOblique", "ArialMT",
// ".SFUI-Semibold"). The family is handed to fontconfig followed by a generic family chosen by
// the table below, so a name that is not installed falls back to a face of the same kind:
//
//   sans-serif  Helvetica, Helvetica Neue, Arial, .SFUI…/SF Pro/San Francisco/System, Avenir,
//               Verdana, Tahoma, Trebuchet MS, Lucida Grande, Segoe UI, Gill Sans, Futura,
//               Optima, PingFang…, Hiragino Sans…, Apple SD Gothic Neo, Roboto, Open Sans,
//               and any name not listed
//   serif       Times, Times New Roman, Georgia, Palatino, Baskerville, Didot, Garamond, Bodoni…,
//               Charter, Cochin, Hoefler Text, New York, American Typewriter, Songti…, STSong,
//               Hiragino Mincho…
//   monospace   Courier, Courier New, Menlo, Monaco, SF Mono/.SFMono…, Andale Mono, Consolas,
//               Lucida Console
//
// On the Debian image (fonts-dejavu-core) these land on DejaVu Sans, DejaVu Serif and DejaVu
// Sans Mono; characters a face lacks (CJK, …) fall back per character through fontconfig
// (fonts-wqy-microhei supplies CJK).
import Foundation
import Synchronization
import CCairo
import StrataCore

/// Maps font names to Pango font descriptions.
enum FontResolver {
    /// A parsed font name.
    struct Parsed: Equatable {
        var family: String
        var generic: String
        var weight: Int32 = 400
        var italic = false
        var oblique = false
        var stretch: Int32 = 4   // PANGO_STRETCH_NORMAL
        /// The comma-separated family list handed to Pango.
        var familyList: String { family.isEmpty || family == generic ? generic : "\(family),\(generic)" }
    }

    /// What a style word sets.
    enum StyleWord: Sendable {
        case weight(Int32), italic, oblique, stretch(Int32), plain

        func apply(to p: inout Parsed) {
            switch self {
            case .weight(let w): p.weight = w
            case .italic: p.italic = true
            case .oblique: p.oblique = true
            case .stretch(let s): p.stretch = s
            case .plain: break
            }
        }
    }

    /// Style words (lower case) and what they set (weights as CSS/Pango numbers).
    private static let styleWords: [String: StyleWord] = [
        "thin": .weight(100), "hairline": .weight(100), "ultralight": .weight(200), "extralight": .weight(200),
        "light": .weight(300), "regular": .plain, "normal": .plain, "book": .plain, "roman": .plain,
        "plain": .plain, "medium": .weight(500), "semibold": .weight(600), "demibold": .weight(600),
        "demi": .weight(600), "bold": .weight(700), "extrabold": .weight(800), "ultrabold": .weight(800),
        "heavy": .weight(800), "black": .weight(900), "italic": .italic, "oblique": .oblique,
        "condensed": .stretch(2), "semicondensed": .stretch(3), "expanded": .stretch(6),
    ]

    /// Keys (lower case, no blanks) of Apple and common families, by generic family; a key
    /// ending in `*` matches any name starting with it.
    private static let genericTable: [(generic: String, keys: [String])] = [
        ("monospace", ["courier", "couriernew", "menlo", "monaco", "sfmono*", ".sfmono*", "andalemono",
                       "consolas", "lucidaconsole", "monospace", "mono"]),
        ("serif", ["times", "timesnewroman", "georgia", "palatino", "baskerville", "didot", "garamond", "bodoni*",
                   "charter", "cochin", "hoeflertext", "newyork", ".newyork*", "americantypewriter", "songti*",
                   "stsong", "hiraginomincho*", "serif"]),
        ("sans-serif", ["helvetica", "helveticaneue", "arial", ".sfui*", "sfpro*", "sanfrancisco", "system",
                        "systemfont", "system-ui", "avenir*", "verdana", "tahoma", "trebuchetms", "lucidagrande",
                        "segoeui", "gillsans", "futura", "optima", "pingfang*", "hiraginosans*", "hiraginokaku*",
                        "applesdgothicneo", "roboto", "opensans", "sans-serif", "sans"]),
    ]

    /// Whether `key` (a family lower-cased without blanks) is one of the table's names.
    static func isKnownAlias(_ key: String) -> Bool {
        genericTable.contains { entry in entry.keys.contains { k in k.hasSuffix("*") ? key.hasPrefix(k.dropLast()) : key == k } }
    }

    /// The generic family for a family name (sans-serif when unknown).
    static func generic(forFamily family: String) -> String {
        let key = family.lowercased().filter { $0 != " " }
        for (generic, keys) in genericTable {
            for k in keys {
                if k.hasSuffix("*") ? key.hasPrefix(k.dropLast()) : key == k { return generic }
            }
        }
        return "sans-serif"
    }

    /// Splits a name into family, weight, slant and stretch.
    static func parse(_ rawName: String) -> Parsed {
        var name = rawName.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { name = "Helvetica" }
        var p = Parsed(family: name, generic: "sans-serif")
        if let dash = name.lastIndex(of: "-"), !name[name.index(after: dash)...].contains(" "),
           dash != name.startIndex, let styles = camelWords(String(name[name.index(after: dash)...])) {
            // PostScript form: Family-StyleWords.
            p.family = String(name[..<dash])
            for w in styles { styleWords[w]?.apply(to: &p) }
        } else {
            // "Family Style Style": peel style words off the end, keeping one word of family.
            var words = name.split(separator: " ").map(String.init)
            // ("Roman" only counts in PostScript names: "Times New Roman" is a family.)
            while words.count > 1, words.last!.lowercased() != "roman", let f = styleWords[words.last!.lowercased()] {
                f.apply(to: &p)
                words.removeLast()
            }
            p.family = words.joined(separator: " ")
        }
        // PostScript suffixes of Monotype / Adobe names: "ArialMT", "TimesNewRomanPSMT".
        for suffix in ["PSMT", "MT", "PS"] where p.family.hasSuffix(suffix) && p.family.count > suffix.count + 2 {
            p.family.removeLast(suffix.count)
            break
        }
        p.generic = generic(forFamily: p.family)
        if ["sans-serif", "sans", "serif", "monospace", "mono", "system-ui"].contains(p.family.lowercased()) {
            p.family = p.generic
        }
        return p
    }

    /// "BoldItalicMT" → ["bold", "italic"]; nil when a part is not a style word.
    private static func camelWords(_ s: String) -> [String]? {
        var text = s
        for suffix in ["PSMT", "MT", "PS"] where text.hasSuffix(suffix) && text.count > suffix.count {
            text.removeLast(suffix.count)
            break
        }
        var words: [String] = []
        var current = ""
        for ch in text {
            if ch.isUppercase, !current.isEmpty { words.append(current.lowercased()); current = "" }
            current.append(ch)
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        // Join split compounds ("Semi"+"bold" arrive as one word; "Ultra"+"Light" as two).
        var merged: [String] = []
        var i = 0
        while i < words.count {
            if i + 1 < words.count, styleWords[words[i] + words[i + 1]] != nil {
                merged.append(words[i] + words[i + 1]); i += 2
            } else {
                merged.append(words[i]); i += 1
            }
        }
        guard !merged.isEmpty, merged.allSatisfy({ styleWords[$0] != nil }) else { return nil }
        return merged
    }

    /// Names parsed before (at most `parsedLimit`; emptied when full): parsing a name — lower
    /// casing, splitting, the tables — cost ≈ 75 k instructions, and a text layer is laid out
    /// again, with its font's description, whenever its text changes.
    private static let parsedNames = Mutex([String: Parsed]())
    private static let parsedLimit = 256

    /// `parse(name)`, remembered.
    static func parsedRemembered(_ name: String) -> Parsed {
        if let known = parsedNames.withCheckedLock({ $0[name] }) { return known }
        let p = parse(name)
        parsedNames.withCheckedLock { names in
            if names.count >= parsedLimit { names.removeAll(keepingCapacity: true) }
            names[name] = p
        }
        return p
    }

    /// A new Pango font description for `name` at an absolute `size` in points (caller frees
    /// it with `pango_font_description_free`).
    static func description(for name: String, size: CGFloat) -> OpaquePointer {
        let p = parsedRemembered(name)
        let desc = pango_font_description_new()!
        pango_font_description_set_family(desc, p.familyList)
        pango_font_description_set_weight(desc, PangoWeight(rawValue: UInt32(p.weight)))
        pango_font_description_set_style(desc, p.italic ? PANGO_STYLE_ITALIC : p.oblique ? PANGO_STYLE_OBLIQUE : PANGO_STYLE_NORMAL)
        pango_font_description_set_stretch(desc, PangoStretch(rawValue: UInt32(p.stretch)))
        // NaN → 0; +∞ and sizes Pango cannot hold (it asserts and draws nothing) → the largest drawn.
        let s = size.isNaN ? 0 : min(max(size, 0), CATextLayer.maximumFontSize)
        pango_font_description_set_absolute_size(desc, Double(s) * Double(PANGO_SCALE))
        return desc
    }
}

/// Which font families are installed, and whether a font name asks for one that is not.
/// Apple's and other common names of the table above (Helvetica, Menlo, Times …) and the generic
/// names count as known: they map on purpose to an installed face of the same kind.
public enum FontAvailability {
    /// The families fontconfig knows, through Pango (sorted, each once).
    public static var installedFamilies: [String] {
        PangoEngine.shared.withContext { h in
            var list: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
            var count: Int32 = 0
            pango_font_map_list_families(h.fontMap, &list, &count)
            defer { g_free(list) }
            guard let list else { return [] }
            var names = Set<String>()
            for i in 0..<Int(count) {
                if let family = list[i], let name = pango_font_family_get_name(family) { names.insert(String(cString: name)) }
            }
            return names.sorted()
        }
    }

    /// The family `name` asks for ("Helvetca" of "Helvetca Bold") when no installed family has
    /// that name and it is not a known platform or generic name; nil when the font is there.
    public static func missingFamily(inFontName name: String) -> String? {
        let p = FontResolver.parse(name)
        let key = p.family.lowercased().filter { $0 != " " }
        if p.family == p.generic { return nil }
        if FontResolver.isKnownAlias(key) { return nil }
        // Blanks ignored: PostScript names run the words together ("DejaVuSans-Bold").
        return installedKeys.contains(key) ? nil : p.family
    }

    /// At most `count` installed families whose names are closest to `family` (fewest edits,
    /// case ignored; ties by name).
    public static func closestInstalledFamilies(to family: String, count: Int = 3) -> [String] {
        let target = Array(family.lowercased())
        // fontconfig's generic aliases (Sans, Serif, Monospace, System-ui) are not families to suggest.
        let generic: Set<String> = ["sans", "sans-serif", "serif", "monospace", "mono", "system-ui", "cursive", "fantasy", "emoji", "math"]
        return installed.filter { !generic.contains($0.lowercased()) }.map { (name: $0, distance: editDistance(Array($0.lowercased()), target)) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
            .prefix(count).map(\.name)
    }

    /// The installed families, listed once per process (fontconfig's list does not change
    /// while a render runs).
    private static let installed: [String] = installedFamilies
    private static let installedKeys = Set(installed.map { $0.lowercased().filter { $0 != " " } })

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
