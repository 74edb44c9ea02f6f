// The tile stage's buffer pool: buffers come back by length, the pool's bytes stay under its
// bound, and the least recently given length is the one dropped.
import XCTest
@testable import StrataRender

final class PlanePoolTests: XCTestCase {
    func testBuffersComeBackByLength() {
        let pool = BufferPool<Float>(limit: 2, byteLimit: 1 << 20)
        var a = pool.take(100)
        a[0] = 7
        let address = a.withUnsafeBufferPointer { $0.baseAddress }
        pool.give(&a)
        XCTAssertTrue(a.isEmpty)
        let b = pool.take(100)
        XCTAssertEqual(b.withUnsafeBufferPointer { $0.baseAddress }, address)
        XCTAssertEqual(pool.takeZeroed(100), [Float](repeating: 0, count: 100))
        XCTAssertEqual(pool.copy([1, 2, 3]), [1, 2, 3])
    }

    func testBoundedByBytesDroppingTheLeastRecentlyGivenLength() {
        // Room for three buffers of about 1 KiB.
        let pool = BufferPool<UInt8>(limit: 4, byteLimit: 3 << 10)
        for n in [1000, 1001, 1002] { var b = pool.take(n); pool.give(&b) }
        XCTAssertEqual(pool.testOnly_held.lengths, [1000, 1001, 1002])
        XCTAssertEqual(pool.testOnly_held.bytes, 3003)
        // Giving 1000 again makes 1001 the least recent: a fourth length evicts it.
        var again = pool.take(1000); pool.give(&again)
        var fourth = pool.take(900); pool.give(&fourth)
        XCTAssertEqual(pool.testOnly_held.lengths, [1002, 1000, 900])
        XCTAssertEqual(pool.testOnly_held.bytes, 2902)
        // Nothing larger than the bound is kept at all.
        var huge = pool.take(4 << 10); pool.give(&huge)
        XCTAssertEqual(pool.testOnly_held.lengths, [1002, 1000, 900])
        // At most `limit` buffers of one length.
        let small = BufferPool<UInt8>(limit: 2, byteLimit: 1 << 20)
        var bs = (0..<3).map { _ in small.take(10) }
        for i in bs.indices { small.give(&bs[i]) }
        XCTAssertEqual(small.testOnly_held.bytes, 20)
    }
}
