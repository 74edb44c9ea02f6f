// FontResolver remembers parsed font names: what it remembers must be what parsing gives, also
// after the table is emptied for being full.
import XCTest
@testable import StrataRender

final class FontResolverTests: XCTestCase {
    func testRememberedNamesParseAsFreshOnes() {
        let known = ["DejaVu Sans", "DejaVuSans-BoldOblique", "Helvetica", "HelveticaNeue-Bold", ".SFUI-Semibold",
                     "Times New Roman", "TimesNewRomanPS-BoldMT", "Menlo-Regular", "Avenir Next Condensed Heavy Italic"]
        // Twice through more names than the table keeps, so entries are asked for again after
        // it was emptied.
        let names = known + (0..<300).map { "Family\($0) \(["Bold", "Light Italic", "Condensed", "Regular"][$0 % 4])" }
        for round in 0..<2 {
            for name in names {
                let fresh = FontResolver.parse(name)
                XCTAssertEqual(FontResolver.parsedRemembered(name), fresh, "\(name), round \(round)")
                XCTAssertEqual(FontResolver.parsedRemembered(name), fresh, "\(name) asked again, round \(round)")
            }
        }
        XCTAssertEqual(FontResolver.parsedRemembered("DejaVuSans-BoldOblique").weight, 700)
        XCTAssertTrue(FontResolver.parsedRemembered("DejaVuSans-BoldOblique").oblique)
    }
}
