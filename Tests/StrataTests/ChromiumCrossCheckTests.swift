// An independent oracle for layer geometry and appearance: scenes that CSS can express are
// rendered by Strata and by headless Chromium and compared with SSIM (≥ 0.97). A heavy optional
// check: it runs from scripts/browser-check.sh (STRATA_BROWSER_TESTS=1), which installs Chromium,
// and is skipped in the ordinary suite — on this machine's kernel a browser exiting has been seen
// to spin unkillably, which must not hang CI.
//
// Mapping rules used (CALayer → CSS):
// - a layer is an absolutely positioned <div>, `box-sizing: border-box`, with
//   `left/top = position − anchorPoint·size` and `transform-origin = anchorPoint` (in %);
// - `transform` (row vectors, [x y z 1]·M) → `matrix3d(m11, m12, …, m44)`: CSS lists its
//   column-vector matrix column by column, which is CA's matrix row by row;
// - a perspective `sublayerTransform` (m34 = −1/d) about the centre → `perspective: d px` with
//   the default `perspective-origin: 50% 50%` on the parent;
// - flattening (the default) → `transform-style: flat`; CATransformLayer → `preserve-3d`;
// - `isDoubleSided = false` → `backface-visibility: hidden`;
// - `opacity` with `allowsGroupOpacity` → CSS `opacity` (always a group);
// - `cornerRadius` + `masksToBounds` → `border-radius` + `overflow: hidden`; borders are kept
//   clear of sublayers (CSS paints them below children, Core Animation above);
// - a CAReplicatorLayer → one <div> per instance: with `transform-origin: 0 0` at the sublayer's
//   top-left (left/top), instance k's transform is T(left, top)·R^k·T(−left, −top), R the
//   instanceTransform about the replicator's centre; its colour is the sublayer's multiplied by
//   the instance colour;
// - an axial CAGradientLayer from (0, 0.5) to (1, 0.5) → `linear-gradient(to right, …)`;
// - `compositingFilter` ("multiplyBlendMode", …) → `mix-blend-mode` (multiply, …;
//   "additionCompositing" → plus-lighter): the W3C formulas on both sides, compared pixel by pixel.
import XCTest
import Strata

final class ChromiumCrossCheckTests: XCTestCase {
    struct Node {
        var layer: CALayer
        var css: String
        var children: [Node] = []
        var preserve3D = false
        /// Markup placed inside the element after the children's (a replicator's copies, which
        /// have no layers of their own).
        var extraHTML = ""
    }

    private var chromium: String? {
        for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        where FileManager.default.isExecutableFile(atPath: p) { return p }
        return nil
    }

    private func rgb(_ c: CGColor) -> String {
        "rgba(\(Int((c.red * 255).rounded())), \(Int((c.green * 255).rounded())), \(Int((c.blue * 255).rounded())), \(c.alpha))"
    }

    private func matrix(_ t: CATransform3D) -> String {
        "matrix3d(" + t.entries.map { String(format: "%.9f", Double($0)) }.joined(separator: ",") + ")"
    }

    /// A layer and its CSS twin.
    private func node(_ frame: CGRect, _ color: CGColor?, anchor: CGPoint = CGPoint(x: 0.5, y: 0.5),
                      transform: CATransform3D = CATransform3DIdentity, radius: CGFloat = 0, clip: Bool = false,
                      border: (CGFloat, CGColor)? = nil, opacity: Float = 1, doubleSided: Bool = true,
                      transformLayer: Bool = false) -> Node {
        let l: CALayer = transformLayer ? CATransformLayer() : CALayer()
        l.anchorPoint = anchor
        l.frame = frame
        l.backgroundColor = color
        l.transform = transform
        l.cornerRadius = radius
        l.masksToBounds = clip
        if let border { l.borderWidth = border.0; l.borderColor = border.1 }
        l.opacity = opacity
        l.isDoubleSided = doubleSided
        var css = "position:absolute;box-sizing:border-box;left:\(frame.minX)px;top:\(frame.minY)px;"
        css += "width:\(frame.width)px;height:\(frame.height)px;"
        css += "transform-origin:\(anchor.x * 100)% \(anchor.y * 100)%;"
        if !transform.isIdentity { css += "transform:\(matrix(transform));" }
        if let color { css += "background:\(rgb(color));" }
        if radius > 0 { css += "border-radius:\(radius)px;" }
        if clip { css += "overflow:hidden;" }
        if let border { css += "border:\(border.0)px solid \(rgb(border.1));" }
        if opacity < 1 { css += "opacity:\(opacity);" }
        if !doubleSided { css += "backface-visibility:hidden;" }
        return Node(layer: l, css: css, preserve3D: transformLayer)
    }

    private func html(_ n: Node) -> String {
        let style = n.css + (n.preserve3D ? "transform-style:preserve-3d;" : "")
        return "<div style=\"\(style)\">" + n.children.map(html).joined() + n.extraHTML + "</div>"
    }

    private func assemble(_ n: inout Node) {
        for i in n.children.indices {
            assemble(&n.children[i])
            n.layer.addSublayer(n.children[i].layer)
        }
    }

    /// Renders `root` with Strata and Chromium at `w × h` and returns the SSIM.
    private func compare(_ root: Node, width w: Int, height h: Int, name: String) throws -> Double {
        let (ours, theirs) = try frames(root, width: w, height: h, name: name)
        let value = ssim(ours, theirs)
        print("chromium cross-check \(name): SSIM \(String(format: "%.4f", value))")
        return value
    }

    /// `root` rendered by Strata and by Chromium at `w × h` (ours, theirs).
    private func frames(_ root: Node, width w: Int, height h: Int, name: String) throws -> (Bitmap, Bitmap) {
        guard ProcessInfo.processInfo.environment["STRATA_BROWSER_TESTS"] == "1" else {
            throw XCTSkip("browser checks run with scripts/browser-check.sh")
        }
        guard let chromium else { throw XCTSkip("chromium is not installed") }
        var root = root
        assemble(&root)
        let dir = try temporaryFolder()
        let page = "<!doctype html><html><body style=\"margin:0;width:\(w)px;height:\(h)px;overflow:hidden;background:#fff\">"
            + html(root) + "</body></html>"
        let htmlURL = dir.appendingPathComponent("\(name).html"), shot = dir.appendingPathComponent("\(name)-chromium.png")
        try page.write(to: htmlURL, atomically: true, encoding: .utf8)
        // No zygote: on this kernel two zygotes reaping their children at exit have been seen
        // spinning for good. (A fresh --user-data-dir was tried too: its first screenshots came
        // back blank, the page not yet painted.)
        let r = try runProcess(chromium, ["--headless", "--no-sandbox", "--no-zygote", "--disable-gpu",
                                          "--hide-scrollbars",
                                          "--force-device-scale-factor=1", "--window-size=\(w),\(h)",
                                          "--screenshot=\(shot.path)", htmlURL.absoluteString], timeout: 120)
        guard FileManager.default.fileExists(atPath: shot.path) else {
            throw XCTSkip("chromium did not produce a screenshot: \(r.stderr.suffix(300))")
        }
        let theirs = try Bitmap(contentsOfPNG: shot)
        let scene = Scene(rootLayer: root.layer, size: CGSize(width: w, height: h), frameRate: 1, duration: 1)
        let ours = try scene.renderFrame(at: 0)
        try ours.writePNG(to: dir.appendingPathComponent("\(name)-strata.png"))
        XCTAssertEqual(theirs.width, w); XCTAssertEqual(theirs.height, h)
        print("chromium cross-check \(name): frames in \(dir.path)")
        return (ours, theirs)
    }

    /// Mean SSIM of the luma over 8×8 windows with a stride of 4 (over white).
    private func ssim(_ a: Bitmap, _ b: Bitmap) -> Double {
        let w = min(a.width, b.width), h = min(a.height, b.height)
        func luma(_ bm: Bitmap) -> [Double] {
            var out = [Double](repeating: 0, count: w * h)
            for y in 0..<h { for x in 0..<w {
                let p = bm.pixel(x: x, y: y)
                let white = 255 - Double(p.a)  // composite premultiplied over white
                out[y * w + x] = 0.299 * (Double(p.r) + white) + 0.587 * (Double(p.g) + white) + 0.114 * (Double(p.b) + white)
            } }
            return out
        }
        let la = luma(a), lb = luma(b)
        let c1 = (0.01 * 255.0) * (0.01 * 255.0), c2 = (0.03 * 255.0) * (0.03 * 255.0)
        var total = 0.0, count = 0
        for y in stride(from: 0, through: h - 8, by: 4) { for x in stride(from: 0, through: w - 8, by: 4) {
            var ma = 0.0, mb = 0.0
            for j in 0..<8 { for i in 0..<8 { ma += la[(y + j) * w + x + i]; mb += lb[(y + j) * w + x + i] } }
            ma /= 64; mb /= 64
            var va = 0.0, vb = 0.0, cov = 0.0
            for j in 0..<8 { for i in 0..<8 {
                let da = la[(y + j) * w + x + i] - ma, db = lb[(y + j) * w + x + i] - mb
                va += da * da; vb += db * db; cov += da * db
            } }
            va /= 63; vb /= 63; cov /= 63
            total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
            count += 1
        } }
        return total / Double(count)
    }

    private let red = CGColor(red: 0.9, green: 0.2, blue: 0.25, alpha: 1)
    private let blue = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
    private let green = CGColor(red: 0.2, green: 0.75, blue: 0.4, alpha: 1)
    private let orange = CGColor(red: 0.95, green: 0.6, blue: 0.15, alpha: 1)

    func testAnchorPointsRotationAndRadius() throws {
        var root = node(CGRect(x: 0, y: 0, width: 320, height: 200), CGColor(gray: 0.95, alpha: 1))
        root.children.append(node(CGRect(x: 30, y: 30, width: 100, height: 60), red, anchor: CGPoint(x: 0, y: 0),
                                  transform: CATransform3DMakeRotation(0.4, 0, 0, 1), radius: 14))
        root.children.append(node(CGRect(x: 180, y: 40, width: 90, height: 90), blue, anchor: CGPoint(x: 1, y: 1),
                                  transform: CATransform3DMakeScale(1.2, 0.8, 1), radius: 45))
        var card = node(CGRect(x: 40, y: 120, width: 200, height: 60), green, radius: 20, clip: true)
        card.children.append(node(CGRect(x: 120, y: -20, width: 120, height: 60), orange))
        root.children.append(card)
        let s = try compare(root, width: 320, height: 200, name: "anchors")
        XCTAssertGreaterThanOrEqual(s, 0.97, "SSIM \(s)")
    }

    func testPerspectiveFlatteningAndBackfaces() throws {
        var root = node(CGRect(x: 0, y: 0, width: 320, height: 240), CGColor(gray: 0.95, alpha: 1))
        var stage = node(CGRect(x: 0, y: 0, width: 320, height: 240), nil)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        stage.layer.sublayerTransform = p
        stage.css += "perspective:500px;"
        stage.children.append(node(CGRect(x: 40, y: 60, width: 110, height: 110), red,
                                   transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), border: (6, CGColor(gray: 0.1, alpha: 1))))
        stage.children.append(node(CGRect(x: 180, y: 60, width: 110, height: 110), blue,
                                   transform: CATransform3DMakeRotation(-.pi / 5, 1, 0, 0)))
        // Turned away, single-sided: not drawn.
        stage.children.append(node(CGRect(x: 120, y: 10, width: 80, height: 40), green,
                                   transform: CATransform3DMakeRotation(.pi * 0.9, 0, 1, 0), doubleSided: false))
        root.children.append(stage)
        let s = try compare(root, width: 320, height: 240, name: "perspective")
        XCTAssertGreaterThanOrEqual(s, 0.97, "SSIM \(s)")
    }

    func testPreserve3DCubeAndGroupOpacity() throws {
        var root = node(CGRect(x: 0, y: 0, width: 360, height: 240), CGColor(gray: 0.95, alpha: 1))
        var stage = node(CGRect(x: 0, y: 0, width: 240, height: 240), nil)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 600
        stage.layer.sublayerTransform = p
        stage.css += "perspective:600px;"
        var rot = CATransform3DMakeRotation(-0.5, 1, 0, 0)
        rot = CATransform3DRotate(rot, 0.6, 0, 1, 0)
        var cube = node(CGRect(x: 70, y: 70, width: 100, height: 100), nil, transform: rot, transformLayer: true)
        let faces: [(CATransform3D, CGColor)] = [
            (CATransform3DMakeTranslation(0, 0, 50), red),
            (CATransform3DRotate(CATransform3DMakeTranslation(50, 0, 0), .pi / 2, 0, 1, 0), blue),
            (CATransform3DRotate(CATransform3DMakeTranslation(0, -50, 0), .pi / 2, 1, 0, 0), green),
            (CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -50), .pi, 0, 1, 0), orange),
        ]
        for (t, c) in faces {
            cube.children.append(node(CGRect(x: 0, y: 0, width: 100, height: 100), c, transform: t, doubleSided: false))
        }
        stage.children.append(cube)
        root.children.append(stage)
        var group = node(CGRect(x: 250, y: 60, width: 100, height: 120), nil, opacity: 0.5)
        group.children.append(node(CGRect(x: 0, y: 0, width: 70, height: 70), red))
        group.children.append(node(CGRect(x: 30, y: 40, width: 70, height: 70), blue))
        root.children.append(group)
        let s = try compare(root, width: 360, height: 240, name: "cube")
        XCTAssertGreaterThanOrEqual(s, 0.97, "SSIM \(s)")
    }

    func testHorizontalGradient() throws {
        var root = node(CGRect(x: 0, y: 0, width: 300, height: 100), CGColor(gray: 1, alpha: 1))
        let g = CAGradientLayer()
        g.frame = CGRect(x: 20, y: 20, width: 260, height: 60)
        g.colors = [red, blue, green]
        g.startPoint = CGPoint(x: 0, y: 0.5)
        g.endPoint = CGPoint(x: 1, y: 0.5)
        g.cornerRadius = 16
        g.masksToBounds = true
        let css = "position:absolute;left:20px;top:20px;width:260px;height:60px;border-radius:16px;"
            + "background:linear-gradient(to right, \(rgb(red)), \(rgb(blue)), \(rgb(green)));"
        root.children.append(Node(layer: g, css: css))
        let s = try compare(root, width: 300, height: 100, name: "gradient")
        XCTAssertGreaterThanOrEqual(s, 0.97, "SSIM \(s)")
    }

    /// Blend modes (`compositingFilter`) against CSS `mix-blend-mode`, which implements the same
    /// W3C formulas: a cell a mode, each a source square (0.2, 0.6, 0.8) at alpha 0.8 over two
    /// backdrop stripes, (0.8, 0.4, 0.2) and (0.4, 0.8, 0.6) at alpha 0.6 over the grey page. The
    /// pixels are compared where the source covers each stripe and where it covers neither,
    /// within 3 levels a channel (Skia's arithmetic is not Strata's: 8-bit inputs, its own
    /// rounding; measured with Debian's chromium: at most 2 levels anywhere in the frame, edges
    /// included), and the frames by SSIM.
    func testBlendModesAgainstMixBlendMode() throws {
        let modes: [(filter: String, css: String)] = [
            ("multiplyBlendMode", "multiply"), ("screenBlendMode", "screen"), ("overlayBlendMode", "overlay"),
            ("darkenBlendMode", "darken"), ("lightenBlendMode", "lighten"), ("colorDodgeBlendMode", "color-dodge"),
            ("colorBurnBlendMode", "color-burn"), ("hardLightBlendMode", "hard-light"), ("softLightBlendMode", "soft-light"),
            ("differenceBlendMode", "difference"), ("exclusionBlendMode", "exclusion"), ("hueBlendMode", "hue"),
            ("saturationBlendMode", "saturation"), ("colorBlendMode", "color"), ("luminosityBlendMode", "luminosity"),
            ("additionCompositing", "plus-lighter"),
        ]
        let cell = 48
        var root = node(CGRect(x: 0, y: 0, width: 4 * cell, height: 4 * cell), CGColor(gray: 0.6, alpha: 1))
        let a = CGColor(red: 0.8, green: 0.4, blue: 0.2, alpha: 1), b = CGColor(red: 0.4, green: 0.8, blue: 0.6, alpha: 0.6)
        let source = CGColor(red: 0.2, green: 0.6, blue: 0.8, alpha: 0.8)
        var points: [(x: Int, y: Int, what: String)] = []
        for (i, mode) in modes.enumerated() {
            let x = CGFloat(i % 4 * cell), y = CGFloat(i / 4 * cell)
            root.children.append(node(CGRect(x: x + 4, y: y + 4, width: 20, height: 40), a))
            root.children.append(node(CGRect(x: x + 24, y: y + 4, width: 20, height: 40), b))
            var square = node(CGRect(x: x + 12, y: y + 12, width: 24, height: 34), source)
            square.layer.compositingFilter = mode.filter
            square.css += "mix-blend-mode:\(mode.css);"
            root.children.append(square)
            points += [(Int(x) + 18, Int(y) + 30, "\(mode.css) over stripe 1"), (Int(x) + 30, Int(y) + 30, "\(mode.css) over stripe 2"),
                       (Int(x) + 18, Int(y) + 45, "\(mode.css) over the page")]
        }
        let (ours, theirs) = try frames(root, width: 4 * cell, height: 4 * cell, name: "blend-modes")
        for p in points {
            let o = ours.pixel(x: p.x, y: p.y), t = theirs.pixel(x: p.x, y: p.y)
            let worst = [Int(o.r) - Int(t.r), Int(o.g) - Int(t.g), Int(o.b) - Int(t.b)].map(abs).max()!
            XCTAssertLessThanOrEqual(worst, 3, "\(p.what): Strata \(o), Chromium \(t)")
        }
        let s = ssim(ours, theirs)
        XCTAssertGreaterThanOrEqual(s, 0.97, "SSIM \(s)")
    }

    /// A replicator frame: 12 copies of a square turned and moved about the centre, colours
    /// falling per copy, against 12 positioned <div>s.
    func testReplicatorInstancesAgainstPositionedCopies() throws {
        var root = node(CGRect(x: 0, y: 0, width: 320, height: 240), CGColor(gray: 0.95, alpha: 1))
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 40, y: 20, width: 240, height: 200)
        r.instanceCount = 12
        let step = CATransform3DRotate(CATransform3DMakeTranslation(0, 6, 0), .pi / 6, 0, 0, 1)
        r.instanceTransform = step
        r.instanceGreenOffset = -0.06
        r.instanceBlueOffset = -0.08
        let square = CALayer()
        square.frame = CGRect(x: 100, y: 10, width: 40, height: 30)
        square.backgroundColor = CGColor(red: 0.3, green: 0.8, blue: 0.95, alpha: 1)
        r.addSublayer(square)
        var replicator = Node(layer: r, css: "position:absolute;left:40px;top:20px;width:240px;height:200px;")
        let c = CATransform3DMakeTranslation(120, 100, 0), back = CATransform3DMakeTranslation(-120, -100, 0)
        let about = back.concatenating(step).concatenating(c)
        var power = CATransform3DIdentity
        for k in 0..<12 {
            let place = CATransform3DMakeTranslation(100, 10, 0), unplace = CATransform3DMakeTranslation(-100, -10, 0)
            let css = place.concatenating(power).concatenating(unplace)
            let g = max(0, 0.8 * (1 - 0.06 * Double(k))), b = max(0, 0.95 * (1 - 0.08 * Double(k)))
            let colour = CGColor(red: 0.3, green: g, blue: b, alpha: 1)
            replicator.extraHTML += "<div style=\"position:absolute;left:100px;top:10px;width:40px;height:30px;"
                + "transform-origin:0 0;transform:\(matrix(css));background:\(rgb(colour))\"></div>"
            power = power.concatenating(about)
        }
        root.children.append(replicator)
        let s = try compare(root, width: 320, height: 240, name: "replicator")
        XCTAssertGreaterThanOrEqual(s, 0.97, "SSIM \(s)")
    }
}
