// Merge paths' area booleans (LottiePathBoolean): hand-worked cases with exact areas and
// vertices, degenerate inputs, the bounds on the work; and the fixtures' pixels
// (Fixtures/merge-paths.json, merge-paths-animated.json).
import Foundation
import XCTest
import Strata
@testable import StrataLottie
import StrataTestSupport

final class LottiePathBooleanTests: XCTestCase {
    var boolean = LottiePathBoolean()

    /// The square [x0, x1] × [y0, y1], clockwise on screen from the top left (inside on its
    /// left, (−dy, dx)); `reversed` the other way.
    private func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, reversed: Bool = false) -> [CGPoint] {
        let p = [CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0), CGPoint(x: x1, y: y1), CGPoint(x: x0, y: y1)]
        return reversed ? p.reversed() : p
    }

    /// The signed area (shoelace): positive for a polygon with its inside on its left, (−dy, dx).
    private func area(_ ring: [CGPoint]) -> Double {
        var sum = 0.0
        for i in ring.indices {
            let p = ring[i], q = ring[(i + 1) % ring.count]
            sum += p.x * q.y - q.x * p.y
        }
        return sum / 2
    }

    private func area(_ rings: [[CGPoint]]) -> Double { rings.map(area).reduce(0, +) }

    private func combine(_ operands: [[[CGPoint]]], _ mode: LottieMergeMode) throws -> [[CGPoint]] {
        try boolean.combine(polygons: operands, mode: mode)
    }

    /// The vertices of each ring as a set of "x,y" strings (rings start anywhere).
    private func corners(_ rings: [[CGPoint]]) -> [Set<String>] {
        rings.map { Set($0.map { "\($0.x),\($0.y)" }) }
    }

    // MARK: Two squares

    /// A = [0, 2]², B = [1, 3]²: they overlap in [1, 2]² (area 1). Union 4 + 4 − 1 = 7,
    /// intersection 1, A − B 3, exclusive or 7 − 1 = 6.
    func testTwoOverlappingSquares() throws {
        let a = [box(0, 0, 2, 2)], b = [box(1, 1, 3, 3)]
        let union = try combine([a, b], .add)
        XCTAssertEqual(union.count, 1)
        XCTAssertEqual(area(union), 7, accuracy: 1e-12)
        XCTAssertEqual(corners(union), [["0.0,0.0", "2.0,0.0", "2.0,1.0", "3.0,1.0", "3.0,3.0", "1.0,3.0", "1.0,2.0", "0.0,2.0"]])

        let intersection = try combine([a, b], .intersect)
        XCTAssertEqual(area(intersection), 1, accuracy: 1e-12)
        XCTAssertEqual(corners(intersection), [["1.0,1.0", "2.0,1.0", "2.0,2.0", "1.0,2.0"]])

        let difference = try combine([a, b], .subtract)
        XCTAssertEqual(area(difference), 3, accuracy: 1e-12)
        XCTAssertEqual(corners(difference), [["0.0,0.0", "2.0,0.0", "2.0,1.0", "1.0,1.0", "1.0,2.0", "0.0,2.0"]])
        XCTAssertEqual(area(try combine([b, a], .subtract)), 3, accuracy: 1e-12, "B − A")

        let exclusive = try combine([a, b], .exclude)
        XCTAssertEqual(area(exclusive), 6, accuracy: 1e-12)
        // Two L shapes meeting at (1, 2) and (2, 1): each ring keeps its own corner there.
        XCTAssertEqual(exclusive.count, 2)
        XCTAssertEqual(exclusive.map(area).sorted(), [3, 3])
        for ring in union + intersection + difference + exclusive { XCTAssertGreaterThan(area(ring), 0, "inside on the left") }
    }

    /// Every result runs with its inside on the left whichever way the operands run: the
    /// operands' directions do not matter (each is filled nonzero).
    func testDirectionsDoNotMatter() throws {
        let a = [box(0, 0, 2, 2, reversed: true)], b = [box(1, 1, 3, 3)]
        XCTAssertEqual(area(try combine([a, b], .add)), 7, accuracy: 1e-12)
        XCTAssertEqual(area(try combine([a, b], .intersect)), 1, accuracy: 1e-12)
        XCTAssertEqual(area(try combine([a, b], .subtract)), 3, accuracy: 1e-12)
        XCTAssertEqual(area(try combine([a, b], .exclude)), 6, accuracy: 1e-12)
    }

    // MARK: Nested, disjoint, touching

    /// B = [1, 2]² inside A = [0, 4]²: the union is A; A − B is A with a hole (two rings, the
    /// hole running the other way, area 16 − 1); the intersection is B; B − A is nothing.
    func testSquareInsideAnother() throws {
        let a = [box(0, 0, 4, 4)], b = [box(1, 1, 2, 2)]
        let union = try combine([a, b], .add)
        XCTAssertEqual(corners(union), [["0.0,0.0", "4.0,0.0", "4.0,4.0", "0.0,4.0"]])
        let holed = try combine([a, b], .subtract)
        XCTAssertEqual(holed.map(area).sorted(), [-1, 16])
        XCTAssertEqual(area(try combine([a, b], .exclude)), 15, accuracy: 1e-12)
        XCTAssertEqual(corners(try combine([a, b], .intersect)), [["1.0,1.0", "2.0,1.0", "2.0,2.0", "1.0,2.0"]])
        XCTAssertEqual(try combine([b, a], .subtract).count, 0)
    }

    /// Disjoint squares: the union is both, the intersection nothing, A − B is A.
    func testDisjointSquares() throws {
        let a = [box(0, 0, 1, 1)], b = [box(3, 0, 4, 1)]
        XCTAssertEqual(try combine([a, b], .add).map(area), [1, 1])
        XCTAssertEqual(try combine([a, b], .intersect).count, 0)
        XCTAssertEqual(corners(try combine([a, b], .subtract)), [["0.0,0.0", "1.0,0.0", "1.0,1.0", "0.0,1.0"]])
        XCTAssertEqual(area(try combine([a, b], .exclude)), 2, accuracy: 1e-12)
    }

    /// Squares sharing an edge: the union is one rectangle with four corners (the shared edge
    /// and the vertices along straight sides go), the intersection is nothing, A − B is A.
    /// Squares touching at a corner stay two rings.
    func testTouchingSquares() throws {
        let a = [box(0, 0, 1, 1)], b = [box(1, 0, 2, 1)]
        XCTAssertEqual(corners(try combine([a, b], .add)), [["0.0,0.0", "2.0,0.0", "2.0,1.0", "0.0,1.0"]])
        XCTAssertEqual(try combine([a, b], .intersect).count, 0)
        XCTAssertEqual(corners(try combine([a, b], .subtract)), [["0.0,0.0", "1.0,0.0", "1.0,1.0", "0.0,1.0"]])
        XCTAssertEqual(corners(try combine([a, b], .exclude)), [["0.0,0.0", "2.0,0.0", "2.0,1.0", "0.0,1.0"]])
        // A half-overlapping shared edge: [1, 2] × [0.5, 1.5] against A.
        let c = [box(1, 0.5, 2, 1.5)]
        XCTAssertEqual(area(try combine([a, c], .add)), 2, accuracy: 1e-12)
        XCTAssertEqual(try combine([a, c], .add).count, 1)
        let corner = try combine([a, [box(1, 1, 2, 2)]], .add)
        XCTAssertEqual(corner.count, 2)
        XCTAssertEqual(corner.map { $0.count }, [4, 4])
    }

    /// The same square twice, once each way (as rlottie's `a_mountain.json` writes a frame to
    /// intersect with): each is filled on its own, so the union and the intersection are the
    /// square and the exclusive or is nothing.
    func testCoincidentOperands() throws {
        let a = [box(0, 0, 2, 2)], b = [box(0, 0, 2, 2, reversed: true)]
        XCTAssertEqual(corners(try combine([a, b], .add)), [["0.0,0.0", "2.0,0.0", "2.0,2.0", "0.0,2.0"]])
        XCTAssertEqual(corners(try combine([a, b], .intersect)), [["0.0,0.0", "2.0,0.0", "2.0,2.0", "0.0,2.0"]])
        XCTAssertEqual(try combine([a, b], .exclude).count, 0)
        XCTAssertEqual(try combine([a, b], .subtract).count, 0)
        // In one operand the two cancel (nonzero winding 0): nothing.
        XCTAssertEqual(try combine([a + b], .add).count, 0)
    }

    /// Three operands, each combined with the result so far: A − B − C, A ∩ B ∩ C, and the
    /// exclusive or (inside an odd number of them). A = [0, 3]², B = [1, 4] × [0, 3],
    /// C = [2, 5] × [0, 3]: strips of width 1 and height 3, covered 1, 2, 3, 2, 1 times.
    func testThreeOperandsInOrder() throws {
        let a = [box(0, 0, 3, 3)], b = [box(1, 0, 4, 3)], c = [box(2, 0, 5, 3)]
        XCTAssertEqual(area(try combine([a, b, c], .subtract)), 3, accuracy: 1e-12)
        XCTAssertEqual(corners(try combine([a, b, c], .intersect)), [["2.0,0.0", "3.0,0.0", "3.0,3.0", "2.0,3.0"]])
        XCTAssertEqual(area(try combine([a, b, c], .exclude)), 9, accuracy: 1e-12, "strips covered once or three times")
        XCTAssertEqual(try combine([a, b, c], .exclude).count, 3)
        XCTAssertEqual(area(try combine([a, b, c], .add)), 15, accuracy: 1e-12)
    }

    /// An operand crossing itself is filled nonzero: a bow tie's two triangles (area 1 each),
    /// and a square run around twice (winding 2) is the square once.
    func testSelfIntersectingOperand() throws {
        let bowTie = [[CGPoint(x: 0, y: 0), CGPoint(x: 2, y: 2), CGPoint(x: 2, y: 0), CGPoint(x: 0, y: 2)]]
        let tie = try combine([bowTie], .add)
        XCTAssertEqual(tie.count, 2)
        XCTAssertEqual(area(tie), 2, accuracy: 1e-12)
        let twice = [box(0, 0, 1, 1) + box(0, 0, 1, 1)]
        XCTAssertEqual(corners(try combine([twice], .add)), [["0.0,0.0", "1.0,0.0", "1.0,1.0", "0.0,1.0"]])
        XCTAssertEqual(area(try combine([bowTie, [box(0, 0, 2, 1)]], .intersect)), 1, accuracy: 1e-12, "the lower halves of both triangles")
    }

    /// Random polygons (3 to 9 vertices, crossing themselves or not), their vertices on a
    /// coarse grid so that edges often run along each other and meet at vertices: the areas
    /// obey |A ∪ B| + |A ∩ B| = |A| + |B|, |A − B| = |A| − |A ∩ B|, |A ⊕ B| = |A ∪ B| − |A ∩ B|,
    /// and the union's winding is 1 inside, 0 outside, as the nonzero fill of both says (checked
    /// at points of a fine grid).
    func testRandomPolygonsKeepTheAreaIdentities() throws {
        var rng = SplitMix(seed: 46)
        func polygon(_ grid: Double) -> [CGPoint] {
            (0..<Int.random(in: 3...9, using: &rng)).map { _ in
                CGPoint(x: Double(Int.random(in: 0...8, using: &rng)) * grid, y: Double(Int.random(in: 0...8, using: &rng)) * grid)
            }
        }
        /// The nonzero winding of `rings` at `p` (a point on no edge).
        func winding(_ rings: [[CGPoint]], _ p: CGPoint) -> Int {
            var w = 0
            for ring in rings {
                for i in ring.indices {
                    let a = ring[i], b = ring[(i + 1) % ring.count]
                    guard (a.y <= p.y) != (b.y <= p.y) else { continue }
                    if a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) > p.x { w += b.y > a.y ? 1 : -1 }
                }
            }
            return w
        }
        /// Whether `p` is within 10⁻⁶ of an edge of `rings` (its winding is then not defined).
        func near(_ rings: [[CGPoint]], _ p: CGPoint) -> Bool {
            rings.contains { ring in
                ring.indices.contains { i in
                    let a = ring[i], b = ring[(i + 1) % ring.count], v = b - a
                    let t = min(max(((p.x - a.x) * v.x + (p.y - a.y) * v.y) / max(v.x * v.x + v.y * v.y, 1e-300), 0), 1)
                    return (a + v * t - p).length < 1e-6
                }
            }
        }
        for round in 0..<150 {
            let grid = round % 3 == 0 ? 12.5 : 10
            let a = [polygon(grid)] + (round % 4 == 0 ? [polygon(grid)] : []), b = [polygon(grid)]
            let areaA = area(try combine([a], .add)), areaB = area(try combine([b], .add))
            let union = try combine([a, b], .add), inter = try combine([a, b], .intersect)
            let sub = try combine([a, b], .subtract), xor = try combine([a, b], .exclude)
            let u = area(union), i = area(inter)
            XCTAssertEqual(u + i, areaA + areaB, accuracy: 1e-6, "round \(round)")
            XCTAssertEqual(area(sub), areaA - i, accuracy: 1e-6, "round \(round)")
            XCTAssertEqual(area(xor), u - i, accuracy: 1e-6, "round \(round)")
            for y in stride(from: 0.37, to: 100, by: 3.1) {
                for x in stride(from: 0.61, to: 100, by: 3.3) {
                    let p = CGPoint(x: x, y: y)
                    guard !near(a + b, p) else { continue }
                    let inside = winding(a, p) != 0 || winding(b, p) != 0
                    XCTAssertEqual(winding(union, p), inside ? 1 : 0, "round \(round) at \(p)")
                    let both = winding(a, p) != 0 && winding(b, p) != 0
                    XCTAssertEqual(winding(inter, p), both ? 1 : 0, "round \(round) at \(p)")
                }
            }
        }
    }

    // MARK: Curves

    /// A circle of radius 10 about the origin ∩ the square [0, 20]²: a quarter of the circle,
    /// a quarter of its area (π·100/4 within the cubic approximation and the chords), and
    /// exactly a third of the circle minus the square (the flattened circle is symmetric).
    func testCircleAndSquare() throws {
        let circle = LottieShapes.ellipse(center: .zero, size: CGSize(width: 20, height: 20))
        let square = LottieShapes.rectangle(center: CGPoint(x: 10, y: 10), size: CGSize(width: 20, height: 20), radius: 0)
        let quarter = try boolean.combine([[circle], [square]], mode: .intersect)
        let rest = try boolean.combine([[circle], [square]], mode: .subtract)
        XCTAssertEqual(quarter.count, 1)
        XCTAssertEqual(rest.count, 1)
        let quarterArea = area(quarter[0].vertices)
        XCTAssertEqual(area(rest[0].vertices), 3 * quarterArea, accuracy: 1e-9)
        XCTAssertEqual(quarterArea, Double.pi * 100 / 4, accuracy: 0.05)
        // The chords stay within the tolerance (0.05, or 1e-4 of the size: 0.002 here) of the circle.
        for p in quarter[0].vertices where p.x > 1e-9 && p.y > 1e-9 {
            XCTAssertEqual(p.length, 10, accuracy: 0.01)
        }
        XCTAssertTrue(quarter[0].vertices.contains(.zero), "the square's corner at the centre")
        XCTAssertGreaterThan(quarter[0].vertices.count, 20, "the arc is flattened")
    }

    /// An open path is closed for its area (as a fill closes it); a contour of one or two points
    /// has none.
    func testOpenAndDegenerateContours() throws {
        let open = LottieBezier(closed: false, vertices: [CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 2), CGPoint(x: 2, y: 2), CGPoint(x: 2, y: 0)],
                                inTangents: Array(repeating: .zero, count: 4), outTangents: Array(repeating: .zero, count: 4))
        let dot = LottieBezier(closed: true, vertices: [CGPoint(x: 1, y: 1)], inTangents: [.zero], outTangents: [.zero])
        let result = try boolean.combine([[open, dot]], mode: .add)
        XCTAssertEqual(result.count, 1)
        XCTAssertEqual(area(result[0].vertices), 4, accuracy: 1e-12)
        XCTAssertEqual(try boolean.combine([[dot], [open]], mode: .intersect), [], "an empty operand: nothing inside all")
        XCTAssertEqual(try boolean.combine([], mode: .add), [])
        XCTAssertEqual(try boolean.combine([[], []], mode: .exclude), [])
        let line = [[CGPoint(x: 0, y: 0), CGPoint(x: 5, y: 5), CGPoint(x: 0, y: 0)]]
        XCTAssertEqual(try combine([line, [box(0, 0, 1, 1)]], .add).map(area), [1])
        let nan = [[CGPoint(x: Double.nan, y: 0), CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1)]]
        XCTAssertEqual(area(try combine([nan], .add)), 0.5, accuracy: 1e-12, "points that are not numbers are dropped")
    }

    // MARK: Limits

    /// Past its bounds a combination fails (the compiler reports it with the merge's JSON path).
    func testWorkIsBounded() throws {
        var small = LottiePathBoolean()
        small.segmentLimit = 10
        XCTAssertThrowsError(try small.combine(polygons: [[box(0, 0, 1, 1)], [box(0, 0, 1, 1)], [box(0, 0, 1, 1)]], mode: .add)) { e in
            XCTAssertEqual(e as? LottiePathBoolean.Failure, .segments(12))
        }
        let circle = LottieShapes.ellipse(center: .zero, size: CGSize(width: 1000, height: 1000))
        XCTAssertThrowsError(try small.combine([[circle]], mode: .add)) { e in
            guard case .segments(let n)? = e as? LottiePathBoolean.Failure else { return XCTFail("\(e)") }
            XCTAssertGreaterThan(n, 10)
        }
        small = LottiePathBoolean()
        small.stepLimit = 100
        // 40 thin strips crossing 40 others: 1600 crossings.
        let rows = (0..<40).map { box(0, Double($0), 50, Double($0) + 0.5) }, columns = (0..<40).map { box(Double($0), 0, Double($0) + 0.5, 50) }
        XCTAssertThrowsError(try small.combine(polygons: [rows, columns], mode: .exclude)) { e in
            XCTAssertEqual(e as? LottiePathBoolean.Failure, .steps)
        }
        var counted = LottiePathBoolean()
        let grid = try counted.combine(polygons: [rows, columns], mode: .intersect)
        XCTAssertEqual(grid.count, 1600)
        XCTAssertEqual(area(grid), 1600 * 0.25, accuracy: 1e-9)
        // The count of steps is the same each time: exactly that many are enough.
        var exact = LottiePathBoolean()
        exact.stepLimit = counted.stepsTaken
        XCTAssertEqual(try exact.combine(polygons: [rows, columns], mode: .intersect).count, 1600)
        XCTAssertEqual(exact.stepsTaken, counted.stepsTaken)
        exact.stepLimit -= 1
        XCTAssertThrowsError(try exact.combine(polygons: [rows, columns], mode: .intersect))
    }

    // MARK: Fixtures

    let clear = [0, 0, 0, 0], red = [255, 0, 0, 255], black = [0, 0, 0, 255]

    /// merge-paths.json: in each quadrant a square A ([−17, 7]² about the quadrant's centre) and
    /// a circle B (radius 12 about (5, 5)) merged, stroked black 4 wide above a red fill. The
    /// pixels at: A only, B only, both, neither, A's top edge (outside B), B's arc inside A, A's
    /// right edge inside B. The stroke is on the merged outline alone: the intersection has no
    /// stroke on A's top edge, the union none on the arcs and edges inside it.
    func testMergePathsFixture() throws {
        let bitmap = try LottieFixtures.frame("merge-paths", 0)
        let points = [(-12, -12), (11, 6), (0, 0), (-12, 12), (-5, -17), (-4, -4), (7, 0)]
        let quadrants: [(x: Int, y: Int, mode: String, colors: [[Int]])] = [
            (50, 50, "add", [red, red, red, clear, black, red, red]),
            (150, 50, "subtract", [red, clear, clear, clear, black, black, clear]),
            (50, 150, "intersect", [clear, clear, red, clear, clear, black, black]),
            (150, 150, "exclude", [red, red, clear, clear, black, black, black]),
        ]
        for q in quadrants {
            for ((dx, dy), want) in zip(points, q.colors) {
                XCTAssertEqual(bitmap.at(q.x + dx, q.y + dy), want, "\(q.mode) at (\(dx), \(dy))")
            }
        }
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("merge-paths")).unsupported, [], "nothing left out")
    }

    /// merge-paths-animated.json: the square [30, 70]² ∩ a circle of radius 15 whose group moves
    /// it from (30, 50) at frame 0 to (70, 50) at frame 10, stroked black 2 wide over red: at
    /// frame 0 the circle's right half (the square's left edge stroked where the circle covers
    /// it, nothing left of it), at 5 the whole circle (its top stroked, the square's top edge
    /// not), at 10 its left half. Any frame alone, in any order, at any worker count: the same bytes.
    func testAnimatedMergeFixture() throws {
        func frame(_ f: Double, workers: Int = 1) throws -> Bitmap { try LottieFixtures.frame("merge-paths-animated", f, workers: workers) }
        let f0 = try frame(0), f5 = try frame(5), f10 = try frame(10)
        XCTAssertEqual(f0.at(37, 50), red)
        XCTAssertEqual(f0.at(22, 50), clear, "inside the circle, outside the square")
        XCTAssertEqual(f0.at(30, 50), black, "the square's left edge inside the circle")
        XCTAssertEqual(f0.at(30, 32), clear, "the square's left edge outside the circle")
        XCTAssertEqual(f5.at(50, 50), red)
        XCTAssertEqual(f5.at(50, 35), black, "the circle's top")
        XCTAssertEqual(f5.at(50, 30), clear, "the square's top edge is not part of the outline")
        XCTAssertEqual(f5.at(31, 50), clear, "inside the square, outside the circle")
        XCTAssertEqual(f10.at(63, 50), red)
        XCTAssertEqual(f10.at(77, 50), clear)
        XCTAssertEqual(f10.at(70, 50), black)
        let (scene, layer) = try LottieFixtures.scene("merge-paths-animated")
        _ = try scene.renderFrame(at: layer.time(ofFrame: 10))
        XCTAssertEqual(try scene.renderFrame(at: layer.time(ofFrame: 5)).digest, f5.digest)
        XCTAssertEqual(try frame(5, workers: 4).digest, f5.digest)
        XCTAssertEqual(try frame(0, workers: 3).digest, f0.digest)
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("merge-paths-animated")).unsupported, [])
    }

    /// A merge past its limits is an error naming it (its JSON path), whether its paths are
    /// fixed (combined once) or animated (combined at each sampled frame).
    func testLimitsNameTheMerge() throws {
        var small = LottieLimits()
        small.mergeSegments = 20
        for name in ["merge-paths", "merge-paths-animated"] {
            XCTAssertThrowsError(try LottieLayer(contentsOf: LottieFixtures.url(name), limits: small), name) { e in
                let text = "\(e)"
                XCTAssertTrue(text.hasPrefix("layers[") && text.contains("].shapes[0].it[2]: merge paths: "), text)
                XCTAssertTrue(text.hasSuffix(" segments (curves flattened), over the limit of 20"), text)
            }
        }
        small = LottieLimits()
        small.mergeSteps = 10
        XCTAssertThrowsError(try LottieLayer(contentsOf: LottieFixtures.url("merge-paths-animated"), limits: small)) { e in
            XCTAssertEqual("\(e)", "layers[0].shapes[0].it[2]: merge paths: more than 10 steps to combine the paths, over the limit")
        }
        // The animated merge is combined 41 times (twice a frame over 20 frames, and the last):
        // room for ten combinations is not enough in all, for a hundred it is.
        var one = LottiePathBoolean()
        _ = try one.combine([[LottieShapes.rectangle(center: CGPoint(x: 50, y: 50), size: CGSize(width: 40, height: 40), radius: 0)],
                             [LottieShapes.ellipse(center: CGPoint(x: 30, y: 50), size: CGSize(width: 30, height: 30))]], mode: .intersect)
        small = LottieLimits()
        small.mergeStepsInAll = one.stepsTaken * 10
        XCTAssertThrowsError(try LottieLayer(contentsOf: LottieFixtures.url("merge-paths-animated"), limits: small)) { e in
            XCTAssertEqual("\(e)", "layers[0].shapes[0].it[2]: merge paths: more than \(small.mergeStepsInAll) steps in all merge paths, over the limit")
        }
        small.mergeStepsInAll = one.stepsTaken * 100
        XCTAssertNoThrow(try LottieLayer(contentsOf: LottieFixtures.url("merge-paths-animated"), limits: small))
    }

    // MARK: In a shape layer

    /// A 100 × 50 document of one shape layer whose one group holds `items` (JSON), then a red fill.
    private func render(_ items: [String]) throws -> Bitmap {
        let group = #"{"ty":"gr","it":["# + (items + [#"{"ty":"fl","c":{"a":0,"k":[1,0,0]},"o":{"a":0,"k":100},"r":1}"#,
                                                     #"{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}"#])
            .joined(separator: ",") + "]}"
        let layer = #"{"ty":4,"ind":1,"ip":0,"op":20,"st":0,"ks":{},"shapes":["# + group + "]}"
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":50,"assets":[],"layers":["# + layer + "]}"
        let lottie = try LottieLayer(data: Data(json.utf8))
        XCTAssertEqual(lottie.unsupported, [])
        return try LottieFixtures.scene(showing: lottie, width: 100, height: 50).renderFrame(at: 0)
    }

    /// A mode other than 1…5 is reported with its path and draws the paths as they are.
    func testUnknownModeIsReported() throws {
        let layer = #"{"ty":4,"ind":1,"ip":0,"op":20,"st":0,"ks":{},"shapes":[{"ty":"gr","it":["# + rect(20, 20, 20, 20)
            + #",{"ty":"mm","mm":7},{"ty":"fl","c":{"a":0,"k":[1,0,0]},"o":{"a":0,"k":100},"r":1},{"ty":"tr"}]}]}"#
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":50,"assets":[],"layers":["# + layer + "]}"
        let lottie = try LottieLayer(data: Data(json.utf8))
        XCTAssertEqual(lottie.unsupported.map(\.description), ["layers[0].shapes[0].it[1].mm: merge paths mode 7 (not rendered)"])
        XCTAssertEqual(try LottieFixtures.scene(showing: lottie, width: 100, height: 50).renderFrame(at: 0).at(20, 20), red)
    }

    /// Trim paths "individually" below a merge trims the merged outline on its own: reported.
    func testSequentialTrimBelowAMergeIsReported() throws {
        let layer = #"{"ty":4,"ind":1,"ip":0,"op":20,"st":0,"ks":{},"shapes":[{"ty":"gr","it":["# + rect(20, 20, 20, 20) + "," + rect(30, 20, 20, 20)
            + #",{"ty":"mm","mm":2},{"ty":"tm","s":{"a":0,"k":0},"e":{"a":0,"k":50},"o":{"a":0,"k":0},"m":2},"#
            + #"{"ty":"st","c":{"a":0,"k":[0,0,0]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"lc":1,"lj":1},{"ty":"tr"}]}]}"#
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":50,"assets":[],"layers":["# + layer + "]}"
        XCTAssertEqual(try LottieLayer(data: Data(json.utf8)).unsupported.map(\.description),
                       ["layers[0].shapes[0].it[2]: merged paths under trim paths 'individually' (the merged outline is trimmed on its own)"])
    }

    private func rect(_ cx: Int, _ cy: Int, _ w: Int, _ h: Int) -> String {
        #"{"ty":"rc","p":{"a":0,"k":[\#(cx),\#(cy)]},"s":{"a":0,"k":[\#(w),\#(h)]},"r":{"a":0,"k":0}}"#
    }

    /// A merge (mode 1) makes one compound path that a merge below takes as one path, as in
    /// rlottie's `cooking.json`: (A ∪ B) ∩ C with A = [10, 30] × [10, 30], B = [50, 70] × [10, 30]
    /// and C = [10, 70] × [15, 25] (in a group) is two rectangles; taken as three paths, the
    /// intersection would be nothing (A and B do not meet).
    func testCompoundPathIsOneOperand() throws {
        let c = #"{"ty":"gr","it":["# + rect(40, 20, 60, 10) + #",{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}"#
        let bitmap = try render([rect(20, 20, 20, 20), rect(60, 20, 20, 20), #"{"ty":"mm","mm":1}"#, c, #"{"ty":"mm","mm":4}"#])
        XCTAssertEqual(bitmap.at(20, 20), red)
        XCTAssertEqual(bitmap.at(60, 20), red)
        XCTAssertEqual(bitmap.at(20, 12), clear, "in A, outside C")
        XCTAssertEqual(bitmap.at(40, 20), clear, "in C, outside A and B")
    }

    /// The modifiers below a merge change the merged outline, not the paths it takes in: two
    /// squares sharing an edge, merged (add) into the rectangle [10, 50] × [10, 30], then rounded
    /// corners of radius 8: the rectangle's four corners are rounded, and where the squares met
    /// (no corner of the rectangle) nothing is cut away.
    func testModifiersBelowAMergeChangeItsOutline() throws {
        let bitmap = try render([rect(20, 20, 20, 20), rect(40, 20, 20, 20), #"{"ty":"mm","mm":2}"#, #"{"ty":"rd","r":{"a":0,"k":8}}"#])
        XCTAssertEqual(bitmap.at(10, 10), clear, "the rectangle's corner, rounded")
        XCTAssertEqual(bitmap.at(48, 28), clear)
        XCTAssertEqual(bitmap.at(29, 10), red, "where the squares' corners were")
        XCTAssertEqual(bitmap.at(30, 28), red)
        XCTAssertEqual(bitmap.at(30, 20), red)
    }
}
