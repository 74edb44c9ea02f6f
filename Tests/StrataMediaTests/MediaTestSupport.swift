// Shared helpers for the media tests: synthetic frames, a scratch directory, running the ffmpeg
// and ffprobe command-line tools (the independent oracle for what the encoders wrote) and PSNR.
import Foundation
import XCTest
import StrataMedia

enum MediaTestSupport {
    /// A 30 fps rate.
    static let fps30 = FrameRate(numerator: 30)!

    /// Frame `k` of the test animation: an RGB gradient with a yellow 64×64 square moving right
    /// and down. Opaque.
    static func movingSquare(frame k: Int, width: Int = 320, height: Int = 240) -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let squareX = 16 + 8 * k, squareY = 40 + 4 * k
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                if x >= squareX, x < squareX + 64, y >= squareY, y < squareY + 64 {
                    pixels[i] = 240; pixels[i + 1] = 200; pixels[i + 2] = 40
                } else {
                    pixels[i] = UInt8(x * 255 / (width - 1))
                    pixels[i + 1] = UInt8(y * 255 / (height - 1))
                    pixels[i + 2] = 96
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// A fresh empty directory for one test.
    static func scratchDirectory(_ name: String = #function) throws -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-media-tests-\(ProcessInfo.processInfo.processIdentifier)-\(safe)")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs a tool from PATH and returns its standard output; fails the test on a non-zero exit.
    static func run(_ tool: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting so a large output cannot fill the pipe and block the tool.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments.joined(separator: " ")) failed: \(errorText)",
                       file: file, line: line)
        return data
    }

    /// The first video stream as ffprobe reports it (`-show_streams -count_frames -of json`).
    static func ffprobeVideoStream(_ url: URL) throws -> [String: Any] {
        let data = try run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_streams", "-count_frames",
                                       "-of", "json", url.path])
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let streams = json?["streams"] as? [[String: Any]] ?? []
        guard let stream = streams.first else {
            XCTFail("ffprobe found no video stream in \(url.path)")
            return [:]
        }
        return stream
    }

    /// Frame `index` of a video decoded by the ffmpeg CLI to `pixelFormat` ("rgba", "rgb24").
    static func decodeFrame(_ url: URL, index: Int, pixelFormat: String = "rgba") throws -> [UInt8] {
        [UInt8](try run("ffmpeg", ["-v", "error", "-i", url.path, "-vf", "select=eq(n\\,\(index))",
                                   "-fps_mode", "passthrough", "-frames:v", "1",
                                   "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"]))
    }

    /// PSNR in dB over the R, G and B channels of two RGBA buffers of the same size.
    static func psnrRGB(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count && a.count % 4 == 0)
        var squared = 0.0
        var samples = 0
        for i in stride(from: 0, to: a.count, by: 4) {
            for c in 0..<3 {
                let d = Double(a[i + c]) - Double(b[i + c])
                squared += d * d
                samples += 1
            }
        }
        let mse = squared / Double(samples)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// The byte offset of an ASCII tag (e.g. a box type like "moov") in a file, or nil.
    static func offset(of tag: String, in data: Data) -> Int? {
        data.range(of: Data(tag.utf8)).map { $0.lowerBound - data.startIndex }
    }
}
