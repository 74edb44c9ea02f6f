// Renders the fixtures (Fixtures/*.json, written by make-fixtures.py) and checks pixels the
// spec's formulas predict at chosen frames.
import Foundation
import XCTest
import Strata
import StrataLottie
import StrataTestSupport

enum LottieFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static func url(_ name: String) -> URL { folder.appendingPathComponent(name + ".json") }

    /// A scene showing the fixture at its size and frame rate.
    static func scene(_ name: String) throws -> (Scene, LottieLayer) {
        let layer = try LottieLayer(contentsOf: url(name))
        let a = layer.animation!
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: a.width, height: a.height)
        layer.anchorPoint = .zero
        layer.position = .zero
        root.addSublayer(layer)
        return (Scene(rootLayer: root, size: CGSize(width: a.width, height: a.height), frameRate: a.frameRate, duration: a.duration), layer)
    }

    /// The frame of the fixture at a Lottie frame.
    static func frame(_ name: String, _ frame: Double, workers: Int = 1) throws -> Bitmap {
        let (scene, layer) = try scene(name)
        var options = RenderOptions()
        options.workers = workers
        return try scene.renderFrame(at: layer.time(ofFrame: frame), options: options)
    }
}

extension Bitmap {
    /// (r, g, b, a) at a point as integers.
    func at(_ x: Int, _ y: Int) -> [Int] {
        let p = pixel(x: x, y: y)
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }
}

final class LottieRenderTests: XCTestCase {
    func testDump() throws {
        guard let name = ProcessInfo.processInfo.environment["LOTTIE_DUMP"] else { return }
        let f = Double(ProcessInfo.processInfo.environment["LOTTIE_FRAME"] ?? "0") ?? 0
        let bitmap = try LottieFixtures.frame(name, f)
        try bitmap.writePNG(to: URL(fileURLWithPath: "/tmp/lottie-\(name)-\(Int(f)).png"))
    }
}
