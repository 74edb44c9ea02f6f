// Seed 000 §3.1 拉伸过滤 (scaling filters): the three filters the note lists (kCAFilterLinear — the
// default for both minification and magnification —, kCAFilterNearest, kCAFilterTrilinear), in
// their Swift spellings. A prose list in the note, not a code block.
import Strata

// Port note (completion): the note names the constants only; each is assigned once.
func applyScalingFilters(linear: CALayer, nearest: CALayer, trilinear: CALayer) {
    linear.minificationFilter = .linear
    linear.magnificationFilter = .linear
    nearest.minificationFilter = .nearest
    nearest.magnificationFilter = .nearest
    trilinear.minificationFilter = .trilinear
    trilinear.magnificationFilter = .trilinear
}

// MARK: - Strata harness (not part of the port)

/// Top row: the 8×8 "Digits" image magnified to 96×96 with linear (blurry), nearest (blocky),
/// trilinear (like linear). Bottom row: "Snowman" shrunk to 48×48 with the same three filters
/// (nearest shimmers/aliases; trilinear smoother than linear for large reductions).
func makeSeed0ScalingFiltersScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 340, height: 180)
    root.backgroundColor = UIColor.white.cgColor
    var layers: [CALayer] = []
    for (row, name) in ["Digits", "Snowman"].enumerated() {
        for column in 0..<3 {
            let layer = CALayer()
            let side: CGFloat = row == 0 ? 96 : 48
            layer.frame = CGRect(x: 10 + 110 * CGFloat(column), y: 10 + 110 * CGFloat(row), width: side, height: side)
            layer.contents = UIImage(named: name)?.cgImage
            root.addSublayer(layer)
            layers.append(layer)
        }
    }
    applyScalingFilters(linear: layers[0], nearest: layers[1], trilinear: layers[2])
    applyScalingFilters(linear: layers[3], nearest: layers[4], trilinear: layers[5])
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
