// The template schema is part of the program: it parses, it is not empty, and it refuses what it
// must (a schema that failed to parse used to become an empty one that accepted every document).
import XCTest
@testable import Strata

final class TemplateSchemaTests: XCTestCase {
    func testTheSchemaParsesWhole() throws {
        let parsed = try TemplateReader.parse(TemplateSchema.json, file: "schema")
        XCTAssertEqual(parsed.jsonText, TemplateSchema.root.jsonText)
        XCTAssertNotNil(TemplateSchema.root["properties"]?["layers"])
        XCTAssertNotNil(TemplateSchema.root["$defs"]?["layer"])
        XCTAssertEqual(TemplateSchema.root["required"]?.jsonText, #"["size", "duration"]"#)
    }

    func testTheSchemaRefusesWhatItMust() throws {
        let good = try TemplateReader.parse(#"{"size": [64, 64], "duration": 1}"#, file: "good.json")
        XCTAssertTrue(TemplateSchema.validate(good).isEmpty)
        let bad = try TemplateReader.parse(#"{"size": [64, 64], "colour": "red"}"#, file: "bad.json")
        let problems = TemplateSchema.validate(bad).map { "\($0.path): \($0.message)" }
        XCTAssertTrue(problems.contains(": missing \"duration\""), "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("colour: unknown key") }, "\(problems)")
    }
}
