// What a template (or a program) puts into a designer's Lottie before it is compiled: colours,
// images and texts, each found by name — a fill's or stroke's own name, a group's, a layer's —
// or by a slot id (`sid`, the Lottie slots spec). A key that names nothing in the file is an
// error listing the names that exist, never a silent no-op.
import Foundation
import Strata

/// Values that replace parts of a Lottie, each found by name or by slot id (`sid`).
///
/// - `colors`: by the name of a fill or stroke, of the group or layer holding it (every fill and
///   stroke inside), of a solid layer, or by the `sid` of a colour property.
/// - `images`: by an image asset's id, name, file name or `sid`, or by an image layer's name;
///   the value is an encoded PNG, JPEG or WebP.
/// - `texts`: by a text layer's name, or by the `sid` of its text document.
///
///     var fill = LottieReplacements()
///     fill.colors["Badge"] = CGColor(red: 0.9, green: 0.2, blue: 0.2, alpha: 1)
///     fill.texts["Title"] = "Ada Lovelace"
///     let layer = try LottieLayer(contentsOf: url, replacements: fill)
public struct LottieReplacements: Sendable {
    /// Colours by fill, stroke, group, layer or slot name.
    public var colors: [String: CGColor]
    /// Encoded images by asset id, name, file name or slot id, or by image layer name.
    public var images: [String: Data]
    /// Texts by text layer name or slot id.
    public var texts: [String: String]

    /// Replacements of colours, images and texts, each by name or slot id (none by default).
    public init(colors: [String: CGColor] = [:], images: [String: Data] = [:], texts: [String: String] = [:]) {
        self.colors = colors
        self.images = images
        self.texts = texts
    }

    /// Whether nothing is replaced.
    public var isEmpty: Bool { colors.isEmpty && images.isEmpty && texts.isEmpty }
}

/// The names a file offers for each kind of replacement, and the keys that were used.
struct ReplacementIndex {
    var colorNames: Set<String> = []
    var imageNames: Set<String> = []
    var textNames: Set<String> = []
    var used: Set<String> = []

    /// Throws for the first key of `replacements` that names nothing of its kind in the file.
    func check(_ replacements: LottieReplacements) throws {
        for (kind, keys, names) in [("colors", Array(replacements.colors.keys), colorNames),
                                    ("images", Array(replacements.images.keys), imageNames),
                                    ("texts", Array(replacements.texts.keys), textNames)] {
            for key in keys.sorted() where !names.contains(key) {
                let known = names.filter { !$0.isEmpty }.sorted()
                let list = known.isEmpty ? "the file has none" : "names: " + known.prefix(20).joined(separator: ", ") + (known.count > 20 ? ", …" : "")
                let what = ["colors": "fill, stroke, group, layer, solid or colour slot",
                            "images": "image asset, image layer or image slot", "texts": "text layer or text slot"][kind]!
                throw LottieError(path: "", "\(kind).\(key): no \(what) named '\(key)' (\(list))")
            }
        }
    }
}

extension CGColor {
    /// The colour as Lottie's [r, g, b, a] in 0…1.
    var lottieComponents: [Double] {
        let c = components ?? [0, 0, 0, 1]
        return c.count >= 4 ? [c[0], c[1], c[2], c[3]] : [c[0], c[0], c[0], c.count > 1 ? c[1] : 1]
    }
}
