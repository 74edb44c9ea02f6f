import Foundation

/// Bilinear (or nearest) sampling of an image placed on a layer, clamping at the edges.
/// Texels are read as 32-bit words and weighted in Float; floor is done with integer
/// truncation (libm's floor showed up at 1 % of composite time).
struct ImageSampler {
    let width: Int, height: Int
    let sx0: Double, sxScale: Double, sy0: Double, syScale: Double
    let nearest: Bool
    /// Bilinear weights in steps of 1/256, the texels mixed in integers (ImagePlacement.sprite).
    let sprite: Bool

    init(_ p: ImagePlacement) {
        width = p.image.width; height = p.image.height
        let d = p.destination, s = p.source
        sxScale = Double(s.width) / Double(d.width); syScale = Double(s.height) / Double(d.height)
        sx0 = Double(s.minX) - Double(d.minX) * sxScale
        sy0 = Double(s.minY) - Double(d.minY) * syScale
        nearest = p.nearest
        sprite = p.sprite && !p.nearest
    }

    @inline(__always)
    static func floorInt(_ v: Double) -> Int {
        let t = Int(v.magnitude < 1e15 ? v : (v < 0 ? -1e15 : 1e15))
        return Double(t) > v ? t - 1 : t
    }

    @inline(__always)
    func texel(_ w: UnsafeBufferPointer<UInt32>, _ x: Int, _ y: Int) -> SIMD4<Float> {
        let cx = min(max(x, 0), width - 1), cy = min(max(y, 0), height - 1)
        let v = w[cy &* width &+ cx]
        // Bytes in memory are R, G, B, A: the little-endian word is A<<24 | B<<16 | G<<8 | R.
        return SIMD4(Float(v & 0xff), Float((v >> 8) & 0xff), Float((v >> 16) & 0xff), Float(v >> 24))
    }

    @inline(__always)
    func sample(_ w: UnsafeBufferPointer<UInt32>, _ u: Double, _ v: Double) -> SIMD4<Float> {
        let x = sx0 + u * sxScale, y = sy0 + v * syScale
        if nearest { return texel(w, ImageSampler.floorInt(x), ImageSampler.floorInt(y)) * (1 / 255) }
        let fx = x - 0.5, fy = y - 0.5
        let x0 = ImageSampler.floorInt(fx), y0 = ImageSampler.floorInt(fy)
        let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
        if sprite { return spriteSample(w, x0, y0, tx, ty) }
        // On a texel centre (an image drawn 1:1 at whole pixels, like most backing stores) the
        // weights are 0 and the interpolation below returns that texel exactly: fetch just it.
        if tx == 0 && ty == 0 { return texel(w, x0, y0) * (1 / 255) }
        let a = texel(w, x0, y0), b = texel(w, x0 + 1, y0), c = texel(w, x0, y0 + 1), d = texel(w, x0 + 1, y0 + 1)
        let top = a + (b - a) * tx, bottom = c + (d - c) * tx
        return (top + (bottom - top) * ty) * (1 / 255)
    }

    /// A sprite's bilinear sample from the footprint at (x0, y0) with fractions tx, ty: the
    /// weights rounded to 0…256 (of 256), each row `A·(256 − wx) + B·wx`, the rows mixed as
    /// `top − (top·wy·256 >> 16) + (bottom·wy·256 >> 16)` (bottom for wy = 256), over 255·256 —
    /// the integers of the kernels' FN(spriteLerp), channel by channel.
    @inline(__always)
    func spriteSample(_ w: UnsafeBufferPointer<UInt32>, _ x0: Int, _ y0: Int, _ tx: Float, _ ty: Float) -> SIMD4<Float> {
        let wx = UInt32(tx * 256 + 0.5), wy = UInt32(ty * 256 + 0.5)
        let ix = 256 - wx, wy8 = wy << 8
        let cx0 = min(max(x0, 0), width - 1), cx1 = min(max(x0 + 1, 0), width - 1)
        let r0 = min(max(y0, 0), height - 1) &* width, r1 = min(max(y0 + 1, 0), height - 1) &* width
        let a = w[r0 &+ cx0], b = w[r0 &+ cx1], c = w[r1 &+ cx0], d = w[r1 &+ cx1]
        var out = SIMD4<Float>()
        for ch in 0..<4 {
            let s = UInt32(8 * ch)
            let top = ((a >> s) & 0xff) &* ix &+ ((b >> s) & 0xff) &* wx
            let bottom = ((c >> s) & 0xff) &* ix &+ ((d >> s) & 0xff) &* wx
            let mix = wy == 256 ? bottom : top &- ((top &* wy8) >> 16) &+ ((bottom &* wy8) >> 16)
            out[ch] = Float(mix) / 65280
        }
        return out
    }
}
