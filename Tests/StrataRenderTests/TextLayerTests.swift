// CATextLayer and TextMetrics: measurements with exact expectations worked out from the DejaVu
// Sans font file (2048 units per em; hhea ascender 1901, descender −483; advances from hmtx
// and HarfBuzz kerning, cross-checked with fontTools/uharfbuzz), placement checks (top of the
// bounds, alignment, right-to-left), reference images for the seeds' justified paragraph,
// truncation and alignment modes, RTL, CJK, combining marks and attributed strings, and
// sharpness under zoom. Reference tolerance: 2 levels per channel, no pixel over it.
import XCTest
import StrataCore
import StrataRender
import StrataTestSupport

/// Renders at `scale` pixels per point (as a scene with that contentsScale does).
/// Renders at `scale` pixels per point (as a scene with that contentsScale does), checking that
/// the scalar kernels give the same bytes as the SIMD ones.
func render(_ root: CALayer, width: Int, height: Int, scale: Double, time: Double = 0,
            file: StaticString = #filePath, line: UInt = #line) -> Bitmap {
    let snap = PresentationBuilder(time: time).snapshotTree(of: root)
    let frame = FrameRenderer(width: width, height: height, scale: scale).render(snap)
    let scalar = FrameRenderer(width: width, height: height, scale: scale, options: RenderOptions(simd: false)).render(snap)
    XCTAssertTrue(frame.pixels == scalar.pixels, "the scalar kernels give other bytes than the SIMD ones", file: file, line: line)
    return frame
}

func textLayer(_ string: Any, frame: CGRect, font: String = "DejaVu Sans", size: CGFloat = 16,
               color c: CGColor = .black) -> CATextLayer {
    let t = CATextLayer()
    t.frame = frame
    t.string = string
    t.font = font
    t.fontSize = size
    t.foregroundColor = c
    return t
}

/// The columns and rows holding any pixel darker than `threshold` (on a white canvas) inside `rect`.
func inkExtent(_ img: Bitmap, in rect: (x0: Int, y0: Int, x1: Int, y1: Int)? = nil, threshold: UInt8 = 200)
    -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
    let r = rect ?? (0, 0, img.width, img.height)
    var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
    for y in r.y0..<r.y1 { for x in r.x0..<r.x1 {
        let p = img.pixel(x: x, y: y)
        if min(p.r, p.g, p.b) < threshold {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
    } }
    return minX == Int.max ? nil : (minX, maxX, minY, maxY)
}

/// The seeds' paragraph (CATextLayer use case 1).
let seedsParagraph = "快速的业务发展也对技术支撑提出了更高的要求，为了保障敏捷的业务开发，提升跨团队的协同合作效率，提高本地研发和 CI/CD 效率，抖音 iOS App 工程架构在不同的阶段进行了不同的技术方案的改进，满足合理的架构演化，同时又不影响正常的业务迭代速度。"

final class TextLayerTests: XCTestCase {
    // MARK: Measurement (exact, from the font file)

    func testMeasuresAStringInDejaVuSans() {
        // H e l l o = 1540 + 1260 + 569 + 569 + 1253 = 5191 units; × 36 / 2048.
        let size = TextMetrics.size(of: "Hello", font: "DejaVu Sans", fontSize: 36)
        XCTAssertEqual(size.width, 91.248046875)
        // One line: ascender + descender = 1901 + 483 = 2384 units; × 36 / 2048.
        XCTAssertEqual(size.height, 41.90625)
    }

    func testKerningIsApplied() {
        // AVATAR: hmtx advances sum to 8278 units; with the font's kerning pairs (AV, VA, AT,
        // TA, AR) HarfBuzz gives 7698 units; × 36 / 2048 = 135.31640625.
        XCTAssertEqual(TextMetrics.size(of: "AVATAR", font: "DejaVu Sans", fontSize: 36).width, 135.31640625)
    }

    func testFontFeaturesReachHarfBuzz() throws {
        // A run's OpenType features go to Pango (a font-features attribute): with kerning off,
        // AVATAR is its hmtx advances, 8278 units × 36 / 2048 = 145.51171875.
        var run = TextContent.Run(text: "AVATAR", fontName: "DejaVu Sans", fontSize: 36, color: .black)
        run.fontFeatures = "kern=0"
        XCTAssertEqual(TextMetrics.size(of: TextContent(runs: [run])).width, 145.51171875)
        // A CATextLayer whose font is a UIFont with tabular digits draws with "tnum" (DejaVu's
        // digits are tabular already: 1303 units each, the same width either way).
        let layer = CATextLayer()
        layer.string = "1111"
        layer.font = UIFont(name: "DejaVu Sans", size: 36)!.monospacedDigits()
        XCTAssertEqual(layer.textContent?.runs.first?.fontFeatures, "tnum")
        XCTAssertEqual(TextMetrics.size(of: try XCTUnwrap(layer.textContent)).width, 4 * 1303 * 36 / 2048)
    }

    func testMeasurementScalesExactlyWithFontSize() {
        // Unhinted metrics: 2 × the size is exactly 2 × the width (5191 × 72 / 2048 = 182.49609375).
        XCTAssertEqual(TextMetrics.size(of: "Hello", font: "DejaVu Sans", fontSize: 72).width, 182.49609375)
        XCTAssertEqual(TextMetrics.size(of: "Hello", font: "DejaVu Sans", fontSize: 72).height, 83.8125)
    }

    func testWrappedMeasurement() {
        // "Hello World" at 36 pt does not fit in 150 pt: two lines. The widest is "World"
        // (W 2025 kerned by −120 before o → 1905, o 1253, r 842, l 569, d 1300 = 5869 units).
        let text = TextContent(string: "Hello World", fontName: "DejaVu Sans", fontSize: 36)
        XCTAssertEqual(TextMetrics.lineCount(of: text, constrainedToWidth: 150), 2)
        let size = TextMetrics.size(of: text, constrainedToWidth: 150)
        XCTAssertEqual(size.width, 103.166015625)
        XCTAssertEqual(size.height, 2 * 41.90625)
        // Unconstrained: one line of 11711 units (the space is 651).
        XCTAssertEqual(TextMetrics.lineCount(of: text), 1)
        XCTAssertEqual(TextMetrics.size(of: text).width, 205.857421875)
        // First baseline at the ascender: 1901 × 36 / 2048.
        XCTAssertEqual(TextMetrics.firstBaseline(of: text), 33.416015625)
    }

    func testAttributedStringMeasurement() {
        // Two runs in two sizes: "Hel" at 36 pt + "lo" at 72 pt; the line is as tall as the
        // larger font. Widths: (1540 + 1260 + 569) × 36/2048 + (569 + 1253) × 72/2048.
        let s = NSMutableAttributedString(string: "Hel", attributes: [.font: UIFont(name: "DejaVu Sans", size: 36)!])
        s.append(NSAttributedString(string: "lo", attributes: [.font: UIFont(name: "DejaVu Sans", size: 72)!]))
        let size = TextMetrics.size(of: s)
        XCTAssertEqual(size.width, 3369.0 * 36 / 2048 + 1822.0 * 72 / 2048)
        XCTAssertEqual(size.height, 83.8125)
        // Kerning (NSKern) of 2 pt adds 2 pt between characters (Pango letter spacing: 4 gaps).
        let k = NSAttributedString(string: "Hello", attributes: [.font: UIFont(name: "DejaVu Sans", size: 36)!, .kern: 2])
        XCTAssertEqual(TextMetrics.size(of: k).width, 91.248046875 + 4 * 2)
    }

    func testPreferredFrameSize() {
        let t = textLayer("Hello", frame: CGRect(x: 0, y: 0, width: 50, height: 50), size: 36)
        XCTAssertEqual(t.preferredFrameSize(), CGSize(width: 91.248046875, height: 41.90625))
        t.string = "Hello World"
        t.isWrapped = true
        t.bounds.size.width = 150
        XCTAssertEqual(t.preferredFrameSize(), CGSize(width: 103.166015625, height: 83.8125))
        t.string = 42   // not text
        XCTAssertEqual(t.preferredFrameSize(), .zero)
    }

    func testFontNamesResolveThroughFontconfig() {
        let resolved = TextMetrics.resolvedFamily(forFontName:)
        XCTAssertEqual(resolved("DejaVu Sans"), "DejaVu Sans")
        XCTAssertEqual(resolved("DejaVu Sans Bold"), "DejaVu Sans")
        XCTAssertEqual(resolved("DejaVuSans-Bold"), "DejaVu Sans")
        XCTAssertEqual(resolved("DejaVu Serif"), "DejaVu Serif")
        XCTAssertEqual(resolved("DejaVu Sans Mono"), "DejaVu Sans Mono")
        // Apple fonts that are not installed fall back to a face of the same kind: the generic
        // family's face, or a metric-compatible alias when fontconfig has one installed (as
        // Liberation Serif for Times New Roman where fonts-liberation is present).
        let sans: Set = [resolved("sans-serif"), "Liberation Sans", "Arimo", "Nimbus Sans", "TeX Gyre Heros"]
        let serif: Set = [resolved("serif"), "Liberation Serif", "Tinos", "Nimbus Roman", "TeX Gyre Termes"]
        let mono: Set = [resolved("monospace"), "Liberation Mono", "Cousine", "Nimbus Mono PS", "TeX Gyre Cursor"]
        XCTAssertEqual(resolved("sans-serif"), "DejaVu Sans")
        XCTAssertEqual(resolved("serif"), "DejaVu Serif")
        XCTAssertEqual(resolved("monospace"), "DejaVu Sans Mono")
        for name in ["Helvetica", "HelveticaNeue-Bold", ".SFUI-Regular", "Arial", "ArialMT", "No Such Font 123"] {
            XCTAssertTrue(sans.contains(resolved(name)), "\(name) → \(resolved(name))")
        }
        for name in ["Times", "Times New Roman", "TimesNewRomanPS-BoldMT", "Georgia"] {
            XCTAssertTrue(serif.contains(resolved(name)), "\(name) → \(resolved(name))")
        }
        for name in ["Courier", "Menlo-Regular", ".SFMono-Regular"] {
            XCTAssertTrue(mono.contains(resolved(name)), "\(name) → \(resolved(name))")
        }
        // Bold really is bold: wider than regular; PostScript and Pango spellings agree.
        XCTAssertGreaterThan(TextMetrics.size(of: "Hello", font: "DejaVu Sans Bold", fontSize: 36).width,
                             TextMetrics.size(of: "Hello", font: "DejaVu Sans", fontSize: 36).width)
        XCTAssertEqual(TextMetrics.size(of: "Hello", font: "DejaVuSans-BoldOblique", fontSize: 36),
                       TextMetrics.size(of: "Hello", font: "DejaVu Sans Bold Oblique", fontSize: 36))
    }

    // MARK: Placement

    func testTextStartsAtTheTopOfTheBounds() {
        // "H" at 36 pt in a layer whose top is at y = 10: the first baseline is the ascender,
        // 1901 × 36 / 2048 = 33.42 pt down, at y = 43.42; baselines go to whole device pixels
        // (glyph origins' x to quarter pixels), so y = 43, and the H (cap height
        // 1493 × 36 / 2048 = 26.24 pt) spans y 16.76…43: ink in pixel rows 16…42.
        let root = canvas(100, 60)
        root.addSublayer(textLayer("H", frame: CGRect(x: 0, y: 10, width: 100, height: 50), size: 36))
        let img = render(root, width: 100, height: 60)
        let ink = inkExtent(img, threshold: 250)!
        XCTAssertEqual(ink.minY, 16)
        XCTAssertEqual(ink.maxY, 42)
        // Left side bearing 201 units = 3.53 pt.
        XCTAssertEqual(ink.minX, 3)
    }

    func testAlignmentPlacesLines() {
        let root = canvas(300, 120)
        for (i, mode) in [CATextLayerAlignmentMode.left, .center, .right].enumerated() {
            let t = textLayer("Hello", frame: CGRect(x: 0, y: CGFloat(i) * 40, width: 300, height: 40), size: 36)
            t.alignmentMode = mode
            root.addSublayer(t)
        }
        let img = render(root, width: 300, height: 120)
        let w = 91.248046875
        let left = inkExtent(img, in: (0, 0, 300, 40))!, centre = inkExtent(img, in: (0, 40, 300, 80))!
        let right = inkExtent(img, in: (0, 80, 300, 120))!
        // Ink starts at the H's side bearing (3.53 pt) from the line's start, which is placed to
        // the nearest quarter pixel (centred: 104.376 → 104.5, ink from 108.03).
        func quarter(_ x: Double) -> Double { (x * 4).rounded() / 4 }
        XCTAssertEqual(left.minX, 3)
        XCTAssertEqual(centre.minX, Int(quarter((300 - w) / 2) + 3.53))
        XCTAssertEqual(right.minX, Int(quarter(300 - w) + 3.53))
    }

    func testRightToLeftTextIsRightAlignedByDefault() {
        let root = canvas(300, 40)
        root.addSublayer(textLayer("مرحبا بالعالم", frame: CGRect(x: 0, y: 0, width: 300, height: 40), size: 24))
        let img = render(root, width: 300, height: 40)
        let ink = inkExtent(img)!
        XCTAssertGreaterThan(ink.minX, 150, "natural alignment of an Arabic line is right")
        XCTAssertGreaterThanOrEqual(ink.maxX, 290)
        // Explicit .left puts it on the left.
        (root.sublayers![0] as! CATextLayer).alignmentMode = .left
        XCTAssertLessThan(inkExtent(render(root, width: 300, height: 40))!.minX, 10)
    }

    func testForegroundColorAndAttributedRuns() {
        let root = canvas(200, 40)
        let s = NSMutableAttributedString(string: "RED ", attributes: [
            .font: UIFont(name: "DejaVu Sans Bold", size: 24)!, .foregroundColor: color(1, 0, 0)])
        s.append(NSAttributedString(string: "BLUE", attributes: [
            .font: UIFont(name: "DejaVu Sans Bold", size: 24)!, .foregroundColor: color(0, 0, 1)]))
        root.addSublayer(textLayer(s, frame: CGRect(x: 0, y: 0, width: 200, height: 40)))
        let img = render(root, width: 200, height: 40)
        var reds = 0, blues = 0
        for y in 0..<40 { for x in 0..<200 {
            let p = img.pixel(x: x, y: y)
            if p.r > 200 && p.g < 60 && p.b < 60 { reds += 1; XCTAssertLessThan(x, 70) }
            if p.b > 200 && p.r < 60 && p.g < 60 { blues += 1; XCTAssertGreaterThan(x, 50) }
        } }
        XCTAssertGreaterThan(reds, 50)
        XCTAssertGreaterThan(blues, 50)
    }

    // MARK: Reference images

    func testSeedsJustifiedParagraph() {
        // The seeds' UILabel replacement: red, justified, wrapped, 10-pt system font, in a
        // 300-pt wide layer; drawn at 2× (a Retina-like scene scale).
        let root = canvas(300, 90)
        let t = CATextLayer()
        t.frame = CGRect(x: 0, y: 0, width: 300, height: 90)
        t.foregroundColor = color(1, 0, 0)
        t.alignmentMode = .justified
        t.isWrapped = true
        t.font = UIFont.systemFont(ofSize: 0)
        t.fontSize = 10
        t.string = seedsParagraph
        root.addSublayer(t)
        let content = t.textContent!
        XCTAssertEqual(TextMetrics.lineCount(of: content, constrainedToWidth: 300), 4)
        let img = render(root, width: 600, height: 180, scale: 2)
        // Justified: every line but the last reaches the right edge. (Pango stretches the
        // spaces of a line that has some, as around "CI/CD"; a line without spaces is spread
        // between its characters.)
        let lineHeight = TextMetrics.size(of: content, constrainedToWidth: 300).height / 4 * 2
        for line in 0..<3 {
            let y0 = Int(Double(line) * lineHeight), y1 = Int(Double(line + 1) * lineHeight)
            let ink = inkExtent(img, in: (0, y0, 600, y1), threshold: 230)!
            XCTAssertGreaterThan(ink.maxX, 588, "line \(line) is justified to the right edge")
        }
        assertReferenceImage(img, named: "seeds_justified_paragraph")
    }

    func testTruncationModes() {
        let root = canvas(220, 130)
        let long = "The quick brown fox jumps over the lazy dog"
        for (i, mode) in [CATextLayerTruncationMode.none, .start, .middle, .end].enumerated() {
            let t = textLayer(long, frame: CGRect(x: 10, y: 5 + CGFloat(i) * 30, width: 200, height: 24), size: 16)
            t.truncationMode = mode
            t.backgroundColor = color(0.92, 0.92, 0.95)
            root.addSublayer(t)
        }
        assertReferenceImage(render(root, width: 220, height: 130), named: "truncation_modes")
    }

    func testWrappedTruncationEllipsizesTheLastVisibleLine() {
        let root = canvas(220, 60)
        let t = textLayer("The quick brown fox jumps over the lazy dog and keeps running far away",
                          frame: CGRect(x: 10, y: 5, width: 200, height: 40), size: 16)
        t.isWrapped = true
        t.truncationMode = .end
        t.backgroundColor = color(0.92, 0.92, 0.95)
        root.addSublayer(t)
        assertReferenceImage(render(root, width: 220, height: 60), named: "wrapped_truncation")
    }

    func testAlignmentModes() {
        let root = canvas(230, 330)
        let text = "Core Animation for Linux renders layer trees to video, frame by frame."
        for (i, mode) in [CATextLayerAlignmentMode.natural, .left, .right, .center, .justified].enumerated() {
            let t = textLayer(text, frame: CGRect(x: 15, y: 5 + CGFloat(i) * 65, width: 200, height: 60), size: 14)
            t.isWrapped = true
            t.alignmentMode = mode
            t.backgroundColor = color(0.92, 0.95, 0.92)
            root.addSublayer(t)
        }
        assertReferenceImage(render(root, width: 230, height: 330), named: "alignment_modes")
    }

    func testRightToLeftAndCJKLines() {
        let root = canvas(320, 150)
        root.addSublayer(textLayer("مرحبا بالعالم", frame: CGRect(x: 10, y: 5, width: 300, height: 34), size: 22))
        root.addSublayer(textLayer("שלום עולם 123", frame: CGRect(x: 10, y: 40, width: 300, height: 34), size: 22))
        root.addSublayer(textLayer("你好，世界！日本語 한국어", frame: CGRect(x: 10, y: 75, width: 300, height: 34), size: 22))
        // Combining marks: e + U+0301, a + U+0308, and a precomposed é for comparison.
        root.addSublayer(textLayer("Cafe\u{301} a\u{308} é", frame: CGRect(x: 10, y: 110, width: 300, height: 34), size: 22))
        let img = render(root, width: 320, height: 150, scale: 1)
        // The CJK line has ink (a fallback face was found for every ideograph).
        let cjk = inkExtent(img, in: (10, 75, 310, 109))!
        XCTAssertGreaterThan(cjk.maxX - cjk.minX, 200)
        assertReferenceImage(img, named: "rtl_cjk_marks")
    }

    func testAttributedString() {
        let root = canvas(320, 50)
        let s = NSMutableAttributedString(string: "Strata ", attributes: [
            .font: UIFont(name: "DejaVu Serif Bold", size: 26)!, .foregroundColor: color(0.1, 0.3, 0.7)])
        s.append(NSAttributedString(string: "under", attributes: [
            .font: UIFont(name: "DejaVu Sans", size: 18)!, .foregroundColor: color(0.8, 0.2, 0.1),
            .underlineStyle: NSUnderlineStyle.single.rawValue]))
        s.append(NSAttributedString(string: " spaced", attributes: [
            .font: UIFont(name: "DejaVu Sans Mono", size: 18)!, .foregroundColor: color(0.2, 0.6, 0.2), .kern: 4]))
        s.append(NSAttributedString(string: " half", attributes: [
            .font: UIFont(name: "DejaVu Sans Oblique", size: 18)!, .foregroundColor: color(0, 0, 0, 0.5),
            .strikethroughStyle: 1]))
        root.addSublayer(textLayer(s, frame: CGRect(x: 10, y: 8, width: 300, height: 40)))
        assertReferenceImage(render(root, width: 320, height: 50), named: "attributed_string")
    }

    // MARK: Scale, animation, caching

    func testZoomedTextIsRasterisedAtTheOnScreenScale() {
        // 10-pt text zoomed 4× matches 40-pt text drawn directly (unhinted layout, outlines
        // rasterised at the on-screen size), not a blurry upscaled bitmap.
        let zoomed = canvas(240, 60)
        let small = textLayer("Sharp", frame: CGRect(x: 0, y: 0, width: 60, height: 15), size: 10)
        small.anchorPoint = .zero
        small.position = CGPoint(x: 0, y: 0)
        small.transform = CATransform3DMakeScale(4, 4, 1)
        zoomed.addSublayer(small)
        let direct = canvas(240, 60)
        direct.addSublayer(textLayer("Sharp", frame: CGRect(x: 0, y: 0, width: 240, height: 60), size: 40))
        let a = render(zoomed, width: 240, height: 60), b = render(direct, width: 240, height: 60)
        let cmp = ImageComparison(actual: a, expected: b, tolerance: 40)!
        XCTAssertLessThanOrEqual(cmp.pixelsOverTolerance, 20, cmp.json)
        XCTAssertGreaterThan(cmp.psnr, 30)
    }

    func testFontSizeAndColorAnimate() {
        XCTAssertTrue(CATextLayer.implicitlyAnimates(key: "fontSize"))
        XCTAssertTrue(CATextLayer.implicitlyAnimates(key: "foregroundColor"))
        let root = canvas(100, 50)
        let t = textLayer("H", frame: CGRect(x: 0, y: 0, width: 100, height: 50), size: 10)
        let grow = CABasicAnimation(keyPath: "fontSize")
        grow.fromValue = 10
        grow.toValue = 30
        grow.duration = 1
        t.add(grow, forKey: "grow")
        root.addSublayer(t)
        let snap = PresentationBuilder(time: 0.5).snapshotTree(of: root)
        guard case .text(let content) = snap.sublayers[0].content else { return XCTFail("no text content") }
        XCTAssertEqual(content.runs[0].fontSize, 20, accuracy: 1e-9)
        // The H at 20 pt is 1493 × 20 / 2048 = 14.6 pt tall.
        let ink = inkExtent(render(root, width: 100, height: 50, time: 0.5), threshold: 250)!
        XCTAssertEqual(ink.maxY - ink.minY + 1, 16, accuracy: 1)
    }

    /// The runs collection keeps one run inline and the rest in an array: a plain string's content
    /// equals (and hashes as) the same run given as an array, empty runs are dropped, and runs
    /// read, change and append in order.
    func testTextRunsBehaveAsAnArray() {
        let a = TextContent.Run(text: "Line", fontName: "DejaVu Sans", fontSize: 24, color: .black)
        var b = a
        b.text = " two"
        b.kern = 1
        let plain = TextContent(string: "Line", fontName: "DejaVu Sans", fontSize: 24, color: .black)
        let viaArray = TextContent(runs: [a])
        XCTAssertEqual(plain, viaArray)
        XCTAssertEqual(plain.hashValue, viaArray.hashValue)
        XCTAssertEqual(Array(plain.runs), [a])
        XCTAssertTrue(TextContent(string: "").runs.isEmpty)

        var empty = a
        empty.text = ""
        var content = TextContent(runs: [empty, a, empty, b])
        XCTAssertEqual(Array(content.runs), [a, b], "empty runs are dropped")
        XCTAssertEqual(content.runs.count, 2)
        XCTAssertEqual(content.runs[1].kern, 1)
        XCTAssertEqual(content.string, "Line two")
        content.runs[0].fontSize = 30
        content.runs[1].text = " 2"
        content.runs.append(a)
        XCTAssertEqual(content.runs.map(\.text), ["Line", " 2", "Line"])
        XCTAssertEqual(content.runs.map(\.fontSize), [30, 24, 24])
        XCTAssertNotEqual(content, TextContent(runs: [a, b, a]))
        XCTAssertEqual(TextContent(runs: Array(content.runs)), content)
        XCTAssertEqual(TextContent.Runs([a, b]), [a, b])
        XCTAssertNotEqual(TextContent.Runs([a, b]), [b, a])
    }

    func testDefaultsMatchCoreAnimation() {
        let t = CATextLayer()
        XCTAssertEqual(t.fontSize, 36)
        XCTAssertEqual(t.foregroundColor, .white)
        XCTAssertFalse(t.isWrapped)
        XCTAssertEqual(t.truncationMode, .none)
        XCTAssertEqual(t.alignmentMode, .natural)
        XCTAssertEqual(t.fontName, "Helvetica")
        t.font = UIFont.boldSystemFont(ofSize: 99)
        XCTAssertEqual(t.fontName, ".SFUI-Bold")
        t.string = "x"
        t.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        // A UIFont's size is ignored in favour of fontSize, as on iOS.
        XCTAssertEqual(t.textContent?.runs.first?.fontSize, 36)
        let copy = CATextLayer(layer: t)
        XCTAssertEqual(copy.string as? String, "x")
        XCTAssertEqual(copy.fontName, ".SFUI-Bold")
    }

    /// Text is drawn straight into the tiles from glyph masks (no backing store); an unchanged
    /// text layer's tiles are copied from the previous frame.
    func testUnchangedTextReusesItsTiles() {
        let root = canvas(200, 40)
        root.addSublayer(textLayer("Cached", frame: CGRect(x: 0, y: 0, width: 200, height: 40), size: 20))
        let history = FrameHistory()
        let renderer = FrameRenderer(width: 200, height: 40, history: history)
        let first = renderer.render(PresentationBuilder(time: 0).snapshotTree(of: root))
        let second = renderer.render(PresentationBuilder(time: 0).snapshotTree(of: root))
        XCTAssertEqual(renderer.cache.statistics.misses, 0, "no backing store")
        XCTAssertEqual(history.tileStatistics.reused, history.tileStatistics.tiles / 2, "the second frame copies every tile")
        XCTAssertEqual(first.pixels, second.pixels)
        XCTAssertNotNil(inkExtent(second), "the text is drawn")
    }
}
