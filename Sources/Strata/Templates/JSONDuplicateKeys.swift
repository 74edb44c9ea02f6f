// JSONSerialization keeps the last of an object's repeated keys without a word, so a data row
// `{"name": "a", "name": "b"}` would render "b" silently — while YAML templates and CSV headers
// refuse duplicates. This scan finds the first key repeated within one object of a JSON text that
// JSONSerialization has already accepted (so the text is well formed and the scan only tracks
// strings, nesting and keys). Keys compare by their decoded text: "a" and "\u0061" are one key.
import Foundation

enum JSONDuplicateKeys {
    /// The first key that appears twice in one object, with its JSON path (`$.a.b[2]`), or nil.
    static func first(in data: Data) -> (key: String, path: String)? {
        let bytes = [UInt8](data)
        // For each open container: nil for an array (with its next index), a key set for an
        // object (with the key whose value comes next).
        struct Frame { var keys: Set<String>?; var pendingKey: String?; var index: Int; var name: String }
        var stack: [Frame] = []
        var i = 0
        var expectingKey = false
        func path() -> String {
            var p = "$"
            for f in stack.dropFirst() { p += f.name }
            return p
        }
        while i < bytes.count {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "\""):
                let start = i
                i += 1
                var escaped = false
                while i < bytes.count {
                    if bytes[i] == UInt8(ascii: "\\") { escaped = true; i += 2; continue }
                    if bytes[i] == UInt8(ascii: "\"") { break }
                    i += 1
                }
                let literal = bytes[start...min(i, bytes.count - 1)]
                if expectingKey, var top = stack.last, top.keys != nil {
                    let key = escaped ? decode(Array(literal)) : String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
                    if top.keys!.contains(key) { return (key, path()) }
                    top.keys!.insert(key)
                    top.pendingKey = key
                    stack[stack.count - 1] = top
                    expectingKey = false
                }
                i += 1
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let name: String
                if let top = stack.last {
                    name = top.keys != nil ? "." + (top.pendingKey ?? "") : "[\(top.index)]"
                } else {
                    name = ""
                }
                stack.append(Frame(keys: c == UInt8(ascii: "{") ? [] : nil, pendingKey: nil, index: 0, name: name))
                expectingKey = c == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                stack.removeLast()
                expectingKey = false
            case UInt8(ascii: ","):
                if stack.last?.keys != nil { expectingKey = true } else if !stack.isEmpty { stack[stack.count - 1].index += 1 }
            default:
                break
            }
            i += 1
        }
        return nil
    }

    /// The text of a JSON string literal with escapes.
    private static func decode(_ literal: [UInt8]) -> String {
        let wrapped = Data("[".utf8) + Data(literal) + Data("]".utf8)
        return ((try? JSONSerialization.jsonObject(with: wrapped)) as? [String])?.first ?? String(decoding: literal, as: UTF8.self)
    }
}
