// Seed 004 一、图层树 1.1–1.5 and 四、视觉效果 4.3/4.4 and 性能优化 — the one-line snippets:
// contents, contentMode vs contentsGravity, contentsScale, (prose values for contentsRect and
// contentsCenter), magnificationFilter, shouldRasterize + rasterizationScale.
import Strata

// 004 1.1 — contents must be a CGImage.
func seed4SetContents(_ layer: CALayer, _ image: UIImage) {
    layer.contents = image.cgImage
}

// 004 1.1 — what one does for a view…
func seed4ViewContentMode(_ view: UIView) {
    view.contentMode = .scaleAspectFit
}

// … and the layer's equivalent.
func seed4LayerContentsGravity(_ layerView: UIView) {
    layerView.layer.contentsGravity = .resizeAspect
}

// 004 1.2 — contentsScale for Retina.
func seed4ContentsScale(_ layer: CALayer) {
    layer.contentsScale = UIScreen.main.scale
}

// 004 1.4 / 1.5 — values the note gives in prose (not code blocks): the top-left quarter of the
// image, and a nine-slice whose stretchable centre is the middle half.
func seed4ContentsRectAndCenter(_ layer: CALayer) {
    layer.contentsRect = CGRect(x: 0, y: 0, width: 0.5, height: 0.5)
    layer.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
}

// 004 4.3 拉伸过滤
func seed4NearestFilter(_ view: UIView) {
    view.layer.magnificationFilter = .nearest
}

// 004 4.4 组透明, and 性能优化 (the same two lines on a table view cell)
func seed4Rasterize(_ view: UIView) {
    view.layer.shouldRasterize = true
    view.layer.rasterizationScale = UIScreen.main.scale
}

func seed4RasterizeCell(_ cell: UITableViewCell) {
    cell.layer.shouldRasterize = true
    cell.layer.rasterizationScale = UIScreen.main.scale
}

// MARK: - Strata harness (not part of the port)

/// Row 1: "Snowman" in a 100×150 layer aspect-fit (gravity), in a UIImageView aspect-fit, and its
/// top-left quarter (contentsRect). Row 2: the 9-slice "Button" stretched to 200×60 with the middle
/// half stretching; a tiny 8×8 "Digits" image magnified ×12 with nearest filtering (blocky); a
/// half-transparent rasterised view with an opaque child (group opacity).
func makeSeed4ContentsSnippetsScene() -> Scene {
    let host = UIView(frame: CGRect(x: 0, y: 0, width: 360, height: 360))
    host.backgroundColor = UIColor.white
    let snowman = UIImage(named: "Snowman")!

    let a = UIView(frame: CGRect(x: 10, y: 10, width: 100, height: 150))
    seed4SetContents(a.layer, snowman)
    seed4LayerContentsGravity(a)
    seed4ContentsScale(a.layer)
    let b = UIImageView(frame: CGRect(x: 130, y: 10, width: 100, height: 150))
    b.image = snowman
    seed4ViewContentMode(b)
    let c = UIView(frame: CGRect(x: 250, y: 10, width: 100, height: 150))
    seed4SetContents(c.layer, snowman)
    seed4ContentsRectAndCenter(c.layer)

    let d = UIView(frame: CGRect(x: 10, y: 180, width: 200, height: 60))
    seed4SetContents(d.layer, UIImage(named: "Button")!)
    d.layer.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
    let e = UIView(frame: CGRect(x: 230, y: 180, width: 96, height: 96))
    seed4SetContents(e.layer, UIImage(named: "Digits")!)
    seed4NearestFilter(e)
    let f = UIView(frame: CGRect(x: 10, y: 260, width: 150, height: 80))
    f.backgroundColor = UIColor.blue
    f.alpha = 0.5
    let child = UIView(frame: CGRect(x: 20, y: 20, width: 110, height: 40))
    child.backgroundColor = UIColor.white
    f.addSubview(child)
    seed4Rasterize(f)

    for v in [a, b, c, d, e, f] { host.addSubview(v) }
    return Scene(rootLayer: host.layer, size: host.bounds.size, frameRate: 30, duration: 1)
}
