// How many backing-store pixels per layer point a layer needs: the largest local-to-screen
// stretch over the area it draws (so content is never magnified from a smaller bitmap), rounded
// up to a quarter octave so small scale changes reuse one backing store, and capped so that no
// backing store exceeds `maximumPixels`.
import Foundation
import StrataCore

enum BackingScale {
    static let maximumPixels = 4096.0 * 4096.0

    static func choose(for area: CGRect, _ H: Homography, frameWidth: Int, frameHeight: Int) -> Double {
        var stretch = 0.0
        let xs = [Double(area.minX), Double(area.midX), Double(area.maxX)]
        let ys = [Double(area.minY), Double(area.midY), Double(area.maxY)]
        let m = H.m
        for x in xs { for y in ys {
            let (X, Y, W) = H.apply(x, y)
            guard W > 1e-9 else { continue }
            // Jacobian of (X/W, Y/W) with respect to (x, y).
            let dXdx = (m.0 - X / W * m.2) / W, dXdy = (m.3 - X / W * m.5) / W
            let dYdx = (m.1 - Y / W * m.2) / W, dYdy = (m.4 - Y / W * m.5) / W
            // Largest singular value of [[dXdx, dXdy], [dYdx, dYdy]].
            let a = dXdx * dXdx + dYdx * dYdx, b = dXdx * dXdy + dYdx * dYdy, c = dXdy * dXdy + dYdy * dYdy
            let sMax = ((a + c) / 2 + (((a - c) / 2) * ((a - c) / 2) + b * b).squareRoot()).squareRoot()
            stretch = max(stretch, sMax)
        } }
        if !stretch.isFinite || stretch <= 0 { stretch = 1 }
        // A quarter-octave bucket at or above the stretch (exactly 1 for untransformed layers).
        var bucket = pow(2, (log2(stretch) * 4 - 1e-9).rounded(.up) / 4)
        let area = max(Double(area.width * area.height), 1e-9)
        bucket = min(bucket, (maximumPixels / area).squareRoot())
        // Never more detail than the whole frame could show.
        return max(bucket, 1.0 / 64)
    }
}
