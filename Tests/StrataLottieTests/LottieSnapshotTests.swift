// A Lottie's frames are snapshotted by PresentationBuilder.snapshotTree, which copies only the
// layers whose presentation differs from their model in ways it cannot apply itself (the
// LottieLayer, for its sublayers' time; effect layers; layers with animations of keys it does
// not handle). Its snapshot must be exactly the whole presentation tree's, copied layer by
// layer: checked for every fixture at frames before, on and between keyframes (hold and linear
// keyframes, spatial ones along a path, opacity, hidden in and out points, paths, colours,
// stroke widths, trims, mattes, masks, precomps with remapped time, repeaters, text), also
// with the frame picked by an animated `progress`.
import Foundation
import XCTest
@testable import StrataCore
import Strata
import StrataLottie

final class LottieSnapshotTests: XCTestCase {
    private func fixtures() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: LottieFixtures.folder.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The times (seconds) of Lottie frames spread over the fixture's frames, some between frames.
    private func times(of layer: LottieLayer) -> [Double] {
        let a = layer.animation!
        let frames = [a.inPoint - 1, a.inPoint, a.inPoint + 0.5, (a.inPoint + a.outPoint) / 2 + 0.25,
                      a.inPoint + (a.outPoint - a.inPoint) * 0.8, a.outPoint - 1, a.outPoint + 2]
        return frames.map { layer.time(ofFrame: $0) }
    }

    func testEveryFixtureSnapshotsAsItsPresentationTree() throws {
        let names = try fixtures()
        XCTAssertGreaterThan(names.count, 30)
        for name in names {
            guard let (scene, layer) = try? LottieFixtures.scene(name) else { continue }
            for t in times(of: layer) {
                let builder = PresentationBuilder(time: t)
                let fast = builder.snapshotTree(of: scene.rootLayer)
                let copied = builder.presentationTree(of: scene.rootLayer).makeSnapshot()
                XCTAssertEqual(fast, copied, "\(name) at \(t) s")
            }
        }
    }

    func testAnimatedProgressSnapshotsAsItsPresentationTree() throws {
        for name in ["keyframes", "precomp", "mattes", "trim-individually"] {
            let (scene, layer) = try LottieFixtures.scene(name)
            let scrub = CABasicAnimation(keyPath: "progress")
            scrub.fromValue = 1; scrub.toValue = 0; scrub.duration = 2
            scrub.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
            layer.add(scrub, forKey: "scrub")
            for t in [0.0, 0.3, 0.9, 1.7, 2.5] {
                let builder = PresentationBuilder(time: t)
                XCTAssertEqual(builder.snapshotTree(of: scene.rootLayer),
                               builder.presentationTree(of: scene.rootLayer).makeSnapshot(), "\(name) at \(t) s")
            }
        }
    }

    /// The compiled layers of `layer` a snapshot copies (each with its subtree).
    private func copied(under layer: CALayer) -> [CALayer] {
        let needsCopy = !PresentationBuilder.isCopiedWhole(layer)
            || !(layer.animationEntries.isEmpty || PresentationBuilder.animatesGeometryOnly(layer))
        if needsCopy { return [layer] }
        return (layer.mask.map { copied(under: $0) } ?? []) + (layer.sublayers ?? []).flatMap { copied(under: $0) }
    }

    func testKeyframedLayersNeedNoCopies() throws {
        // Keyframes of position, scale, rotation, opacity (linear, eased and held), in and out
        // points (hidden), shape paths, fills and strokes: nothing compiled from these fixtures
        // is copied for a frame.
        for name in ["keyframes", "transform", "shapes", "auto-orient", "morph", "mattes", "dash-animation"] {
            let layer = try LottieLayer(contentsOf: LottieFixtures.url(name))
            XCTAssertEqual(copied(under: layer.compositionLayer).map { "\(type(of: $0)) \($0.animationKeys() ?? [])" }, [], name)
        }
    }
}
