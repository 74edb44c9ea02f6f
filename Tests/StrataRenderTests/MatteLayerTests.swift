// MatteLayer: masks by inverted alpha, luminance and inverted luminance, with values worked out
// by hand (premultiplied sRGB, Rec. 709 weights).
import XCTest
import StrataCore
@testable import StrataRender
import StrataTestSupport

final class MatteLayerTests: XCTestCase {
    /// A red 40×40 layer masked by a matte holding a 20×20 square of `fill` at (10, 10).
    private func masked(_ mode: MaskMode, fill: CGColor) -> Bitmap {
        let root = canvas(40, 40, color(0, 0, 0, 0))
        let layer = box(CGRect(x: 0, y: 0, width: 40, height: 40), color(1, 0, 0))
        let matte = MatteLayer()
        matte.frame = layer.bounds
        matte.maskMode = mode
        matte.addSublayer(box(CGRect(x: 10, y: 10, width: 20, height: 20), fill))
        layer.mask = matte
        root.addSublayer(layer)
        return render(root, width: 40, height: 40)
    }

    func testModes() {
        let white = color(1, 1, 1), grey = color(0.6, 0.6, 0.6)
        // Alpha: inside only; inverted alpha: outside only.
        XCTAssertTrue(masked(.alpha, fill: white).pixel(x: 20, y: 20) == (255, 0, 0, 255))
        XCTAssertTrue(masked(.alpha, fill: white).pixel(x: 2, y: 2) == (0, 0, 0, 0))
        XCTAssertTrue(masked(.alphaInverted, fill: white).pixel(x: 20, y: 20) == (0, 0, 0, 0))
        XCTAssertTrue(masked(.alphaInverted, fill: white).pixel(x: 2, y: 2) == (255, 0, 0, 255))
        // Luminance of grey 0.6 (153/255): 60 % of the red shows; outside (transparent) nothing.
        let luma = masked(.luminance, fill: grey).pixel(x: 20, y: 20)
        XCTAssertEqual(Double(luma.a), 153, accuracy: 1)
        XCTAssertEqual(luma.r, luma.a)
        XCTAssertTrue(masked(.luminance, fill: grey).pixel(x: 2, y: 2) == (0, 0, 0, 0))
        // Inverted luminance: 40 % inside, all outside (transparent counts as black).
        XCTAssertEqual(Double(masked(.luminanceInverted, fill: grey).pixel(x: 20, y: 20).a), 102, accuracy: 1)
        XCTAssertTrue(masked(.luminanceInverted, fill: grey).pixel(x: 2, y: 2) == (255, 0, 0, 255))
        // A pure-blue matte has luminance 0.0722.
        XCTAssertEqual(Double(masked(.luminance, fill: color(0, 0, 1)).pixel(x: 20, y: 20).a), 0.0722 * 255, accuracy: 1)
    }

    /// An inverted matte with nothing in it shows the whole layer.
    func testEmptyInvertedMatteShowsAll() {
        let root = canvas(20, 20, color(0, 0, 0, 0))
        let layer = box(CGRect(x: 0, y: 0, width: 20, height: 20), color(0, 0, 1))
        let matte = MatteLayer()
        matte.maskMode = .alphaInverted
        layer.mask = matte
        root.addSublayer(layer)
        XCTAssertTrue(render(root, width: 20, height: 20).pixel(x: 10, y: 10) == (0, 0, 255, 255))
    }
}
