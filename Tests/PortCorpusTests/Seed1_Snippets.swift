// Seed 001 — the one-line and declaration snippets, grouped by topic:
//   图层几何学 2. coordinate conversion; 显式动画 6. animationForKey/removeAnimationForKey;
//   图层时间 time conversion; 光栅化 `label.layer.shouldRasterize = true`;
//   CATextLayer `textLayer.contentsScale = [UIScreen mainScreen].scale`.
// Port note (completion): declarations only in the note; each is called once.
import Strata

// 001 图层几何学 2. 坐标系转换
func seed1ConvertPointsAndRects(_ layer: CALayer, _ other: CALayer) -> [Any] {
    let a = layer.convert(CGPoint(x: 0, y: 0), from: other)
    let b = layer.convert(CGPoint(x: 0, y: 0), to: other)
    let c = layer.convert(CGRect(x: 0, y: 0, width: 10, height: 10), from: other)
    let d = layer.convert(CGRect(x: 0, y: 0, width: 10, height: 10), to: other)
    return [a, b, c, d]
}

// 001 显式动画 6. 移除动画: animation(forKey:) / removeAnimation(forKey:)
func seed1RemoveAnimationIfRunning(_ layer: CALayer, key: String) {
    if layer.animation(forKey: key) != nil {
        layer.removeAnimation(forKey: key)
    }
}

// 001 图层时间 时间转换: convertTime(_:from:) / convertTime(_:to:)
func seed1ConvertTimes(_ layer: CALayer, _ other: CALayer?) -> (CFTimeInterval, CFTimeInterval) {
    let local = layer.convertTime(CACurrentMediaTime(), from: other)
    let back = layer.convertTime(local, to: other)
    return (local, back)
}

// 001 光栅化 (already Swift in the note)
func seed1Rasterize(_ label: UILabel) {
    label.layer.shouldRasterize = true
}

// 001 CATextLayer: fixes pixelated text on Retina
func seed1TextLayerScale(_ textLayer: CATextLayer) {
    textLayer.contentsScale = UIScreen.main.scale
}

// MARK: - Strata harness (not part of the port)

/// A label with a shadowed text rasterised, and a text layer at screen scale; a layer with
/// speed 2 whose time is converted at t = 1 (expect local time 2 when its beginTime is 0).
func makeSeed1SnippetsScene() -> Scene {
    let host = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 200))
    host.backgroundColor = UIColor.white
    let label = UILabel(frame: CGRect(x: 20, y: 20, width: 260, height: 40))
    label.text = "Rasterized label"
    label.layer.shadowOpacity = 0.5
    host.addSubview(label)
    seed1Rasterize(label)
    let textLayer = CATextLayer()
    textLayer.frame = CGRect(x: 20, y: 80, width: 260, height: 40)
    textLayer.string = "CATextLayer at screen scale"
    textLayer.fontSize = 18
    textLayer.foregroundColor = UIColor.black.cgColor
    seed1TextLayerScale(textLayer)
    host.layer.addSublayer(textLayer)
    let fast = CALayer()
    fast.speed = 2
    host.layer.addSublayer(fast)
    _ = seed1ConvertPointsAndRects(textLayer, host.layer)
    let scene = Scene(rootLayer: host.layer, size: host.bounds.size, frameRate: 30, duration: 2)
    scene.at(1) {
        _ = seed1ConvertTimes(fast, nil)
        seed1RemoveAnimationIfRunning(fast, key: "none")
    }
    return scene
}
