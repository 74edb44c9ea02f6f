// Where a layer's image contents go: contentsGravity picks the destination rectangle in the
// layer's bounds, contentsRect picks the part of the image (CORE_ANIMATION.md §2).
// **Strata:** `.top` is the visual top (Apple's y-up quirk is not copied).
import Foundation
import StrataCore

enum ContentsPlacement {
    /// The placements that draw a layer's contents: one, or up to nine for a `contentsCenter`
    /// nine-slice (the corners keep their natural size, the edges stretch in one direction and
    /// the centre in both; when the bounds are smaller than the corners, they shrink together).
    /// Calls `body` with each (no array: one a layer a frame was an allocation).
    static func forEachPlacement(_ c: ContentsSnapshot, in bounds: CGRect, flipped: Bool, _ body: (ImagePlacement) -> Void) {
        guard var whole = place(c, in: bounds) else { return }
        if flipped {
            whole.source = CGRect(x: whole.source.minX, y: whole.source.maxY, width: whole.source.width, height: -whole.source.height)
        }
        let cc = c.contentsCenter
        guard cc != CGRect(x: 0, y: 0, width: 1, height: 1), !cc.isNull, c.gravity == .resize else { return body(whole) }
        let src = whole.source, dst = whole.destination
        let scale = max(Double(c.contentsScale), 1e-6)
        // Source cuts (image pixels) and their natural sizes in points.
        let sx = [Double(src.minX), Double(src.minX) + Double(cc.minX) * Double(src.width),
                  Double(src.minX) + Double(cc.maxX) * Double(src.width), Double(src.maxX)]
        let sy = [Double(src.minY), Double(src.minY) + Double(cc.minY) * Double(src.height),
                  Double(src.minY) + Double(cc.maxY) * Double(src.height), Double(src.maxY)]
        var left = abs(sx[1] - sx[0]) / scale, right = abs(sx[3] - sx[2]) / scale
        var top = abs(sy[1] - sy[0]) / scale, bottom = abs(sy[3] - sy[2]) / scale
        let dw = Double(dst.width), dh = Double(dst.height)
        if left + right > dw, left + right > 0 { let k = dw / (left + right); left *= k; right *= k }
        if top + bottom > dh, top + bottom > 0 { let k = dh / (top + bottom); top *= k; bottom *= k }
        let dx = [Double(dst.minX), Double(dst.minX) + left, Double(dst.maxX) - right, Double(dst.maxX)]
        let dy = [Double(dst.minY), Double(dst.minY) + top, Double(dst.maxY) - bottom, Double(dst.maxY)]
        let far = 1e6
        for j in 0..<3 { for i in 0..<3 {
            let d = CGRect(x: dx[i], y: dy[j], width: dx[i + 1] - dx[i], height: dy[j + 1] - dy[j])
            let s = CGRect(x: sx[i], y: sy[j], width: sx[i + 1] - sx[i], height: sy[j + 1] - sy[j])
            guard d.width > 0, d.height > 0, s.width != 0, s.height != 0 else { continue }
            var p = whole
            p.destination = d
            p.source = s
            p.coverage = dst
            // Half-open cells partition the pixels; outer cells reach past the outline so its
            // anti-aliased fringe is drawn.
            let x0 = i == 0 ? -far : dx[i], x1 = i == 2 ? far : dx[i + 1]
            let y0 = j == 0 ? -far : dy[j], y1 = j == 2 ? far : dy[j + 1]
            p.cell = CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            body(p)
        } }
    }

    static func place(_ c: ContentsSnapshot, in bounds: CGRect) -> ImagePlacement? {
        let iw = Double(c.image.width), ih = Double(c.image.height)
        guard iw > 0, ih > 0, bounds.width > 0, bounds.height > 0 else { return nil }
        let cr = c.contentsRect
        let source = CGRect(x: Double(cr.minX) * iw, y: Double(cr.minY) * ih,
                            width: Double(cr.width) * iw, height: Double(cr.height) * ih)
        guard source.width != 0, source.height != 0 else { return nil }
        // Natural size of the shown part in points.
        let scale = max(Double(c.contentsScale), 1e-6)
        let nw = abs(Double(source.width)) / scale, nh = abs(Double(source.height)) / scale
        let bw = Double(bounds.width), bh = Double(bounds.height)
        var w = nw, h = nh
        switch c.gravity {
        case .resize: w = bw; h = bh
        case .resizeAspect:
            let s = min(bw / nw, bh / nh); w = nw * s; h = nh * s
        case .resizeAspectFill:
            let s = max(bw / nw, bh / nh); w = nw * s; h = nh * s
        default: break
        }
        let g = c.gravity.rawValue.lowercased()
        let x: Double, y: Double
        if g.hasSuffix("left") { x = 0 } else if g.hasSuffix("right") { x = bw - w } else { x = (bw - w) / 2 }
        if g.hasPrefix("top") { y = 0 } else if g.hasPrefix("bottom") { y = bh - h } else { y = (bh - h) / 2 }
        let dest = CGRect(x: Double(bounds.minX) + x, y: Double(bounds.minY) + y, width: w, height: h)
        let nearest = (w < nw ? c.minificationFilter : c.magnificationFilter) == .nearest
        return ImagePlacement(image: c.image, destination: dest, source: source, nearest: nearest)
    }
}
