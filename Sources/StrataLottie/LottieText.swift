// Text layers: the document (`t.d`: text, font, size, justification, tracking, line height,
// fill and stroke colours, box) drawn with Strata's text stack — a CATextLayer a line, its baseline where
// the spec puts it, its font the one fontconfig picks for the document's family and style. Each
// document shows from its keyframe until the next. A text replacement (by layer name or the
// document's slot id) changes the characters and keeps the style.
//
// A stroke around the letters draws the glyphs' outlines (TextMetrics.outline) as shapes. Text
// with animators (`t.a`, LottieTextAnimator.swift) is drawn a layer a character instead
// (LottieText+Animators.swift). A document whose every character has a glyph embedded in the
// file (`chars`) is drawn from those outlines instead (LottieText+Glyphs.swift). Text on a path
// (`t.p`) is drawn a layer a character too, each placed along the mask's path.
import Foundation
import Strata

extension LayerParser {
    /// Reads a text layer's documents.
    mutating func text(_ l: JSONNode, name: String) throws -> LottieText {
        let t = try l.required("t")
        index.textNames.insert(name)
        index.colorNames.insert(name)
        var d = try t.required("d")
        var sid: String?
        if d.isObject, let s = try d.string("sid") {
            sid = s
            index.textNames.insert(s)
            if let slot = slots[s] { d = try slot.required("p") }
        }
        let replacement = replacements.texts[name] ?? sid.flatMap { replacements.texts[$0] }
        let fill = replacements.colors[name].map(\.lottieComponents)
        let animators = try t.optional("a").map { try textAnimators($0) } ?? []
        var alignment = [0.0, 0.0]
        if !animators.isEmpty, let m = try t.optional("m"), m.isObject {
            if let g = try m.optional("g"), g.isNumber, JSONNode.clampedInt(try g.number()) != 1 {
                notes.add(g.path, "anchor point grouping \(JSONNode.clampedInt(try g.number())) (characters are used)")
            }
            if let a = try m.optional("a") {
                let v = try a.vectorValue()
                if v.isAnimated { notes.add(a.path, "animated grouping alignment (its first value is used)") }
                guard v.initial.count >= 2, v.initial.allSatisfy({ abs($0) <= 1_000_000 }) else { throw a.error("expected [x, y] within ±1000000") }
                alignment = Array(v.initial.prefix(2))
            }
        }
        var textPath: LottieTextPath?
        if let p = try t.optional("p"), p.isObject, let m = try p.optional("m"), m.isNumber {
            // A switch (p, a, r) is its first value; an animated one is noted.
            func flag(_ key: String, _ what: String) throws -> Bool {
                guard let v = try prop(p, key) else { return false }
                if v.isAnimated { notes.add(p.path + "." + key, "animated \(what) of text on a path (its first value is used)") }
                return (v.initial.first ?? 0) != 0
            }
            textPath = LottieTextPath(mask: JSONNode.clampedInt(try m.number()), firstMargin: try prop(p, "f") ?? .fixed([0]),
                                      perpendicular: try flag("p", "perpendicularity"), forceAlignment: try flag("a", "force alignment"),
                                      reversed: try flag("r", "reversal"))
            if let l = try prop(p, "l"), l.isAnimated || l.hasNonZero(dimension: 0) {
                notes.add(p.path + ".l", "last margin of text on a path (not used, as lottie-web does not use it)")
            }
        }
        var documents: [(time: Double, document: LottieTextDocument)] = []
        let k = try d.required("k")
        let frames: [JSONNode] = k.isArray ? try k.elements() : [JSONNode(value: ["s": k.value, "t": 0], path: k.path)]
        guard !frames.isEmpty else { throw k.error("expected at least one text document") }
        guard frames.count <= 10_000 else { throw k.error("\(frames.count) text documents, over the limit of 10000") }
        for f in frames {
            let time = try f.number("t", default: 0)
            if let last = documents.last, time < last.time {
                throw f.error("keyframe time \(time) comes before the previous keyframe's \(last.time)")
            }
            let node = try f.required("s")
            var doc = try document(node)
            if let replacement {
                doc.text = replacement
                doc.glyphs = embeddedGlyphs(doc.text, fontName: try node.string("f") ?? "", path: node.path + ".t")
            }
            textCharacters += doc.text.unicodeScalars.count
            guard textCharacters <= limits.textCharacters else {
                throw LottieError(path: node.path + ".t", "more than \(limits.textCharacters) characters of text in all, over the limit")
            }
            if let fill { doc.fill = fill }
            documents.append((time, doc))
        }
        // An expression on the document (After Effects' Source Text) makes its text at each frame,
        // once the other layers are read (LottieAnimation+TextExpressions.swift); a replacement
        // of the layer's text wins over it.
        if let x = try d.optional("x"), let source = try? x.string() {
            if replacement != nil {
                notes.add(x.path, "expression on a text: not run, as the text is replaced")
            } else {
                do {
                    textScripts[d.path] = try LottieScript.parse(source, seed: d.path)
                } catch let error as LottieScriptError {
                    notes.add(x.path, "expression on a text: \(error.message) (the document's text is used instead)")
                }
            }
        }
        return LottieText(documents: documents, animators: animators, alignment: alignment, path: textPath)
    }

    /// One text document (`{"t": "Hello", "f": "Roboto-Bold", "s": 36, …}`).
    mutating func document(_ s: JSONNode) throws -> LottieTextDocument {
        guard s.isObject else { throw s.error("expected a text document object") }
        let text = try s.string("t") ?? ""
        let fontName = try s.string("f") ?? ""
        let size = try s.number("s", default: 10)
        guard size > 0 && size <= 10_000 else { throw LottieError(path: s.path + ".s", "\(size) is not a font size in (0, 10000]") }
        func colour(_ key: String) throws -> [Double]? {
            guard let n = try s.optional(key) else { return nil }
            let v = try n.numbers()
            guard v.count >= 3 else { throw n.error("expected a colour [r, g, b]") }
            return v
        }
        func pair(_ key: String) throws -> [Double]? {
            guard let n = try s.optional(key) else { return nil }
            let v = try n.numbers()
            guard v.count >= 2, v.allSatisfy({ abs($0) <= 1_000_000 }) else { throw n.error("expected [x, y] within ±1000000") }
            return v
        }
        let justify = JSONNode.clampedInt(try s.number("j", default: 0))
        if justify >= 3 && justify <= 6 { notes.add(s.path + ".j", "justified text (drawn aligned to one side)") }
        let stroke = try colour("sc"), strokeWidth = try s.number("sw", default: 0)
        guard strokeWidth >= 0 && strokeWidth <= 10_000 else { throw LottieError(path: s.path + ".sw", "\(strokeWidth) is not a stroke width in 0…10000") }
        if !fontName.isEmpty, !fonts.isEmpty, fonts[fontName] == nil {
            notes.add(s.path + ".f", "font '\(fontName)' is not in the file's font list (used as a font name)")
        }
        let font = fonts[fontName] ?? (fontName.isEmpty ? "Sans" : fontName)
        let glyphs = embeddedGlyphs(text, fontName: fontName, path: s.path + ".t")
        // A family that is not installed is drawn in the one fontconfig picks instead: said once.
        let family = fontFamilies[fontName] ?? font
        let resolved = glyphs != nil ? "" : TextMetrics.resolvedFamily(forFontName: font)
        if !family.isEmpty, !resolved.isEmpty, resolved.lowercased() != family.lowercased() {
            notes.add("fonts", "font '\(family)' is not installed (drawn in \(resolved))")
        }
        let tracking = try s.number("tr", default: 0), lineHeight = try s.number("lh", default: size * 1.2)
        let shift = try s.number("ls", default: 0)
        for (key, v) in [("tr", tracking), ("lh", lineHeight), ("ls", shift)] where abs(v) > 1_000_000 {
            throw LottieError(path: s.path + "." + key, "\(v) is outside ±1000000")
        }
        return LottieTextDocument(text: text, font: font, size: size,
                                  justify: justify, tracking: tracking, lineHeight: lineHeight, baselineShift: shift,
                                  fill: try colour("fc"), stroke: stroke, strokeWidth: strokeWidth,
                                  strokeOverFill: try s.bool("of"), boxPosition: try pair("ps"), boxSize: try pair("sz"),
                                  glyphs: glyphs, ascent: fontAscents[fontName], fontName: fontName)
    }

    /// The embedded glyphs of every character of `text` in the font named `fontName` (its
    /// family and style from the font list), or nil: reported when the file has glyphs but
    /// not for all of them.
    mutating func embeddedGlyphs(_ text: String, fontName: String, path: String) -> [Character: LottieGlyph]? {
        guard !glyphs.isEmpty else { return nil }
        if let family = fontFamilies[fontName],
           let found = glyphs.glyphs(for: text, family: family, style: fontStyles[fontName] ?? "") {
            return found
        }
        notes.add(path, "characters without an embedded glyph in font '\(fontName)' (the installed font draws this text)")
        return nil
    }
}

extension LottieCompiler {
    /// A text layer's documents, each a group of line layers shown from its keyframe to the next.
    func compileText(_ text: LottieText, into content: CALayer, _ time: LottieTime, path: String, masks: [LottieMask]) throws {
        let docs = text.documents
        // Text on a path: the mask it names, else (an index no mask has) on its lines, noted.
        var along: (LottieTextPath, LottieMask)?
        if let p = text.path {
            if p.mask >= 0, p.mask < masks.count { along = (p, masks[p.mask]) } else {
                notes.add(path + ".t.p.m", "text on a path: no mask \(p.mask) (drawn on its lines)")
            }
        }
        // The first document shows from before the layer's frames, the last until after them.
        let lo = min(time.range.lowerBound, docs[0].time) - 1, hi = max(time.range.upperBound, docs[docs.count - 1].time) + 1
        for (i, entry) in docs.enumerated() {
            let group = node()
            if text.animators.isEmpty, along == nil, entry.document.glyphs != nil {
                for glyph in try glyphLayers(entry.document, path: path + ".t.d") { group.addSublayer(glyph) }
            } else if text.animators.isEmpty, along == nil {
                for line in try lineLayers(entry.document, path: path + ".t.d") { group.addSublayer(line) }
            } else {
                try animatedCharacters(entry.document, text, into: group, time, path: path, along: along)
            }
            if docs.count > 1 {
                let end = i + 1 < docs.count ? docs[i + 1].time : hi
                try visibility(group, inPoint: i == 0 ? lo : entry.time, outPoint: end, time, path: path + ".t.d")
            }
            content.addSublayer(group)
        }
    }

    /// One line of a document as it is laid out: its text, the attributed string drawn, its
    /// size, and where its layer's top-left corner goes.
    struct TextLine {
        var index: Int
        var text: String
        var string: NSAttributedString
        var size: CGSize
        var origin: CGPoint
    }

    /// The document's lines, placed so that their baselines are where the spec puts them: point
    /// text from y = 0 down by the line height, aligned on x = 0 by the justification; box text
    /// from the box's top, aligned in its width, wrapped at its width. Empty lines are listed
    /// too (with no size).
    func layOutLines(_ d: LottieTextDocument, path: String) throws -> [TextLine] {
        try Self.layOutLines(d) { count in
            textLines += count
            guard textLines <= animation.limits.layers else {
                throw LottieError(path: path, "more than \(animation.limits.layers) lines of text in all, over the layer limit")
            }
        }
    }

    /// The document's lines as `layOutLines(_:path:)` places them, `counting` told how many
    /// there are before they are measured (so that it can refuse too many).
    static func layOutLines(_ d: LottieTextDocument, counting: (Int) throws -> Void = { _ in }) rethrows -> [TextLine] {
        let color = Self.color(d.fill ?? [0, 0, 0])
        let font = UIFont(name: d.font, size: d.size)!
        let kern = d.tracking / 1000 * d.size
        func attributed(_ s: String) -> NSAttributedString {
            NSAttributedString(string: s, attributes: [.font: font, .foregroundColor: color, .kern: kern])
        }
        func width(_ s: String) -> Double { Double(TextMetrics.size(of: attributed(s)).width) }
        let lines = Self.lines(d) { width($0) } space: { width(" ") + kern }
        try counting(lines.count)
        let justify = [3: 0, 4: 1, 5: 2, 6: 0][d.justify] ?? d.justify
        var out: [TextLine] = []
        let sample = TextContent(attributedString: attributed("Hg"))
        let ascent = Double(TextMetrics.firstBaseline(of: sample))
        for (i, line) in lines.enumerated() {
            let string = attributed(line)
            let size = line.isEmpty ? .zero : TextMetrics.size(of: string)
            let w = Double(size.width)
            var baseline = Double(i) * d.lineHeight - d.baselineShift
            var x: Double
            if let p = d.boxPosition, let b = d.boxSize {
                // Box text: the first baseline one ascent below the box's top.
                baseline += p[1] + ascent
                x = p[0] + (justify == 1 ? b[0] - w : justify == 2 ? (b[0] - w) / 2 : 0)
            } else {
                x = justify == 1 ? -w : justify == 2 ? -w / 2 : 0
            }
            out.append(TextLine(index: i, text: line, string: string, size: size, origin: CGPoint(x: x, y: baseline - ascent)))
        }
        return out
    }

    /// The document's text split into lines: at line breaks (Lottie separates lines with \r;
    /// \n and ETX, \u{3}, too) and, in a box, greedily at spaces where the next word would pass
    /// the box's width (a line's width: its words', the spaces' and the tracking between them).
    static func lines(_ d: LottieTextDocument, width: (String) -> Double, space: () -> Double) -> [String] {
        let paragraphs = d.text.split(omittingEmptySubsequences: false) { $0 == "\r" || $0 == "\n" || $0 == "\u{3}" }.map(String.init)
        guard let box = d.boxSize, box[0] > 0 else { return paragraphs }
        let space = space()
        var lines: [String] = []
        for p in paragraphs {
            var current = "", used = 0.0
            for word in p.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
                let w = width(word)
                if !current.isEmpty, used + space + w > box[0] {
                    lines.append(current)
                    current = word
                    used = w
                } else {
                    used += current.isEmpty ? w : space + w
                    current = current.isEmpty ? word : current + " " + word
                }
            }
            lines.append(current)
        }
        return lines
    }

    /// The document's lines, one CATextLayer each (a stroked line: its glyph outlines as shapes).
    func lineLayers(_ d: LottieTextDocument, path: String) throws -> [CALayer] {
        var out: [CALayer] = []
        let stroked = d.stroke != nil && d.strokeWidth > 0
        for line in try layOutLines(d, path: path) where !line.text.isEmpty {
            let string = line.string
            let size = line.size
            let w = Double(size.width)
            let layer: CALayer
            if stroked {
                // A stroke around the letters: the glyphs' outlines as shapes.
                layer = node()
                for s in Self.outlineShapes(TextMetrics.outline(of: TextContent(attributedString: string)), d) { layer.addSublayer(s) }
            } else {
                let text = CATextLayer()
                text.string = string
                text.anchorPoint = .zero
                text.bounds = CGRect(x: 0, y: 0, width: w.rounded(.up) + 1, height: Double(size.height).rounded(.up))
                layer = text
            }
            layer.position = line.origin
            out.append(layer)
        }
        return out
    }

    /// The shape layers of outlined text: the stroke over the fill (`of`) or under it.
    static func outlineShapes(_ outline: CGPath, _ d: LottieTextDocument) -> [CAShapeLayer] {
        func shape(fill: CGColor?, stroke: CGColor?) -> CAShapeLayer {
            let s = CAShapeLayer()
            s.anchorPoint = .zero
            s.bounds = .zero
            s.path = outline
            s.fillColor = fill
            s.strokeColor = stroke
            s.lineWidth = d.strokeWidth
            s.lineJoin = .round
            return s
        }
        let fill = d.fill.map(color), stroke = d.stroke.map(color)
        if d.strokeOverFill { return [shape(fill: fill, stroke: stroke)] }
        return [shape(fill: nil, stroke: stroke)] + (fill.map { [shape(fill: $0, stroke: nil)] } ?? [])
    }
}
