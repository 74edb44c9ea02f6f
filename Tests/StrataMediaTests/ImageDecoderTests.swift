// Still-image decoding: PNG (RGBA, palette with transparency, grey 8 and 16 bit, RGBA 16 bit),
// JPEG (4:4:4 and 4:2:0) and WebP (lossless, lossy) into premultiplied RGBA8; errors that name
// the file; the image cache (one decode per file, a new one after the file changes, eviction);
// CGImage.load and UIImage. The fixtures are tiny files written by Pillow (an independent
// encoder), embedded as base64. Lossless formats are checked exactly against the pixels Pillow
// was given (premultiplied by hand: (c · a + 127) / 255); lossy ones against Pillow's own decode
// of the same file (libjpeg-turbo, libwebp) within 4 levels.
import Foundation
import XCTest
import StrataCore
import StrataMedia

private enum Fixture {
    /// 4×2 RGBA: (255,0,0,255) (0,255,0,128) (0,0,255,0) (255,255,255,64) /
    /// (10,20,30,255) (200,100,50,200) (128,128,128,255) (0,0,0,1).
    static let pngRGBA = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAYAAAB/qH1jAAAAKklEQVR4nAXBMQEAIAzEwHRlZq4IFCAGIS+vrsIdgkhA1Mva7bwzSQTqA/V7DZs3JVktAAAAAElFTkSuQmCC"
    /// 2×2 palette (red, blue, green) with tRNS alpha (255, 128, 0): red, blue@128 / green@0, red.
    static let pngPalette = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACAgMAAAAP2OW3AAAACVBMVEX/AAAAAP8A/wCHDR4IAAAAA3RSTlP/gAB/bWh4AAAADElEQVR42mMQYCoAAACoAIML5kQTAAAAAElFTkSuQmCC"
    /// 3×1 grey 0, 128, 255.
    static let pngGray = "iVBORw0KGgoAAAANSUhEUgAAAAMAAAABCAAAAAA+i0toAAAADElEQVR4nGNgaPgPAAIDAYAkYfWXAAAAAElFTkSuQmCC"
    /// 2×1 16-bit grey 0, 65535.
    static let pngGray16 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABEAAAAACB2fwVAAAADUlEQVR4nGNgYPj/HwADAgH/5ncLrgAAAABJRU5ErkJggg=="
    /// 2×1 16-bit RGBA: (65535, 0, 32768, 65535) (0, 65535, 0, 32768).
    static let pngRGBA16 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABEAYAAACksqPJAAAAEklEQVR4nGP4/5+BoYEBREJYAEPUBvuEvE16AAAAAElFTkSuQmCC"
    /// 16×16 in 8×8 quadrants (220,40,40) (40,200,60) / (30,60,220) (128,128,128), quality 95, 4:4:4.
    static let jpeg444 = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAQABADAREAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD53r8HP9aD6or4s/5gz886/wCgA/qQ+7K/yrP3A//Z"
    /// The same quadrants, quality 90, 4:2:0 (Pillow's default).
    static let jpeg420 = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAAQABADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDySvcK+Ta+na6OLPDf+wfYf7Xz8/N9i1rcv999zLjvNv8AiJv1b3Pq/wBX5+vtOb2nL5Qtbk8736W1/9k="
    /// 3×2 lossless WebP: (255,0,0,255) (0,255,0,128) (0,0,255,0) / (10,20,30,255) (200,100,50,200) (255,255,255,255).
    static let webpLossless = "UklGRkoAAABXRUJQVlA4TD0AAAAvAkAAEC9AkG1TiXndX+YaZNI27Vv/emZtZNI2rYfe8+9yBJI2az4W76keAOfn0GpuDQISMiWPfBHR/4gFAA=="
    /// The quadrants as lossy WebP, quality 95.
    static let webpLossy = "UklGRkYAAABXRUJQVlA4IDoAAABQAgCdASoQABAAAIAIJaACdLoB+AH6gf0AB5AA/vSc//+Q+//iQX/+gIf/4ckj24M//+/JCVLCGAAA"

    static func data(_ b64: String) -> Data { Data(base64Encoded: b64)! }
}

private typealias Pixel = (r: UInt8, g: UInt8, b: UInt8, a: UInt8)

final class ImageDecoderTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-image-tests-\(ProcessInfo.processInfo.processIdentifier)-\(name.filter { $0.isLetter })")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func write(_ b64: String, _ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Fixture.data(b64).write(to: url)
        return url
    }

    private func assertPixels(_ image: CGImage, _ expected: [Pixel], tolerance: Int = 0,
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(image.width * image.height, expected.count, "pixel count", file: file, line: line)
        for (i, e) in expected.enumerated() where i < image.width * image.height {
            let p = image.bitmap.pixel(x: i % image.width, y: i / image.width)
            let d = [Int(p.r) - Int(e.r), Int(p.g) - Int(e.g), Int(p.b) - Int(e.b), Int(p.a) - Int(e.a)].map(abs).max()!
            XCTAssertLessThanOrEqual(d, tolerance, "pixel \(i): \(p) vs \(e)", file: file, line: line)
        }
    }

    // MARK: Formats

    func testPNGWithAlphaIsPremultipliedExactly() throws {
        let image = try ImageDecoder().decode(contentsOf: write(Fixture.pngRGBA, "rgba.png"))
        XCTAssertEqual(image.width, 4)
        XCTAssertEqual(image.height, 2)
        // (0,255,0,128): 255·128 + 127 = 32767, / 255 → 128. (255,…,64): 16447 / 255 → 64.
        // (200,100,50,200): 40127/255 → 157, 20127/255 → 78, 10127/255 → 39.
        assertPixels(image, [(255, 0, 0, 255), (0, 128, 0, 128), (0, 0, 0, 0), (64, 64, 64, 64),
                             (10, 20, 30, 255), (157, 78, 39, 200), (128, 128, 128, 255), (0, 0, 0, 1)])
    }

    func testPNGPaletteGrayAndSixteenBit() throws {
        let decoder = ImageDecoder()
        assertPixels(try decoder.decode(Fixture.data(Fixture.pngPalette)),
                     [(255, 0, 0, 255), (0, 0, 128, 128), (0, 0, 0, 0), (255, 0, 0, 255)])
        assertPixels(try decoder.decode(Fixture.data(Fixture.pngGray)),
                     [(0, 0, 0, 255), (128, 128, 128, 255), (255, 255, 255, 255)])
        assertPixels(try decoder.decode(Fixture.data(Fixture.pngGray16)), [(0, 0, 0, 255), (255, 255, 255, 255)])
        // 16 → 8 bits: 32768 is 127.5 levels, either neighbour is right.
        assertPixels(try decoder.decode(Fixture.data(Fixture.pngRGBA16)), [(255, 0, 128, 255), (0, 128, 0, 128)], tolerance: 1)
    }

    func testJPEG() throws {
        let decoder = ImageDecoder()
        // Pillow's decode of the same files at the quadrant centres (3,3) (12,3) (3,12) (12,12).
        let cases: [(String, [Pixel])] = [
            (Fixture.jpeg444, [(220, 40, 41, 255), (39, 200, 60, 255), (30, 60, 220, 255), (128, 128, 128, 255)]),
            (Fixture.jpeg420, [(216, 44, 34, 255), (42, 198, 62, 255), (30, 58, 227, 255), (127, 129, 126, 255)]),
        ]
        for (b64, expected) in cases {
            let image = try decoder.decode(Fixture.data(b64))
            XCTAssertEqual(image.width, 16)
            XCTAssertEqual(image.height, 16)
            let samples = [(3, 3), (12, 3), (3, 12), (12, 12)].map { image.bitmap.pixel(x: $0.0, y: $0.1) }
            for (s, e) in zip(samples, expected) {
                XCTAssertEqual(s.a, 255)
                for (a, b) in [(s.r, e.r), (s.g, e.g), (s.b, e.b)] {
                    XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 4, "\(s) vs \(e)")
                }
            }
        }
    }

    func testWebP() throws {
        let decoder = ImageDecoder()
        let lossless = try decoder.decode(Fixture.data(Fixture.webpLossless))
        XCTAssertEqual(lossless.width, 3)
        assertPixels(lossless, [(255, 0, 0, 255), (0, 128, 0, 128), (0, 0, 0, 0),
                                (10, 20, 30, 255), (157, 78, 39, 200), (255, 255, 255, 255)])
        let lossy = try decoder.decode(Fixture.data(Fixture.webpLossy))
        XCTAssertEqual(lossy.width, 16)
        let expected: [Pixel] = [(220, 41, 40, 255), (40, 200, 60, 255), (30, 61, 221, 255), (128, 128, 128, 255)]
        for ((x, y), e) in zip([(3, 3), (12, 3), (3, 12), (12, 12)], expected) {
            let s = lossy.bitmap.pixel(x: x, y: y)
            XCTAssertEqual(s.a, 255)
            for (a, b) in [(s.r, e.r), (s.g, e.g), (s.b, e.b)] {
                XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 4, "(\(x), \(y)): \(s) vs \(e)")
            }
        }
    }

    func testFormatIsRecognisedBySignatureNotExtension() throws {
        // A JPEG named .png decodes as the JPEG it is.
        let image = try ImageDecoder().decode(contentsOf: write(Fixture.jpeg444, "actually-a-jpeg.png"))
        XCTAssertEqual(image.width, 16)
        XCTAssertEqual(ImageDecoder.format(ofFileStartingWith: Fixture.data(Fixture.webpLossy)), .webp)
        XCTAssertEqual(ImageDecoder.format(ofFileStartingWith: Fixture.data(Fixture.pngGray)), .png)
        XCTAssertNil(ImageDecoder.format(ofFileStartingWith: Array("GIF89a".utf8)))
        // A '%' in the name is not an image-sequence pattern.
        XCTAssertEqual(try ImageDecoder().decode(contentsOf: write(Fixture.pngGray, "100%d.png")).width, 3)
    }

    // MARK: Errors

    private func assertReadError(_ body: () throws -> Void, path: String, mentions words: [String],
                                 file: StaticString = #filePath, line: UInt = #line) {
        do {
            try body()
            XCTFail("no error", file: file, line: line)
        } catch let error as MediaError {
            let message = error.description
            XCTAssertTrue(message.contains(path), "\(message) should name \(path)", file: file, line: line)
            for w in words { XCTAssertTrue(message.contains(w), "\(message) should say \(w)", file: file, line: line) }
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
    }

    func testErrorsNameTheFile() throws {
        let decoder = ImageDecoder()
        let missing = directory.appendingPathComponent("missing.png")
        assertReadError({ _ = try decoder.decode(contentsOf: missing) }, path: missing.path, mentions: ["no such file"])
        assertReadError({ _ = try CGImage.load(contentsOf: missing) }, path: missing.path, mentions: ["no such file"])

        let text = directory.appendingPathComponent("notes.png")
        try "<!DOCTYPE html>".write(to: text, atomically: true, encoding: .utf8)
        assertReadError({ _ = try decoder.decode(contentsOf: text) }, path: text.path,
                        mentions: ["not a PNG, JPEG or WebP image", "3C 21 44 4F"])

        let truncated = directory.appendingPathComponent("truncated.png")
        try Fixture.data(Fixture.pngRGBA).prefix(40).write(to: truncated)
        assertReadError({ _ = try decoder.decode(contentsOf: truncated) }, path: truncated.path, mentions: ["corrupt PNG data"])

        let badJPEG = directory.appendingPathComponent("bad.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46]).write(to: badJPEG)
        assertReadError({ _ = try decoder.decode(contentsOf: badJPEG) }, path: badJPEG.path, mentions: ["corrupt JPEG data"])

        let empty = directory.appendingPathComponent("empty.webp")
        try Data().write(to: empty)
        assertReadError({ _ = try decoder.decode(contentsOf: empty) }, path: empty.path, mentions: ["empty"])

        assertReadError({ _ = try decoder.decode(contentsOf: self.directory) }, path: directory.path, mentions: ["directory"])

        let big = try write(Fixture.pngRGBA, "big.png")
        assertReadError({ _ = try ImageDecoder(maximumPixelSize: 3).decode(contentsOf: big) }, path: big.path,
                        mentions: ["4×2", "at most 3"])
    }

    /// A file whose header declares a huge image (a decompression bomb, or a small file with a
    /// forged size) is refused from the header, before anything is decoded: the message gives
    /// the declared size, which only the header knows.
    func testDeclaredSizesAreCheckedBeforeDecoding() throws {
        func make(_ name: String, _ extra: [String]) throws -> URL {
            let url = directory.appendingPathComponent(name)
            _ = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=37x23", "-frames:v", "1"]
                                         + extra + [url.path])
            return url
        }
        let small = ImageDecoder(maximumPixelSize: 30)
        for (name, extra) in [("a.png", []), ("a.jpg", []), ("lossy.webp", ["-c:v", "libwebp"]),
                              ("lossless.webp", ["-c:v", "libwebp", "-lossless", "1"]),
                              ("alpha.webp", ["-c:v", "libwebp", "-pix_fmt", "yuva420p"])] {
            let url = try make(name, extra)
            assertReadError({ _ = try small.decode(contentsOf: url) }, path: url.path, mentions: ["37×23 pixels", "at most 30 per side"])
            XCTAssertEqual(try ImageDecoder().decode(contentsOf: url).width, 37, name)
        }
        // Forged headers: the same small files declaring 40 000 × 30 000.
        func forge(_ name: String, _ patch: (inout [UInt8]) -> Void) throws -> URL {
            var bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            patch(&bytes)
            let url = directory.appendingPathComponent("forged-" + name)
            try Data(bytes).write(to: url)
            return url
        }
        let png = try forge("a.png") { b in
            b.replaceSubrange(16..<24, with: [0, 0, 0x9C, 0x40, 0, 0, 0x75, 0x30])  // IHDR width, height
        }
        let jpeg = try forge("a.jpg") { b in
            var i = 2
            while !(0xC0...0xC3).contains(b[i + 1]) { i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3])) }
            b.replaceSubrange(i + 5..<i + 9, with: [0x75, 0x30, 0x9C, 0x40])        // SOF height, width
        }
        let webp = try forge("lossless.webp") { b in
            // VP8L: 14 bits of width − 1 and height − 1 after the 0x2F signature byte.
            let v = UInt32(16383) | UInt32(16383) << 14 | (UInt32(b[24]) & 0xF0) << 24
            b.replaceSubrange(21..<25, with: [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)])
        }
        let decoder = ImageDecoder()
        assertReadError({ _ = try decoder.decode(contentsOf: png) }, path: png.path, mentions: ["40000×30000 pixels", "at most 16384"])
        assertReadError({ _ = try decoder.decode(contentsOf: jpeg) }, path: jpeg.path, mentions: ["40000×30000 pixels", "at most 16384"])
        assertReadError({ _ = try ImageDecoder(maximumPixelSize: 8000).decode(contentsOf: webp) }, path: webp.path,
                        mentions: ["16384×16384 pixels", "at most 8000"])
    }

    // MARK: Cache

    func testCacheDecodesEachFileOnce() throws {
        let cache = ImageCache()
        let url = try write(Fixture.pngRGBA, "logo.png")
        let a = try cache.image(contentsOf: url)
        let b = try cache.image(contentsOf: url)
        // The same file reached through another spelling of its path.
        let c = try cache.image(contentsOf: URL(fileURLWithPath: directory.path + "/./logo.png"))
        XCTAssertTrue(a === b)
        XCTAssertTrue(a === c)
        var stats = cache.statistics
        XCTAssertEqual(stats.decodes, 1)
        XCTAssertEqual(stats.hits, 2)
        XCTAssertEqual(stats.bytes, 4 * 2 * 4)

        // The file changes (new content, new modification date): decoded again.
        try Fixture.data(Fixture.pngGray).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: url.path)
        let d = try cache.image(contentsOf: url)
        XCTAssertFalse(d === a)
        XCTAssertEqual(d.width, 3)
        stats = cache.statistics
        XCTAssertEqual(stats.decodes, 2)
        XCTAssertTrue(try cache.image(contentsOf: url) === d)
    }

    func testCacheEvictsLeastRecentlyUsedBeyondCapacity() throws {
        // Room for 40 bytes: the 32-byte RGBA image and the 12-byte grey one do not fit together.
        let cache = ImageCache(capacity: 40)
        let rgba = try write(Fixture.pngRGBA, "a.png"), gray = try write(Fixture.pngGray, "b.png")
        let first = try cache.image(contentsOf: rgba)
        _ = try cache.image(contentsOf: gray)
        XCTAssertEqual(cache.statistics.images, 1)
        XCTAssertEqual(cache.statistics.bytes, 12)
        XCTAssertFalse(try cache.image(contentsOf: rgba) === first)
        XCTAssertEqual(cache.statistics.decodes, 3)
    }

    /// Two contexts sharing one cache: the looser one's decode is not handed to the stricter
    /// one, which refuses it with the decoder's words; the file is decoded once.
    func testAContextRefusesAnImageOverItsLimitEvenWhenCached() throws {
        let cache = ImageCache()
        let url = try write(Fixture.pngRGBA, "wide.png")  // 4×2
        let loose = MediaContext(limits: MediaLimits(), images: cache)
        let strict = MediaContext(limits: MediaLimits(imageSize: 3), images: cache)
        assertReadError({ _ = try strict.image(contentsOf: url) }, path: url.path, mentions: ["the image is 4×2 pixels; at most 3 per side is allowed"])
        XCTAssertEqual(try loose.image(contentsOf: url).width, 4)
        assertReadError({ _ = try strict.image(contentsOf: url) }, path: url.path, mentions: ["the image is 4×2 pixels; at most 3 per side is allowed"])
        XCTAssertEqual(cache.statistics.decodes, 1)
        // CGImage.load reads the context installed on its thread, and the defaults outside it.
        XCTAssertThrowsError(try strict.run { try CGImage.load(contentsOf: url) })
        XCTAssertEqual(try CGImage.load(contentsOf: url).width, 4)
        XCTAssertNil(MediaContext.current)
        XCTAssertEqual(try loose.run { try CGImage.load(contentsOf: url) }.width, 4)
    }

    func testSharedLoad() throws {
        let url = try write(Fixture.pngRGBA, "icon@2x.png")
        let a = try CGImage.load(contentsOf: url)
        XCTAssertTrue(try CGImage.load(contentsOfFile: url.path) === a)
        XCTAssertEqual(try CGImage.decode(Fixture.data(Fixture.pngGray)).width, 3)
    }
}
