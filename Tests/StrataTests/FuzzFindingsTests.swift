// What fuzzing the text inputs found (scripts/fuzz.sh: template, expression, rows, captions),
// each reproducer kept as a test of the clear error that is now thrown instead of a crash or
// hang. The same inputs are in Fuzz/Corpus/<target>/regress-*.
import XCTest
@testable import Strata

final class FuzzFindingsTests: XCTestCase {
    private func evalError(_ source: String, _ scope: [String: TemplateValue] = [:]) -> String? {
        do {
            _ = try TemplateExpression.parse(source).evaluate(scope)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// `repeatEach` and `holdKeyTimes` turned their count into an Int without a range check:
    /// 1e300 stopped the process ("Double value cannot be converted to Int").
    func testHugeCountsAreErrorsNotTraps() {
        XCTAssertEqual(evalError("repeatEach([1], 1e300)"), "repeatEach(list, times): 1e+300 is too large for a whole number")
        XCTAssertEqual(evalError("repeatEach([1], -1e300)"), "repeatEach(list, times): -1e+300 is too large for a whole number")
        XCTAssertEqual(evalError("holdKeyTimes(1e300, 0.5)"), "holdKeyTimes(count, hold): 1e+300 is too large for a whole number")
        XCTAssertEqual(evalError("repeatEach(range(10), 100000000000000)"),
                       "repeatEach(list, times): times must be 0…10000, got 100000000000000")
    }

    /// Deeply nested or very long expressions overflowed the stack (the parser and the evaluator
    /// recurse): 20 000 brackets, 20 000 additions or 60 000 minus signs stopped the process with
    /// SIGSEGV. They are now refused before they are evaluated.
    func testDeepOrLongExpressionsAreErrorsNotStackOverflows() throws {
        let brackets = String(repeating: "(", count: 20_000) + "1" + String(repeating: ")", count: 20_000)
        XCTAssertEqual(evalError(brackets), "{{((((((((((((((((((((((((((((((((((((((((…}} is too long: 40001 tokens, at most 1000")
        let deep = String(repeating: "(", count: 65) + "1" + String(repeating: ")", count: 65)
        XCTAssertEqual(evalError(deep), "{{((((((((((((((((((((((((((((((((((((((((…}} nests brackets, calls and conditions more than 64 deep")
        XCTAssertEqual(evalError(String(repeating: "[", count: 66) + String(repeating: "]", count: 66)),
                       "{{[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[…}} nests brackets, calls and conditions more than 64 deep")
        XCTAssertEqual(evalError(String(repeating: "1 ? ", count: 70) + "1" + String(repeating: " : 0", count: 70)),
                       "{{1 ? 1 ? 1 ? 1 ? 1 ? 1 ? 1 ? 1 ? 1 ? 1 ? …}} nests brackets, calls and conditions more than 64 deep")
        let sum = "1" + String(repeating: "+1", count: 20_000)
        XCTAssertEqual(evalError(sum), "{{1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+…}} is too long: 40001 tokens, at most 1000")
        XCTAssertEqual(evalError(String(repeating: "-", count: 60_000) + "1"),
                       "{{----------------------------------------…}} is too long: 60001 tokens, at most 1000")
        // Within the limits they evaluate.
        let nested = String(repeating: "(", count: 64) + "1" + String(repeating: ")", count: 64)
        XCTAssertEqual(try TemplateExpression.parse(nested).evaluate([:]), .number(1))
        XCTAssertEqual(try TemplateExpression.parse("1" + String(repeating: "+1", count: 199)).evaluate([:]), .number(200))
        XCTAssertEqual(try TemplateExpression.parse(String(repeating: "-", count: 198) + "1").evaluate([:]), .number(1))
        // Longer chains are refused before they are evaluated (the evaluator recurses per level).
        XCTAssertEqual(evalError("1" + String(repeating: "+1", count: 499)),
                       "{{1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+…}} chains 500 levels of operators, at most 200")
        XCTAssertEqual(evalError(String(repeating: "-", count: 998) + "1"),
                       "{{----------------------------------------…}} chains 999 levels of operators, at most 200")
    }

    /// A document nested hundreds of levels deep got as far as JSON encoding, which refused it
    /// with "The given data was not valid JSON" at line 1; the reader now says what is wrong,
    /// where, before anything recurses that deep.
    func testDeeplyNestedDocumentsAreRefusedWithTheirLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("deep.yaml")
        try ("size: [64, 36]\nduration: 1\nlayers:\n  - type: layer\n    children: "
             + String(repeating: "[{type: layer, children: ", count: 300) + "[]" + String(repeating: "}]", count: 300) + "\n")
            .write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Template(contentsOf: url)) {
            XCTAssertEqual("\($0)", "deep.yaml:5: the document nests more than 128 levels deep")
        }
        let fine = folder.appendingPathComponent("fine.yaml")
        try ("size: [64, 36]\nduration: 1\nlayers:\n  - type: layer\n    children: "
             + String(repeating: "[{type: layer, children: ", count: 30) + "[]" + String(repeating: "}]", count: 30) + "\n")
            .write(to: fine, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Template(contentsOf: fine).makeScene().rootLayer.sublayers?.count, 1)
    }

    /// Caption times went through Double(_:), which also reads "inf", "1e3" and "0x10": a cue at
    /// "00:00:inf" had an infinite start. Each part of a time is now digits (and a fraction).
    func testCaptionTimesAreDigitsOnly() throws {
        func error(_ text: String) -> String? {
            do { _ = try DataFiles.captions(text, file: "c.srt"); return nil } catch { return "\(error)" }
        }
        for bad in ["00:00:inf --> 00:00:01,000", "00:00:01,000 --> 00:00:1e3", "0x10:00 --> 00:01", "00:00:nan --> 00:01",
                    "00:-1:00 --> 00:01", "00:00:01,000 --> "] {
            XCTAssertEqual(error("1\n\(bad)\nText\n"), "c.srt:2: expected a cue time \"00:00:01,000 --> 00:00:02,500\"", bad)
        }
        XCTAssertEqual(try DataFiles.captions("00:01.5 --> 01:00:02,250 align:start\n<b>Hi</b>\n", file: "c.vtt"),
                       .list([.object(["start": .number(1.5), "end": .number(3602.25), "text": .string("Hi")])]))
    }

    /// A CSV header was checked for repeated names by comparing every column with every other
    /// (quadratic: a 16 000-column header from the fuzzer took seconds). The repeated name is
    /// still reported, the first one in the row.
    func testRepeatedColumnIsReported() throws {
        let header = (0..<20_000).map { "c\($0)" } + ["c7", "c3"]
        XCTAssertThrowsError(try DataFiles.csvRows(header.joined(separator: ",") + "\n", file: "wide.csv")) {
            XCTAssertEqual("\($0)", "wide.csv:1: the column \"c3\" appears twice")
        }
        XCTAssertEqual(try DataFiles.csvRows("a,b\n1,2\n", file: "ok.csv").map { $0.fields }, [["a": "1", "b": "2"]])
    }

    /// A dash pattern of [0, 1e-300] along a circle of radius 1e19 cut dashes until memory ran
    /// out (the steps lost below the coordinates' precision, so the loop never moved on). A
    /// pattern finer than `maximumDashes` repeats a polyline is drawn solid: the stroke of a
    /// shape with that pattern equals the stroke without it.
    func testADashPatternFinerThanThePrecisionIsDrawnSolid() throws {
        func scene(_ dashes: String) throws -> Scene {
            let yaml = """
                size: [64, 36]
                fps: 10
                duration: 0.1
                layers:
                  - {type: shape, path: {circle: [32, 18, 12]}, lineWidth: 3, \(dashes)strokeColor: blue, fillColor: "#00000000"}
                """
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("dash-\(UUID().uuidString).yaml")
            try yaml.write(to: url, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: url) }
            return try Template(contentsOf: url).makeScene()
        }
        let fine = try scene("lineDashPattern: [0, 1e-300], ").renderFrame(at: 0)
        let solid = try scene("").renderFrame(at: 0)
        XCTAssertEqual(fine, solid)
        // A pattern a circle holds a few times of is still dashed.
        XCTAssertNotEqual(try scene("lineDashPattern: [4, 4], ").renderFrame(at: 0), solid)
        // The fuzzer's whole input (kept in Fuzz/Corpus/template) renders or is refused, in bounded memory.
        let input = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/template/regress-dash-pattern-finer-than-precision.yaml")
        do {
            let frame = try Template(contentsOf: input).makeScene().renderFrame(at: 0)
            XCTAssertEqual(frame.width, 64)
        } catch {
            XCTAssertFalse("\(error)".isEmpty)
        }
    }
}
