// A JSON value with its path, so every type error names where it happened. Reads are lenient
// where Lottie exporters differ (booleans written as 0/1, a scalar written as a one-element
// array) and strict everywhere else.
import Foundation

struct JSONNode {
    let value: Any
    let path: String

    /// The parsed document (JSONSerialization; its errors carry the byte offset).
    static func parse(_ data: Data) throws -> JSONNode {
        do {
            let v = try JSONSerialization.jsonObject(with: data, options: [])
            return JSONNode(value: v, path: "")
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw LottieError(path: "", "not valid JSON" + (detail.map { " (\($0))" } ?? ""))
        }
    }

    func error(_ message: String) -> LottieError { LottieError(path: path, message) }

    private func childPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    var isObject: Bool { value is [String: Any] }
    var isArray: Bool { value is [Any] }
    var isNumber: Bool { value is NSNumber && !(value is String) }

    /// The member `key` (nil when absent or null); an error when this is not an object.
    func optional(_ key: String) throws -> JSONNode? {
        guard let dict = value as? [String: Any] else { throw error("expected an object") }
        guard let v = dict[key], !(v is NSNull) else { return nil }
        return JSONNode(value: v, path: childPath(key))
    }

    /// The member `key`, which must be present.
    func required(_ key: String) throws -> JSONNode {
        guard let n = try optional(key) else { throw LottieError(path: childPath(key), "missing") }
        return n
    }

    func number() throws -> Double {
        if let n = value as? NSNumber, !(value is String) {
            let d = n.doubleValue
            guard d.isFinite else { throw error("expected a finite number") }
            return d
        }
        if let a = value as? [Any], a.count == 1 { return try elements()[0].number() }
        throw error("expected a number")
    }

    func string() throws -> String {
        guard let s = value as? String else { throw error("expected a string") }
        return s
    }

    func bool() throws -> Bool {
        if let b = value as? Bool { return b }
        if let n = value as? NSNumber { return n.doubleValue != 0 }
        throw error("expected a boolean")
    }

    func elements() throws -> [JSONNode] {
        guard let a = value as? [Any] else { throw error("expected an array") }
        return a.enumerated().map { JSONNode(value: $1, path: "\(path)[\($0)]") }
    }

    func numbers() throws -> [Double] {
        if value is NSNumber, !(value is String), let d = try? number() { return [d] }
        guard let a = value as? [Any] else { throw error("expected an array of numbers") }
        var out: [Double] = []
        out.reserveCapacity(a.count)
        for v in a {
            guard let n = v as? NSNumber, !(v is String), n.doubleValue.isFinite else { throw error("expected an array of numbers") }
            out.append(n.doubleValue)
        }
        return out
    }

    // Conveniences for optional members with defaults.
    func number(_ key: String, default d: Double) throws -> Double { try optional(key)?.number() ?? d }
    func string(_ key: String) throws -> String? { try optional(key)?.string() }
    func bool(_ key: String) throws -> Bool { try optional(key)?.bool() ?? false }
    func int(_ key: String) throws -> Int? {
        guard let n = try optional(key) else { return nil }
        let d = try n.number()
        guard abs(d) < 1e9 else { throw n.error("expected an integer") }
        return Int(d.rounded())
    }
    /// A number as an Int, clamped to ±10⁹ (codes and counts: never a trap on 1e300).
    static func clampedInt(_ d: Double) -> Int { Int(min(max(d.rounded(), -1e9), 1e9)) }

    /// The member's keys (for reporting members Strata does not read).
    var keys: [String] { (value as? [String: Any]).map { Array($0.keys).sorted() } ?? [] }
}
