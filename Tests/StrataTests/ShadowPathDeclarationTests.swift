// `shadowPath` from templates and the DSL (issue 49): set on the layer as a CGPath in the layer's
// coordinates, refused with the key path when it is not a path.
import XCTest
import Strata

final class ShadowPathDeclarationTests: XCTestCase {
    func testTemplateSetsShadowPathAndRefusesANonPath() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("card.yaml")
        try """
        size: [320, 180]
        duration: 1
        layers:
          - type: layer
            id: card
            size: [200, 100]
            position: [160, 90]
            backgroundColor: white
            shadowOpacity: 0.5
            shadowPath: {rect: [0, 0, 200, 100], cornerRadius: 12}
        """.write(to: url, atomically: true, encoding: .utf8)
        let scene = try Template(contentsOf: url).makeScene()
        let path = try XCTUnwrap(scene.layer(named: "card")?.shadowPath)
        XCTAssertEqual(path.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 200, height: 100))
        let bad = folder.appendingPathComponent("bad.yaml")
        try """
        size: [320, 180]
        duration: 1
        layers:
          - type: layer
            size: [200, 100]
            shadowPath: 5
        """.write(to: bad, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Template(contentsOf: bad).makeScene()) {
            XCTAssertTrue("\($0)".contains("shadowPath"), "\($0)")
            XCTAssertTrue("\($0)".contains("a path"), "\($0)")
        }
    }

    func testDSLSetsShadowPath() throws {
        let scene = Scene(size: CGSize(width: 320, height: 180), frameRate: 30, duration: 1, background: .white) {
            Layer().frame(x: 60, y: 40, width: 200, height: 100).background(.white)
                .shadow(.black, radius: 10, offset: CGSize(width: 0, height: 6), opacity: 0.5)
                .shadowPath(.ellipse(in: CGRect(x: 0, y: 60, width: 200, height: 40)))
                .id("card")
        }
        let path = try XCTUnwrap(scene.layer(named: "card")?.shadowPath)
        XCTAssertEqual(path.boundingBoxOfPath, CGRect(x: 0, y: 60, width: 200, height: 40))
        // The shadow is cast from the ellipse at the card's foot: dark below the card, none
        // above it (the card's own outline would shade 5 points above its top edge).
        let frame = try scene.renderFrame(at: 0)
        XCTAssertLessThan(frame.pixel(x: 160, y: 150).r, 240)
        XCTAssertEqual(frame.pixel(x: 160, y: 35).r, 255)
    }
}
