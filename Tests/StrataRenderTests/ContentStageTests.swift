import XCTest
import StrataCore
@testable import StrataRender
import StrataTestSupport

/// The content stage (ContentStage.swift): a frame's backing stores and rasterised subtrees are
/// made together as jobs before the frame is built again, with the same pixels as making each
/// where the build meets it.
final class ContentStageTests: XCTestCase {
    /// A layer drawing a ring with `draw(in:)`: custom drawing always goes to a backing store.
    private final class Ring: CALayer {
        override func draw(in ctx: CGContext) {
            ctx.setStrokeColor(CGColor(red: 0.8, green: 0.1, blue: 0.3, alpha: 1))
            ctx.setLineWidth(6)
            ctx.strokeEllipse(in: bounds.insetBy(dx: 8, dy: 8))
        }
    }

    /// Four kinds of content the build cannot draw straight into the tiles: custom drawing, text
    /// under a non-uniform scale, a `shadowPath` shadow and a `shouldRasterize` subtree, plus a
    /// shadow path too large to rasterise (it draws nothing, as before).
    private func scene() -> (root: CALayer, ring: Ring, card: CALayer) {
        let root = canvas(240, 180)
        let ring = Ring()
        ring.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
        ring.setNeedsDisplay()
        root.addSublayer(ring)
        let text = CATextLayer()
        text.frame = CGRect(x: 100, y: 10, width: 120, height: 30)
        text.string = "Stage"
        text.fontSize = 18
        text.foregroundColor = color(0, 0, 0)
        text.transform = CATransform3DMakeScale(1.5, 1, 1)
        root.addSublayer(text)
        let shadowed = box(CGRect(x: 110, y: 60, width: 60, height: 40), color(0.2, 0.6, 0.9))
        shadowed.shadowOpacity = 0.8
        shadowed.shadowRadius = 4
        shadowed.shadowPath = CGPath(roundedRect: shadowed.bounds, cornerWidth: 8, cornerHeight: 8, transform: nil)
        root.addSublayer(shadowed)
        let huge = box(CGRect(x: 0, y: 170, width: 4, height: 4), color(0, 0, 0))
        huge.shadowOpacity = 1
        huge.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 100_000, height: 10), transform: nil)
        root.addSublayer(huge)
        let card = box(CGRect(x: 20, y: 100, width: 90, height: 60), color(0.9, 0.7, 0.2))
        card.addSublayer(box(CGRect(x: 10, y: 10, width: 30, height: 30), color(0.1, 0.4, 0.2)))
        card.shouldRasterize = true
        root.addSublayer(card)
        root.displayTreeIfNeeded()
        return (root, ring, card)
    }

    /// The single build of a renderer that rasterises where it meets content (the path before the
    /// content stage), tile stage included.
    private func inline(_ root: CALayer, workers: Int) -> Bitmap {
        let cache = RenderCaches()
        let builder = DisplayListBuilder(width: 240, height: 180, cache: cache)
        let list = builder.build(PresentationBuilder(time: 0).snapshotTree(of: root))
        return TileRenderer(options: RenderOptions(workers: workers)).render(list, width: 240, height: 180)
    }

    func testContentIsMadeOnceTogetherWithTheSamePixels() {
        let (root, ring, card) = scene()
        for workers in [1, 2] {
            let cache = RenderCaches()
            let renderer = FrameRenderer(width: 240, height: 180, options: RenderOptions(workers: workers), cache: cache)
            let builder = DisplayListBuilder(width: 240, height: 180, cache: cache)
            let dispatcher = RenderOptions(workers: workers).dispatcher
            let snapshot = PresentationBuilder(time: 0).snapshotTree(of: root)

            // First frame: the ring's drawing, the text, the shadow mask, the subtree and the
            // oversized shadow are asked for; four are made (the fifth draws nothing).
            let first = ContentStage.displayList(of: snapshot, builder: builder, dispatcher: dispatcher)
            XCTAssertEqual(first.made, 5, "workers \(workers)")
            XCTAssertEqual(cache.statistics.misses, 4)
            let frame = renderer.drawTiles(of: first.list).0
            cache.endFrame()
            XCTAssertEqual(frame.pixels, inline(root, workers: workers).pixels, "workers \(workers): the same bytes as inline")

            // Next frame: all cached (the empty one remembered), one build.
            let again = ContentStage.displayList(of: snapshot, builder: builder, dispatcher: dispatcher)
            XCTAssertEqual(again.made, 0)
            XCTAssertEqual(cache.statistics.misses, 4)
            XCTAssertEqual(again.list.items.count, first.list.items.count)
            cache.endFrame()
        }

        // A changed drawing and a changed subtree are made again; the rest is reused.
        let cache = RenderCaches()
        let builder = DisplayListBuilder(width: 240, height: 180, cache: cache)
        _ = ContentStage.displayList(of: PresentationBuilder(time: 0).snapshotTree(of: root), builder: builder,
                                     dispatcher: SerialDispatcher())
        cache.endFrame()
        ring.setNeedsDisplay()      // drawn again the same: no new request
        card.sublayers![0].backgroundColor = color(0.9, 0.1, 0.1)
        root.displayTreeIfNeeded()
        let changed = ContentStage.displayList(of: PresentationBuilder(time: 0).snapshotTree(of: root), builder: builder,
                                               dispatcher: SerialDispatcher())
        XCTAssertEqual(changed.made, 1, "only the subtree whose sublayer changed")
    }
}
