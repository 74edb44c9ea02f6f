// GIF chunks joined with giflib, frame by frame, without decoding: each image's LZW data is read
// and written as is (DGifGetCode → EGifPutCode). The joined file takes the first part's logical
// screen, global palette and looping extension (the loop count appears once); frames of later
// parts that used their own file's global palette get that palette as a local one, so every frame
// keeps exactly the colours it was encoded with. Graphic control extensions (delays, disposal,
// transparency) and comments are copied. The parts must have the same screen size and loop count.
import Foundation
import Glibc
import CGif
import StrataCore

/// Appends the frames of GIF parts into one GIF (see the file header).
struct GIFPartJoiner {
    let parts: [URL]
    let output: URL
    /// The name the joined file will have, for messages.
    let finalPath: String

    /// The parts' facts checked before writing: screen size and loop count (nil: plays once).
    private struct Facts { var width: Int32; var height: Int32; var loops: Int? }

    func join() throws -> MediaConcatenator.Result {
        // Every part agrees with the first before anything is written.
        var reference: Facts?
        for i in parts.indices {
            let facts = try readFacts(i)
            if let r = reference {
                if facts.width != r.width || facts.height != r.height {
                    throw MediaError.cannotJoin(path: label(i), reason: "its size is \(facts.width)×\(facts.height), but part 1's is \(r.width)×\(r.height)")
                }
                if facts.loops != r.loops {
                    throw MediaError.cannotJoin(path: label(i), reason: "it \(Self.describe(facts.loops)), but part 1 \(Self.describe(r.loops))")
                }
            } else {
                reference = facts
            }
        }

        let descriptor = Glibc.open(output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        guard descriptor >= 0 else { throw MediaError.cannotJoin(path: finalPath, reason: String(cString: strerror(errno))) }
        var error: Int32 = 0
        guard let out = EGifOpenFileHandle(descriptor, &error) else {
            Glibc.close(descriptor)
            throw MediaError.cannotJoin(path: finalPath, reason: Self.message(error))
        }
        var outOpen = true
        defer { if outOpen { _ = EGifCloseFile(out, &error) } }
        EGifSetGifVersion(out, true)
        var frames = 0
        var centiseconds = 0
        for i in parts.indices {
            let input = try open(i)
            defer { var e: Int32 = 0; _ = DGifCloseFile(input, &e) }
            func check(_ status: Int32, _ what: String, reading: Bool) throws {
                guard status == GIF_ERROR else { return }
                let code = reading ? input.pointee.Error : out.pointee.Error
                throw MediaError.cannotJoin(path: reading ? label(i) : finalPath, reason: "\(what) failed (\(Self.message(code)))")
            }
            if i == 0 {
                try check(EGifPutScreenDesc(out, input.pointee.SWidth, input.pointee.SHeight, input.pointee.SColorResolution,
                                            input.pointee.SBackGroundColor, input.pointee.SColorMap),
                          "writing the screen descriptor", reading: false)
            }
            var record = UNDEFINED_RECORD_TYPE
            repeat {
                try check(DGifGetRecordType(input, &record), "reading a record", reading: true)
                switch record {
                case EXTENSION_RECORD_TYPE:
                    var code: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    try check(DGifGetExtension(input, &code, &block), "reading an extension", reading: true)
                    var blocks: [[UInt8]] = []
                    while let b = block {
                        blocks.append(Array(UnsafeBufferPointer(start: b + 1, count: Int(b[0]))))
                        try check(DGifGetExtensionNext(input, &block), "reading an extension", reading: true)
                    }
                    // The looping extension comes once, from the first part.
                    if code == APPLICATION_EXT_FUNC_CODE, blocks.first == Array("NETSCAPE2.0".utf8), i > 0 { continue }
                    if code == GRAPHICS_EXT_FUNC_CODE, let gce = blocks.first, gce.count >= 3 {
                        centiseconds += Int(gce[1]) | Int(gce[2]) << 8
                    }
                    try check(EGifPutExtensionLeader(out, code), "writing an extension", reading: false)
                    for b in blocks { try check(EGifPutExtensionBlock(out, Int32(b.count), b), "writing an extension", reading: false) }
                    try check(EGifPutExtensionTrailer(out), "writing an extension", reading: false)
                case IMAGE_DESC_RECORD_TYPE:
                    try check(DGifGetImageDesc(input), "reading image \(frames + 1)", reading: true)
                    let image = input.pointee.Image
                    // Later parts' frames without a local palette get their file's global one.
                    let map = image.ColorMap ?? (i > 0 ? input.pointee.SColorMap : nil)
                    guard let palette = map ?? input.pointee.SColorMap else {
                        throw MediaError.cannotJoin(path: label(i), reason: "an image has no colour table")
                    }
                    try check(EGifPutImageDesc(out, image.Left, image.Top, image.Width, image.Height, image.Interlace, map),
                              "writing image \(frames + 1)", reading: false)
                    var codeSize: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    try check(DGifGetCode(input, &codeSize, &block), "reading image data", reading: true)
                    // giflib writes the code size its palette implies; copied data must use that size.
                    guard codeSize == max(2, palette.pointee.BitsPerPixel) else {
                        throw MediaError.cannotJoin(path: label(i), reason: "an image's LZW code size \(codeSize) does not match its \(palette.pointee.ColorCount)-colour table")
                    }
                    try check(EGifPutCode(out, codeSize, block), "writing image data", reading: false)
                    while block != nil {
                        try check(DGifGetCodeNext(input, &block), "reading image data", reading: true)
                        try check(EGifPutCodeNext(out, block), "writing image data", reading: false)
                    }
                    frames += 1
                case TERMINATE_RECORD_TYPE:
                    break
                default:
                    throw MediaError.cannotJoin(path: label(i), reason: "it holds an unknown GIF record")
                }
            } while record != TERMINATE_RECORD_TYPE
        }
        outOpen = false
        if EGifCloseFile(out, &error) == GIF_ERROR {
            throw MediaError.cannotJoin(path: finalPath, reason: "closing the GIF failed (\(Self.message(error)))")
        }
        return MediaConcatenator.Result(format: .gif, frames: frames, duration: Double(centiseconds) / 100)
    }

    private func label(_ i: Int) -> String { MediaConcatenator.label(parts[i], i, parts.count) }

    private func open(_ i: Int) throws -> UnsafeMutablePointer<GifFileType> {
        var error: Int32 = 0
        if let refusal = InputFile.refusal(at: parts[i].path) { throw MediaError.cannotJoin(path: label(i), reason: refusal) }
        guard let gif = DGifOpenFileName(parts[i].path, &error) else {
            throw MediaError.cannotJoin(path: label(i), reason: "it cannot be read as a GIF (\(Self.message(error)))")
        }
        return gif
    }

    /// Screen size and the loop count of the looping extension before the first image.
    private func readFacts(_ i: Int) throws -> Facts {
        let gif = try open(i)
        defer { var e: Int32 = 0; _ = DGifCloseFile(gif, &e) }
        var facts = Facts(width: gif.pointee.SWidth, height: gif.pointee.SHeight, loops: nil)
        var record = UNDEFINED_RECORD_TYPE
        while DGifGetRecordType(gif, &record) != GIF_ERROR, record == EXTENSION_RECORD_TYPE {
            var code: Int32 = 0
            var block: UnsafeMutablePointer<GifByteType>?
            guard DGifGetExtension(gif, &code, &block) != GIF_ERROR else { break }
            var blocks: [[UInt8]] = []
            while let b = block {
                blocks.append(Array(UnsafeBufferPointer(start: b + 1, count: Int(b[0]))))
                guard DGifGetExtensionNext(gif, &block) != GIF_ERROR else { break }
            }
            if code == APPLICATION_EXT_FUNC_CODE, blocks.first == Array("NETSCAPE2.0".utf8),
               blocks.count > 1, blocks[1].count >= 3, blocks[1][0] == 1 {
                let repetitions = Int(blocks[1][1]) | Int(blocks[1][2]) << 8
                facts.loops = repetitions == 0 ? 0 : repetitions + 1
            }
        }
        return facts
    }

    private static func describe(_ loops: Int?) -> String {
        switch loops {
        case nil: "plays once"
        case 0: "loops forever"
        case let n?: "plays \(n) times"
        }
    }

    private static func message(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }
}
