// The DSL examples in examples/, each rendered at telling times to a reference strip (frames side
// by side at half size) reviewed by eye when recorded; their command lines (`sheet`, `still`,
// `render`) run through `StrataScript.run(arguments:)`.
import XCTest
import Strata
import StrataTestSupport
@testable import example_title_card
@testable import example_lower_third
@testable import example_bar_chart
@testable import example_logo_reveal
@testable import example_loading_spinner
@testable import example_card_flip

final class DSLExampleTests: XCTestCase {
    private func strip(_ scene: Scene, _ times: [Double], reduction: Int = 4) throws -> Bitmap {
        ContactSheet.make(try times.map { try scene.renderFrame(at: $0) }, columns: times.count, reduction: reduction, spacing: 2)
    }

    func testTitleCard() throws {
        assertReferenceImage(try strip(TitleCard().scene, [0.2, 0.5, 1.0, 2.5]), named: "title-card")
    }

    func testLowerThird() throws {
        assertReferenceImage(try strip(LowerThird().scene, [0.3, 1.5, 3.3, 3.9]), named: "lower-third")
    }

    func testBarChart() throws {
        assertReferenceImage(try strip(BarChart().scene, [0.5, 0.9, 2.9]), named: "bar-chart")
    }

    func testLogoReveal() throws {
        assertReferenceImage(try strip(LogoReveal().scene, [0.5, 1.0, 1.6, 2.9]), named: "logo-reveal")
    }

    func testLoadingSpinnerLoopsSeamlessly() throws {
        let scene = LoadingSpinner().scene
        assertReferenceImage(try strip(scene, [0, 0.25, 0.5], reduction: 1), named: "loading-spinner")
        // One turn a second: the frame after the last is the first again.
        XCTAssertTrue(try scene.renderFrame(at: 1.0).pixels == scene.renderFrame(at: 0).pixels)
    }

    func testCardFlip() throws {
        assertReferenceImage(try strip(CardFlip().scene, [0.3, 1.0, 1.3, 2.9]), named: "card-flip")
    }

    func testScriptCommandLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sheet = dir.appendingPathComponent("sheet.png").path
        try TitleCard.run(arguments: ["sheet", "-o", sheet, "--count", "6", "--columns", "3", "--reduction", "8"])
        let image = try Bitmap(contentsOfPNG: URL(fileURLWithPath: sheet))
        XCTAssertEqual(image.width, 3 * 160 + 4 * 4)
        XCTAssertEqual(image.height, 2 * 90 + 3 * 4)
        let still = dir.appendingPathComponent("still.png").path
        try LogoReveal.run(arguments: ["still", "--time", "2", "-o", still, "--size", "640x360"])
        XCTAssertEqual(try Bitmap(contentsOfPNG: URL(fileURLWithPath: still)).width, 640)
        let gif = dir.appendingPathComponent("spinner.gif").path
        try LoadingSpinner.run(arguments: ["render", "-o", gif, "--quiet"])
        XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: gif)).count, 1000)
        XCTAssertEqual(LoadingSpinner.defaultOutput, "loading-spinner.gif")
        XCTAssertEqual(TitleCard.defaultOutput, "title-card.mp4")
        XCTAssertThrowsError(try TitleCard.run(arguments: ["render", "--frames", "10..5"]))
    }
}
