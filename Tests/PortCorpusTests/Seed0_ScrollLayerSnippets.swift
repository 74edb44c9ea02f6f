// Seed 000 §5.6 CAScrollLayer — the core API (declared on CALayer in QuartzCore):
//   func scroll(_ p: CGPoint)            // -scrollPoint:
//   func scrollRectToVisible(_ r: CGRect)
//   var visibleRect: CGRect { get }
import Strata

// Port note (completion): declarations only in the note; each is used once here on a sublayer of a
// scroll layer.
func scrollLayerAPI(_ content: CALayer) -> CGRect {
    content.scroll(CGPoint(x: 50, y: 20))
    content.scrollRectToVisible(CGRect(x: 300, y: 300, width: 50, height: 50))
    return content.visibleRect
}

// MARK: - Strata harness (not part of the port)

/// A 200×200 CAScrollLayer (masksToBounds) over a 600×600 content layer showing "Snowman"; at
/// t = 0.5 the content scrolls to (50, 20), at t = 1 so that (300, 300, 50, 50) is visible (the
/// scroll layer's bounds origin becomes (150, 150)).
func makeSeed0ScrollLayerAPIScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 240, height: 240)
    let scrollLayer = CAScrollLayer()
    scrollLayer.frame = CGRect(x: 20, y: 20, width: 200, height: 200)
    scrollLayer.masksToBounds = true
    let content = CALayer()
    content.frame = CGRect(x: 0, y: 0, width: 600, height: 600)
    content.contents = UIImage(named: "Snowman")?.cgImage
    scrollLayer.addSublayer(content)
    root.addSublayer(scrollLayer)
    let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1.5)
    scene.at(0.5) { content.scroll(CGPoint(x: 50, y: 20)) }
    scene.at(1.0) { _ = scrollLayerAPI(content) }
    return scene
}
