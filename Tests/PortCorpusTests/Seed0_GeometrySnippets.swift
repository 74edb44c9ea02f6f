// Seed 000 §2.2 锚点 anchorPoint (position/frame formulas) and §2.3 坐标系 (coordinate conversion).
import Strata

// 000 §2.2 — how position, frame.origin and anchorPoint relate.
// Port note (completion): the note writes the four formulas as bare statements; wrapped in a
// function that reads them from a layer.
func anchorPointFormulas(_ layer: CALayer) -> (position: CGPoint, frameOrigin: CGPoint) {
    let frame = layer.frame
    let bounds = layer.bounds
    let anchorPoint = layer.anchorPoint

    var position = CGPoint.zero
    position.x = frame.origin.x + anchorPoint.x * bounds.size.width
    position.y = frame.origin.y + anchorPoint.y * bounds.size.height

    var origin = CGPoint.zero
    origin.x = layer.position.x - anchorPoint.x * bounds.size.width
    origin.y = layer.position.y - anchorPoint.y * bounds.size.height
    return (position, origin)
}

// 000 §2.3 — the four conversion methods:
//   func convert(_ p: CGPoint, from l: CALayer?) -> CGPoint
//   func convert(_ p: CGPoint, to l: CALayer?) -> CGPoint
//   func convert(_ r: CGRect, from l: CALayer?) -> CGRect
//   func convert(_ r: CGRect, to l: CALayer?) -> CGRect
// Port note (completion): declarations only in the note; here each is called once.
func convertBetweenLayers(_ layer: CALayer, _ other: CALayer) -> [Any] {
    let p1 = layer.convert(CGPoint(x: 10, y: 10), from: other)
    let p2 = layer.convert(CGPoint(x: 10, y: 10), to: other)
    let r1 = layer.convert(CGRect(x: 0, y: 0, width: 20, height: 20), from: other)
    let r2 = layer.convert(CGRect(x: 0, y: 0, width: 20, height: 20), to: other)
    return [p1, p2, r1, r2]
}

// MARK: - Strata harness (not part of the port)

/// Two 100×60 layers at the same position (150, 100): the second has anchorPoint (0, 0), so its
/// frame moves right and down by half its size (the note's figure in §2.2).
func makeSeed0AnchorPointScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 300, height: 200)
    root.backgroundColor = UIColor.white.cgColor
    let centered = CALayer()
    centered.bounds = CGRect(x: 0, y: 0, width: 100, height: 60)
    centered.position = CGPoint(x: 150, y: 100)
    centered.backgroundColor = UIColor.red.cgColor
    let corner = CALayer()
    corner.bounds = CGRect(x: 0, y: 0, width: 100, height: 60)
    corner.position = CGPoint(x: 150, y: 100)
    corner.anchorPoint = CGPoint(x: 0, y: 0)
    corner.backgroundColor = UIColor.blue.withAlphaComponent(0.5).cgColor
    root.addSublayer(centered)
    root.addSublayer(corner)
    _ = anchorPointFormulas(corner)
    _ = convertBetweenLayers(centered, corner)
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
