// The media limits are the scene's own (Scene.mediaContext, made from Scene.limits): two scenes
// of one process, one refusing a file by its image or video size and one with the default limits
// accepting the same file, rendered at the same time on different threads, each decide by their
// own limits — also when the other scene's decode is already in the shared image cache.
import Foundation
import Synchronization
import XCTest
@testable import Strata

final class SceneMediaLimitsTests: XCTestCase {
    /// The outcome of one scene: the error text, or the RGBA of pixel (10, 10).
    private final class Outcomes: Sendable {
        let found = Mutex<[Int: String]>([:])
        func set(_ i: Int, _ text: String) { found.withCheckedLock { $0[i] = text } }
        var all: [Int: String] { found.withCheckedLock { $0 } }
    }

    private static func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        Array(b.pixels[(y * b.width + x) * 4..<(y * b.width + x) * 4 + 4])
    }

    func testTwoScenesWithDifferentMediaLimitsDecideIndependentlyWhileRenderingConcurrently() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 40×20 opaque red picture and a 48×32 blue clip.
        var picture = Bitmap(width: 40, height: 20)
        for i in stride(from: 0, to: picture.pixels.count, by: 4) { picture.pixels[i] = 255; picture.pixels[i + 3] = 255 }
        let png = dir.appendingPathComponent("p.png"), clip = dir.appendingPathComponent("v.mp4")
        try picture.writePNG(to: png)
        let r = try runProcess("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=blue:size=48x32:rate=10:d=0.3",
                                          "-c:v", "mpeg4", clip.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = Data(#"{"size": [64, 36], "frameRate": 10, "duration": 1, "layers": [{"type": "image", "image": "p.png", "size": [40, 20]}]}"#.utf8)
        let composition = try JSONDecoder().decode(Composition.self, from: json)

        let tight = { var l = SceneLimits(); l.imageSize = 32; l.videoSize = 40; return l }()
        let outcomes = Outcomes()
        // Six kinds of scene, each made and rendered on its own thread, three rounds at once:
        // 0/1 a template's image (decoded by the compiler), 2/3 a video layer (its item opened
        // while the scene renders), 4/5 an image loaded in a scene block — odd ones under the
        // tight limits, even ones under the defaults.
        DispatchQueue.concurrentPerform(iterations: 18) { i in
            let kind = i % 6, limits = kind % 2 == 1 ? tight : SceneLimits()
            do {
                let scene: Scene
                switch kind / 2 {
                case 0:
                    scene = try Scene(composition: composition, options: CompositionOptions(assetFolder: dir, limits: limits))
                case 1:
                    let root = CALayer(), video = AVPlayerLayer(player: AVPlayer(url: clip))
                    root.frame = CGRect(x: 0, y: 0, width: 64, height: 36)
                    video.frame = CGRect(x: 0, y: 0, width: 48, height: 32)
                    root.addSublayer(video)
                    scene = Scene(rootLayer: root, size: CGSize(width: 64, height: 36), frameRate: 10, duration: 1)
                    scene.limits = limits
                default:
                    let root = CALayer(), still = CALayer()
                    root.frame = CGRect(x: 0, y: 0, width: 64, height: 36)
                    still.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
                    root.addSublayer(still)
                    scene = Scene(rootLayer: root, size: CGSize(width: 64, height: 36), frameRate: 10, duration: 1)
                    scene.limits = limits
                    scene.at(0) {
                        CATransaction.setDisableActions(true)  // shown at once, not faded in
                        do { still.contents = try CGImage.load(contentsOf: png) } catch {
                            still.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)  // refused: green
                        }
                    }
                }
                outcomes.set(i, "\(Self.pixel(try scene.renderFrame(at: 0), 10, 10))")
            } catch {
                outcomes.set(i, "\(error)")
            }
        }
        let all = outcomes.all
        XCTAssertEqual(all.count, 18)
        for i in 0..<18 {
            let text = all[i] ?? "nothing"
            switch i % 6 {
            case 0, 4: XCTAssertEqual(text, "[255, 0, 0, 255]", "scene \(i): the default limits show the picture")
            case 1:
                XCTAssertTrue(text.contains("image[0].image") || text.contains("layers[0]"), "scene \(i): \(text)")
                XCTAssertTrue(text.contains("p.png") && text.contains("the image is 40×20 pixels; at most 32 per side is allowed"),
                              "scene \(i): \(text)")
            case 2:
                let rgba = text.dropFirst().dropLast().split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                XCTAssertEqual(rgba.count, 4, "scene \(i): \(text)")
                if rgba.count == 4 { XCTAssertTrue(rgba[0] < 40 && rgba[1] < 40 && rgba[2] > 215 && rgba[3] == 255, "scene \(i): \(text)") }
            case 3:
                XCTAssertTrue(text.contains("v.mp4") && text.contains("the video is 48×32 pixels; at most 40 per side is allowed"),
                              "scene \(i): \(text)")
            default: XCTAssertEqual(text, "[0, 255, 0, 255]", "scene \(i): the tight limits refused the picture in the block")
            }
        }
    }

    /// A DSL scene given limits decodes its images under them as it is made; one made without
    /// keeps the defaults, whatever the other asked for.
    func testADSLSceneDecodesItsImagesUnderItsOwnLimits() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var picture = Bitmap(width: 40, height: 20)
        for i in stride(from: 0, to: picture.pixels.count, by: 4) { picture.pixels[i + 2] = 255; picture.pixels[i + 3] = 255 }
        try picture.writePNG(to: dir.appendingPathComponent("p.png"))
        let tight = { var l = SceneLimits(); l.imageSize = 39; return l }()
        func scene(_ limits: SceneLimits) -> Scene {
            Scene(size: CGSize(width: 64, height: 36), duration: 1, assetFolder: dir, limits: limits) { Image("p.png") }
        }
        let strict = scene(tight), plain = scene(SceneLimits())
        XCTAssertEqual(strict.limits.imageSize, 39)
        XCTAssertEqual(strict.mediaContext.limits.imageSize, 39)
        XCTAssertThrowsError(try strict.renderFrame(at: 0)) { error in
            XCTAssertTrue("\(error)".contains("p.png") && "\(error)".contains("the image is 40×20 pixels; at most 39 per side is allowed"),
                          "\(error)")
        }
        XCTAssertEqual(Self.pixel(try plain.renderFrame(at: 0), 32, 18), [0, 0, 255, 255])
    }

    /// The image cache follows the scene's limits: the default size shares the process's cache,
    /// another size gives the scene its own; changing other limits keeps the context.
    func testTheImageCacheIsSharedOnlyAtTheDefaultSize() {
        let a = Scene(rootLayer: CALayer(), size: CGSize(width: 8, height: 8), frameRate: 10, duration: 1)
        let b = Scene(rootLayer: CALayer(), size: CGSize(width: 8, height: 8), frameRate: 10, duration: 1)
        XCTAssertTrue(a.mediaContext.images === ImageCache.shared)
        XCTAssertEqual(a.mediaContext.limits, MediaLimits())
        b.limits.imageCacheBytes = 8 << 20
        XCTAssertFalse(b.mediaContext.images === ImageCache.shared)
        XCTAssertEqual(b.mediaContext.images.capacity, 8 << 20)
        let context = b.mediaContext
        b.limits.layers = 10
        XCTAssertTrue(b.mediaContext === context)
        b.limits.videoSize = 100
        XCTAssertEqual(b.mediaContext.limits, MediaLimits(imageSize: 16_384, videoSize: 100))
        XCTAssertEqual(b.mediaContext.images.capacity, 8 << 20)
        // The first scene kept its own.
        XCTAssertEqual(a.mediaContext.limits, MediaLimits())
        XCTAssertEqual(ImageCache.shared.capacity, 1 << 30)
    }
}
