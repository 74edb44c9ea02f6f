// The social-promo example (examples/social-promo): sections with transitions and a layout that
// fills the canvas, rendered at its own 1280×720 and through its command line with
// `--size 1080x1920` (the composition laid out again, not stretched). Both are reference strips
// reviewed by eye when recorded; the elements' frames are checked against values computed by
// hand at both sizes.
import XCTest
import Strata
import StrataCLI
import StrataTestSupport
@testable import example_social_promo

final class SocialPromoTests: XCTestCase {
    static let times = [1.5, 2.7, 4.2, 5.0, 6.5]

    func strip(_ scene: Scene, reduction: Int) throws -> Bitmap {
        ContactSheet.make(try Self.times.map { try scene.renderFrame(at: $0) }, columns: Self.times.count, reduction: reduction, spacing: 2)
    }

    func vertical() throws -> Scene {
        var composition = try XCTUnwrap(SocialPromo().scene.composition)
        composition.size = [1080, 1920]
        return try Scene(composition: composition)
    }

    func frame(_ scene: Scene, _ id: String) throws -> CGRect {
        let l = try XCTUnwrap(scene.layer(named: id), id)
        return l.convert(l.bounds, to: scene.rootLayer)
    }

    /// Rendered at half scale (`--scale 0.5`), then reduced.
    func testStripsAtBothSizes() throws {
        let wide = SocialPromo().scene, tall = try vertical()
        wide.contentsScale = 0.5
        tall.contentsScale = 0.5
        assertReferenceImage(try strip(wide, reduction: 2), named: "social-promo")
        assertReferenceImage(try strip(tall, reduction: 3), named: "social-promo-vertical")
    }

    /// The list fills the safe area at both sizes: 5 % all round at 1280×720; at 1080×1920
    /// 10 % top (192), 20 % bottom (384), 6 % leading (64.8), 12 % trailing (129.6). Its heading
    /// is at the top-left of that area, the title row spans the canvas' width, the call to
    /// action is centred.
    func testPositionsAtBothSizes() throws {
        let wide = SocialPromo().scene, tall = try vertical()
        func near(_ a: CGFloat, _ b: Double, _ what: String) { XCTAssertEqual(Double(a), b, accuracy: 1e-6, what) }
        var list = try frame(wide, "list")
        near(list.minX, 0, "wide list x"); near(list.width, 1280, "wide list width"); near(list.height, 720, "wide list height")
        var heading = try frame(wide, "heading")
        near(heading.minX, 64, "wide heading x"); near(heading.minY, 36, "wide heading y")
        list = try frame(tall, "list")
        near(list.width, 1080, "tall list width"); near(list.height, 1920, "tall list height")
        heading = try frame(tall, "heading")
        near(heading.minX, 64.8, "tall heading x"); near(heading.minY, 192, "tall heading y")
        near(try frame(wide, "title").width, 1280, "wide title row")
        near(try frame(tall, "title").width, 1080, "tall title row")
        for (scene, size) in [(wide, CGSize(width: 1280, height: 720)), (tall, CGSize(width: 1080, height: 1920))] {
            let cta = try frame(scene, "cta")
            near(cta.midX, Double(size.width) / 2, "call to action centred across")
            near(cta.midY, Double(size.height) / 2, "call to action centred down")
        }
    }

    /// The script's own command line with `--size 1080x1920` renders the re-laid-out frame.
    func testCommandLineSize() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("social-promo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let still = dir.appendingPathComponent("still.png")
        try SocialPromo.run(arguments: ["still", "--time", "4.2", "--size", "1080x1920", "-o", still.path])
        let image = try Bitmap(contentsOfPNG: still)
        XCTAssertEqual(image.width, 1080)
        XCTAssertEqual(image.height, 1920)
        XCTAssertTrue(image == (try vertical().renderFrame(at: 4.2)), "--size 1080x1920 is the composition laid out at that size")
    }
}
