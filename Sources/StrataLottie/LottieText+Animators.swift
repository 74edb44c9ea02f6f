// Text with animators, drawn a layer a character: each glyph where the line's layout puts it
// (TextMetrics.glyphOrigins of the same attributed line the line layers draw; an embedded
// glyph where LottieText+Glyphs.swift's layout puts it, as its outline), inside a node
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
// animator's by f, its hue turns by fh·f degrees, its saturation and brightness (HSV) move by
// fs·f and fb·f percent (only where the document has a fill, as lottie-web); a stroke width adds sw·f to
// the document's (a document with a stroke colour and no width is stroked where it adds one).
import Foundation
import Strata

extension LottieCompiler {
    /// One drawn character: its index in the document's letters, where its glyph is.
    private struct Glyph {
        var letter: Int
        var character: Character
        /// The glyph origin on the baseline, in the text layer's space.
        var origin: CGPoint
        /// The character's advance alone (without tracking).
        var advance: Double
        /// An embedded glyph's outline at the document's size (nil: the installed font draws).
        var outline: CGPath? = nil
    }

    /// A character drawn alone: where its glyph and baseline are in its own layout, and its size.
    private struct Alone {
        var origin: Double, baseline: Double
        var size: CGSize
    }

    /// A document split into letters as the selectors count them, and its drawn glyphs.
    private struct Letters {
        /// The document's characters in order, nil for each line break (a paragraph's or a wrap's).
        var letters: [Character?] = []
        /// The letters of each line, by index into `letters`.
        var lines: [[Int]] = []
        /// The characters with ink (not spaces), each a layer.
        var glyphs: [Glyph] = []
        /// Each distinct character's metrics alone.
        var alone: [Character: Alone] = [:]
        /// Each line's start (x of its first character's origin) and width, for text on a path.
        var lineStarts: [Double] = [], lineWidths: [Double] = []
    }

    /// Each glyph's transform, opacity and colours at the sampled frames.
    private struct Samples {
        var transforms: [[CGAffineTransform]], opacities: [[Float]]
        var fills: [[[Double]]], strokes: [[[Double]]]
        var strokeWidths: [[Double]]
    }

    /// Draws the document `d` a layer a character into `group`, each animated by the text's
    /// animators.
    func animatedCharacters(_ d: LottieTextDocument, _ text: LottieText, into group: CALayer, _ time: LottieTime,
                            path: String, along: (LottieTextPath, LottieMask)? = nil) throws {
        let layout: Letters
        if d.glyphs != nil {
            // Embedded glyphs: a layer each character with ink.
            let lines = Self.glyphLines(d)
            textLines += lines.reduce(0) { $0 + $1.reduce(0) { $1.glyph.contours.isEmpty ? $0 : $0 + 1 } }
            guard textLines <= animation.limits.layers else {
                throw LottieError(path: path + ".t.d", "more than \(animation.limits.layers) lines and characters of animated text in all, over the layer limit")
            }
            layout = letters(lines, size: d.size)
        } else {
            let lines = try layOutLines(d, path: path + ".t.d")
            // Counted before any character is measured: a layer each.
            textLines += lines.reduce(0) { $0 + $1.text.reduce(0) { $1.isWhitespace ? $0 : $0 + 1 } }
            guard textLines <= animation.limits.layers else {
                throw LottieError(path: path + ".t.d", "more than \(animation.limits.layers) lines and characters of animated text in all, over the layer limit")
            }
            layout = letters(d, lines)
        }
        guard !layout.glyphs.isEmpty else { return }
        // A stroke where the document has a colour for one and a width, its own or an animator's.
        let widths = d.stroke != nil && text.animators.contains { $0.strokeWidth != nil }
        let stroked = d.stroke != nil && (d.strokeWidth > 0 || widths)
        let fills = d.fill != nil && text.animators.contains(where: \.changesFill)
        let strokes = stroked && text.animators.contains { $0.strokeColor != nil }
        // Frames: one when nothing changes, else the layer's range sampled as other values are.
        let pathMoves = along.map { $0.1.shape.isAnimated || $0.0.firstMargin.isAnimated } ?? false
        let frames = text.animators.contains(where: \.isAnimated) || pathMoves
            ? try sampleFrames(time, valuesPerFrame: layout.glyphs.count * (2 + (fills ? 1 : 0) + (strokes ? 1 : 0) + (widths ? 1 : 0)), path: path + ".t.a")
            : [time.range.lowerBound]
        let samples = sample(d, text, layout, frames: frames, time, fills: fills, strokes: strokes, widths: widths, along: along)

        for (n, glyph) in layout.glyphs.enumerated() {
            let container = node()
            if glyph.outline != nil || stroked {
                // Outlines as shapes: an embedded glyph's at its origin, or the installed font's.
                let shapes: [CAShapeLayer], position: CGPoint
                if let outline = glyph.outline {
                    shapes = stroked ? Self.outlineShapes(outline, d) : Self.glyphShapes(outline, d)
                    position = glyph.origin
                } else {
                    let metrics = layout.alone[glyph.character]!
                    shapes = Self.outlineShapes(TextMetrics.outline(of: TextContent(string: String(glyph.character), fontName: d.font,
                                                                                     fontSize: CGFloat(d.size))), d)
                    position = CGPoint(x: glyph.origin.x - metrics.origin, y: glyph.origin.y - metrics.baseline)
                }
                for shape in shapes {
                    shape.position = position
                    if fills, shape.fillColor != nil {
                        addSampled(shape, "fillColor", frames: frames, values: samples.fills[n], same: ==) { Self.color($0) }
                    }
                    if strokes, shape.strokeColor != nil {
                        addSampled(shape, "strokeColor", frames: frames, values: samples.strokes[n], same: ==) { Self.color($0) }
                    }
                    if widths, shape.strokeColor != nil {
                        addSampled(shape, "lineWidth", frames: frames, values: samples.strokeWidths[n], same: ==) { CGFloat($0) }
                    }
                    container.addSublayer(shape)
                }
            } else {
                // Centred in bounds wider than the glyph's box by half an em each side, so that
                // no ink that overhangs the box is clipped.
                let metrics = layout.alone[glyph.character]!
                let top = glyph.origin.y - metrics.baseline
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
                    addSampled(layer, "foregroundColor", frames: frames, values: samples.fills[n], same: ==) { Self.color($0) }
                }
                container.addSublayer(layer)
            }
            addSampled(container, "transform", frames: frames, values: samples.transforms[n], same: ==) { CATransform3DMakeAffineTransform($0) }
            addSampled(container, "opacity", frames: frames, values: samples.opacities[n], same: ==) { $0 }
            group.addSublayer(container)
        }
    }

    /// The document's letters and glyphs: each line's characters placed where the line's layout
    /// has them (its glyph origins), on its baseline.
    private func letters(_ d: LottieTextDocument, _ lines: [TextLine]) -> Letters {
        var out = Letters()
        for line in lines {
            if line.index > 0 { out.letters.append(nil) }
            var indices: [Int] = []
            let characters = Array(line.text)
            let content = TextContent(attributedString: line.string)
            let origins = characters.isEmpty ? [] : TextMetrics.glyphOrigins(of: content)
            let baseline = characters.isEmpty ? 0 : Double(TextMetrics.firstBaseline(of: content))
            out.lineStarts.append(Double(line.origin.x) + Double(origins.first ?? 0))
            out.lineWidths.append(Double(line.size.width))
            for (k, c) in characters.enumerated() {
                indices.append(out.letters.count)
                if !c.isWhitespace {
                    if out.alone[c] == nil {
                        let alone = TextContent(string: String(c), fontName: d.font, fontSize: CGFloat(d.size))
                        out.alone[c] = Alone(origin: Double(TextMetrics.glyphOrigins(of: alone).first ?? 0),
                                             baseline: Double(TextMetrics.firstBaseline(of: alone)), size: TextMetrics.size(of: alone))
                    }
                    out.glyphs.append(Glyph(letter: out.letters.count, character: c,
                                            origin: CGPoint(x: Double(line.origin.x) + Double(origins[k]), y: Double(line.origin.y) + baseline),
                                            advance: Double(out.alone[c]!.size.width)))
                }
                out.letters.append(c)
            }
            out.lines.append(indices)
        }
        return out
    }

    /// The letters and glyphs of a document drawn from embedded glyphs: each character with ink
    /// where the glyph layout puts it, with its outline.
    private func letters(_ lines: [[PlacedGlyph]], size: Double) -> Letters {
        var out = Letters()
        for (n, line) in lines.enumerated() {
            if n > 0 { out.letters.append(nil) }
            var indices: [Int] = []
            out.lineStarts.append(Double(line.first?.origin.x ?? 0))
            out.lineWidths.append(line.last.map { Double($0.origin.x) + $0.advance - Double(line[0].origin.x) } ?? 0)
            for g in line {
                indices.append(out.letters.count)
                if !g.glyph.contours.isEmpty {
                    out.glyphs.append(Glyph(letter: out.letters.count, character: g.character, origin: g.origin, advance: g.advance,
                                            outline: g.glyph.path(size: size)))
                }
                out.letters.append(g.character)
            }
            out.lines.append(indices)
        }
        return out
    }

    /// Each glyph's values at the CA-local `frames` (evaluated at the Lottie frames they map to).
    private func sample(_ d: LottieTextDocument, _ text: LottieText, _ layout: Letters, frames: [Double], _ time: LottieTime,
                        fills: Bool, strokes: Bool, widths: Bool, along: (LottieTextPath, LottieMask)?) -> Samples {
        let animators = text.animators, glyphs = layout.glyphs, letterCount = layout.letters.count
        let units = animators.map { $0.selector?.unitIndices(layout.letters) }
        let justify = [3: 0, 4: 1, 5: 2, 6: 0][d.justify] ?? d.justify
        let yOffset = d.size * 1.2 * 0.714   // lottie-web's line offset for the grouping alignment
        let pivots = glyphs.map {
            CGPoint(x: $0.origin.x + $0.advance / 2 + text.alignment[0] * $0.advance / 200,
                    y: $0.origin.y + text.alignment[1] * yOffset / 100)
        }
        var out = Samples(transforms: .init(repeating: [], count: glyphs.count), opacities: .init(repeating: [], count: glyphs.count),
                          fills: .init(repeating: [], count: glyphs.count), strokes: .init(repeating: [], count: glyphs.count),
                          strokeWidths: .init(repeating: [], count: glyphs.count))
        var factors = [[Double]](repeating: [], count: animators.count)
        // Text on a path: each letter's line, and the baseline of the first line with ink.
        var lineOf = [Int](repeating: 0, count: letterCount)
        for (k, line) in layout.lines.enumerated() { for i in line { lineOf[i] = k } }
        let firstBaseline = Double(glyphs.first?.origin.y ?? 0)
        for g in frames {
            let f = time.remap?(g) ?? g
            let placement = along.map { TextPathPlacement($0.0, $0.1, at: f) }
            for (j, a) in animators.enumerated() {
                if let s = a.selector, let u = units[j] {
                    let at = s.at(f, count: u.count)
                    factors[j] = u.indices.map { at.factor($0) }
                } else {
                    factors[j] = [Double](repeating: 1, count: letterCount)
                }
            }
            // Tracking: each letter's shift along its line, after the characters before it.
            var shift = [Double](repeating: 0, count: letterCount)
            let tracking = animators.map { $0.tracking?.value(at: f)[0] }
            if tracking.contains(where: { $0 != nil }) {
                for line in layout.lines where !line.isEmpty {
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
                 o: a.opacity?.value(at: f)[0], fc: a.fillColor?.value(at: f), sc: a.strokeColor?.value(at: f),
                 sw: a.strokeWidth?.value(at: f)[0], fh: a.fillHue?.value(at: f)[0], fs: a.fillSaturation?.value(at: f)[0],
                 fb: a.fillBrightness?.value(at: f)[0])
            }
            for (n, glyph) in glyphs.enumerated() {
                let i = glyph.letter, pivot = pivots[n]
                // lottie-web's order: every anchor, every scale, each animator's rotation, every position.
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
                var width = d.strokeWidth
                for (j, v) in values.enumerated() {
                    let k = factors[j][i]
                    if let r = v.r { m = m.concatenating(CGAffineTransform(rotationAngle: r * k * .pi / 180)) }
                    if let o = v.o { opacity *= 1 + (o / 100 - 1) * k }
                    if fills, let c = v.fc { fill = (0..<3).map { fill[$0] + ((c.count > $0 ? c[$0] : 0) - fill[$0]) * k } }
                    if fills, v.fh != nil || v.fs != nil || v.fb != nil {
                        fill = LottieHSV.adjusted(fill, hue: (v.fh ?? 0) * k, saturation: (v.fs ?? 0) / 100 * k, value: (v.fb ?? 0) / 100 * k)
                    }
                    if strokes, let c = v.sc { stroke = (0..<3).map { stroke[$0] + ((c.count > $0 ? c[$0] : 0) - stroke[$0]) * k } }
                    if let w = v.sw { width += w * k }
                }
                for (j, v) in values.enumerated() {
                    if let p = v.p { m = m.thenTranslated(p[0] * factors[j][i], (p.count > 1 ? p[1] : 0) * factors[j][i]) }
                }
                if let placement {
                    // Along the path: the pivot's distance along its line (from the margin, shifted
                    // as the justification puts the line on the path, or spread by force
                    // alignment) picks the point; the line's offset below the first line's
                    // baseline stays across the path, turned with it when perpendicular.
                    let line = lineOf[i]
                    let width = line < layout.lineWidths.count ? layout.lineWidths[line] : 0
                    let start = line < layout.lineStarts.count ? layout.lineStarts[line] : 0
                    var distance: Double
                    if placement.forceAlignment, glyphs.count > 1, let first = glyphs.first, let last = glyphs.last {
                        distance = placement.margin + first.advance / 2
                            + (placement.length - placement.margin - first.advance / 2 - last.advance / 2) * Double(n) / Double(glyphs.count - 1)
                    } else {
                        let justified = justify == 1 ? placement.length - width : justify == 2 ? (placement.length - width) / 2 : 0
                        distance = placement.margin + justified + (pivot.x - start) + shift[i]
                    }
                    let (point, angle) = placement.point(at: distance)
                    m = m.thenTranslated(0, pivot.y - firstBaseline)
                    if placement.perpendicular { m = m.concatenating(CGAffineTransform(rotationAngle: angle)) }
                    m = m.thenTranslated(point.x, point.y)
                } else {
                    m = m.thenTranslated(pivot.x + shift[i], pivot.y)
                }
                out.transforms[n].append(m)
                out.opacities[n].append(Float(min(max(opacity, 0), 1)))
                if fills { out.fills[n].append(fill.map { min(max($0, 0), 1) }) }
                if strokes { out.strokes[n].append(stroke.map { min(max($0, 0), 1) }) }
                if widths { out.strokeWidths[n].append(min(max(width, 0), 10_000)) }
            }
        }
        return out
    }
}

/// A mask's path at a frame as text on a path reads it: flattened into a polyline (a curved
/// segment in 64 pieces, a straight one whole), reversed when asked (lottie-web's reversal: a
/// closed path keeps its first vertex), with its length, the first margin and the switches.
struct TextPathPlacement {
    var points: [CGPoint] = []
    /// Distance along the polyline at each point (0 at the first).
    var distances: [Double] = []
    var closed: Bool
    var length: Double { distances.last ?? 0 }
    var margin: Double
    var perpendicular: Bool, forceAlignment: Bool

    init(_ p: LottieTextPath, _ mask: LottieMask, at frame: Double) {
        var b = mask.shape.value(at: frame)
        if p.reversed, b.vertices.count > 1 {
            let order = b.closed ? [0] + Array((1..<b.vertices.count).reversed()) : Array((0..<b.vertices.count).reversed())
            b = LottieBezier(closed: b.closed, vertices: order.map { b.vertices[$0] },
                             inTangents: order.map { b.outTangents[$0] }, outTangents: order.map { b.inTangents[$0] })
        }
        closed = b.closed
        margin = p.firstMargin.value(at: frame).first ?? 0
        perpendicular = p.perpendicular
        forceAlignment = p.forceAlignment
        let n = b.vertices.count
        guard n > 0 else { return }
        points = [b.vertices[0]]
        let segments = (1..<max(n, 1)).map { ($0 - 1, $0) } + (b.closed && n > 1 ? [(n - 1, 0)] : [])
        for (a, c) in segments {
            let p0 = b.vertices[a], p3 = b.vertices[c]
            let p1 = CGPoint(x: p0.x + b.outTangents[a].x, y: p0.y + b.outTangents[a].y)
            let p2 = CGPoint(x: p3.x + b.inTangents[c].x, y: p3.y + b.inTangents[c].y)
            let straight = b.outTangents[a] == .zero && b.inTangents[c] == .zero
            let pieces = straight ? 1 : 64
            for k in 1...pieces {
                let t = Double(k) / Double(pieces), u = 1 - t
                let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
                points.append(CGPoint(x: w0 * p0.x + w1 * p1.x + w2 * p2.x + w3 * p3.x, y: w0 * p0.y + w1 * p1.y + w2 * p2.y + w3 * p3.y))
            }
        }
        distances = [0]
        for k in 1..<points.count {
            distances.append(distances[k - 1] + hypot(points[k].x - points[k - 1].x, points[k].y - points[k - 1].y))
        }
    }

    /// The point at a distance along the path and the direction of the piece it lies on
    /// (radians, y down): a closed path wraps around; an open one goes on along its first or last
    /// piece before its start or past its end, as lottie-web places characters that overflow.
    func point(at distance: Double) -> (CGPoint, Double) {
        guard points.count > 1, length > 0 else { return (points.first ?? .zero, 0) }
        var d = distance
        if closed { d = d - length * (d / length).rounded(.down) }
        // The piece: the first whose end is at or past d (the last for d past the end).
        var k = 1
        while k < points.count - 1 && distances[k] < d { k += 1 }
        // Zero-length pieces (repeated vertices) have no direction: the next one with length.
        while k < points.count - 1 && distances[k] == distances[k - 1] { k += 1 }
        let a = points[k - 1], b = points[k], span = distances[k] - distances[k - 1]
        let t = span > 0 ? (d - distances[k - 1]) / span : 0
        return (CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), atan2(b.y - a.y, b.x - a.x))
    }
}

private extension CGAffineTransform {
    /// This transform followed by a translation (in the space it maps into).
    func thenTranslated(_ x: Double, _ y: Double) -> CGAffineTransform {
        concatenating(CGAffineTransform(translationX: x, y: y))
    }
}
