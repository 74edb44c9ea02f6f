// Reading a Lottie from a file: JSON, a Telegram sticker (.tgs: gzip'd JSON) inflated with zlib
// under the file-size limit (a gzip bomb stops at the limit with an error), or a dotLottie
// archive (LottieArchive).
internal import CZlib
import Foundation
import Strata

extension LottieAnimation {
    /// Reads `.json`, `.tgs` (gzip'd JSON) or `.lottie` (a dotLottie zip archive: its first
    /// animation, with its images), recognised by content whatever the name.
    /// External images are read from the file's folder.
    /// `replacements` fill colours, images and texts by name or slot id.
    public init(contentsOf url: URL, limits: LottieLimits = LottieLimits(), replacements: LottieReplacements = LottieReplacements()) throws {
        let name = url.lastPathComponent
        if let problem = InputFile.problem(at: url.path) { throw LottieError(path: "", "\(name): cannot read the file (\(problem))") }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > limits.fileBytes {
            throw LottieError(path: "", "\(name) is \(size) bytes, over the limit of \(limits.fileBytes)")
        }
        var data: Data
        do { data = try Data(contentsOf: url) } catch { throw LottieError(path: "", "\(name): cannot read the file (\(error.localizedDescription))") }
        if data.starts(with: [0x50, 0x4b, 0x03, 0x04]) {
            let archive = try LottieArchive(data, limit: limits.fileBytes, name: name)
            let (json, folder) = try archive.firstAnimation()
            try self.init(data: json, limits: limits, replacements: replacements, files: { archive.file(folder + $0) ?? archive.file($0) })
            return
        }
        if data.starts(with: [0x1f, 0x8b]) { data = try Self.gunzip(data, limit: limits.fileBytes, name: name) }
        try self.init(data: data, limits: limits, baseURL: url.deletingLastPathComponent(), replacements: replacements)
    }

    /// Inflates gzip data, at most `limit` bytes out.
    static func gunzip(_ data: Data, limit: Int, name: String) throws -> Data {
        try zlibInflate(data, windowBits: 15 + 16, limit: limit, name: name)
    }

    /// Inflates zlib data (`windowBits` 15 + 16: gzip; −15: raw deflate), at most `limit` bytes out.
    static func zlibInflate(_ data: Data, windowBits: Int32, limit: Int, name: String) throws -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw LottieError(path: "", "\(name): zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var out = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var status: Int32 = Z_OK
        try data.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return buffer.count - Int(stream.avail_out)
                }
                guard status == Z_OK || status == Z_STREAM_END else {
                    throw LottieError(path: "", "\(name): the compressed data is damaged (zlib status \(status))")
                }
                out.append(contentsOf: chunk[0..<produced])
                guard out.count <= limit else {
                    throw LottieError(path: "", "\(name): inflates to more than \(limit) bytes, over the limit")
                }
                if produced == 0 && stream.avail_in == 0 && status != Z_STREAM_END {
                    throw LottieError(path: "", "\(name): the compressed data is truncated")
                }
            } while status != Z_STREAM_END
        }
        return out
    }
}
