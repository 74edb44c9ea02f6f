// CGColor: components, grey and hex initialisers, equality, and the unclamped model values.
import Foundation
import XCTest
@testable import StrataCore

final class ColorTests: XCTestCase {
    func testComponents() {
        let c = CGColor(red: 0.25, green: 0.5, blue: 0.75, alpha: 0.125)
        XCTAssertEqual(c.components, [0.25, 0.5, 0.75, 0.125])
        XCTAssertEqual(c.numberOfComponents, 4)
        XCTAssertEqual(c.red, 0.25); XCTAssertEqual(c.green, 0.5); XCTAssertEqual(c.blue, 0.75); XCTAssertEqual(c.alpha, 0.125)
    }

    func testGrayAndSRGBInitialisers() {
        XCTAssertEqual(CGColor(gray: 0.3, alpha: 0.6).components, [0.3, 0.3, 0.3, 0.6])
        XCTAssertEqual(CGColor(srgbRed: 0.1, green: 0.2, blue: 0.3, alpha: 1), CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1))
        XCTAssertEqual(CGColorCreateGenericRGB(0.1, 0.2, 0.3, 0.4), CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))
    }

    func testConstants() {
        XCTAssertEqual(CGColor.black.components, [0, 0, 0, 1])
        XCTAssertEqual(CGColor.white.components, [1, 1, 1, 1])
        XCTAssertEqual(CGColor.clear.components, [0, 0, 0, 0])
    }

    func testHexParsing() {
        // #rgb doubles each digit: f → ff, 8 → 88.
        XCTAssertEqual(CGColor(hex: "#f80")?.components, [1, 0x88 / 255.0, 0, 1])
        XCTAssertEqual(CGColor(hex: "336699")?.components, [0x33 / 255.0, 0x66 / 255.0, 0x99 / 255.0, 1])
        XCTAssertEqual(CGColor(hex: " #11223344 ")?.components, [0x11 / 255.0, 0x22 / 255.0, 0x33 / 255.0, 0x44 / 255.0])
        XCTAssertEqual(CGColor(hex: "#FFFFFF"), CGColor.white)
    }

    func testMalformedHexIsNil() {
        XCTAssertNil(CGColor(hex: "#12345"))
        XCTAssertNil(CGColor(hex: "#ggg"))
        XCTAssertNil(CGColor(hex: ""))
        XCTAssertNil(CGColor(hex: "#1234567890"))
    }

    func testEqualityAndHashing() {
        let a = CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
        let b = CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        XCTAssertEqual(Set([a, b]).count, 1)
        XCTAssertNotEqual(a, CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5))
    }

    func testCopyReplacesAlphaOnly() {
        let c = CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1).copy(alpha: 0.25)
        XCTAssertEqual(c?.components, [0.2, 0.4, 0.6, 0.25])
    }

    func testComponentsAreNotClamped() {
        // Spring overshoot must survive in the model; clamping happens when drawn.
        let c = CGColor(red: 1.5, green: -0.25, blue: 0.5, alpha: 2)
        XCTAssertEqual(c.components, [1.5, -0.25, 0.5, 2])
    }

    func testDescription() {
        XCTAssertEqual(CGColor(red: 1, green: 0.5, blue: 0, alpha: 1).description, "CGColor(r: 1.0, g: 0.5, b: 0.0, a: 1.0)")
    }
}
