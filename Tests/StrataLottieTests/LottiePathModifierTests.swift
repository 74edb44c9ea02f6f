// Path modifiers: the geometry each produces, worked out from its formula (lottie-spec 1.0 for
// rounded corners and pucker/bloat; lottie-web for zig-zag and offset path, which the spec does
// not define), and the fixtures' pixels (Fixtures/rounded-corners.json, pucker-bloat.json,
// zig-zag.json, offset-path.json).
import Foundation
import XCTest
import Strata
@testable import StrataLottie
import StrataTestSupport

final class LottiePathModifierTests: XCTestCase {
    let clear = [0, 0, 0, 0], red = [255, 0, 0, 255], green = [0, 255, 0, 255], blue = [0, 0, 255, 255], black = [0, 0, 0, 255]

    private func check(_ name: String, frame: Double, _ expectations: [(Int, Int, [Int])], file: StaticString = #filePath, line: UInt = #line) throws {
        let bitmap = try LottieFixtures.frame(name, frame)
        for (x, y, want) in expectations {
            XCTAssertEqual(bitmap.at(x, y), want, "\(name) frame \(frame) at (\(x), \(y))", file: file, line: line)
        }
    }

    private func assertPoints(_ a: [CGPoint], _ b: [CGPoint], accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, "\(a) vs \(b)", file: file, line: line)
        for (p, q) in zip(a, b) {
            XCTAssertEqual(p.x, q.x, accuracy: accuracy, "\(a) vs \(b)", file: file, line: line)
            XCTAssertEqual(p.y, q.y, accuracy: accuracy, "\(a) vs \(b)", file: file, line: line)
        }
    }

    private func square(_ cx: Double, _ cy: Double, _ side: Double) -> LottieBezier {
        LottieShapes.rectangle(center: CGPoint(x: cx, y: cy), size: CGSize(width: side, height: side), radius: 0)
    }

    private func line(_ points: [CGPoint], closed: Bool = false) -> LottieBezier {
        LottieBezier(closed: closed, vertices: points, inTangents: points.map { _ in .zero }, outTangents: points.map { _ in .zero })
    }

    // MARK: Rounded corners (lottie-spec 1.0)

    /// Each sharp vertex becomes two, `r` along its segments, with handles towards the old vertex
    /// E_t × r long; at most half a segment (neighbouring corners meet); an open contour's ends,
    /// and vertices with tangents (an ellipse's), stay.
    func testRoundedCornersGeometry() {
        let k = LottieBezier.ellipseConstant
        // The 40 × 40 square from (5, 5) to (45, 45) starts at its top-right corner (45, 5).
        let r = square(25, 25, 40).roundingCorners(radius: 10)
        XCTAssertEqual(r.vertices.count, 8)
        assertPoints(Array(r.vertices.prefix(4)), [CGPoint(x: 35, y: 5), CGPoint(x: 45, y: 15), CGPoint(x: 45, y: 35), CGPoint(x: 35, y: 45)])
        assertPoints([r.outTangents[0], r.inTangents[1], r.inTangents[0], r.outTangents[1]],
                     [CGPoint(x: 10 * k, y: 0), CGPoint(x: 0, y: -10 * k), .zero, .zero])
        // A radius over half the side: the corners meet at the mid-edges (a circle of radius 5).
        let tight = square(0, 0, 10).roundingCorners(radius: 100)
        assertPoints(Array(tight.vertices.prefix(3)), [CGPoint(x: 0, y: -5), CGPoint(x: 5, y: 0), CGPoint(x: 5, y: 0)])
        // Open: the ends stay, the middle corner is rounded.
        let open = line([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10)]).roundingCorners(radius: 2)
        assertPoints(open.vertices, [CGPoint(x: 0, y: 0), CGPoint(x: 8, y: 0), CGPoint(x: 10, y: 2), CGPoint(x: 10, y: 10)])
        let circle = LottieShapes.ellipse(center: .zero, size: CGSize(width: 20, height: 20))
        XCTAssertEqual(circle.roundingCorners(radius: 5), circle)
    }

    /// rounded-corners.json: a 40 × 40 square rounded by 10 (its corner pixel is background,
    /// its mid-edge filled); a triangle in a nested group, the modifier after the fill (both
    /// still apply); a radius animated 0 → 20; a radius of 100 (a circle of radius 20).
    func testRoundedCornersPixels() throws {
        try check("rounded-corners", frame: 0, [
            (5, 5, clear), (6, 6, clear), (25, 5, red), (8, 8, red), (25, 25, red),
            // The triangle's tip (75, 5) is cut to about y 9.2, its bottom-left corner rounded.
            (75, 7, clear), (75, 12, blue), (56, 44, clear), (75, 40, blue),
            // Radius 0 at frame 0: a sharp corner.
            (5, 55, green),
            (75, 56, black), (59, 59, clear), (75, 75, black), (56, 75, black),
        ])
        // Frame 5: radius 10; frame 10: 20, a circle about (25, 75).
        try check("rounded-corners", frame: 5, [(5, 55, clear), (6, 56, clear), (8, 58, green), (25, 55, green)])
        try check("rounded-corners", frame: 10, [(8, 58, clear), (25, 56, green), (6, 75, green), (25, 75, green)])
    }

    // MARK: Pucker / bloat (lottie-spec 1.0)

    /// Vertices move `a` of the way to the mean of the vertices, handle ends as far the other way.
    /// −100 %: the corners twice as far out, every handle at the centre, so the mid-edges of a
    /// square of half-side 20 come in to 10 from the centre ((−40 + 3·0 + 3·0 − 40) / 8 = −10);
    /// +100 %: every vertex at the centre.
    func testPuckerBloatGeometry() {
        let pucker = square(0, 0, 40).puckered(-1)
        assertPoints(pucker.vertices, [CGPoint(x: 40, y: -40), CGPoint(x: 40, y: 40), CGPoint(x: -40, y: 40), CGPoint(x: -40, y: -40)])
        assertPoints(pucker.outTangents, pucker.vertices.map { CGPoint(x: -$0.x, y: -$0.y) })
        let rightEdge = pucker.segments[0]
        assertPoints([rightEdge.point(0.5)], [CGPoint(x: 10, y: 0)])
        let bloat = square(10, 20, 40).puckered(1)
        assertPoints(bloat.vertices, Array(repeating: CGPoint(x: 10, y: 20), count: 4))
        // The centre is the mean of the vertices, not of the bounding box.
        let triangle = line([CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 0), CGPoint(x: 0, y: 30)], closed: true).puckered(0.5)
        assertPoints(triangle.vertices, [CGPoint(x: 5, y: 5), CGPoint(x: 20, y: 5), CGPoint(x: 5, y: 20)])
    }

    /// pucker-bloat.json: 30 × 30 squares about (25, 50) at −50 % (edges in to 11.25 from the
    /// centre, corners out to 22.5) and about (75, 50) at +50 % (edges out to 18.75, corners in
    /// to 7.5).
    func testPuckerBloatPixels() throws {
        try check("pucker-bloat", frame: 0, [
            (25, 37, clear), (25, 40, red), (12, 50, clear), (15, 50, red), (8, 33, red), (25, 50, red),
            (75, 33, blue), (75, 30, clear), (61, 36, clear), (63, 38, clear), (75, 50, blue),
        ])
    }

    // MARK: Zig-zag (lottie-web)

    /// One ridge of size 10 on a line: the midpoint moves 10 off it, to the left of the direction
    /// of travel, the ends 10 to the right; smooth points get handles along the path a
    /// (ridges + 1)·2-th of the chord long.
    func testZigZagGeometry() {
        let straight = line([CGPoint(x: 0, y: 50), CGPoint(x: 100, y: 50)])
        let corner = straight.zigZagged(size: 10, ridges: 1, smooth: false)
        assertPoints(corner.vertices, [CGPoint(x: 0, y: 60), CGPoint(x: 50, y: 40), CGPoint(x: 100, y: 60)])
        XCTAssertFalse(corner.closed)
        XCTAssertTrue(corner.inTangents.allSatisfy { $0 == .zero } && corner.outTangents.allSatisfy { $0 == .zero })
        let smooth = straight.zigZagged(size: 10, ridges: 1, smooth: true)
        assertPoints(smooth.inTangents, [CGPoint(x: -25, y: 0), CGPoint(x: -25, y: 0), CGPoint(x: -25, y: 0)])
        assertPoints(smooth.outTangents, [CGPoint(x: 25, y: 0), CGPoint(x: 25, y: 0), CGPoint(x: 25, y: 0)])
        // Three ridges are spread by length: at 25, 50 and 75, alternating sides.
        assertPoints(straight.zigZagged(size: 4, ridges: 3, smooth: false).vertices,
                     [CGPoint(x: 0, y: 54), CGPoint(x: 25, y: 46), CGPoint(x: 50, y: 54), CGPoint(x: 75, y: 46), CGPoint(x: 100, y: 54)])
        // A square, no ridges: each corner moves along its bisector, in and out by turns.
        let h = 10 / 2.0.squareRoot()
        assertPoints(square(0, 0, 40).zigZagged(size: 10, ridges: 0, smooth: false).vertices,
                     [CGPoint(x: 20 - h, y: -20 + h), CGPoint(x: 20 + h, y: 20 + h), CGPoint(x: -20 + h, y: 20 - h), CGPoint(x: -20 - h, y: -20 - h)])
        // An odd count of points on a closed contour: the first vertex again, on the other side.
        let triangle = line([CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 0), CGPoint(x: 0, y: 30)], closed: true)
        let odd = triangle.zigZagged(size: 1, ridges: 0, smooth: false)
        XCTAssertEqual(odd.vertices.count, 4)
        XCTAssertEqual(odd.vertices[0].x + odd.vertices[3].x, 0, accuracy: 1e-9)
        XCTAssertEqual(odd.vertices[0].y + odd.vertices[3].y, 0, accuracy: 1e-9)
        // Ridges are capped at 100 000 points a contour.
        let many = square(0, 0, 40).zigZagged(size: 1, ridges: 1_000_000, smooth: false)
        XCTAssertLessThanOrEqual(many.vertices.count, LottiePathModifier.zigZagPointLimit + 1)
        XCTAssertGreaterThan(many.vertices.count, LottiePathModifier.zigZagPointLimit - 8)
    }

    /// zig-zag.json: a 40 × 40 square (10…50) with one ridge of size 10 a side: its mid-edges 10
    /// out (to x = 60 on the right), its corners 10 in along their bisectors; the smooth square
    /// stays about its centre. Neither ThorVG (thorvg-python 1.1.3) nor rlottie draws zig-zag.
    func testZigZagPixels() throws {
        try check("zig-zag", frame: 0, [
            (57, 30, red), (61, 30, clear), (30, 4, red), (30, 30, red), (47, 13, clear), (13, 47, clear),
            (70, 72, blue),
        ])
    }

    // MARK: Offset path

    /// A square grown by 8: miter corners (8 out on both axes), round (arcs of radius 8 about the
    /// old corners) or bevel (the corner cut); the same whichever way the square runs; a circle
    /// shrunk; an open line outlined.
    func testOffsetPathGeometry() throws {
        let sq = square(25, 25, 30)   // 10…40
        func box(_ b: LottieBezier) -> CGRect {
            let cg = LottieCompiler.cgPath([b])
            return cg.boundingBoxOfPath
        }
        func assertBox(_ b: LottieBezier, _ x: Double, _ y: Double, _ w: Double, _ h: Double, line: UInt = #line) {
            let r = box(b)
            for (got, want) in [(r.minX, x), (r.minY, y), (r.width, w), (r.height, h)] {
                XCTAssertEqual(got, want, accuracy: 1e-9, "\(r)", line: line)
            }
        }
        let miter = try XCTUnwrap(sq.offset(by: 8, join: 1, miterLimit: 4))
        XCTAssertTrue(miter.closed)
        XCTAssertTrue(miter.vertices.contains { abs($0.x - 2) < 1e-9 && abs($0.y - 2) < 1e-9 })
        assertBox(miter, 2, 2, 46, 46)
        assertBox(try XCTUnwrap(sq.reversed().offset(by: 8, join: 1, miterLimit: 4)), 2, 2, 46, 46)
        // A miter limit under √2 bevels a right angle.
        XCTAssertFalse(try XCTUnwrap(sq.offset(by: 8, join: 1, miterLimit: 1.4)).vertices.contains { abs($0.x - 2) < 1e-9 && abs($0.y - 2) < 1e-9 })
        let round = try XCTUnwrap(sq.offset(by: 8, join: 2, miterLimit: 4))
        for s in round.segments {
            for t in stride(from: 0.0, through: 1, by: 0.25) {
                let p = s.point(t)
                // Every point is 8 from the square: on an edge line or on an arc about a corner.
                let dx = max(10 - p.x, 0, p.x - 40), dy = max(10 - p.y, 0, p.y - 40)
                XCTAssertEqual(hypot(dx, dy), 8, accuracy: 0.01, "\(p)")
            }
        }
        let bevel = try XCTUnwrap(sq.offset(by: 8, join: 3, miterLimit: 4))
        XCTAssertTrue(bevel.vertices.contains { abs($0.x - 2) < 1e-9 && abs($0.y - 10) < 1e-9 })
        XCTAssertTrue(bevel.vertices.contains { abs($0.x - 10) < 1e-9 && abs($0.y - 2) < 1e-9 })
        XCTAssertEqual(bevel.vertices.count, 8)
        // Shrinking: the square's edges cut where they cross.
        assertBox(try XCTUnwrap(sq.offset(by: -5, join: 1, miterLimit: 4)), 15, 15, 20, 20)
        let circle = try XCTUnwrap(LottieShapes.ellipse(center: CGPoint(x: 75, y: 75), size: CGSize(width: 40, height: 40)).offset(by: -10, join: 2, miterLimit: 4))
        for s in circle.segments {
            for t in stride(from: 0.0, through: 1, by: 0.125) {
                let p = s.point(t)
                XCTAssertEqual(hypot(p.x - 75, p.y - 75), 10, accuracy: 0.02, "\(p)")
            }
        }
        let outline = try XCTUnwrap(line([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0)]).offset(by: 2, join: 2, miterLimit: 4))
        XCTAssertTrue(outline.closed)
        let b = box(outline)
        XCTAssertEqual(b.minX, -2, accuracy: 0.01); XCTAssertEqual(b.maxX, 12, accuracy: 0.01)
        XCTAssertEqual(b.minY, -2, accuracy: 0.01); XCTAssertEqual(b.maxY, 2, accuracy: 0.01)
    }

    /// offset-path.json: 30 × 30 squares grown by 8 (miter: to the corner (2, 2); round: the
    /// corner pixel outside the arc about (60, 10); bevel: cut along x + y = 62), a circle of
    /// radius 20 about (75, 75) shrunk to 10.
    func testOffsetPathPixels() throws {
        try check("offset-path", frame: 0, [
            (2, 2, red), (25, 1, clear), (25, 3, red), (47, 47, red), (48, 25, clear),
            (53, 3, clear), (75, 3, blue), (52, 25, blue), (97, 47, clear),
            (3, 53, clear), (8, 56, green), (25, 52, green),
            (75, 63, clear), (75, 67, black), (75, 75, black),
        ])
    }

    // MARK: Trim paths individually (the spec's sequential mode)

    /// trim-individually.json: two 80-long lines (the second in a nested group) trimmed as one
    /// 160 long, in list order: at frame 5 (end 50 %) the first is whole and the second not
    /// begun; at frame 7 (end 70 %, 112) the second is drawn from x 10 to 42. The same lines
    /// trimmed simultaneously to 50 %: each from 10 to 50. ThorVG and rlottie agree (SSIM 1.0000).
    func testTrimIndividually() throws {
        try check("trim-individually", frame: 5, [(12, 10, red), (88, 10, red), (12, 30, clear), (50, 30, clear),
                                                  (48, 60, blue), (52, 60, clear), (48, 80, blue), (52, 80, clear)])
        try check("trim-individually", frame: 7, [(88, 10, red), (12, 30, red), (40, 30, red), (44, 30, clear)])
        try check("trim-individually", frame: 10, [(88, 10, red), (88, 30, red)])
        try check("trim-individually", frame: 0, [(12, 10, clear), (12, 30, clear)])
        // A path's part of the whole: the kept 0…0.7 of 160 covers 32 of the 80 from 80 to 160.
        let local = LottieTrimValues.local([(0, 0.7)], from: 80, to: 160, total: 160)
        XCTAssertEqual(local.count, 1)
        XCTAssertEqual(local[0].0, 0, accuracy: 1e-12)
        XCTAssertEqual(local[0].1, 0.4, accuracy: 1e-12)
        // Wrapping round the end of the whole (offset): the start of the first path, the end of the last.
        XCTAssertEqual(LottieTrimValues.local([(0.9, 1), (0, 0.2)], from: 0, to: 80, total: 160).map { [$0.0, $0.1] }, [[0, 0.4]])
        XCTAssertEqual(LottieTrimValues.local([(0.9, 1), (0, 0.2)], from: 80, to: 160, total: 160).map { [$0.0, $0.1] }, [[0.8, 1]])
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("trim-individually")).unsupported, [])
    }

    // MARK: Order, limits, reports

    /// Modifiers apply nearest first: rounding a square then puckering it is not puckering then
    /// rounding (the puckered square's vertices have handles, so rounding leaves it alone).
    func testModifiersApplyNearestFirst() {
        let rd = LottiePathModifier.roundedCorners(radius: .fixed([5]))
        let pb = LottiePathModifier.puckerBloat(amount: .fixed([-50]))
        let sq = [square(0, 0, 40)]
        let roundedFirst = pb.apply(rd.apply(sq, at: 0), at: 0)
        let puckeredFirst = rd.apply(pb.apply(sq, at: 0), at: 0)
        XCTAssertEqual(roundedFirst[0].vertices.count, 8)
        XCTAssertEqual(puckeredFirst[0].vertices.count, 4)
        XCTAssertEqual(puckeredFirst, pb.apply(sq, at: 0))
    }

    /// Absurd ridges and wrong types are LottieErrors naming the JSON path; the modifiers are no
    /// longer reported; twist still is.
    func testBadModifiersAndReports() throws {
        func load(_ item: String) -> String {
            let json = #"{"fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":4,"ip":0,"op":20,"shapes":[{"ty":"gr","it":[{"ty":"rc","p":{"k":[50,50]},"s":{"k":[20,20]}},"#
                + item + #",{"ty":"fl","c":{"k":[1,0,0]}}]}]}]}"#
            do {
                let layer = try LottieLayer(data: Data(json.utf8))
                return "ok " + layer.unsupported.map(\.description).joined(separator: "; ")
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(load(#"{"ty":"zz","s":{"k":10},"r":{"k":1e9},"pt":{"k":1}}"#),
                       "layers[0].shapes[0].it[1].r: 1000000000.0 ridges a segment, over the limit of 1000")
        XCTAssertEqual(load(#"{"ty":"zz","s":{"k":10},"r":{"a":1,"k":[{"t":0,"s":[1]},{"t":10,"s":[5000]}]}}"#),
                       "layers[0].shapes[0].it[1].r: 5000.0 ridges a segment, over the limit of 1000")
        XCTAssertEqual(load(#"{"ty":"zz","s":{"k":"big"},"r":{"k":1}}"#), "layers[0].shapes[0].it[1].s.k: expected an array of numbers")
        XCTAssertEqual(load(#"{"ty":"rd"}"#), "layers[0].shapes[0].it[1].r: missing")
        XCTAssertEqual(load(#"{"ty":"pb","a":[1]}"#), "layers[0].shapes[0].it[1].a: expected an object")
        XCTAssertEqual(load(#"{"ty":"op","a":{"k":5},"lj":"x","ml":{"k":4}}"#), "layers[0].shapes[0].it[1].lj: expected a number")
        XCTAssertEqual(load(#"{"ty":"zz","s":{"k":10},"r":{"k":3},"pt":"smooth"}"#), "layers[0].shapes[0].it[1].pt: expected a number")
        // Huge but finite values draw something (or nothing), never trap.
        for item in [#"{"ty":"zz","s":{"k":1e300},"r":{"k":1000},"pt":2}"#, #"{"ty":"op","a":{"k":1e300},"lj":2}"#,
                     #"{"ty":"op","a":{"k":-1e300},"lj":1,"ml":1e300}"#, #"{"ty":"rd","r":{"k":1e300}}"#, #"{"ty":"pb","a":{"k":-1e300}}"#] {
            XCTAssertEqual(load(item), "ok ", item)
        }
        XCTAssertEqual(load(#"{"ty":"rd","r":{"k":4}},{"ty":"pb","a":{"k":20}},{"ty":"zz","s":{"k":3},"r":{"k":2}},{"ty":"op","a":{"k":2},"lj":1}"#), "ok ")
        XCTAssertEqual(load(#"{"ty":"tw","a":{"k":30},"c":{"k":[50,50]}}"#), "ok layers[0].shapes[0].it[1]: twist (not rendered)")
        for name in ["rounded-corners", "pucker-bloat", "zig-zag", "offset-path"] {
            XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url(name)).unsupported, [], name)
        }
    }

    /// A small file whose animated zig-zag would hold billions of sampled path points (a 25-gon,
    /// 1 000 ridges a segment, 2 000 frames sampled twice each: 25 025 × 4 001) is refused,
    /// naming the fill that draws it, before any sample is made; under a smaller limit, so is a
    /// modest one.
    func testSampledPathPointsAreBounded() throws {
        func json(frames: Int, ridges: Int) -> Data {
            Data(#"{"fr":30,"ip":0,"op":\#(frames),"w":100,"h":100,"layers":[{"ty":4,"ip":0,"op":\#(frames),"shapes":[{"ty":"gr","it":[{"ty":"sr","sy":2,"p":{"k":[50,50]},"pt":{"k":25},"or":{"k":40}},{"ty":"zz","s":{"a":1,"k":[{"t":0,"s":[1],"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}},{"t":\#(frames),"s":[10]}]},"r":{"k":\#(ridges)},"pt":2},{"ty":"fl","c":{"k":[1,0,0]}}]}]}]}"#.utf8)
        }
        XCTAssertThrowsError(try LottieLayer(data: json(frames: 2000, ridges: 1000))) { e in
            XCTAssertEqual("\(e)", "layers[0].shapes[0].it[2]: more than 20000000 path points pre-sampled in all, over the limit")
        }
        // 25 × (3 + 1) points at 41 samples: 4 100.
        XCTAssertNoThrow(try LottieLayer(data: json(frames: 20, ridges: 3)))
        var small = LottieLimits()
        small.sampledPathPoints = 4_000
        XCTAssertThrowsError(try LottieLayer(data: json(frames: 20, ridges: 3), limits: small)) { e in
            XCTAssertEqual("\(e)", "layers[0].shapes[0].it[2]: more than 4000 path points pre-sampled in all, over the limit")
        }
    }

    /// Huge values render a frame (big numbers in the paths, not a crash).
    func testHugeValuesRender() throws {
        let json = #"{"fr":10,"ip":0,"op":20,"w":50,"h":50,"layers":[{"ty":4,"ip":0,"op":20,"shapes":[{"ty":"gr","it":[{"ty":"rc","p":{"k":[25,25]},"s":{"k":[20,20]}},{"ty":"zz","s":{"k":1e300},"r":{"k":1000},"pt":2},{"ty":"op","a":{"k":1e300},"lj":2},{"ty":"fl","c":{"k":[1,0,0]}}]}]}]}"#
        let layer = try LottieLayer(data: Data(json.utf8))
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        layer.frame = root.bounds
        root.addSublayer(layer)
        _ = try Scene(rootLayer: root, size: CGSize(width: 50, height: 50), frameRate: 10, duration: 1).renderFrame(at: 0)
    }
}
