// Where a layer's image contents go: contentsGravity picks the destination rectangle in the
// layer's bounds, contentsRect picks the part of the image (CORE_ANIMATION.md §2).
// **Strata:** `.top` is the visual top (Apple's y-up quirk is not copied).
import Foundation
import StrataCore

enum ContentsPlacement {
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
