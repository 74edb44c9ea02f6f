// A gradient layer keeps the gradient its last snapshot read until one of the properties it reads
// is set: every property, set on the model or animated on the presentation copy, must show in the
// next snapshot, and an unchanged layer gives the same gradient again.
import Foundation
import XCTest
@testable import StrataCore

final class GradientSnapshotTests: XCTestCase {
    private let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    private let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)

    private func snapshot(_ layer: CALayer, at time: Double = 0) -> GradientSnapshot? {
        PresentationBuilder(time: time).snapshotTree(of: layer).gradient
    }

    func testEveryPropertyShowsInTheNextSnapshot() {
        let g = CAGradientLayer()
        g.frame = CGRect(x: 0, y: 0, width: 100, height: 50)
        g.colors = [red, blue]
        let first = snapshot(g)
        XCTAssertEqual(first?.colors, [RGBA(red)!, RGBA(blue)!])
        XCTAssertEqual(first?.locations, [0, 1])
        XCTAssertEqual(snapshot(g), first, "unchanged")

        g.colors = [red, green, blue]
        XCTAssertEqual(snapshot(g)?.colors, [RGBA(red)!, RGBA(green)!, RGBA(blue)!])
        XCTAssertEqual(snapshot(g)?.locations, [0, 0.5, 1])
        g.locations = [0, 0.2, 1]
        XCTAssertEqual(snapshot(g)?.locations, [0, 0.2, 1])
        g.startPoint = CGPoint(x: 0.1, y: 0.2)
        XCTAssertEqual(snapshot(g)?.startPoint, CGPoint(x: 0.1, y: 0.2))
        g.endPoint = CGPoint(x: 0.9, y: 0.8)
        XCTAssertEqual(snapshot(g)?.endPoint, CGPoint(x: 0.9, y: 0.8))
        g.type = .radial
        XCTAssertEqual(snapshot(g)?.type, .radial)
        // Counts that disagree draw nothing; agreeing again draws.
        g.locations = [0, 1]
        XCTAssertNil(snapshot(g))
        g.colors = [red, blue]
        XCTAssertEqual(snapshot(g)?.colors, [RGBA(red)!, RGBA(blue)!])
        g.colors = nil
        XCTAssertNil(snapshot(g))
    }

    func testAnimatedColorsShowInEverySnapshot() {
        let g = CAGradientLayer()
        g.frame = CGRect(x: 0, y: 0, width: 100, height: 50)
        g.colors = [red, blue]
        let a = CABasicAnimation(keyPath: "colors")
        a.fromValue = [red, blue]; a.toValue = [blue, red]; a.duration = 1
        g.add(a, forKey: "colors")
        let start = snapshot(g, at: 0), middle = snapshot(g, at: 0.5), end = snapshot(g, at: 2)
        XCTAssertEqual(start?.colors.first?.r ?? -1, 1, accuracy: 1e-6)
        XCTAssertEqual(middle?.colors.first?.r ?? -1, 0.5, accuracy: 1e-3)
        XCTAssertEqual(end?.colors, [RGBA(red)!, RGBA(blue)!], "after the animation: the model's")
        XCTAssertEqual(snapshot(g, at: 0.5), middle)
    }
}
