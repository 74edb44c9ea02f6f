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
}
