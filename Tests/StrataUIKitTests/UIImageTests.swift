// UIImage for ported code: files with @2x/@3x scales, bytes, and `UIImage(named:)` through the
// asset search folders.
import XCTest
import StrataCore
import StrataUIKit

final class UIImageTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-uiimage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    /// A 4 × 2 PNG with a red left half and a blue right half.
    private func writeImage(_ name: String) throws -> URL {
        var b = Bitmap(width: 4, height: 2)
        for y in 0..<2 { for x in 0..<4 {
            let i = (y * 4 + x) * 4
            b.pixels[i] = x < 2 ? 255 : 0; b.pixels[i + 2] = x < 2 ? 0 : 255; b.pixels[i + 3] = 255
        } }
        let url = directory.appendingPathComponent(name)
        try b.writePNG(to: url)
        return url
    }

    func testFilesScalesAndBytes() throws {
        let url = try writeImage("icon@2x.png")
        let ui = try XCTUnwrap(UIImage(contentsOfFile: url.path))
        XCTAssertEqual(ui.scale, 2)
        XCTAssertEqual(ui.size, CGSize(width: 2, height: 1))
        XCTAssertEqual(ui.cgImage?.width, 4)
        XCTAssertNil(UIImage(contentsOfFile: directory.appendingPathComponent("nothing.png").path))
        XCTAssertNil(UIImage(data: Data("hello".utf8)))
        XCTAssertEqual(UIImage(data: try Data(contentsOf: url))?.size, CGSize(width: 4, height: 2))
    }

    func testNamedSearchesTheAssetFolders() throws {
        _ = try writeImage("Snowman@2x.png")
        _ = try writeImage("logo.jpg.png")
        let saved = UIImage.assetSearchPaths
        defer { UIImage.assetSearchPaths = saved }
        UIImage.assetSearchPaths = ["/nonexistent", directory.path]
        let snowman = try XCTUnwrap(UIImage(named: "Snowman"))
        XCTAssertEqual(snowman.scale, 2)
        XCTAssertEqual(snowman.size, CGSize(width: 2, height: 1))
        XCTAssertNotNil(UIImage(named: "logo.jpg"))                // a name with a dot: still searched
        XCTAssertNil(UIImage(named: "Missing"))
        XCTAssertTrue(snowman == snowman)                          // NSObject equality
        XCTAssertEqual([UIImage(named: "Snowman")!, snowman].firstIndex(of: snowman), 1)
    }
}
