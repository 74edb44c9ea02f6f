// Scene timing: exact frame times, scheduled changes with implicit animations, presentation.
import XCTest
import Strata

final class SceneTests: XCTestCase {
    func testFrameTimesAreExact() {
        let root = CALayer()
        let s = Scene(rootLayer: root, size: CGSize(width: 10, height: 10), frameRate: 29.97, duration: 10)
        XCTAssertEqual(s.frameRate, FrameRate(numerator: 30000, denominator: 1001))
        XCTAssertEqual(s.time(ofFrame: 300), 300.0 * 1001 / 30000)
        XCTAssertEqual(s.frameCount, 300)  // ceil(10 × 29.97)
        XCTAssertEqual(Scene(rootLayer: root, size: CGSize(width: 10, height: 10), frameRate: 30, duration: 4).frameCount, 120)
    }

    func testScheduledChangeAnimatesImplicitly() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 640, height: 360)
        let box = CALayer()
        box.frame = CGRect(x: 40, y: 40, width: 120, height: 120)
        root.addSublayer(box)
        box.position = CGPoint(x: 100, y: 100)  // building: no animation
        XCTAssertNil(box.animationKeys())
        let scene = Scene(rootLayer: root, size: CGSize(width: 640, height: 360), frameRate: 30, duration: 4)
        var seenTime = -1.0
        var completedAt = -1.0
        scene.at(2.0) {
            seenTime = CACurrentMediaTime()
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            CATransaction.setCompletionBlock { completedAt = CACurrentMediaTime() }
            box.position = CGPoint(x: 500, y: 180)
            CATransaction.commit()
        }
        let p = try XCTUnwrap(scene.presentation(of: box, at: 2.5))
        XCTAssertEqual(seenTime, 2.0)
        let f = CAMediaTimingFunction(name: .default).evaluate(0.5)
        XCTAssertEqual(Double(p.position.x), 100 + 400 * f, accuracy: 1e-9)
        XCTAssertEqual(Double(p.position.y), 100 + 80 * f, accuracy: 1e-9)
        XCTAssertEqual(box.position, CGPoint(x: 500, y: 180))  // the model holds the target
        _ = try scene.presentation(of: box, at: 3.5)
        XCTAssertEqual(completedAt, 3.0, accuracy: 1e-9)
    }

    func testDisableActionsJumps() throws {
        let root = CALayer()
        let box = CALayer()
        root.addSublayer(box)
        let scene = Scene(rootLayer: root, size: CGSize(width: 100, height: 100), frameRate: 30, duration: 2)
        scene.at(0.5) {
            CATransaction.setDisableActions(true)
            box.opacity = 0.25
        }
        XCTAssertEqual(try scene.presentation(of: box, at: 0.6)?.opacity, 0.25)
    }

    func testSchedulingBeforeBlocksThatHaveRunIsAClearError() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        let scene = Scene(rootLayer: root, size: CGSize(width: 8, height: 8), frameRate: 10, duration: 2)
        scene.at(1) {
            CATransaction.setDisableActions(true)
            root.backgroundColor = .white
        }
        _ = try scene.renderFrame(at: 1.5)
        // Later than every block that has run: accepted, runs when its time is rendered.
        scene.at(1.2) {
            CATransaction.setDisableActions(true)
            root.opacity = 0.5
        }
        XCTAssertEqual(try scene.presentation(of: root, at: 1.1)?.opacity, 1)
        XCTAssertEqual(try scene.presentation(of: root, at: 1.3)?.opacity, 0.5)
        // Before a block that has run: the time order cannot hold.
        scene.at(0.5) { root.opacity = 0.1 }
        XCTAssertThrowsError(try scene.renderFrame(at: 0.2)) { e in
            XCTAssertEqual("\(e)", "scene.at(0.5) was called after the scene had run its blocks and animation events "
                           + "up to 1.2 s; schedule every block before rendering (or build a new scene)")
        }
        let other = Scene(rootLayer: CALayer(), size: CGSize(width: 8, height: 8), frameRate: 10, duration: 2)
        other.at(.nan) {}
        XCTAssertThrowsError(try other.renderFrame(at: 0)) { e in
            XCTAssertEqual("\(e)", "scene.at(nan): the time must be a finite number of seconds")
        }
    }
}
