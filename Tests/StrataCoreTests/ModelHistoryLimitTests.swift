// ModelHistory with a change limit: it releases the oldest segments once more than the limit's
// changes are kept — exactly as many as needed, their values freed — and still moves the model
// to any time from the last released segment's on.
import Foundation
import XCTest
@testable import StrataCore

/// A value that notes when it is freed.
private final class Tracked {
    let id: Int
    let onFree: (Int) -> Void
    init(_ id: Int, onFree: @escaping (Int) -> Void) { self.id = id; self.onFree = onFree }
    deinit { onFree(id) }
}

/// A model with one value, changed by recorded changes.
private final class Model {
    var value: Tracked?
}

final class ModelHistoryLimitTests: XCTestCase {
    /// A history of `blocks` blocks at times 0, 1, 2 …, block b making `perBlock` changes that set
    /// the model's value to new objects (block b's last one has id b); returns the ids freed.
    private func run(blocks: Int, perBlock: Int, limit: Int,
                     then body: (inout ModelHistory, Model) -> Void = { _, _ in }) -> (history: ModelHistory, freed: Set<Int>) {
        var freed = Set<Int>()
        let model = Model()
        var history = ModelHistory()
        history.changeLimit = limit
        for b in 0..<blocks {
            let log = ModelChangeLog()
            for k in 0..<perBlock {
                let old = model.value
                let new = Tracked(k == perBlock - 1 ? b : -(b * 100 + k + 1)) { freed.insert($0) }
                model.value = new
                log.append(ModelChange { redo in model.value = redo ? new : old })
            }
            history.append(time: Double(b), log: log, errors: b == 2 ? ["block 2's error"] : [])
        }
        body(&history, model)
        return (history, freed)
    }

    func testReleasesTheOldestSegmentsDownToTheLimit() {
        // 3 changes a block, limit 10: the newest 3 blocks (9 changes) are kept.
        let (history, _) = run(blocks: 8, perBlock: 3, limit: 10)
        XCTAssertEqual(history.count, 3)
        XCTAssertEqual(history.changeCount, 9)
        XCTAssertEqual(history.earliestTime, 4, "the last released block's time")
        XCTAssertTrue(history.canShow(4)); XCTAssertTrue(history.canShow(4.5)); XCTAssertFalse(history.canShow(3.99))
        XCTAssertEqual(history.appliedErrors, ["block 2's error"], "a released block's error is kept")
        // A limit the history stays under releases nothing.
        let (all, _) = run(blocks: 8, perBlock: 3, limit: 24)
        XCTAssertEqual(all.count, 8); XCTAssertEqual(all.earliestTime, -.infinity)
    }

    func testReleasedValuesAreFreedAndKeptOnesAreNot() {
        let (_, freed) = run(blocks: 8, perBlock: 3, limit: 10)
        // Kept: blocks 5, 6, 7 — their changes hold block 4's last value (as the first old
        // value) and every value made from block 5 on. Everything made before block 4's last
        // change is freed.
        var madeBeforeBlock4sLast: Set<Int> = [-401, -402]
        for b in 0..<4 { madeBeforeBlock4sLast.formUnion([-(b * 100 + 1), -(b * 100 + 2), b]) }
        XCTAssertEqual(freed, madeBeforeBlock4sLast)
    }

    func testMovesWithinTheWindowAndBack() {
        _ = run(blocks: 8, perBlock: 3, limit: 10) { history, model in
            history.move(through: 4.5)
            XCTAssertEqual(model.value?.id, 4, "the model after the released block 4")
            history.move(through: 6)
            XCTAssertEqual(model.value?.id, 6)
            history.move(through: 5)
            XCTAssertEqual(model.value?.id, 5)
            history.moveToEnd()
            XCTAssertEqual(model.value?.id, 7)
            XCTAssertEqual(history.position, history.count)
        }
    }

    func testManyTinySegmentsReleaseInAmortisedTime() {
        // 20 000 one-change blocks under a limit of 100: the released slots are dropped in
        // batches, so the kept window stays right however long the history grew.
        let (history, freed) = run(blocks: 20_000, perBlock: 1, limit: 100)
        XCTAssertEqual(history.count, 100)
        XCTAssertEqual(history.earliestTime, 19_899)
        XCTAssertEqual(freed.count, 19_899, "every value but the kept changes' (block 19 899's as the first old value)")
    }
}
