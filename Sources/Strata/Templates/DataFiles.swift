// The data files templates read: CSV (RFC 4180: quoted fields, doubled quotes, commas and line
// breaks inside quotes; the first row names the columns), JSON Lines (one object a line), and
// captions (SubRip .srt and WebVTT .vtt cues). Errors name the file, the line and what was
// expected. Data comes from elsewhere: a file is read only if it is a regular file within
// `SceneLimits.dataFileBytes`, and each value (a CSV field, a JSON string) within
// `dataValueBytes` — a 50 MB JSON value took 3.5 GB and 40 s on its way through a template.
import Foundation
import StrataCore

/// A problem in a data file.
public struct DataFileError: Error, CustomStringConvertible, Sendable {
    /// The file, as the user named it.
    public let file: String
    /// The line of the problem (1-based), when it has one.
    public let line: Int?
    /// What is wrong, and what was expected.
    public let message: String
    public var description: String { line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}

enum DataFiles {
    /// The text of a data file, refusing files over `limits.dataFileBytes`.
    static func text(of url: URL, limits: SceneLimits = SceneLimits()) throws -> String {
        try text(of: url, limit: limits.dataFileBytes, limitName: "data-mb")
    }

    /// The text of a file, refusing what is not a regular file (a pipe would block, a device
    /// never end), files over `limit` bytes and text that is not UTF-8. `limitName` is the
    /// `--limit` that raises `limit`, if one does.
    static func text(of url: URL, limit: Int, limitName: String? = nil) throws -> String {
        if let problem = InputFile.problem(at: url.path) {
            throw DataFileError(file: url.path, line: nil, message: "cannot read the file: \(problem)")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = attributes?[.size] as? Int, size > limit {
            let raise = limitName.map { " (raise it with --limit \($0)=N)" } ?? ""
            throw DataFileError(file: url.path, line: nil, message: "the file is \(size) bytes; at most \(limit) are read\(raise)")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            var isFolder: ObjCBool = false
            let reason = !FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) ? "no such file"
                : isFolder.boolValue ? "this is a folder, not a file" : "permission denied or unreadable"
            throw DataFileError(file: url.path, line: nil, message: "cannot read the file: \(reason)")
        }
        guard let s = String(data: data, encoding: .utf8) else {
            throw DataFileError(file: url.path, line: nil, message: "the file is not UTF-8 text")
        }
        return s.hasPrefix("\u{FEFF}") ? String(s.dropFirst()) : s
    }

    /// CSV rows as (line number, fields by column name).
    static func csv(_ text: String, file: String, limits: SceneLimits = SceneLimits()) throws -> [(line: Int, fields: [String: String])] {
        try csvRows(text, file: file, limits: limits).map { row in
            if let problem = row.problem { throw DataFileError(file: file, line: row.line, message: problem) }
            return (row.line, row.fields)
        }
    }

    /// CSV rows, a row with the wrong number of fields carrying its problem instead of failing
    /// the file (a batch skips that row); the file fails only when its structure is broken.
    static func csvRows(_ text: String, file: String, limits: SceneLimits = SceneLimits()) throws -> [(line: Int, fields: [String: String], problem: String?)] {
        var records: [(Int, [String])] = []
        var field = "", record: [String] = [], inQuotes = false, line = 1, recordLine = 1, afterQuote = false
        var chars = text.makeIterator()
        var pending: Character?
        func next() -> Character? { if let p = pending { pending = nil; return p }; return chars.next() }
        while let c = next() {
            if field.utf8.count > limits.dataValueBytes {
                throw DataFileError(file: file, line: recordLine, message: valueTooLong("field \(record.count + 1) of the row", bytes: nil, limits))
            }
            if inQuotes {
                if c == "\"" {
                    if let n = next() {
                        if n == "\"" { field.append("\"") } else { inQuotes = false; afterQuote = true; pending = n }
                    } else { inQuotes = false; afterQuote = true }
                } else {
                    if c == "\n" || c == "\r\n" { line += 1 }
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"":
                guard field.isEmpty, !afterQuote else {
                    throw DataFileError(file: file, line: line, message: "a quote inside an unquoted field (quote the whole field and double the quote)")
                }
                inQuotes = true
            case ",":
                record.append(field); field = ""; afterQuote = false
            case "\r":
                break
            case "\n", "\r\n":                // (a Swift Character: CR LF is one)
                record.append(field); field = ""; afterQuote = false
                if !(record.count == 1 && record[0].isEmpty) { records.append((recordLine, record)) }
                record = []
                line += 1
                recordLine = line
            default:
                guard !afterQuote else {
                    throw DataFileError(file: file, line: line, message: "text after a closing quote (expected a comma or a line break)")
                }
                field.append(c)
            }
        }
        if inQuotes { throw DataFileError(file: file, line: recordLine, message: "a quoted field is not closed") }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append((recordLine, record))
        }
        guard let header = records.first else { throw DataFileError(file: file, line: nil, message: "no header row") }
        let names = header.1.map { $0.trimmingCharacters(in: .whitespaces) }
        var counts: [String: Int] = [:]
        for n in names { counts[n, default: 0] += 1 }
        if let dup = names.first(where: { counts[$0]! > 1 }) {
            throw DataFileError(file: file, line: header.0, message: "the column \"\(dup)\" appears twice")
        }
        return records.dropFirst().map { (line, values) in
            guard values.count == names.count else {
                return (line, [:], "expected \(names.count) fields (\(names.joined(separator: ", "))), found \(values.count)")
            }
            return (line, Dictionary(uniqueKeysWithValues: zip(names, values)), nil)
        }
    }

    /// The message for a value of `bytes` (nil: not counted to the end) over
    /// `limits.dataValueBytes`.
    static func valueTooLong(_ what: String, bytes: Int?, _ limits: SceneLimits) -> String {
        let size = bytes.map { "is \($0) bytes" } ?? "is more than \(limits.dataValueBytes) bytes"
        return limits.exceededMessage("\(what) \(size)", name: "data-value-kb")
    }

    /// CSV rows as expression values (numeric-looking fields become numbers).
    static func csvTable(_ text: String, file: String, limits: SceneLimits = SceneLimits()) throws -> TemplateValue {
        .list(try csv(text, file: file, limits: limits).map { row in
            .object(row.fields.mapValues { v in
                let t = v.trimmingCharacters(in: .whitespaces)
                if looksDecimal(t), let n = Double(t), n.isFinite { return .number(n) }
                return .string(v)
            })
        })
    }

    /// Whether a CSV field is a plain decimal number (`12`, `-3.5`, `1e6`), not an identifier
    /// that only parses as one: leading zeros (`007`, a zip code), hex (`0x10`), `inf`, `nan`.
    static func looksDecimal(_ t: String) -> Bool {
        t.range(of: #"^[+-]?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$|^[+-]?\.[0-9]+$"#, options: .regularExpression) != nil
    }

    /// JSON Lines: one object per non-empty line.
    static func jsonLines(_ text: String, file: String, limits: SceneLimits = SceneLimits()) throws -> [(line: Int, value: TemplateValue)] {
        try jsonLineRows(text, limits: limits).map { row in
            guard let value = row.value else {
                throw DataFileError(file: file, line: row.line, message: row.problem ?? "expected a JSON object on the line")
            }
            return (row.line, value)
        }
    }

    /// JSON Lines rows; a line that is not a JSON object, repeats a key within an object, or holds
    /// a value over `limits.dataValueBytes`, has no value but a problem (a batch skips it).
    static func jsonLineRows(_ text: String, limits: SceneLimits = SceneLimits()) -> [(line: Int, value: TemplateValue?, problem: String?)] {
        var out: [(Int, TemplateValue?, String?)] = []
        for (i, raw) in text.components(separatedBy: "\n").enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty else { continue }
            let data = Data(line.utf8)
            if let object = try? JSONSerialization.jsonObject(with: data), object is [String: Any] {
                if let repeated = JSONDuplicateKeys.first(in: data) {
                    out.append((i + 1, nil, "the key \"\(repeated.key)\" appears twice in \(repeated.path) (each key once)"))
                    continue
                }
                do { out.append((i + 1, try value(object, limits: limits), nil)) } catch let e as ValueTooLong {
                    out.append((i + 1, nil, e.message))
                } catch {
                    out.append((i + 1, nil, "\(error)"))
                }
            } else {
                out.append((i + 1, nil, "expected a JSON object on the line"))
            }
        }
        return out
    }

    /// A value of a data file over `SceneLimits.dataValueBytes`.
    struct ValueTooLong: Error { let message: String }

    /// A Foundation JSON object as an expression value; a string (or key) longer than
    /// `limits.dataValueBytes` throws `ValueTooLong` naming its path (`items[2].title`).
    static func value(_ any: Any, limits: SceneLimits = SceneLimits(), path: String = "") throws -> TemplateValue {
        switch any {
        case is NSNull: return .null
        case let n as NSNumber:
            // JSONSerialization gives booleans as NSNumbers of type "c".
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            return .number(n.doubleValue)
        case let s as String:
            guard s.utf8.count <= limits.dataValueBytes else {
                throw ValueTooLong(message: valueTooLong(path.isEmpty ? "the value" : "the value of \(path)", bytes: s.utf8.count, limits))
            }
            return .string(s)
        case let a as [Any]:
            return .list(try a.enumerated().map { try value($1, limits: limits, path: "\(path)[\($0)]") })
        case let d as [String: Any]:
            var o: [String: TemplateValue] = [:]
            for (k, v) in d {
                let key = Echo.text(k)
                guard k.utf8.count <= limits.dataValueBytes else {
                    throw ValueTooLong(message: valueTooLong("the key \"\(key)\"", bytes: k.utf8.count, limits))
                }
                o[k] = try value(v, limits: limits, path: path.isEmpty ? key : "\(path).\(key)")
            }
            return .object(o)
        default: return .string("\(any)")
        }
    }

    /// Caption cues of an .srt or .vtt file: [{start, end, text}] with times in seconds.
    static func captions(_ text: String, file: String) throws -> TemplateValue {
        let lines = text.replacingOccurrences(of: "\r", with: "").components(separatedBy: "\n")
        var cues: [TemplateValue] = []
        var i = 0
        while i < lines.count {
            let l = lines[i]
            guard l.contains("-->") else { i += 1; continue }
            let parts = l.components(separatedBy: "-->")
            guard parts.count == 2, let start = timecode(parts[0]),
                  let end = timecode(parts[1].trimmingCharacters(in: .whitespaces).components(separatedBy: " ").first ?? "") else {
                throw DataFileError(file: file, line: i + 1, message: "expected a cue time \"00:00:01,000 --> 00:00:02,500\"")
            }
            guard end >= start else { throw DataFileError(file: file, line: i + 1, message: "the cue ends before it starts") }
            var body: [String] = []
            i += 1
            while i < lines.count, !lines[i].trimmingCharacters(in: .whitespaces).isEmpty { body.append(lines[i]); i += 1 }
            let textLine = body.joined(separator: "\n").replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
            cues.append(.object(["start": .number(start), "end": .number(end), "text": .string(textLine)]))
        }
        if cues.isEmpty { throw DataFileError(file: file, line: nil, message: "no captions found (expected SubRip or WebVTT cues)") }
        return .list(cues)
    }

    /// "01:02:03,450", "02:03.450" → seconds. Each part is digits, the last with an optional
    /// fraction (Double(_:) alone would also take "inf", "1e3" and "0x10").
    static func timecode(_ s: String) -> Double? {
        let parts = s.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".").split(separator: ":")
        guard (2...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (i, p) in parts.enumerated() {
            let digits = p.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...(i == parts.count - 1 ? 2 : 1)).contains(digits.count),
                  digits.allSatisfy({ !$0.isEmpty && $0.count <= 12 && $0.allSatisfy { ("0"..."9").contains($0) } }),
                  let v = Double(p) else { return nil }
            total = total * 60 + v
        }
        return total
    }
}

/// The rows of a CSV data file as `strata batch --data rows.csv` reads them (for tools that
/// let a person pick a row, such as the studio).
public enum DataRows {
    /// (line number, fields by column name) of the CSV file at `url`, read under `limits`;
    /// throws a `DataFileError` naming the file and line of a broken row.
    public static func csv(contentsOf url: URL, limits: SceneLimits = SceneLimits()) throws -> [(line: Int, fields: [String: String])] {
        try DataFiles.csv(DataFiles.text(of: url, limits: limits), file: url.lastPathComponent, limits: limits)
    }
}
