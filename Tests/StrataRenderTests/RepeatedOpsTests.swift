// The display list builder shares the fills, borders, gradients and images of the last frame
// built where the same ones are made at the same place again (RepeatedOps.swift): a moving tree
// makes none anew, a changed op is made anew with its new values, and a tree whose shape changed
// gives the frame a fresh builder gives.
import XCTest
@testable import StrataCore
@testable import StrataRender

final class RepeatedOpsTests: XCTestCase {
    /// A row of cards (gradient, border, background) and an image, the first card turned by `angle`.
    private func scene(angle: CGFloat, border: CGColor = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1),
                       extraFirst: Bool = false, image: CGImage) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 240, height: 120)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        if extraFirst {
            let extra = CALayer()
            extra.frame = CGRect(x: 4, y: 4, width: 30, height: 30)
            extra.backgroundColor = CGColor(red: 0, green: 0.6, blue: 0, alpha: 1)
            root.addSublayer(extra)
        }
        for i in 0..<3 {
            let card = CAGradientLayer()
            card.frame = CGRect(x: 10 + CGFloat(i) * 70, y: 20, width: 60, height: 50)
            card.colors = [CGColor(red: 1, green: 0.5, blue: 0, alpha: 1), CGColor(red: 0.2, green: 0, blue: 1, alpha: 1)]
            card.cornerRadius = 8
            card.masksToBounds = true
            card.borderWidth = 2
            card.borderColor = i == 1 ? border : CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)
            if i == 0 { card.transform = CATransform3DMakeRotation(angle, 0, 0, 1) }
            root.addSublayer(card)
        }
        let picture = CALayer()
        picture.frame = CGRect(x: 20, y: 80, width: 32, height: 32)
        picture.contents = image
        root.addSublayer(picture)
        return root
    }

    private func checker() -> CGImage {
        var pixels = [UInt8](repeating: 255, count: 4 * 4 * 4)
        for y in 0..<4 { for x in 0..<4 where (x + y) % 2 == 0 { for c in 0..<3 { pixels[(y * 4 + x) * 4 + c] = 0 } } }
        return CGImage(bitmap: Bitmap(width: 4, height: 4, pixels: pixels))
    }

    private func counts(_ cache: RenderCaches) -> (repeated: Int, made: Int) {
        cache.lastBuild.withCheckedLock { ($0?.ops.repeated ?? -1, $0?.ops.made ?? -1) }
    }

    private func build(_ root: CALayer, _ cache: RenderCaches) -> DisplayList {
        DisplayListBuilder(width: 240, height: 120, cache: cache).build(PresentationBuilder(time: 0).snapshotTree(of: root))
    }

    func testAMovingTreeMakesNoOpAnew() {
        let cache = RenderCaches(), image = checker()
        _ = build(scene(angle: 0, image: image), cache)
        // Root background, three cards of a gradient and a border, the image.
        XCTAssertEqual(counts(cache).made, 8)
        XCTAssertEqual(counts(cache).repeated, 0)
        let list = build(scene(angle: 0.3, image: image), cache)
        XCTAssertEqual(counts(cache).made, 8, "the turned card's ops are the same in its own plane")
        XCTAssertEqual(counts(cache).repeated, 8)
        XCTAssertEqual(list.items.count, 8)
    }

    func testAChangedOpIsMadeAnewWithItsValues() {
        let cache = RenderCaches(), image = checker()
        _ = build(scene(angle: 0, image: image), cache)
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let list = build(scene(angle: 0, border: red, image: image), cache)
        XCTAssertEqual(counts(cache).made, 9)
        XCTAssertEqual(counts(cache).repeated, 7)
        let rings = list.items.compactMap { item -> SIMD4<Float>? in
            if case .ring(_, _, let c) = item.op { return c } else { return nil }
        }
        XCTAssertEqual(rings.count, 3)
        XCTAssertEqual(rings[1], SIMD4(1, 0, 0, 1))
        XCTAssertNotEqual(rings[0], SIMD4(1, 0, 0, 1))
    }

    /// Frames do not depend on what the record kept: a tree that changes shape between frames
    /// (a layer inserted before the others, every later op one place further) renders as with a
    /// fresh cache, and so does the frame after, when the shape is back.
    func testFramesAreThoseOfAFreshBuilderWhateverWasKept() {
        let cache = RenderCaches(), image = checker()
        let renderer = TileRenderer(options: RenderOptions(workers: 1))
        func frame(_ root: CALayer, _ cache: RenderCaches) -> [UInt8] {
            renderer.render(build(root, cache), width: 240, height: 120).pixels
        }
        _ = frame(scene(angle: 0, image: image), cache)
        let shifted = scene(angle: 0.2, extraFirst: true, image: image)
        XCTAssertEqual(frame(shifted, cache), frame(shifted, RenderCaches()))
        XCTAssertGreaterThan(counts(cache).made, 0)
        let back = scene(angle: 0.4, border: CGColor(red: 0, green: 0, blue: 1, alpha: 1), image: image)
        XCTAssertEqual(frame(back, cache), frame(back, RenderCaches()))
    }
}
