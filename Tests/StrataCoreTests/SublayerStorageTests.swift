// A layer's sublayer and animation lists are changed in place: adding a sublayer (or an animation
// under a new key) while a tree is built appends to the stored list without copying it — O(1)
// amortised, where a recording property observer copied the whole list each time — and inside a
// recording scene block every change is still recorded, so the history undoes and redoes it.
import Foundation
import XCTest
@testable import StrataCore

final class SublayerStorageTests: XCTestCase {
    /// The address of a list's elements.
    private func address<T>(_ list: [T]) -> UnsafeRawPointer? {
        list.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    func testAddingSublayersAppendsInPlace() {
        let parent = CALayer()
        var inPlace = 0, grown = 0
        for i in 0..<2_000 {
            let before = address(parent.sublayerStorage)
            let hadRoom = parent.sublayerStorage.count < parent.sublayerStorage.capacity
            let child = CALayer()
            child.name = "\(i)"
            parent.addSublayer(child)
            if hadRoom {
                XCTAssertEqual(address(parent.sublayerStorage), before, "adding sublayer \(i) copied the list")
                inPlace += 1
            } else {
                grown += 1
            }
        }
        XCTAssertGreaterThan(inPlace, 1_900, "most additions find room")
        XCTAssertLessThan(grown, 20, "the list grows geometrically")
        XCTAssertEqual(parent.sublayers?.count, 2_000)
        XCTAssertEqual(parent.sublayers?.map { $0.name! }, (0..<2_000).map { "\($0)" })
        XCTAssertTrue(parent.sublayers!.allSatisfy { $0.superlayer === parent })
    }

    func testInsertingKeepsApplesOrderSemantics() {
        let parent = CALayer()
        let a = CALayer(), b = CALayer(), c = CALayer(), d = CALayer()
        parent.addSublayer(a)
        parent.addSublayer(b)
        parent.insertSublayer(c, at: 0)
        parent.insertSublayer(d, at: 99)          // clamped: appended
        XCTAssertEqual(parent.sublayers?.map(ObjectIdentifier.init), [c, a, b, d].map(ObjectIdentifier.init))
        parent.insertSublayer(d, at: 1)           // moved within the same parent
        XCTAssertEqual(parent.sublayers?.map(ObjectIdentifier.init), [c, d, a, b].map(ObjectIdentifier.init))
        a.removeFromSuperlayer()
        XCTAssertNil(a.superlayer)
        XCTAssertEqual(parent.sublayers?.map(ObjectIdentifier.init), [c, d, b].map(ObjectIdentifier.init))
        parent.sublayers = nil
        XCTAssertNil(parent.sublayers, "no sublayers reads as nil, as on iOS")
        XCTAssertNil(b.superlayer)
    }

    func testAddingAnimationsUnderNewKeysAppendsInPlace() {
        let layer = CALayer()
        var inPlace = 0
        for i in 0..<2_000 {
            let before = address(layer.animationStorage.entries)
            let hadRoom = layer.animationStorage.entries.count < layer.animationStorage.entries.capacity
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0; a.toValue = 1; a.duration = 1; a.beginTime = Double(i) + 1
            layer.add(a, forKey: "k\(i)")
            if hadRoom {
                XCTAssertEqual(address(layer.animationStorage.entries), before, "adding animation \(i) copied the list")
                inPlace += 1
            }
        }
        XCTAssertGreaterThan(inPlace, 1_900)
        XCTAssertEqual(layer.animationKeys()?.count, 2_000)
        XCTAssertTrue(layer.animationStorage.testOnly_verifyInvariants())
        // A key used again replaces its animation, wherever it is in the list.
        let again = CABasicAnimation(keyPath: "opacity")
        again.toValue = 0.5; again.beginTime = 1
        layer.add(again, forKey: "k7")
        XCTAssertEqual(layer.animationKeys()?.count, 2_000)
        XCTAssertEqual(layer.animationKeys()?.last, "k7")
        XCTAssertEqual((layer.animation(forKey: "k7") as? CABasicAnimation)?.toValue as? Double, 0.5)
        layer.removeAnimation(forKey: "k3")
        XCTAssertNil(layer.animation(forKey: "k3"))
        XCTAssertEqual(layer.animationKeys()?.count, 1_999)
        XCTAssertTrue(layer.animationStorage.testOnly_verifyInvariants())
    }

    func testChangesInARecordingBlockAreUndoneAndRedone() {
        let parent = CALayer()
        let a = CALayer(), b = CALayer(), c = CALayer()
        parent.addSublayer(a)
        parent.addSublayer(b)
        let log = ModelChangeLog()
        let context = SceneContext(time: 1, changeLog: log) { _, _ in }
        SceneClock.run(in: context) {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            parent.addSublayer(c)
            parent.insertSublayer(b, at: 0)
            a.removeFromSuperlayer()
            let move = CABasicAnimation(keyPath: "opacity")
            move.fromValue = 0; move.toValue = 1; move.duration = 1
            parent.add(move, forKey: "fade")
            CATransaction.commit()
        }
        let after = parent.sublayers?.map(ObjectIdentifier.init)
        XCTAssertEqual(after, [b, c].map(ObjectIdentifier.init))
        XCTAssertEqual(parent.animationKeys(), ["fade"])
        XCTAssertFalse(log.isEmpty)

        SceneClock.run(in: SceneContext.replaying()) { for change in log.changes.reversed() { change.undo() } }
        XCTAssertEqual(parent.sublayers?.map(ObjectIdentifier.init), [a, b].map(ObjectIdentifier.init), "undone")
        XCTAssertTrue(a.superlayer === parent)
        XCTAssertNil(c.superlayer)
        XCTAssertNil(parent.animationKeys())

        SceneClock.run(in: SceneContext.replaying()) { for change in log.changes { change.redo() } }
        XCTAssertEqual(parent.sublayers?.map(ObjectIdentifier.init), after, "redone")
        XCTAssertNil(a.superlayer)
        XCTAssertEqual(parent.animationKeys(), ["fade"])
        XCTAssertTrue(parent.animationStorage.testOnly_verifyInvariants())
    }
}
