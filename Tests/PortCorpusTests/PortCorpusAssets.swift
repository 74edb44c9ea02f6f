// The images and the video the seeds' examples load by name ("1", "Snowman", "Spark.png", …),
// drawn here — deterministic pictures with the shapes and colours the examples need to show what
// they do — into a folder that `UIImage(named:)` and `Bundle.main` search. Not a port file: the
// harness's stand-in for an app's asset catalogue.
import Foundation
import Strata

enum PortCorpusAssets {
    /// The folder with every asset (made once per test process).
    static let folder: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-port-assets-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        make(in: dir)
        UIImage.assetSearchPaths = [dir.path]
        // `Bundle.main.path(forResource:…)` looks beside the test executable.
        if let resources = Bundle.main.resourcePath {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] {
                let target = (resources as NSString).appendingPathComponent(name)
                try? FileManager.default.removeItem(atPath: target)
                try? FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: dir.appendingPathComponent(name).path)
            }
        }
        return dir
    }()

    /// Makes sure the assets exist before a scene is built.
    static func install() { _ = folder }

    private static func write(_ image: UIImage, _ name: String, in dir: URL) {
        guard let cg = image.cgImage else { return }
        try? cg.bitmap.writePNG(to: dir.appendingPathComponent(name))
    }

    private static func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
        CGColor(red: r, green: g, blue: b, alpha: a)
    }

    private static func render(_ size: CGSize, _ draw: (CGContext) -> Void) -> UIImage {
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        return UIGraphicsImageRenderer(size: size, format: format).image { draw($0.cgContext) }
    }

    private static func text(_ s: String, size: CGFloat, color c: CGColor = .black) -> TextContent {
        TextContent(string: s, fontName: "DejaVu Sans Bold", fontSize: size, color: RGBA(c) ?? .black)
    }

    /// A snowman on a sky of `size` points (three white balls, black eyes, an orange nose).
    private static func snowman(_ size: CGFloat) -> UIImage {
        render(CGSize(width: size, height: size)) { ctx in
            let u = size / 256
            ctx.setFillColor(color(0.55, 0.75, 0.95))
            ctx.fill(CGRect(x: 0, y: 0, width: size, height: size))
            ctx.setFillColor(color(0.95, 0.97, 1))
            ctx.fill(CGRect(x: 0, y: 200 * u, width: size, height: 56 * u))
            ctx.setStrokeColor(color(0.2, 0.25, 0.35))
            ctx.setLineWidth(3 * u)
            for (cx, cy, r) in [(128.0, 180.0, 56.0), (128.0, 104.0, 40.0), (128.0, 48.0, 28.0)] {
                let rect = CGRect(x: (cx - r) * u, y: (cy - r) * u, width: 2 * r * u, height: 2 * r * u)
                ctx.setFillColor(.white)
                ctx.fillEllipse(in: rect)
                ctx.strokeEllipse(in: rect)
            }
            ctx.setFillColor(.black)
            ctx.fillEllipse(in: CGRect(x: 114 * u, y: 38 * u, width: 8 * u, height: 8 * u))
            ctx.fillEllipse(in: CGRect(x: 134 * u, y: 38 * u, width: 8 * u, height: 8 * u))
            ctx.setFillColor(color(1, 0.5, 0))
            ctx.move(to: CGPoint(x: 128 * u, y: 50 * u))
            ctx.addLine(to: CGPoint(x: 160 * u, y: 56 * u))
            ctx.addLine(to: CGPoint(x: 128 * u, y: 60 * u))
            ctx.closePath()
            ctx.fillPath()
        }
    }

    /// A 128-point icon: a coloured rounded tile with a shape on it.
    private static func icon(_ tile: CGColor, _ shape: (CGContext) -> Void) -> UIImage {
        render(CGSize(width: 128, height: 128)) { ctx in
            ctx.setFillColor(tile)
            ctx.addPath(CGPath(roundedRect: CGRect(x: 4, y: 4, width: 120, height: 120), cornerWidth: 20, cornerHeight: 20, transform: nil))
            ctx.fillPath()
            ctx.setFillColor(.white)
            ctx.setStrokeColor(.white)
            shape(ctx)
        }
    }

    private static func make(in dir: URL) {
        // "1": a landscape picture, 300 × 200: sky, sun, hill, red frame.
        write(render(CGSize(width: 300, height: 200)) { ctx in
            ctx.setFillColor(color(0.3, 0.6, 0.95)); ctx.fill(CGRect(x: 0, y: 0, width: 300, height: 200))
            ctx.setFillColor(color(1, 0.85, 0.2)); ctx.fillEllipse(in: CGRect(x: 200, y: 20, width: 60, height: 60))
            ctx.setFillColor(color(0.2, 0.65, 0.3)); ctx.fillEllipse(in: CGRect(x: -60, y: 120, width: 420, height: 200))
            ctx.setStrokeColor(color(0.85, 0.1, 0.1)); ctx.setLineWidth(8); ctx.stroke(CGRect(x: 4, y: 4, width: 292, height: 192))
        }, "1.png", in: dir)
        // "wal": a brick wall, 200 × 200.
        write(render(CGSize(width: 200, height: 200)) { ctx in
            ctx.setFillColor(color(0.85, 0.82, 0.75)); ctx.fill(CGRect(x: 0, y: 0, width: 200, height: 200))
            ctx.setFillColor(color(0.7, 0.25, 0.15))
            for row in 0..<10 {
                let offset: CGFloat = row % 2 == 0 ? 0 : -20
                for col in 0..<6 { ctx.fill(CGRect(x: offset + CGFloat(col) * 40 + 2, y: CGFloat(row) * 20 + 2, width: 36, height: 16)) }
            }
        }, "wal.png", in: dir)
        write(snowman(256), "Snowman.png", in: dir)
        // A 2048-point snowman cut into 64 tiles of 256 (JPEG, as the tiled-layer example loads).
        let big = snowman(2048)
        if let cg = big.cgImage {
            let bitmap = cg.bitmap
            for ty in 0..<8 { for tx in 0..<8 {
                var tile = Bitmap(width: 256, height: 256)
                for y in 0..<256 {
                    let src = ((ty * 256 + y) * bitmap.width + tx * 256) * 4
                    tile.pixels.replaceSubrange((y * 1024)..<(y * 1024 + 1024), with: bitmap.pixels[src..<(src + 1024)])
                }
                let png = dir.appendingPathComponent(String(format: "Snowman_%02d_%02d.png", tx, ty))
                try? tile.writePNG(to: png)
                let jpg = dir.appendingPathComponent(String(format: "Snowman_%02d_%02d.jpg", tx, ty))
                _ = try? runTool("ffmpeg", ["-v", "error", "-y", "-i", png.path, "-q:v", "3", jpg.path])
                try? FileManager.default.removeItem(at: png)
            } }
        }
        // Spark: a soft white glow, 32 × 32.
        write(render(CGSize(width: 32, height: 32)) { ctx in
            let g = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(),
                               colors: [color(1, 1, 1, 1), color(1, 1, 1, 0)], locations: [0, 1])!
            ctx.drawRadialGradient(g, startCenter: CGPoint(x: 16, y: 16), startRadius: 0, endCenter: CGPoint(x: 16, y: 16),
                                   endRadius: 16, options: [])
        }, "Spark.png", in: dir)
        // Airplane and Ship: silhouettes pointing right (the direction of travel).
        let plane = render(CGSize(width: 64, height: 64)) { ctx in
            ctx.setFillColor(color(0.15, 0.2, 0.5))
            ctx.addPath(CGPath(ellipseIn: CGRect(x: 4, y: 26, width: 56, height: 12), transform: nil)); ctx.fillPath()
            ctx.move(to: CGPoint(x: 36, y: 30)); ctx.addLine(to: CGPoint(x: 22, y: 4)); ctx.addLine(to: CGPoint(x: 28, y: 4))
            ctx.addLine(to: CGPoint(x: 46, y: 30)); ctx.closePath()
            ctx.move(to: CGPoint(x: 36, y: 34)); ctx.addLine(to: CGPoint(x: 22, y: 60)); ctx.addLine(to: CGPoint(x: 28, y: 60))
            ctx.addLine(to: CGPoint(x: 46, y: 34)); ctx.closePath()
            ctx.move(to: CGPoint(x: 8, y: 30)); ctx.addLine(to: CGPoint(x: 2, y: 18)); ctx.addLine(to: CGPoint(x: 10, y: 30)); ctx.closePath()
            ctx.fillPath()
        }
        write(plane, "Airplane.png", in: dir)
        write(render(CGSize(width: 64, height: 64)) { ctx in
            ctx.setFillColor(color(0.6, 0.3, 0.1))
            ctx.move(to: CGPoint(x: 2, y: 36)); ctx.addLine(to: CGPoint(x: 62, y: 36)); ctx.addLine(to: CGPoint(x: 52, y: 52))
            ctx.addLine(to: CGPoint(x: 10, y: 52)); ctx.closePath(); ctx.fillPath()
            ctx.setFillColor(color(0.95, 0.95, 0.9))
            ctx.move(to: CGPoint(x: 30, y: 6)); ctx.addLine(to: CGPoint(x: 30, y: 34)); ctx.addLine(to: CGPoint(x: 54, y: 34)); ctx.closePath(); ctx.fillPath()
            ctx.setFillColor(color(0.85, 0.1, 0.1)); ctx.fill(CGRect(x: 28, y: 4, width: 3, height: 32))
        }, "Ship.png", in: dir)
        // Four icons for the transition examples.
        write(icon(color(0.15, 0.35, 0.7)) { ctx in
            ctx.setLineWidth(10); ctx.strokeEllipse(in: CGRect(x: 52, y: 20, width: 24, height: 24))
            ctx.fill(CGRect(x: 59, y: 40, width: 10, height: 60))
            ctx.addArc(center: CGPoint(x: 64, y: 70), radius: 34, startAngle: 0.2, endAngle: .pi - 0.2, clockwise: false); ctx.strokePath()
        }, "Anchor.png", in: dir)
        // Cone: a traffic cone on a transparent background (the mask example shows through it).
        write(render(CGSize(width: 128, height: 128)) { ctx in
            ctx.setFillColor(color(0.95, 0.55, 0.1))
            ctx.move(to: CGPoint(x: 64, y: 8)); ctx.addLine(to: CGPoint(x: 100, y: 108)); ctx.addLine(to: CGPoint(x: 28, y: 108)); ctx.closePath(); ctx.fillPath()
            ctx.fill(CGRect(x: 16, y: 108, width: 96, height: 12))
            ctx.setFillColor(.white); ctx.fill(CGRect(x: 46, y: 56, width: 36, height: 10)); ctx.fill(CGRect(x: 38, y: 82, width: 52, height: 10))
        }, "Cone.png", in: dir)
        let igloo = icon(color(0.3, 0.7, 0.85)) { ctx in
            ctx.addArc(center: CGPoint(x: 64, y: 96), radius: 50, startAngle: .pi, endAngle: 0, clockwise: false); ctx.closePath(); ctx.fillPath()
            ctx.setFillColor(color(0.3, 0.7, 0.85)); ctx.fill(CGRect(x: 54, y: 72, width: 20, height: 24))
        }
        write(igloo, "Igloo.png", in: dir)
        write(icon(color(0.4, 0.2, 0.6)) { ctx in
            ctx.move(to: CGPoint(x: 64, y: 10)); ctx.addLine(to: CGPoint(x: 86, y: 80)); ctx.addLine(to: CGPoint(x: 42, y: 80)); ctx.closePath(); ctx.fillPath()
            ctx.setFillColor(color(1, 0.4, 0.1)); ctx.fillEllipse(in: CGRect(x: 52, y: 84, width: 24, height: 30))
        }, "Spaceship.png", in: dir)
        // logo: a red disc with a white bar, 200 × 200.
        write(render(CGSize(width: 200, height: 200)) { ctx in
            ctx.setFillColor(color(0.85, 0.15, 0.2)); ctx.fillEllipse(in: CGRect(x: 10, y: 10, width: 180, height: 180))
            ctx.setFillColor(.white); ctx.fill(CGRect(x: 40, y: 90, width: 120, height: 20)); ctx.fill(CGRect(x: 90, y: 40, width: 20, height: 60))
        }, "logo.png", in: dir)
        // Button: a 9-slice capsule, 60 × 40 (corners 16).
        write(render(CGSize(width: 60, height: 40)) { ctx in
            ctx.setFillColor(color(0.2, 0.5, 0.9))
            ctx.addPath(CGPath(roundedRect: CGRect(x: 1, y: 1, width: 58, height: 38), cornerWidth: 16, cornerHeight: 16, transform: nil)); ctx.fillPath()
            ctx.setStrokeColor(color(0.05, 0.2, 0.5)); ctx.setLineWidth(2)
            ctx.addPath(CGPath(roundedRect: CGRect(x: 1, y: 1, width: 58, height: 38), cornerWidth: 16, cornerHeight: 16, transform: nil)); ctx.strokePath()
        }, "Button.png", in: dir)
        // Digits: 0…9 side by side, 20 × 26 each (a sprite sheet for contentsRect).
        write(render(CGSize(width: 200, height: 26)) { ctx in
            ctx.setFillColor(color(0.1, 0.1, 0.1)); ctx.fill(CGRect(x: 0, y: 0, width: 200, height: 26))
            for d in 0..<10 {
                ctx.draw(text(String(d), size: 20, color: color(0.3, 1, 0.4)), in: CGRect(x: CGFloat(d) * 20 + 3, y: 1, width: 18, height: 26))
            }
        }, "Digits.png", in: dir)
        // Vacation Photos: six 100 × 100 pictures of different colours.
        let photos = dir.appendingPathComponent("Vacation Photos")
        try? FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for i in 0..<6 {
            let hue = CGFloat(i) / 6
            write(render(CGSize(width: 100, height: 100)) { ctx in
                ctx.setFillColor(UIColor(hue: hue, saturation: 0.6, brightness: 0.9, alpha: 1).cgColor); ctx.fill(CGRect(x: 0, y: 0, width: 100, height: 100))
                ctx.setFillColor(.white); ctx.fillEllipse(in: CGRect(x: 30, y: 30, width: 40, height: 40))
            }, "Photo\(i).png", in: photos)
        }
        // test.mp4: 3 s of FFmpeg's test pattern, 320 × 240 at 30 fps, decoding to the same pictures
        // on every machine: lossless (x264's choices, which depend on its thread count and on the
        // CPU's vector code, then change the bytes but not the pictures), from a bit-exact
        // conversion of the pattern to YUV.
        _ = try? runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=3",
                                    "-sws_flags", "accurate_rnd+bitexact", "-c:v", "libx264", "-qp", "0",
                                    "-pix_fmt", "yuv420p", dir.appendingPathComponent("test.mp4").path])
    }

    @discardableResult
    static func runTool(_ tool: String, _ args: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + args
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}
