// An unknown font family: in a template an error naming the file, line, key path, the family and
// the closest installed families; in the DSL (or Core Animation code) the export warns once per
// family, naming the face it falls back to. Apple's names (Helvetica …) and PostScript spellings
// of installed families are known and pass.
import Foundation
import Strata
import XCTest

final class FontFallbackTests: XCTestCase {
    private func template(_ font: String) throws -> Template {
        let dir = try temporaryFolder()
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("fonts.yaml")
        try """
            size: [64, 48]
            fps: 10
            duration: 0.2
            layers:
              - {type: text, string: Hi, font: "\(font)", fontSize: 12}
            """.write(to: url, atomically: true, encoding: .utf8)
        return try Template(contentsOf: url)
    }

    func testATemplatesUnknownFontIsAnErrorNamingTheClosestInstalledFamilies() throws {
        XCTAssertThrowsError(try template("DejaVu Sanz Bold").makeScene()) { error in
            // (Which families are closest depends on the fonts installed; DejaVu Sans is, here and in the image.)
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("fonts.yaml:5 layers[0].font: the font family \"DejaVu Sanz\" is not installed (closest installed: DejaVu Sans"), message)
            XCTAssertTrue(message.hasSuffix("); `fc-list : family` lists them all"), message)
        }
        for known in ["DejaVu Sans Bold", "DejaVuSans-BoldOblique", "Helvetica Neue", "Menlo", "serif"] {
            XCTAssertNoThrow(try template(known).makeScene(), known)
        }
    }

    func testTheDSLWarnsOncePerMissingFamily() throws {
        let scene = Scene(size: CGSize(width: 64, height: 48), frameRate: 10, duration: 0.2) {
            Text("One").font("Nonexistent Grotesk", size: 12)
            Text("Two").font("Nonexistent Grotesk Bold", size: 12)
            Text("Three").font("DejaVu Sans", size: 12)
        }
        let messages = try exportWarnings(scene)
        XCTAssertEqual(messages.count, 1, "\(messages)")
        XCTAssertTrue(messages.first?.hasPrefix("the font family \"Nonexistent Grotesk\" is not installed; text in it is drawn in DejaVu Sans (closest installed: ") ?? false,
                      "\(messages)")
    }
}
