// dotLottie archives (.lottie): a zip holding manifest.json, animations/NAME.json (version 1) or
// a/NAME.json (version 2) and images. Read from the central directory; entries stored or
// deflated, inflated with zlib under one budget for the whole archive whatever the headers
// claim (a zip bomb stops at the limit with an error).
internal import CZlib
import Foundation
import Strata

struct LottieArchive {
    private var entries: [String: Data] = [:]
    let name: String

    init(_ data: Data, limit: Int, name: String) throws {
        self.name = name
        let bytes = [UInt8](data)
        func u16(_ i: Int) -> Int { i + 1 < bytes.count ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : -1 }
        func u32(_ i: Int) -> Int { i + 3 < bytes.count ? u16(i) | u16(i + 2) << 16 : -1 }
        func damaged(_ what: String) -> LottieError { LottieError(path: "", "\(name): not a readable zip archive (\(what))") }
        // The end-of-central-directory record: in the last 64 KiB + 22 bytes.
        var eocd = -1
        var i = bytes.count - 22
        while i >= max(0, bytes.count - 65_557) {
            if u32(i) == 0x0605_4b50 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else { throw damaged("no central directory") }
        let count = u16(eocd + 10), start = u32(eocd + 16)
        guard count <= 10_000 else { throw LottieError(path: "", "\(name): \(count) files in the archive, over the limit of 10000") }
        var at = start, total = 0
        for _ in 0..<count {
            guard at >= 0, u32(at) == 0x0201_4b50 else { throw damaged("a damaged directory entry") }
            let method = u16(at + 10), compressed = u32(at + 20)
            let nameLength = u16(at + 28), extra = u16(at + 30), comment = u16(at + 32), local = u32(at + 42)
            guard at + 46 + nameLength <= bytes.count, local >= 0, u32(local) == 0x0403_4b50 else { throw damaged("a damaged entry") }
            let entryName = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            let dataStart = local + 30 + u16(local + 26) + u16(local + 28)
            guard compressed >= 0, dataStart + compressed <= bytes.count else { throw damaged("'\(entryName)' runs past the end") }
            at += 46 + nameLength + extra + comment
            if entryName.hasSuffix("/") { continue }
            let raw = Data(bytes[dataStart..<(dataStart + compressed)])
            let content: Data
            switch method {
            case 0: content = raw
            case 8: content = try Self.inflate(raw, limit: limit - total, name: "\(name): \(entryName)")
            default: throw damaged("'\(entryName)' uses compression method \(method)")
            }
            total += content.count
            guard total <= limit else { throw LottieError(path: "", "\(name): inflates to more than \(limit) bytes, over the limit") }
            entries[entryName] = content
        }
    }

    func file(_ path: String) -> Data? { entries[path] }

    /// The first animation (the manifest's first, else the first JSON under a/ or animations/)
    /// and the folder its relative image paths start from.
    func firstAnimation() throws -> (Data, String) {
        var ids: [String] = []
        if let manifest = entries["manifest.json"],
           let object = try? JSONSerialization.jsonObject(with: manifest) as? [String: Any],
           let animations = object["animations"] as? [[String: Any]] {
            ids = animations.compactMap { $0["id"] as? String }
        }
        for id in ids {
            for folder in ["animations/", "a/"] where entries[folder + id + ".json"] != nil {
                return (entries[folder + id + ".json"]!, "")
            }
        }
        let candidates = entries.keys.filter { ($0.hasPrefix("animations/") || $0.hasPrefix("a/")) && $0.hasSuffix(".json") }.sorted()
        guard let first = candidates.first else {
            throw LottieError(path: "", "\(name): the archive holds no animation (animations/*.json or a/*.json)")
        }
        return (entries[first]!, "")
    }

    /// Inflates raw deflate data, at most `limit` bytes out.
    static func inflate(_ data: Data, limit: Int, name: String) throws -> Data {
        try LottieAnimation.zlibInflate(data, windowBits: -15, limit: limit, name: name)
    }
}
