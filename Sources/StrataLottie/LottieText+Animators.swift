// Text with animators, drawn a layer a character: each glyph where the line's layout puts it
// (TextMetrics.glyphOrigins of the same attributed line the line layers draw), inside a node
// whose transform and opacity — and the glyph's colours — are sampled per frame from the
// animators, as the compiler samples any value Core Animation's curves cannot follow. Any frame
// renders alone, in any order, at any worker count: the values are keyframe animations.
//
// Per character, as lottie-web's TextAnimatorProperty combines them (f: the selector's factor):
// the glyph turns and scales about the middle of its advance on the baseline (moved by the
// grouping alignment); each animator's anchor moves it by −a·f, scale by 1 + (s − 1)·f, then
// rotation by r·f (clockwise, degrees), then position by p·f; tracking adds t·f after each
// character (so the characters after it move), centred and right-aligned lines shifting back
// by their share. Opacity is 100 + (o − 100)·f, as After Effects blends it (lottie-web's
// formula is the same for o = 0, the usual reveal, and squares f otherwise), one animator
// after another multiplying; a fill or stroke colour moves from the document's towards the
// animator's by f (only where the document has one, as lottie-web).
import Foundation
import Strata

extension LottieCompiler {
    /// One drawn character: its line, its index in the document's letters, where its glyph is.
    private struct Glyph {
        var letter: Int
        var line: Int
        var character: Character
        /// The glyph origin on the baseline, in the text layer's space.
        var origin: CGPoint
        /// The character's advance alone (without tracking).
        var advance: Double
    }

    /// A character drawn alone: where its glyph and baseline are in its own layout, and its size.
    private struct Alone {
        var origin: Double, baseline: Double
        var size: CGSize
    }

    /// Draws the document `d` a layer a character into `group`, each animated by the text's
    /// animators.
    func animatedCharacters(_ d: LottieTextDocument, _ text: LottieText, into group: CALayer, _ time: LottieTime,
                            path: String) throws {
        let lines = try layOutLines(d, path: path + ".t.d")
        // The document's letters: its characters, nil for each line break.
        var letters: [Character?] = []
        var glyphs: [Glyph] = []
        var alone: [Character: Alone] = [:]
        var lineLetters: [[Int]] = []
        for line in lines {
            if line.index > 0 { letters.append(nil) }
            var indices: [Int] = []
            let characters = Array(line.text)
            let origins = characters.isEmpty ? [] : TextMetrics.glyphOrigins(of: TextContent(attributedString: line.string))
            let baseline = characters.isEmpty ? 0 : Double(TextMetrics.firstBaseline(of: TextContent(attributedString: line.string)))
            for (k, c) in characters.enumerated() {
                indices.append(letters.count)
                if !c.isWhitespace {
                    if alone[c] == nil {
                        let content = TextContent(string: String(c), fontName: d.font, fontSize: CGFloat(d.size))
                        alone[c] = Alone(origin: Double(TextMetrics.glyphOrigins(of: content).first ?? 0),
                                         baseline: Double(TextMetrics.firstBaseline(of: content)), size: TextMetrics.size(of: content))
                    }
                    glyphs.append(Glyph(letter: letters.count, line: lineLetters.count, character: c,
                                        origin: CGPoint(x: Double(line.origin.x) + Double(origins[k]), y: Double(line.origin.y) + baseline),
                                        advance: Double(alone[c]!.size.width)))
                }
                letters.append(c)
            }
            lineLetters.append(indices)
        }
        textLines += glyphs.count
        guard textLines <= animation.limits.layers else {
            throw LottieError(path: path + ".t.d", "more than \(animation.limits.layers) lines and characters of animated text in all, over the layer limit")
        }
        guard !glyphs.isEmpty else { return }

        let animators = text.animators
        let units = animators.map { $0.selector?.unitIndices(letters) }
        let stroked = d.stroke != nil && d.strokeWidth > 0
        let fills = d.fill != nil && animators.contains { $0.fillColor != nil }
        let strokes = stroked && animators.contains { $0.strokeColor != nil }
        let keys = 2 + (fills ? 1 : 0) + (strokes ? 1 : 0)
        let justify = [3: 0, 4: 1, 5: 2, 6: 0][d.justify] ?? d.justify
        let yOffset = d.size * 1.2 * 0.714   // lottie-web's line offset for the grouping alignment
        let pivots = glyphs.map {
            CGPoint(x: $0.origin.x + $0.advance / 2 + text.alignment[0] * $0.advance / 200,
                    y: $0.origin.y + text.alignment[1] * yOffset / 100)
        }

        // Frames: one when nothing changes, else the layer's range sampled as other values are.
        let frames = animators.contains(where: \.isAnimated)
            ? try sampleFrames(time, valuesPerFrame: glyphs.count * keys, path: path + ".t.a")
            : [time.range.lowerBound]
        var transforms = [[CGAffineTransform]](repeating: [], count: glyphs.count)
        var opacities = [[Float]](repeating: [], count: glyphs.count)
        var fillColors = [[[Double]]](repeating: [], count: glyphs.count)
        var strokeColors = [[[Double]]](repeating: [], count: glyphs.count)
        var factors = [[Double]](repeating: [], count: animators.count)
        for g in frames {
            let f = time.remap?(g) ?? g
            for (j, a) in animators.enumerated() {
                if let s = a.selector, let u = units[j] {
                    let at = s.at(f, count: u.count)
                    factors[j] = u.indices.map { at.factor($0) }
                } else {
                    factors[j] = [Double](repeating: 1, count: letters.count)
                }
            }
            // Tracking: each letter's shift along its line.
            var shift = [Double](repeating: 0, count: letters.count)
            let tracking = animators.map { $0.tracking?.value(at: f)[0] }
            if tracking.contains(where: { $0 != nil }) {
                for line in lineLetters where !line.isEmpty {
                    let added = line.map { i in
                        tracking.enumerated().reduce(0.0) { $0 + ($1.element ?? 0) * factors[$1.offset][i] }
                    }
                    let widened = added.dropFirst().reduce(0, +)
                    var run = 0.0
                    for (k, i) in line.enumerated() {
                        if k > 0 { run += added[k] }
                        shift[i] = justify == 1 ? run - widened : justify == 2 ? run - widened / 2 : run
                    }
                }
            }
            let values = animators.map { a in
                (p: a.position?.value(at: f), a: a.anchor?.value(at: f), s: a.scale?.value(at: f), r: a.rotation?.value(at: f)[0],
                 o: a.opacity?.value(at: f)[0], fc: a.fillColor?.value(at: f), sc: a.strokeColor?.value(at: f))
            }
            for (n, glyph) in glyphs.enumerated() {
                let i = glyph.letter, pivot = pivots[n]
                var m = CGAffineTransform(translationX: -pivot.x, y: -pivot.y)
                for (j, v) in values.enumerated() {
                    if let a = v.a { m = m.thenTranslated(-a[0] * factors[j][i], -(a.count > 1 ? a[1] : 0) * factors[j][i]) }
                }
                for (j, v) in values.enumerated() {
                    if let s = v.s {
                        let x = 1 + (s[0] / 100 - 1) * factors[j][i], y = 1 + ((s.count > 1 ? s[1] : s[0]) / 100 - 1) * factors[j][i]
                        m = m.concatenating(CGAffineTransform(scaleX: x, y: y))
                    }
                }
                var opacity = 1.0
                var fill = d.fill.map { Array($0.prefix(3)) } ?? [0, 0, 0]
                var stroke = d.stroke.map { Array($0.prefix(3)) } ?? [0, 0, 0]
                for (j, v) in values.enumerated() {
                    let k = factors[j][i]
                    if let r = v.r { m = m.concatenating(CGAffineTransform(rotationAngle: r * k * .pi / 180)) }
                    if let o = v.o { opacity *= 1 + (o / 100 - 1) * k }
                    if fills, let c = v.fc { fill = (0..<3).map { fill[$0] + ((c.count > $0 ? c[$0] : 0) - fill[$0]) * k } }
                    if strokes, let c = v.sc { stroke = (0..<3).map { stroke[$0] + ((c.count > $0 ? c[$0] : 0) - stroke[$0]) * k } }
                }
                for (j, v) in values.enumerated() {
                    if let p = v.p { m = m.thenTranslated(p[0] * factors[j][i], (p.count > 1 ? p[1] : 0) * factors[j][i]) }
                }
                m = m.thenTranslated(pivot.x + shift[i], pivot.y)
                transforms[n].append(m)
                opacities[n].append(Float(min(max(opacity, 0), 1)))
                if fills { fillColors[n].append(fill.map { min(max($0, 0), 1) }) }
                if strokes { strokeColors[n].append(stroke.map { min(max($0, 0), 1) }) }
            }
        }

        for (n, glyph) in glyphs.enumerated() {
            let container = node()
            let metrics = alone[glyph.character]!
            let top = glyph.origin.y - metrics.baseline
            if stroked {
                let outline = TextMetrics.outline(of: TextContent(string: String(glyph.character), fontName: d.font, fontSize: CGFloat(d.size)))
                for shape in Self.outlineShapes(outline, d) {
                    shape.position = CGPoint(x: glyph.origin.x - metrics.origin, y: top)
                    if fills, shape.fillColor != nil {
                        addSampled(shape, "fillColor", frames: frames, values: fillColors[n], same: ==) { Self.color($0) }
                    }
                    if strokes, shape.strokeColor != nil {
                        addSampled(shape, "strokeColor", frames: frames, values: strokeColors[n], same: ==) { Self.color($0) }
                    }
                    container.addSublayer(shape)
                }
            } else {
                // Centred in bounds wider than the glyph's box by half an em each side, so that
                // no ink that overhangs the box is clipped.
                let layer = CATextLayer()
                layer.string = String(glyph.character)
                layer.font = d.font
                layer.fontSize = CGFloat(d.size)
                layer.foregroundColor = Self.color(d.fill ?? [0, 0, 0])
                layer.alignmentMode = .center
                layer.anchorPoint = .zero
                let pad = (d.size / 2).rounded(.up), w = Double(metrics.size.width)
                let width = w.rounded(.up) + 2 * pad
                layer.bounds = CGRect(x: 0, y: 0, width: width, height: Double(metrics.size.height).rounded(.up) + pad)
                layer.position = CGPoint(x: glyph.origin.x - metrics.origin - (width - w) / 2, y: top)
                if fills {
                    addSampled(layer, "foregroundColor", frames: frames, values: fillColors[n], same: ==) { Self.color($0) }
                }
                container.addSublayer(layer)
            }
            addSampled(container, "transform", frames: frames, values: transforms[n], same: ==) { CATransform3DMakeAffineTransform($0) }
            addSampled(container, "opacity", frames: frames, values: opacities[n], same: ==) { $0 }
            group.addSublayer(container)
        }
    }
}

private extension CGAffineTransform {
    /// This transform followed by a translation (in the space it maps into).
    func thenTranslated(_ x: Double, _ y: Double) -> CGAffineTransform {
        concatenating(CGAffineTransform(translationX: x, y: y))
    }
}
