// Layout (CORE_ANIMATION.md §1.2): setNeedsLayout / layoutIfNeeded / needsLayout, an overridden
// layoutSublayers, the delegate's layoutSublayers(of:), a bounds-size change marking layout (a
// position change not), parents laid out before children in one pass, and CAScrollLayer's
// scrolling services (scroll(to:) per scrollMode, scroll(_:) and scrollRectToVisible(_:) from a
// sublayer, visibleRect). The scene running layout before each frame is checked end to end in
// StrataTests/CustomDrawingSceneTests.
import Foundation
import XCTest
import StrataCore

/// Stacks its sublayers vertically, each as wide as the bounds and `rowHeight` tall.
private final class StackLayer: CALayer {
    var rowHeight: CGFloat = 20
    var log: [String] = []
    var onLayout: ((StackLayer) -> Void)?

    override func layoutSublayers() {
        log.append(name ?? "stack")
        onLayout?(self)
        for (i, s) in (sublayers ?? []).enumerated() {
            s.frame = CGRect(x: 0, y: CGFloat(i) * rowHeight, width: bounds.width, height: rowHeight)
        }
    }
}

private final class LayoutDelegate: CALayerDelegate {
    var calls: [CALayer] = []
    func layoutSublayers(of layer: CALayer) {
        calls.append(layer)
        for s in layer.sublayers ?? [] { s.frame = layer.bounds.insetBy(dx: 5, dy: 5) }
    }
}

final class LayoutTests: XCTestCase {
    func testSetNeedsLayoutThenLayoutIfNeeded() {
        let stack = StackLayer()
        stack.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let a = CALayer(), b = CALayer()
        stack.addSublayer(a); stack.addSublayer(b)
        stack.layoutIfNeeded()
        // Resizing the sublayers marked the stack again (a sublayer's size change marks its
        // superlayer, UIKit's layoutSubviews rule); the next pass changes nothing and settles.
        XCTAssertTrue(stack.needsLayout())
        stack.layoutIfNeeded()
        XCTAssertFalse(stack.needsLayout())
        stack.log.removeAll()

        stack.setNeedsLayout()
        XCTAssertTrue(stack.needsLayout())
        stack.layoutIfNeeded()
        XCTAssertEqual(stack.log, ["stack"])
        XCTAssertFalse(stack.needsLayout())
        XCTAssertEqual(a.frame, CGRect(x: 0, y: 0, width: 100, height: 20))
        XCTAssertEqual(b.frame, CGRect(x: 0, y: 20, width: 100, height: 20))
        // Nothing marked: nothing runs.
        stack.layoutIfNeeded()
        XCTAssertEqual(stack.log, ["stack"])
    }

    func testBoundsSizeChangeMarksLayoutPositionDoesNot() {
        let stack = StackLayer()
        stack.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let a = CALayer()
        stack.addSublayer(a)
        stack.layoutIfNeeded()
        stack.layoutIfNeeded()
        stack.log.removeAll()
        XCTAssertFalse(stack.needsLayout())

        stack.position = CGPoint(x: 300, y: 300)
        XCTAssertFalse(stack.needsLayout())
        stack.bounds.origin = CGPoint(x: 10, y: 0)          // same size: no layout
        XCTAssertFalse(stack.needsLayout())
        stack.bounds.size = CGSize(width: 240, height: 100)
        XCTAssertTrue(stack.needsLayout())
        stack.layoutIfNeeded()
        XCTAssertEqual(stack.log, ["stack"])
        XCTAssertEqual(a.frame, CGRect(x: 0, y: 0, width: 240, height: 20))
    }

    func testDelegateLaysOutPlainLayers() {
        let delegate = LayoutDelegate()
        let parent = CALayer()
        parent.delegate = delegate
        parent.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
        let child = CALayer()
        parent.addSublayer(child)
        parent.setNeedsLayout()
        parent.layoutIfNeeded()
        XCTAssertEqual(delegate.calls.count, 1)
        XCTAssertTrue(delegate.calls.first === parent)
        XCTAssertEqual(child.frame, CGRect(x: 5, y: 5, width: 70, height: 50))
    }

    func testParentsBeforeChildrenInOnePass() {
        let outer = StackLayer()
        outer.name = "outer"
        outer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        outer.rowHeight = 50
        let inner = StackLayer()
        inner.name = "inner"
        outer.addSublayer(inner)
        let leaf = CALayer()
        inner.addSublayer(leaf)
        // Both marked; the outer layout resizes the inner one (marking it again), and the same
        // pass then lays the inner one out with its new size.
        var order: [String] = []
        outer.onLayout = { _ in order.append("outer") }
        inner.onLayout = { l in order.append("inner \(l.bounds.width)") }
        outer.setNeedsLayout()
        inner.setNeedsLayout()
        outer.layoutIfNeeded()
        XCTAssertEqual(order, ["outer", "inner 100.0"])
        XCTAssertEqual(inner.frame, CGRect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(leaf.frame, CGRect(x: 0, y: 0, width: 100, height: 20))
    }

    // MARK: CAScrollLayer

    func testScrollToPointPerMode() {
        let scroller = CAScrollLayer()
        scroller.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        scroller.scroll(to: CGPoint(x: 300, y: 40))
        XCTAssertEqual(scroller.bounds, CGRect(x: 300, y: 40, width: 200, height: 100))
        XCTAssertEqual(scroller.frame, CGRect(x: 0, y: 0, width: 200, height: 100))  // the frame stays
        scroller.scrollMode = .horizontally
        scroller.scroll(to: CGPoint(x: 10, y: 10))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 10, y: 40))
        scroller.scrollMode = .vertically
        scroller.scroll(to: CGPoint(x: 99, y: 0))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 10, y: 0))
        scroller.scrollMode = .none
        scroller.scroll(to: CGPoint(x: 50, y: 50))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 10, y: 0))
    }

    func testScrollToRectMovesTheLeastDistance() {
        let scroller = CAScrollLayer()
        scroller.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        // Right of the view: its right edge comes to the right edge.
        scroller.scroll(to: CGRect(x: 300, y: 20, width: 50, height: 30))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 150, y: 0))
        // Already visible: nothing moves.
        scroller.scroll(to: CGRect(x: 160, y: 10, width: 20, height: 20))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 150, y: 0))
        // Left of and below the view.
        scroller.scroll(to: CGRect(x: 100, y: 150, width: 20, height: 20))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 100, y: 70))
        // Larger than the view: aligned at its top-left.
        scroller.scroll(to: CGRect(x: 500, y: 500, width: 400, height: 300))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 500, y: 500))
    }

    func testScrollingFromSublayersAndVisibleRect() {
        let scroller = CAScrollLayer()
        scroller.frame = CGRect(x: 20, y: 20, width: 200, height: 100)
        let strip = CALayer()
        strip.frame = CGRect(x: 0, y: 0, width: 1000, height: 100)
        scroller.addSublayer(strip)
        let item = CALayer()
        item.frame = CGRect(x: 600, y: 10, width: 50, height: 50)
        strip.addSublayer(item)

        XCTAssertEqual(strip.visibleRect, CGRect(x: 0, y: 0, width: 200, height: 100))
        XCTAssertEqual(item.visibleRect, .null)
        // scroll(_:) puts the point (in the caller's coordinates) at the scroll layer's origin.
        strip.scroll(CGPoint(x: 390, y: 0))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 390, y: 0))
        XCTAssertEqual(strip.visibleRect, CGRect(x: 390, y: 0, width: 200, height: 100))
        // item spans strip x 600…650; visible strip x 390…590: nothing of it yet.
        XCTAssertEqual(item.visibleRect, .null)
        // scrollRectToVisible from the item: its bounds come to the right edge (origin 650 − 200).
        item.scrollRectToVisible(item.bounds)
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 450, y: 0))
        XCTAssertEqual(item.visibleRect, item.bounds)
        // Half of it: scroll so the strip shows x 425…625.
        scroller.scroll(to: CGPoint(x: 425, y: 0))
        XCTAssertEqual(item.visibleRect, CGRect(x: 0, y: 0, width: 25, height: 50))
        // On the scroll layer itself scroll(_:) is scroll(to:).
        scroller.scroll(CGPoint(x: 7, y: 0))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 7, y: 0))
        // Without a scroll layer nothing happens and the visible rect is the bounds.
        let lone = CALayer()
        lone.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        lone.scroll(CGPoint(x: 5, y: 5))
        XCTAssertEqual(lone.bounds.origin, .zero)
        XCTAssertEqual(lone.visibleRect, lone.bounds)
    }

    func testScrollLayerCopiesItsModeToPresentationCopies() {
        let scroller = CAScrollLayer()
        scroller.scrollMode = .vertically
        let copy = CAScrollLayer(layer: scroller)
        XCTAssertEqual(copy.scrollMode, .vertically)
    }
}
