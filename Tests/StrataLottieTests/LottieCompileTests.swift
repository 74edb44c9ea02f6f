// The Core Animation a Lottie compiles to: the layers and keyframe animations themselves.
import Foundation
import XCTest
import Strata
import StrataLottie

final class LottieCompileTests: XCTestCase {
    private func wrapper(_ layer: LottieLayer, _ name: String) -> CALayer? {
        layer.compositionLayer.sublayers?.first { $0.name == name }
    }

    private func controlPoints(_ f: CAMediaTimingFunction) -> [Float] {
        var out: [Float] = []
        for i in 1...2 {
            var p: [Float] = [0, 0]
            f.getControlPoint(at: i, values: &p)
            out += p
        }
        return out
    }

    /// keyframes.json: position linear (0 → 10), held (10 → 15); opacity eased by (0.42, 0)
    /// (0.58, 1); the layer shown from its in to its out point by a discrete `hidden` animation.
    func testKeyframesBecomeKeyframeAnimations() throws {
        let layer = try LottieLayer(contentsOf: LottieFixtures.url("keyframes"))
        let top = try XCTUnwrap(wrapper(layer, "layer 1"))
        let position = try XCTUnwrap(top.sublayers?.first?.animation(forKey: "position") as? CAKeyframeAnimation)
        // 0: (10,50); 10: (90,50) then held until just before 15; 15: (50,20).
        XCTAssertEqual((position.values as? [CGPoint]) ?? [], [CGPoint(x: 10, y: 50), CGPoint(x: 90, y: 50), CGPoint(x: 90, y: 50), CGPoint(x: 50, y: 20)])
        let times = (position.keyTimes ?? []).map(\.doubleValue)
        XCTAssertEqual(times.count, 4)
        XCTAssertEqual(times[1], 10.0 / 15, accuracy: 1e-12)
        XCTAssertEqual(times[2], (15 - 1e-4) / 15, accuracy: 1e-12)
        XCTAssertEqual(times[3], 1)
        XCTAssertEqual(position.duration, 1.5, accuracy: 1e-12)      // 15 frames at 10 fps
        XCTAssertEqual(position.fillMode, .both)
        XCTAssertEqual(controlPoints(position.timingFunctions![0]), [0, 0, 1, 1])

        let second = try XCTUnwrap(wrapper(layer, "layer 2"))
        let opacity = try XCTUnwrap(second.sublayers?.first?.animation(forKey: "opacity") as? CAKeyframeAnimation)
        XCTAssertEqual((opacity.values as? [Float]) ?? [], [0, 1])
        XCTAssertEqual(controlPoints(opacity.timingFunctions![0]), [0.42, 0, 0.58, 1])

        let hidden = try XCTUnwrap(top.animation(forKey: "hidden") as? CAKeyframeAnimation)
        XCTAssertEqual(hidden.calculationMode, .discrete)
        XCTAssertEqual((hidden.values as? [Bool]) ?? [], [true, false, true])
        XCTAssertTrue(top.isHidden)
    }

    /// Per-dimension easing (x and y eased differently) is not one timing function: x and y
    /// of the scale become two animations, each with its own curve (on nodes of their own).
    func testPerDimensionEasingSplitsTheScale() throws {
        let json = #"""
        {"fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":4,"nm":"s","ip":0,"op":20,"shapes":[],
         "ks":{"s":{"a":1,"k":[{"t":0,"s":[100,100],"o":{"x":[0.1,0.7],"y":[0,0]},"i":{"x":[0.2,0.8],"y":[1,1]}},{"t":10,"s":[200,50]}]}}}]}
        """#
        let layer = try LottieLayer(data: Data(json.utf8))
        // Position node → scale x node → scale y node.
        let xNode = try XCTUnwrap(wrapper(layer, "s")?.sublayers?.first?.sublayers?.first)
        let yNode = try XCTUnwrap(xNode.sublayers?.first)
        let x = try XCTUnwrap(xNode.animation(forKey: "transform.scale.x") as? CAKeyframeAnimation)
        let y = try XCTUnwrap(yNode.animation(forKey: "transform.scale.y") as? CAKeyframeAnimation)
        XCTAssertEqual(controlPoints(x.timingFunctions![0]), [0.1, 0, 0.2, 1])
        XCTAssertEqual(controlPoints(y.timingFunctions![0]), [0.7, 0, 0.8, 1])
        XCTAssertEqual((x.values as? [CGFloat]) ?? [], [1, 2])
        XCTAssertEqual((y.values as? [CGFloat]) ?? [], [1, 0.5])
    }

    /// Auto-orient along a curved motion path: a rotation node under the position node, sampled
    /// twice a frame, its angle the direction of travel — straight down (π/2) as the curve
    /// leaves (0, 0) along its out tangent (0, 40), level (0) at the apex halfway, straight up
    /// (−π/2) as it arrives at (60, 0) from its in tangent; after the last keyframe the direction
    /// of its last 0.05 frames stays.
    func testAutoOrientFollowsTheCurve() throws {
        let json = #"""
        {"fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":4,"nm":"p","ip":0,"op":20,"ao":1,"shapes":[],
         "ks":{"p":{"a":1,"k":[{"t":0,"s":[0,0],"to":[0,40],"ti":[0,40],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[60,0]}]}}}]}
        """#
        let layer = try LottieLayer(data: Data(json.utf8))
        XCTAssertEqual(layer.unsupported, [])
        let position = try XCTUnwrap(wrapper(layer, "p")?.sublayers?.first)
        let turn = try XCTUnwrap(position.sublayers?.first)
        let a = try XCTUnwrap(turn.animation(forKey: "transform.rotation.z") as? CAKeyframeAnimation)
        let angles = ((a.values as? [CGFloat]) ?? []).map(Double.init)
        XCTAssertEqual(angles.count, 41)                       // 2 samples a frame over frames 0…20, and the start
        XCTAssertEqual(angles[0], .pi / 2, accuracy: 0.01)
        // Frame 5, the apex: level, but for the backward difference's lag — half the turn over
        // its 0.01 frames (curvature 0.030 × about 0.1 pt travelled / 2 ≈ 0.0015).
        XCTAssertEqual(angles[10], 0.0015, accuracy: 5e-4)
        XCTAssertEqual(angles[30], -.pi / 2, accuracy: 0.02)    // frame 15: held after the end
        for i in 1...20 { XCTAssertLessThan(angles[i], angles[i - 1], "turning clockwise at sample \(i)") }
        XCTAssertEqual(angles[2], -angles[18], accuracy: 0.01)  // symmetric about the apex
        // A layer that does not move gets no rotation node: its position node holds the content.
        let still = try LottieLayer(data: Data(json.replacingOccurrences(of: #""a":1"#, with: #""a":0"#)
            .replacingOccurrences(of: #"[{"t":0,"s":[0,0],"to":[0,40],"ti":[0,40],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[60,0]}]"#, with: "[5,5]").utf8))
        let stillPosition = try XCTUnwrap(wrapper(still, "p")?.sublayers?.first)
        XCTAssertEqual(stillPosition.position, CGPoint(x: 5, y: 5))
        XCTAssertTrue((stillPosition.sublayers ?? []).allSatisfy { $0.animation(forKey: "transform.rotation.z") == nil })
    }

    /// A motion path with spatial tangents is travelled by arc length: sampled values lie on the
    /// curve, and its midpoint in time (linear easing) is the curve's midpoint by length.
    func testSpatialTangentsAreSampledAlongTheCurve() throws {
        let json = #"""
        {"fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":4,"nm":"p","ip":0,"op":20,"shapes":[],
         "ks":{"p":{"a":1,"k":[{"t":0,"s":[0,0],"to":[0,40],"ti":[0,40],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[60,0]}]}}}]}
        """#
        let layer = try LottieLayer(data: Data(json.utf8))
        let node = try XCTUnwrap(wrapper(layer, "p")?.sublayers?.first)
        let a = try XCTUnwrap(node.animation(forKey: "position") as? CAKeyframeAnimation)
        let points = (a.values as? [CGPoint]) ?? []
        XCTAssertEqual(points.count, 21)                        // 2 samples a frame over 10 frames, and the start
        // Symmetric curve: halfway in time is the apex, x = 30, y = 0.75 × 40 = 30.
        XCTAssertEqual(points[10].x, 30, accuracy: 0.05)
        XCTAssertEqual(points[10].y, 30, accuracy: 0.05)
        XCTAssertEqual(points[20], CGPoint(x: 60, y: 0))
    }
}

extension LottieCompileTests {
    /// A stroke's "d" is its dash list (not a path direction): 10 on, 10 off from x = 0.
    func testDashedStroke() throws {
        let json = #"""
        {"fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":4,"nm":"d","ip":0,"op":20,"shapes":[{"ty":"gr","it":[
         {"ty":"sh","ks":{"k":{"c":false,"v":[[0,50],[100,50]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]]}}},
         {"ty":"st","c":{"k":[0,0,0,1]},"o":{"k":100},"w":{"k":4},"lc":1,"lj":1,
          "d":[{"n":"d","v":{"k":10}},{"n":"g","v":{"k":10}},{"n":"o","v":{"k":0}}]},
         {"ty":"tr","p":{"k":[0,0]},"a":{"k":[0,0]},"s":{"k":[100,100]},"r":{"k":0},"o":{"k":100}}]}]}]}
        """#
        let layer = try LottieLayer(data: Data(json.utf8))
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.anchorPoint = .zero; layer.position = .zero
        root.addSublayer(layer)
        let f = try Scene(rootLayer: root, size: CGSize(width: 100, height: 100), frameRate: 10, duration: 2).renderFrame(at: 0)
        XCTAssertEqual(f.at(5, 50), [0, 0, 0, 255])
        XCTAssertEqual(f.at(15, 50), [0, 0, 0, 0])
        XCTAssertEqual(f.at(25, 50), [0, 0, 0, 255])
        XCTAssertEqual(f.at(95, 50), [0, 0, 0, 0])
    }
}

extension LottieCompileTests {
    /// A scale through 0 in x keeps its y (x and y are on separate nodes): 0 % × 100 % at frame
    /// 0 → 100 % × 50 % at 10; at frame 5 a 40 × 40 square is 20 wide and 30 tall.
    func testScaleThroughZero() throws {
        let json = #"""
        {"fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":4,"nm":"z","ip":0,"op":20,
         "ks":{"p":{"k":[50,50]},"s":{"a":1,"k":[{"t":0,"s":[0,100],"o":{"x":[0,0],"y":[0,0]},"i":{"x":[1,1],"y":[1,1]}},{"t":10,"s":[100,50]}]}},
         "shapes":[{"ty":"gr","it":[{"ty":"rc","p":{"k":[0,0]},"s":{"k":[40,40]},"r":{"k":0}},{"ty":"fl","c":{"k":[0,0,0,1]},"o":{"k":100}},
          {"ty":"tr","p":{"k":[0,0]},"a":{"k":[0,0]},"s":{"k":[100,100]},"r":{"k":0},"o":{"k":100}}]}]}]}
        """#
        let layer = try LottieLayer(data: Data(json.utf8))
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.anchorPoint = .zero; layer.position = .zero
        root.addSublayer(layer)
        let scene = Scene(rootLayer: root, size: CGSize(width: 100, height: 100), frameRate: 10, duration: 2)
        let f = try scene.renderFrame(at: 0.5)
        XCTAssertEqual(f.at(41, 50), [0, 0, 0, 255])
        XCTAssertEqual(f.at(39, 50), [0, 0, 0, 0])
        XCTAssertEqual(f.at(50, 36), [0, 0, 0, 255])
        XCTAssertEqual(f.at(50, 33), [0, 0, 0, 0])
        let g = try scene.renderFrame(at: 0)
        XCTAssertEqual(g.at(50, 50), [0, 0, 0, 0])
    }
}
