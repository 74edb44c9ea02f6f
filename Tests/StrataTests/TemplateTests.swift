// Templates, part 1: the `{{ … }}` expression language (operators, precedence, every function
// with an exact result, every kind of error with its message) and filling a document in
// (whole-string expressions keep their type, interpolation makes text, `forEach`/`as`/`index`,
// `if`, nested loops, errors with the JSON path and line of the node).
// Parameters, assets and data files are in TemplateTests+Parameters.swift; documents, the DSL
// round trip and batches in TemplateTests+Documents.swift.
import XCTest
@testable import Strata

final class TemplateTests: XCTestCase {
    // MARK: Helpers

    /// The value of `source` (what is inside `{{ }}`) in `scope`.
    func eval(_ source: String, _ scope: [String: TemplateValue] = [:]) throws -> TemplateValue {
        try TemplateExpression.parse(source).evaluate(scope)
    }

    /// The message of the error `source` gives.
    func evalError(_ source: String, _ scope: [String: TemplateValue] = [:],
                   file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            let v = try eval(source, scope)
            XCTFail("{{\(source)}} gave \(v), expected an error", file: file, line: line)
            return ""
        } catch {
            return "\(error)"
        }
    }

    /// A number the expression language has no literal for (literals have no exponent).
    let big: [String: TemplateValue] = ["big": .number(1e300)]

    func list(_ numbers: [Double]) -> TemplateValue { .list(numbers.map { .number($0) }) }
    func strings(_ items: [String]) -> TemplateValue { .list(items.map { .string($0) }) }

    /// A small table like a CSV parameter gives: team k, step s, value v.
    let table: TemplateValue = .list([
        .object(["k": .string("a"), "s": .number(1), "v": .number(10)]),
        .object(["k": .string("b"), "s": .number(1), "v": .number(20)]),
        .object(["k": .string("a"), "s": .number(2), "v": .number(30)]),
        .object(["k": .string("b"), "s": .number(2), "v": .number(5)]),
        .object(["k": .string("c"), "s": .number(2), "v": .number(30)]),
    ])

    // MARK: Operators

    func testArithmeticPrecedenceAndAssociativity() throws {
        XCTAssertEqual(try eval("1 + 2 * 3"), .number(7))
        XCTAssertEqual(try eval("(1 + 2) * 3"), .number(9))
        XCTAssertEqual(try eval("10 - 2 - 3"), .number(5))                  // left to right
        XCTAssertEqual(try eval("2 * 3 % 4"), .number(2))                   // (2 * 3) % 4
        XCTAssertEqual(try eval("24 / 4 / 2"), .number(3))
        XCTAssertEqual(try eval("7 / 2"), .number(3.5))
        XCTAssertEqual(try eval("7 % 3"), .number(1))
        XCTAssertEqual(try eval("-7 % 3"), .number(-1))                     // truncating, like Swift
        XCTAssertEqual(try eval("-2 * 3"), .number(-6))
        XCTAssertEqual(try eval("--2"), .number(2))
        XCTAssertEqual(try eval("2 - -2"), .number(4))
        XCTAssertEqual(try eval(".5 + 1.25"), .number(1.75))
        XCTAssertEqual(try eval("'3' * 2"), .number(6))                     // numeric text counts as a number
        XCTAssertEqual(try eval("true + 1"), .number(2))                    // so do booleans
        XCTAssertEqual(try eval("n * 2 + 1", ["n": .number(20)]), .number(41))
    }

    func testComparisonsAndLogic() throws {
        XCTAssertEqual(try eval("1 + 2 == 3"), .bool(true))                 // + binds tighter than ==
        XCTAssertEqual(try eval("3 != 3"), .bool(false))
        XCTAssertEqual(try eval("2 >= 2"), .bool(true))
        XCTAssertEqual(try eval("2 > 2"), .bool(false))
        XCTAssertEqual(try eval("1 <= 0.5"), .bool(false))
        XCTAssertEqual(try eval("'abc' < 'abd'"), .bool(true))              // text compares as text
        XCTAssertEqual(try eval("'10' < 9"), .bool(false))                  // mixed: as numbers
        XCTAssertEqual(try eval("'10' == 10"), .bool(false))                // == never converts
        XCTAssertEqual(try eval("[1, 2] == [1, 2]"), .bool(true))
        XCTAssertEqual(try eval("true || false && false"), .bool(true))     // && binds tighter than ||
        XCTAssertEqual(try eval("(true || false) && false"), .bool(false))
        XCTAssertEqual(try eval("1 < 2 && 2 < 1"), .bool(false))
        XCTAssertEqual(try eval("!true"), .bool(false))
        XCTAssertEqual(try eval("!0"), .bool(true))
        XCTAssertEqual(try eval("!''"), .bool(true))
        XCTAssertEqual(try eval("![]"), .bool(true))
        XCTAssertEqual(try eval("!!'x'"), .bool(true))
        XCTAssertEqual(try eval("'' || 'x'"), .string("x"))                 // || gives the deciding operand: a default
        XCTAssertEqual(try eval("'t' || 'x'"), .string("t"))
        XCTAssertEqual(try eval("0 && 'x'"), .number(0))
        XCTAssertEqual(try eval("1 && 'x'"), .string("x"))
        // Short circuits: the other side is not evaluated (an unknown name there is no error).
        XCTAssertEqual(try eval("false && nope"), .bool(false))
        XCTAssertEqual(try eval("true || nope"), .bool(true))
        XCTAssertEqual(try eval("1e3 + 2.5E-1"), .number(1000.25))              // exponents
        XCTAssertEqual(evalError("2e"), "unexpected \"e\" in {{2e}}")                 // no digits after e: not an exponent
    }

    func testConditional() throws {
        XCTAssertEqual(try eval("1 > 2 ? 'a' : 'b'"), .string("b"))
        XCTAssertEqual(try eval("x > 10 ? 'big' : x > 5 ? 'mid' : 'small'", ["x": .number(7)]), .string("mid"))
        XCTAssertEqual(try eval("x > 10 ? 'big' : x > 5 ? 'mid' : 'small'", ["x": .number(70)]), .string("big"))
        XCTAssertEqual(try eval("x > 10 ? 'big' : x > 5 ? 'mid' : 'small'", ["x": .number(1)]), .string("small"))
        XCTAssertEqual(try eval("true ? 1 : nope"), .number(1))             // only the branch taken
        XCTAssertEqual(try eval("1 + 1 == 2 ? 10 * 2 : 0"), .number(20))
    }

    func testTextConcatenation() throws {
        XCTAssertEqual(try eval("'a' + 1"), .string("a1"))
        XCTAssertEqual(try eval("1 + 'a'"), .string("1a"))
        XCTAssertEqual(try eval("1 + 2 + 'x'"), .string("3x"))              // left to right
        XCTAssertEqual(try eval("'x' + 1 + 2"), .string("x12"))
        XCTAssertEqual(try eval("'n=' + 2.5"), .string("n=2.5"))
        XCTAssertEqual(try eval("'v' + true"), .string("vtrue"))
        XCTAssertEqual(try eval("'list: ' + [1, 2]"), .string("list: 1, 2"))
        XCTAssertEqual(try eval("\"double\" + 'single'"), .string("doublesingle"))
        XCTAssertEqual(try eval(#"'it\'s'"#), .string("it's"))              // backslash escapes the next character
        XCTAssertEqual(try eval("[1, 2] + [3]"), list([1, 2, 3]))
        XCTAssertEqual(try eval("0.1 + 0.2 + ''"), .string("0.30000000000000004"))
    }

    func testNamesFieldsAndIndexing() throws {
        let scope: [String: TemplateValue] = [
            "items": strings(["x", "y", "z"]),
            "row": .object(["name": .string("Ada"), "value": .number(3), "tags": strings(["p", "q"])]),
        ]
        XCTAssertEqual(try eval("items[2]", scope), .string("z"))
        XCTAssertEqual(try eval("items[1 + 1]", scope), .string("z"))
        XCTAssertEqual(try eval("row.name", scope), .string("Ada"))
        XCTAssertEqual(try eval("row['value'] * 2", scope), .number(6))
        XCTAssertEqual(try eval("row.tags[1]", scope), .string("q"))
        XCTAssertEqual(try eval("'abc'[1]", scope), .string("b"))
        XCTAssertEqual(try eval("[10, 20, 30][0]"), .number(10))
        XCTAssertEqual(try eval("null"), .null)
        XCTAssertEqual(evalError("items[3]", scope), "index 3 is outside the list of 3")
        XCTAssertEqual(evalError("items[-1]", scope), "index -1 is outside the list of 3")
        XCTAssertEqual(evalError("items[1.5]", scope), "index 1.5 is outside the list of 3")
        XCTAssertEqual(evalError("'abc'[3]"), "index 3 is outside the text of 3 characters")
        XCTAssertEqual(evalError("row.age", scope), "no field \"age\" (fields: name, tags, value)")
        XCTAssertEqual(evalError("row['age']", scope), "no field \"age\"")
        XCTAssertEqual(evalError("items.name", scope), "\".name\" needs an object, got a list")
        XCTAssertEqual(evalError("row[0]", scope), "cannot index an object with a number")
        XCTAssertEqual(evalError("nope", scope), "unknown name \"nope\" (known: items, row)")
    }

    func testOperatorAndSyntaxErrors() {
        XCTAssertEqual(evalError("1 / 0"), "division by zero")
        XCTAssertEqual(evalError("1 % 0"), "remainder by zero")
        XCTAssertEqual(evalError("'a' * 2"), "\"*\" needs numbers, got a string \"a\"")
        XCTAssertEqual(evalError("-'a'"), "\"-\" needs numbers, got a string \"a\"")
        XCTAssertEqual(evalError("null * 2"), "\"*\" needs numbers, got null")
        XCTAssertEqual(evalError("[1] < 2"), "\"<\" needs numbers, got a list \"1\"")
        XCTAssertEqual(evalError("1 +"), "{{1 +}} ends too early")
        XCTAssertEqual(evalError("(1"), "expected \")\" in {{(1}}")
        XCTAssertEqual(evalError("1 2"), "unexpected \"2\" in {{1 2}}")
        XCTAssertEqual(evalError("'abc"), "unterminated string in {{'abc}}")
        XCTAssertEqual(evalError("a # b"), "unexpected \"#\" in {{a # b}}")
        XCTAssertEqual(evalError("1.2.3"), "bad number \"1.2.3\" in {{1.2.3}}")
        XCTAssertEqual(evalError("a."), "expected a name after \".\" in {{a.}}")
        XCTAssertEqual(evalError("1 ? 2"), "expected \":\" in {{1 ? 2}}")
        XCTAssertEqual(evalError(")"), "unexpected \")\" in {{)}}")
    }

    // MARK: Functions

    func testTextFunctions() throws {
        XCTAssertEqual(try eval("upper('abc')"), .string("ABC"))
        XCTAssertEqual(try eval("lower('ÀBC')"), .string("àbc"))
        XCTAssertEqual(try eval("trim(s)", ["s": .string("  a b \n")]), .string("a b"))
        XCTAssertEqual(try eval("len('héllo')"), .number(5))
        XCTAssertEqual(try eval("len([1, 2, 3])"), .number(3))
        XCTAssertEqual(try eval("len(o)", ["o": .object(["a": .null, "b": .null])]), .number(2))
        XCTAssertEqual(try eval("chars('ab')"), strings(["a", "b"]))
        XCTAssertEqual(try eval("words(' a  b\tc ')"), strings(["a", "b", "c"]))
        XCTAssertEqual(try eval("lines(s)", ["s": .string("a\nb")]), strings(["a", "b"]))
        XCTAssertEqual(try eval("split('a,b,,c', ',')"), strings(["a", "b", "", "c"]))
        XCTAssertEqual(try eval("join(['a', 'b'], '-')"), .string("a-b"))
        XCTAssertEqual(try eval("join([1, 2])"), .string("12"))
        XCTAssertEqual(try eval("replace('a-b-c', '-', '+')"), .string("a+b+c"))
        XCTAssertEqual(try eval("substr('hello', 1, 3)"), .string("ell"))
        XCTAssertEqual(try eval("substr('hello', 3)"), .string("lo"))
        XCTAssertEqual(try eval("substr('hi', 5)"), .string(""))
        XCTAssertEqual(try eval("pad(7, 3, '0')"), .string("007"))
        XCTAssertEqual(try eval("pad('x', 3)"), .string("  x"))
        XCTAssertEqual(try eval("pad('abc', 2)"), .string("abc"))           // never cut
        XCTAssertEqual(try eval("string(2.5) + string(3)"), .string("2.53"))
        XCTAssertEqual(try eval("number('4.5') + 1"), .number(5.5))
        XCTAssertEqual(try eval("contains('hello', 'ell')"), .bool(true))
        XCTAssertEqual(try eval("contains('hello', 'z')"), .bool(false))
    }

    func testNumberFormatting() throws {
        XCTAssertEqual(try eval("format(3.14159, '%.2f')"), .string("3.14"))
        XCTAssertEqual(try eval("format(42, '%05d')"), .string("00042"))
        XCTAssertEqual(try eval("format(2.5, '%d')"), .string("3"))         // %d rounds, half away from zero
        XCTAssertEqual(try eval("format(255, '%x')"), .string("ff"))
        XCTAssertEqual(try eval("format(255, '%X')"), .string("FF"))
        XCTAssertEqual(try eval("format(1234.5, '%.1e')"), .string("1.2e+03"))
        XCTAssertEqual(try eval("format(0.5)"), .string("0.5"))             // default %g
        XCTAssertEqual(try eval("format(7, 'n = %+d!')"), .string("n = +7!"))
        XCTAssertEqual(try eval("format(3, '%-4d|')"), .string("3   |"))
        XCTAssertEqual(try eval("thousands(1234567.6)"), .string("1,234,568"))
        XCTAssertEqual(try eval("thousands(-1234567)"), .string("-1,234,567"))
        XCTAssertEqual(try eval("thousands(999)"), .string("999"))
        XCTAssertEqual(try eval("thousands(999.5)"), .string("1,000"))
        let usage = "format(number, pattern): format needs one number pattern such as \"%.1f\" or \"%05d\", got "
        XCTAssertEqual(evalError("format(1, '%s')"), usage + "\"%s\"")
        XCTAssertEqual(evalError("format(1, '%d%d')"), usage + "\"%d%d\"")
        XCTAssertEqual(evalError("format(1, 'none')"), usage + "\"none\"")
        XCTAssertEqual(evalError("format(1, '%d%%')"), usage + "\"%d%%\"")
        // Conversions that would read arguments that are not there are refused, not run.
        XCTAssertEqual(evalError("format(1, '%*d')"), usage + "\"%*d\"")
        XCTAssertEqual(evalError("format(1, '%.*f')"), usage + "\"%.*f\"")
        XCTAssertEqual(evalError("format(1, '%@x')"), usage + "\"%@x\"")
        XCTAssertEqual(evalError("format(1, '%ld')"), usage + "\"%ld\"")
        // Numbers too large for a whole number are an error, not a crash.
        XCTAssertEqual(evalError("format(big, '%d')", big), "format(number, pattern): 1e+300 is too large for a whole number")
        XCTAssertEqual(evalError("thousands(number('1e20'))"), "thousands(number): 1e+20 is too large for a whole number")
    }

    func testNumberFunctions() throws {
        XCTAssertEqual(try eval("round(3.14159, 2)"), .number(3.14))
        XCTAssertEqual(try eval("round(2.5)"), .number(3))
        XCTAssertEqual(try eval("round(-2.5)"), .number(-3))
        XCTAssertEqual(try eval("round(1234, -2)"), .number(1200))
        XCTAssertEqual(try eval("floor(-1.5)"), .number(-2))
        XCTAssertEqual(try eval("ceil(1.2)"), .number(2))
        XCTAssertEqual(try eval("abs(-3)"), .number(3))
        XCTAssertEqual(try eval("sqrt(16)"), .number(4))
        XCTAssertEqual(try eval("clamp(15, 0, 10)"), .number(10))
        XCTAssertEqual(try eval("clamp(-1, 0, 10)"), .number(0))
        XCTAssertEqual(try eval("clamp(4, 0, 10)"), .number(4))
        XCTAssertEqual(try eval("min(3, 1, 2)"), .number(1))
        XCTAssertEqual(try eval("max([4, 9, 2])"), .number(9))
        XCTAssertEqual(try eval("max(5)"), .number(5))
        XCTAssertEqual(try eval("sum([1, 2, 3.5])"), .number(6.5))
        XCTAssertEqual(try eval("sum([])"), .number(0))
        XCTAssertEqual(try eval("min()"), .number(0))                       // an empty list's min is 0
        XCTAssertEqual(evalError("number('x')"), "number(value): \"number\" needs numbers, got a string \"x\"")
        XCTAssertEqual(evalError("sum(['1', 'two'])"), "sum(list): \"a list of numbers\" needs numbers, got a string \"two\"")
    }

    func testListFunctions() throws {
        XCTAssertEqual(try eval("range(3)"), list([0, 1, 2]))
        XCTAssertEqual(try eval("range(1, 2, 0.25)"), list([1, 1.25, 1.5, 1.75]))
        XCTAssertEqual(try eval("range(5, 0, -2)"), list([5, 3, 1]))
        XCTAssertEqual(try eval("range(0)"), list([]))
        XCTAssertEqual(try eval("range(-3)"), list([]))
        XCTAssertEqual(try eval("reverse([1, 2, 3])"), list([3, 2, 1]))
        XCTAssertEqual(try eval("slice([1, 2, 3, 4], 1, 3)"), list([2, 3]))
        XCTAssertEqual(try eval("slice([1, 2, 3, 4], 2)"), list([3, 4]))
        XCTAssertEqual(try eval("slice([1, 2, 3, 4], 3, 1)"), list([]))
        XCTAssertEqual(try eval("sort([3, 1, 2])"), list([1, 2, 3]))
        XCTAssertEqual(try eval("sort(['b', 'a', 'c'])"), strings(["a", "b", "c"]))
        XCTAssertEqual(try eval("sort(['10', '9'])"), strings(["9", "10"]))  // numeric text as numbers
        XCTAssertEqual(try eval("unique([1, 2, 1, 3, 2])"), list([1, 2, 3]))
        XCTAssertEqual(try eval("indexOf(['a', 'b'], 'b')"), .number(1))
        XCTAssertEqual(try eval("indexOf(['a', 'b'], 'z')"), .number(-1))
        XCTAssertEqual(try eval("contains([1, 2], 2)"), .bool(true))
        XCTAssertEqual(try eval("contains([1, 2], '2')"), .bool(false))
        XCTAssertEqual(try eval("scaled([1, 2, 3], 10, 5)"), list([15, 25, 35]))
        XCTAssertEqual(try eval("scaled([1, 2, 3], 2)"), list([2, 4, 6]))
        XCTAssertEqual(try eval("clampEach([-1, 5, 20], 0, 10)"), list([0, 5, 10]))
        XCTAssertEqual(try eval("below([0, 1, 2, 3], 2, 1, 0.3)"), list([1, 1, 0.3, 0.3]))
        XCTAssertEqual(try eval("rank([5, 9, 7], 7)"), .number(1))
        XCTAssertEqual(try eval("rank([5, 9, 7], 9)"), .number(0))
        XCTAssertEqual(evalError("range(0, 1, 0)"), "range(count) or range(start, end, step): range step must not be 0")
        XCTAssertEqual(evalError("range(1000000)"), "range(count) or range(start, end, step): range of 1000000 items is too long (at most 100000)")
        // Counts beyond any whole number are the same error, not a crash.
        XCTAssertEqual(evalError("range(big)", big), "range(count) or range(start, end, step): range of 1e+300 items is too long (at most 100000)")
        XCTAssertEqual(evalError("range(0, big, 2)", big), "range(count) or range(start, end, step): range of 5e+299 items is too long (at most 100000)")
        XCTAssertEqual(try eval("range(0, -big)", big), list([]))
        XCTAssertEqual(evalError("reverse('abc')"), "reverse(list): argument 1 must be a list, got a string")
    }

    func testTableFunctions() throws {
        let s = ["rows": table]
        XCTAssertEqual(try eval("column(rows, 'k')", s), strings(["a", "b", "a", "b", "c"]))
        XCTAssertEqual(try eval("unique(column(rows, 'k'))", s), strings(["a", "b", "c"]))
        XCTAssertEqual(try eval("column(where(rows, 'k', 'a'), 'v')", s), list([10, 30]))
        XCTAssertEqual(try eval("column(where(rows, 's', 2), 'k')", s), strings(["a", "b", "c"]))  // compared as text
        XCTAssertEqual(try eval("lookup(rows, 'k', 'b', 'v')", s), .number(20))  // the first match
        XCTAssertEqual(try eval("lookup(rows, 'k', 'z', 'v')", s), .null)
        XCTAssertEqual(try eval("column(sort(rows, 'v', true), 'k')", s), strings(["a", "c", "b", "a", "b"]))  // stable
        XCTAssertEqual(try eval("column(sort(rows, 'v'), 'v')", s), list([5, 10, 20, 30, 30]))
        // series: a key's value at each step (0 where the key has no row).
        XCTAssertEqual(try eval("series(rows, 'k', 'a', 's', 'v')", s), list([10, 30]))
        XCTAssertEqual(try eval("series(rows, 'k', 'c', 's', 'v')", s), list([0, 30]))
        // ranks: the key's place at each step, largest first, ties in the keys' first order.
        XCTAssertEqual(try eval("ranks(rows, 'k', 'a', 's', 'v')", s), list([1, 0]))
        XCTAssertEqual(try eval("ranks(rows, 'k', 'b', 's', 'v')", s), list([0, 2]))
        XCTAssertEqual(try eval("ranks(rows, 'k', 'c', 's', 'v')", s), list([2, 1]))
        // Together: bar positions and opacities for the top 2 of a race.
        XCTAssertEqual(try eval("scaled(ranks(rows, 'k', 'c', 's', 'v'), 40, 8)", s), list([88, 48]))
        XCTAssertEqual(try eval("below(ranks(rows, 'k', 'c', 's', 'v'), 2, 1, 0)", s), list([0, 1]))
        XCTAssertEqual(try eval("clampEach(series(rows, 'k', 'a', 's', 'v'), 0, 25)", s), list([10, 25]))
        XCTAssertEqual(evalError("column(rows, 'x')", s), "column(rows, field): no field \"x\" (fields: k, s, v)")
        XCTAssertEqual(evalError("column([1], 'x')"), "column(rows, field): rows must be objects, got a number")
    }

    func testFunctionErrors() {
        let all = "abs, below, ceil, chars, clamp, clampEach, column, contains, floor, format, holdKeyTimes, indexOf, join, len, "
            + "lines, lookup, lower, max, min, number, pad, range, rank, ranks, repeatEach, replace, reverse, round, scaled, series, "
            + "slice, sort, split, sqrt, startsWith, string, substr, sum, textWidth, thousands, trim, unique, upper, where, "
            + "withPrefix, words"
        XCTAssertEqual(evalError("nope(1)"), "unknown function \"nope\" (functions: \(all))")
        XCTAssertEqual(evalError("upper()"), "upper(text): missing argument 1")
        XCTAssertEqual(evalError("len()"), "len(list or text): needs 1 argument")
        XCTAssertEqual(evalError("len(5)"), "len(list or text): len needs a list or text, got a number")
        XCTAssertEqual(evalError("replace('a', 'b')"), "replace(text, old, new): missing argument 3")
        XCTAssertEqual(evalError("clamp(1, 2)"), "clamp(number, low, high): missing argument 3")
        XCTAssertEqual(evalError("upper([1])"), "upper(text): argument 1 must be text, got a list")
        XCTAssertEqual(evalError("round('x')"), "round(number, digits): \"argument 1\" needs numbers, got a string \"x\"")
        XCTAssertEqual(evalError("series(rows, 'k')", ["rows": table]), "series(rows, keyField, key, stepField, valueField): missing argument 4")
        // Too few arguments are an error, not a crash, also where the missing one is only
        // needed for some rows.
        XCTAssertEqual(evalError("where(rows, 'k')", ["rows": table]), "where(rows, field, value): missing argument 3")
        XCTAssertEqual(evalError("lookup(rows, 'k')", ["rows": table]), "lookup(rows, field, value, result field): missing argument 3")
        XCTAssertEqual(evalError("lookup(rows, 'k', 'a')", ["rows": table]), "lookup(rows, field, value, result field): missing argument 4")
        XCTAssertEqual(evalError("below([1, 2], 2, 1)"), "below(list, limit, yes, no): missing argument 4")
        XCTAssertEqual(evalError("indexOf([1])"), "indexOf(list, value): missing argument 2")
        XCTAssertEqual(evalError("contains([1])"), "contains(list or text, value): missing argument 2")
        XCTAssertEqual(evalError("rank()"), "rank(list of numbers, value): missing argument 1")
        XCTAssertEqual(evalError("substr('abc', big)", big), "substr(text, start, length): 1e+300 is too large for a whole number")
        XCTAssertEqual(evalError("slice([1], 0, big)", big), "slice(list, start, end): 1e+300 is too large for a whole number")
        XCTAssertEqual(evalError("pad('x', 1000000000000)"), "pad(value, width, fill): width 1000000000000 is too large (at most 100000)")
        XCTAssertEqual(evalError("[1][big]", big), "index 1e+300 is outside the list of 1")
        XCTAssertEqual(evalError("'a'[big]", big), "index 1e+300 is outside the text of 1 characters")
        // Extra arguments are ignored.
        XCTAssertEqual(try eval("upper('a', 'b')"), .string("A"))
    }

    // MARK: Filling a document in

    /// The document `yaml` filled in with `scope`, or the messages of its errors.
    func expand(_ yaml: String, _ scope: [String: TemplateValue]) throws -> (TemplateNode?, [String]) {
        let node = try TemplateReader.parse(yaml, file: "t.yaml")
        var expansion = TemplateExpansion(file: "t.yaml")
        let out = expansion.expand(node, path: "", scope: scope)
        return (out, expansion.errors.map(\.description))
    }

    func testWholeExpressionKeepsItsTypeAndTextInterpolates() throws {
        let yaml = """
        number: "{{n}}"
        sum: " {{n * 2}} "
        flag: "{{n > 2}}"
        list: "{{names}}"
        object: "{{row}}"
        nothing: "{{null}}"
        text: "n = {{n}}"
        two: "{{n}}{{n}}"
        listText: "names: {{names}}"
        objectText: "row: {{row}}"
        nothingText: "[{{null}}]"
        fraction: "{{n / 4}} of {{len(names)}}"
        plain: 12
        """
        let scope: [String: TemplateValue] = ["n": .number(3), "names": strings(["a", "b"]), "row": .object(["x": .number(1)])]
        let (node, errors) = try expand(yaml, scope)
        XCTAssertEqual(errors, [])
        let out = try XCTUnwrap(node)
        XCTAssertEqual(out["number"]?.value, .number(3))
        XCTAssertEqual(out["sum"]?.value, .number(6))
        XCTAssertEqual(out["flag"]?.value, .bool(true))
        XCTAssertEqual(out["list"]?.jsonText, "[\"a\", \"b\"]")
        XCTAssertEqual(out["object"]?.jsonText, "{\"x\": 1}")
        XCTAssertEqual(out["nothing"]?.value, .null)
        XCTAssertEqual(out["text"]?.value, .string("n = 3"))
        XCTAssertEqual(out["two"]?.value, .string("33"))
        XCTAssertEqual(out["listText"]?.value, .string("names: a, b"))
        XCTAssertEqual(out["objectText"]?.value, .string("row: [object]"))
        XCTAssertEqual(out["nothingText"]?.value, .string("[]"))
        XCTAssertEqual(out["fraction"]?.value, .string("0.75 of 2"))
        XCTAssertEqual(out["plain"]?.value, .number(12))
        // Values keep the line of the string they came from.
        XCTAssertEqual(out["number"]?.line, 1)
        XCTAssertEqual(out["list"]?.line, 4)
        XCTAssertEqual(out["fraction"]?.line, 12)
    }

    func testForEachWithAsAndIndex() throws {
        let yaml = """
        layers:
          - type: layer
            id: first
          - forEach: "{{names}}"
            as: name
            type: text
            id: "label-{{index}}"
            string: "{{index + 1}}. {{name}}"
            position: ["{{index * 10}}", 5]
          - forEach: [4, 5]
            type: layer
            opacity: "{{item / 10}}"
          - type: layer
            id: last
        """
        let (node, errors) = try expand(yaml, ["names": strings(["Ada", "Grace", "Alan"])])
        XCTAssertEqual(errors, [])
        guard case .array(let layers)? = node?["layers"]?.value else { return XCTFail("no layers") }
        XCTAssertEqual(layers.map(\.jsonText), [
            "{\"type\": \"layer\", \"id\": \"first\"}",
            "{\"type\": \"text\", \"id\": \"label-0\", \"string\": \"1. Ada\", \"position\": [0, 5]}",
            "{\"type\": \"text\", \"id\": \"label-1\", \"string\": \"2. Grace\", \"position\": [10, 5]}",
            "{\"type\": \"text\", \"id\": \"label-2\", \"string\": \"3. Alan\", \"position\": [20, 5]}",
            "{\"type\": \"layer\", \"opacity\": 0.4}",
            "{\"type\": \"layer\", \"opacity\": 0.5}",
            "{\"type\": \"layer\", \"id\": \"last\"}",
        ])
        XCTAssertEqual(layers.map(\.line), [2, 4, 4, 4, 10, 10, 13])       // each copy keeps its source line
        // An empty list makes no nodes.
        let (empty, _) = try expand(yaml, ["names": strings([])])
        guard case .array(let few)? = empty?["layers"]?.value else { return XCTFail("no layers") }
        XCTAssertEqual(few.count, 4)
    }

    func testIfRemovesEntries() throws {
        let yaml = """
        layers:
          - {type: layer, id: always}
          - {type: layer, id: shown, if: "{{show}}"}
          - {type: layer, id: hidden, if: "{{!show}}"}
          - {type: layer, id: literal, if: false}
          - forEach: "{{range(4)}}"
            if: "{{item % 2 == 0}}"
            type: layer
            id: "even-{{item}}"
          - type: layer
            id: withLayout
            layout: {if: "{{!show}}", center: true}
        """
        let (node, errors) = try expand(yaml, ["show": .bool(true)])
        XCTAssertEqual(errors, [])
        guard case .array(let layers)? = node?["layers"]?.value else { return XCTFail("no layers") }
        XCTAssertEqual(layers.map(\.jsonText), [
            "{\"type\": \"layer\", \"id\": \"always\"}",
            "{\"type\": \"layer\", \"id\": \"shown\"}",
            "{\"type\": \"layer\", \"id\": \"even-0\"}",
            "{\"type\": \"layer\", \"id\": \"even-2\"}",
            "{\"type\": \"layer\", \"id\": \"withLayout\"}",              // an object member's `if` removes the member
        ])
    }

    func testNestedForEach() throws {
        let yaml = """
        layers:
          - forEach: "{{range(2)}}"
            as: r
            type: group
            id: "row-{{r}}"
            children:
              - forEach: "{{range(3)}}"
                as: c
                type: layer
                id: "cell-{{r}}-{{c}}-{{index}}"
                position: ["{{c * 10}}", "{{r * 10}}"]
        """
        let (node, errors) = try expand(yaml, [:])
        XCTAssertEqual(errors, [])
        guard case .array(let rows)? = node?["layers"]?.value else { return XCTFail("no layers") }
        XCTAssertEqual(rows.map { $0["id"]?.string }, ["row-0", "row-1"])
        for (r, row) in rows.enumerated() {
            guard case .array(let cells)? = row["children"]?.value else { return XCTFail("no children") }
            // `index` is the inner loop's; the outer position is under its `as` name.
            XCTAssertEqual(cells.map { $0["id"]?.string }, (0..<3).map { "cell-\(r)-\($0)-\($0)" })
            XCTAssertEqual(cells.map { $0["position"]?.jsonText }, (0..<3).map { "[\($0 * 10), \(r * 10)]" })
        }
    }

    func testExpansionErrorsNameThePathAndLine() throws {
        let yaml = """
        size: [64, 36]
        layers:
          - type: layer
          - type: group
            children:
              - type: text
              - type: text
                string: "Hello {{nmae}}"
          - forEach: "{{count}}"
            type: layer
          - type: layer
            if: "{{1 / 0}}"
          - type: text
            string: "{{name"
        """
        let (_, errors) = try expand(yaml, ["name": .string("x"), "count": .number(3)])
        XCTAssertEqual(errors, [
            "t.yaml:8 layers[1].children[1].string: unknown name \"nmae\"; did you mean \"name\"? (known: count, name)",
            "t.yaml:9 layers[2].forEach: expected a list to repeat over, got a number",
            "t.yaml:12 layers[3].if: division by zero",
            "t.yaml:14 layers[4].string: \"{{\" without \"}}\" in \"{{name\"",
        ])
    }
}
