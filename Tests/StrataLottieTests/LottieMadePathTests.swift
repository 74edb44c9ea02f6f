// Expressions on paths that make a path (`createPath`): the shape at each frame where the layer
// shows, worked out by hand; failures reported, the keyframes' shape used there.
import Foundation
import XCTest
import Strata
@testable import StrataLottie

/// Expressions on paths that make a path (`createPath`), as After Effects' "Create Nulls From
/// Paths" writes them: the shape at each frame, worked out by hand.
final class LottieMadePathTests: XCTestCase {
    /// An animation (10 fps, frames 0…19) with a null "N" moving from (30, 40) to (60, 40) over
    /// frames 0…10 and a shape layer at (10, 0) whose path (0, 0) → (20, 0) has the expression `source`.
    func animation(_ source: String) throws -> LottieAnimation {
        let quoted = String(data: try JSONSerialization.data(withJSONObject: [source]), encoding: .utf8)!.dropFirst().dropLast()
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":["#
            + #"{"ty":4,"ind":1,"nm":"S","ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":0,"k":[10,0]}},"shapes":[{"ty":"gr","nm":"G","it":["#
            + #"{"ty":"sh","nm":"Path 1","ks":{"a":0,"k":{"c":false,"v":[[0,0],[20,0]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]]},"x":\#(quoted)}},"#
            + #"{"ty":"st","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"lc":1,"lj":1},"#
            + #"{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]},"#
            + #"{"ty":3,"ind":2,"nm":"N","ip":0,"op":20,"st":0,"sr":1,"ks":{"p":{"a":1,"k":[{"t":0,"s":[30,40],"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}},{"t":10,"s":[60,40]}]}}}]}"#
        return try LottieAnimation(data: Data(json.utf8))
    }

    /// The shape of "S"'s path at a frame.
    func shape(_ a: LottieAnimation, at frame: Double) throws -> LottieBezier {
        guard case .shapes(let items) = a.layers[0].content, case .group(let inner, _) = items[0], case .path(let p, _) = inner[0] else {
            XCTFail("no path"); throw LottieScriptError("no path")
        }
        return p.value(at: frame)
    }

    func testPointsFollowANull() throws {
        // The second point follows N (in S's space: N's position less S's (10, 0)).
        let a = try animation("""
            var p = thisProperty.points();
            p[1] = fromCompToSurface(thisComp.layer('N').toComp([0, 0]));
            createPath(p, thisProperty.inTangents(), thisProperty.outTangents(), thisProperty.isClosed())
            """)
        XCTAssertEqual(a.unsupported.map(\.description), [])
        XCTAssertEqual(try shape(a, at: 0).vertices, [CGPoint(x: 0, y: 0), CGPoint(x: 20, y: 40)])
        XCTAssertEqual(try shape(a, at: 5).vertices, [CGPoint(x: 0, y: 0), CGPoint(x: 35, y: 40)])
        XCTAssertEqual(try shape(a, at: 15).vertices, [CGPoint(x: 0, y: 0), CGPoint(x: 50, y: 40)])
        XCTAssertFalse(try shape(a, at: 5).closed)
        // A made path of a changing number of points, closed by default.
        let b = try animation("var p = [[0, 0], [10, 0]]; for (var i = 0; i < time * 10; i++) { p.push([i, 5]) } createPath(p)")
        XCTAssertEqual(try shape(b, at: 3).vertices.count, 5)
        XCTAssertTrue(try shape(b, at: 3).closed)
    }

    func testBadPathsAreReported() throws {
        let a = try animation("createPath([[0, 0], [1, 1]], [[0, 0]], [])")
        XCTAssertEqual(a.unsupported.map(\.feature), ["expression on a path: createPath's tangents (1, 2) are not one a point (2) (the keyframes are used instead)"])
        XCTAssertEqual(try shape(a, at: 5).vertices, [CGPoint(x: 0, y: 0), CGPoint(x: 20, y: 0)])
        // Failing between the in and out points only: the keyframes' shape at those frames.
        let b = try animation("time > 0.5 && time < 1.5 ? createPath(['x']) : createPath([[1, 1]])")
        XCTAssertEqual(b.unsupported.map(\.feature), ["expression on a path: a string or an object where a number is needed (the keyframes are used where it fails)"])
        XCTAssertEqual(try shape(b, at: 3).vertices, [CGPoint(x: 1, y: 1)])
        XCTAssertEqual(try shape(b, at: 10).vertices, [CGPoint(x: 0, y: 0), CGPoint(x: 20, y: 0)])
        XCTAssertEqual(try shape(b, at: 17).vertices, [CGPoint(x: 1, y: 1)])
    }
}
