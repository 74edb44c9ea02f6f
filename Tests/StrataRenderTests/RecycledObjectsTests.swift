// The display-list builder sets up again the shapes and glyph runs of earlier frames that nothing
// holds any more (RecycledObjects.swift): an object a display list still holds is never touched,
// one let go is reused, and the frames are those of a fresh builder whatever was reused.
import XCTest
@testable import StrataCore
@testable import StrataRender

final class RecycledObjectsTests: XCTestCase {
    private final class Box: Recyclable {
        var value: Int
        var freed = 0
        init(_ v: Int) { value = v }
        func becameFree() { freed += 1 }
    }

    func testOnlyObjectsNobodyElseHoldsAreSetUpAgain() {
        let recycled = RecycledObjects<Box>()
        recycled.begin()
        let a = recycled.object(settingUp: { $0.value = -1 }, else: { Box(1) })
        var b: Box? = recycled.object(settingUp: { $0.value = -1 }, else: { Box(2) })
        XCTAssertEqual(recycled.counts.handedOut, 2)
        weak let weakB = b
        b = nil
        recycled.begin()
        XCTAssertEqual(recycled.counts.free, 1)
        XCTAssertEqual(recycled.counts.handedOut, 1)
        let c = recycled.object(settingUp: { $0.value = 3 }, else: { Box(4) })
        XCTAssertTrue(c === weakB, "the object let go comes back")
        XCTAssertEqual(c.freed, 1, "told it was free, once")
        XCTAssertEqual(a.freed, 0)
        XCTAssertEqual(c.value, 3, "set up for its new use")
        XCTAssertEqual(a.value, 1, "the one still held is left alone")
        let d = recycled.object(settingUp: { $0.value = 5 }, else: { Box(6) })
        XCTAssertFalse(d === a)
        XCTAssertEqual(d.value, 6, "made anew when none is free")
    }

    func testTheHandedOutListIsBounded() {
        let recycled = RecycledObjects<Box>(limit: 4)
        var held: [Box] = []
        for round in 0..<3 {
            recycled.begin()
            for i in 0..<3 { held.append(recycled.object(settingUp: { $0.value = i }, else: { Box(round * 10 + i) })) }
        }
        recycled.begin()
        XCTAssertEqual(recycled.counts.handedOut, 4)
        XCTAssertEqual(recycled.counts.free, 0)
        XCTAssertEqual(held.map(\.value), [0, 1, 2, 10, 11, 12, 20, 21, 22], "nothing held was set up again")
    }

    /// A curve and a line of text that change every frame, and two to four overlapping
    /// translucent squares whose depth order changes (their faces are sorted in face lists the
    /// builder reuses).
    private func scene(_ t: Int) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let curve = CAShapeLayer()
        curve.frame = root.bounds
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 10, y: 80))
        path.addCurve(to: CGPoint(x: 190, y: 70), control1: CGPoint(x: 60, y: 10 + 5 * Double(t)),
                      control2: CGPoint(x: 140, y: 90 - 4 * Double(t)))
        curve.path = path
        curve.fillColor = nil
        curve.strokeColor = CGColor(red: 0.8, green: 0.1, blue: 0.2, alpha: 1)
        curve.lineWidth = 3
        root.addSublayer(curve)
        let text = CATextLayer()
        text.frame = CGRect(x: 8, y: 8, width: 190, height: 24)
        text.string = "frame \(t) of \(100 + 7 * t)"
        text.fontSize = 16
        text.foregroundColor = CGColor(red: 0, green: 0, blue: 0.3, alpha: 1)
        root.addSublayer(text)
        let stack = CALayer()
        stack.frame = CGRect(x: 120, y: 30, width: 70, height: 60)
        for i in 0..<(2 + t % 3) {
            let square = CALayer()
            square.frame = CGRect(x: 10 * i, y: 6 * i, width: 40, height: 40)
            square.backgroundColor = CGColor(red: i % 2 == 0 ? 1 : 0, green: i == 1 ? 0.8 : 0, blue: i >= 2 ? 1 : 0, alpha: 0.6)
            square.zPosition = CGFloat((i + t) % 3)
            stack.addSublayer(square)
        }
        root.addSublayer(stack)
        return root
    }

    private func objects(_ list: DisplayList) -> [AnyObject] {
        list.items.compactMap { item -> AnyObject? in
            switch item.op {
            case .vector(let shape, _): return shape
            case .glyphs(let placed, _): return placed
            default: return nil
            }
        }
    }

    /// A display list's item storage comes back to a later build once no list holds it; a list
    /// still held keeps its items, however many builds follow.
    func testItemListsComeBackOnlyWhenLetGo() {
        let cache = RenderCaches()
        let renderer = TileRenderer(options: RenderOptions(workers: 1))
        func list(_ t: Int) -> DisplayList {
            DisplayListBuilder(width: 200, height: 100, cache: cache).build(PresentationBuilder(time: 0).snapshotTree(of: scene(t)))
        }
        func storage(_ l: DisplayList) -> UInt { l.items.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        let kept = list(0)
        let keptItems = kept.items.count, keptPixels = renderer.render(kept, width: 200, height: 100).pixels
        var dropped: Set<UInt> = []
        var reused = 0
        for t in 1..<12 {
            let l = list(t)
            XCTAssertNotEqual(storage(l), storage(kept), "frame \(t) does not build into a list still held")
            if dropped.contains(storage(l)) { reused += 1 }
            dropped.insert(storage(l))
        }
        XCTAssertEqual(kept.items.count, keptItems)
        XCTAssertTrue(renderer.render(kept, width: 200, height: 100).pixels == keptPixels, "the held list draws as before")
        XCTAssertGreaterThanOrEqual(reused, 9, "lists let go give their storage to later builds")
    }

    func testFramesAreThoseOfFreshBuildersWhateverWasReused() {
        let cache = RenderCaches()
        let renderer = TileRenderer(options: RenderOptions(workers: 1))
        func list(_ t: Int, _ cache: RenderCaches) -> DisplayList {
            DisplayListBuilder(width: 200, height: 100, cache: cache).build(PresentationBuilder(time: 0).snapshotTree(of: scene(t)))
        }
        var held = list(0, cache)
        let heldPixels = renderer.render(held, width: 200, height: 100).pixels
        var earlier = objects(held).map(ObjectIdentifier.init)
        XCTAssertEqual(earlier.count, 2, "a shape and a glyph run")
        var reused = 0
        for t in 1..<6 {
            let next = list(t, cache)
            let now = objects(next).map(ObjectIdentifier.init)
            XCTAssertEqual(now.count, 2)
            XCTAssertTrue(Set(now).isDisjoint(with: Set(objects(held).map(ObjectIdentifier.init))),
                          "frame \(t) sets up none of the objects the list before it still holds")
            if t == 1 {
                // The first list, held all along, still draws what it drew.
                XCTAssertTrue(renderer.render(held, width: 200, height: 100).pixels == heldPixels, "the held list draws as before")
            }
            reused += now.filter { earlier.contains($0) }.count
            // (Compared with ==: a failure does not print two frames of bytes.)
            XCTAssertTrue(renderer.render(next, width: 200, height: 100).pixels
                          == renderer.render(list(t, RenderCaches()), width: 200, height: 100).pixels, "frame \(t)")
            earlier = objects(held).map(ObjectIdentifier.init)
            held = next
        }
        XCTAssertGreaterThanOrEqual(reused, 6, "the objects of the list let go two frames before come back")
    }

    /// A shape nothing holds gives its strips back to the pools at once, as its end would, even
    /// while no later frame sets it up again.
    func testAFreeShapeKeepsNoStrips() throws {
        let cache = RenderCaches()
        let renderer = TileRenderer(options: RenderOptions(workers: 1))
        var list: DisplayList? = DisplayListBuilder(width: 200, height: 100, cache: cache)
            .build(PresentationBuilder(time: 0).snapshotTree(of: scene(0)))
        _ = renderer.render(list!, width: 200, height: 100)
        weak let shape = objects(list!).compactMap { $0 as? VectorShape }.first
        XCTAssertGreaterThan(try XCTUnwrap(shape).stripCount, 0)
        list = nil
        let empty = CALayer()
        empty.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        _ = DisplayListBuilder(width: 200, height: 100, cache: cache).build(PresentationBuilder(time: 0).snapshotTree(of: empty))
        XCTAssertNotNil(shape, "kept for a later frame")
        XCTAssertEqual(shape?.stripCount, 0)
    }
}
