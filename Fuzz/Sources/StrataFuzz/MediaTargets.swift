// Targets for the media decoders and the GIF encoder.
import Foundation
@testable import StrataMedia
import StrataCore

enum FuzzImage {
    /// Images up to 2048 px a side: the default bound (16 384) is a resource limit that lets a
    /// legitimate image take 1 GiB, beyond libFuzzer's memory limit; what is fuzzed is that the
    /// bound holds, whatever it is.
    static let decoder = ImageDecoder(maximumPixelSize: 2048)

    static func run(_ data: Data) {
        for format in ImageDecoder.Format.allCases { _ = ImageDecoder.declaredSize(data, format: format) }
        if let image = try? decoder.decode(data, name: "fuzz") {
            precondition(image.width > 0 && image.height > 0 && image.width <= 2048 && image.height <= 2048)
        }
    }
}

enum FuzzMedia {
    static func run(_ data: Data) {
        let url = Scratch.file("input", data)
        if let probe = try? MediaProbe(url: url) { _ = probe.description }
        if let source = try? FFmpegVideoSource(url: url, configuration: .init(lookahead: 2, keepBehind: 1)),
           source.hasVideo, source.frameCount > 0 {
            let last = source.frameCount - 1
            _ = source.frameIndex(atItemTime: source.duration / 2)
            for (index, size) in [(0, PixelSize(width: 16, height: 9)), (last, PixelSize(width: 7, height: 33)),
                                  (last / 2, PixelSize(width: 16, height: 9)), (1, PixelSize(width: 16, height: 9))] {
                _ = try? source.image(forFrame: index, size: size)
            }
            // The natural size (rotation and aspect ratio applied) when it is modest.
            let natural = source.naturalSize
            if natural.width * natural.height <= 1 << 20 { _ = try? source.image(forFrame: 0, size: nil) }
        }
        if let audio = try? AudioDecoder(url: url, sampleRate: 8000, channels: 2) {
            var samples = [Float](repeating: 0, count: 2 * 1024)
            samples.withUnsafeMutableBufferPointer { buffer in
                _ = try? audio.read(into: buffer, frames: 1024)
                if (try? audio.start(at: audio.duration / 2, rate: 1.5)) != nil {
                    _ = try? audio.read(into: buffer, offset: 512, frames: 512)
                }
            }
        }
    }
}

enum FuzzGIF {
    static func run(_ data: Data) {
        var r = ByteReader(data)
        var options = GIFEncoderOptions(loopCount: r.int(),
                                        dithering: GIFEncoderOptions.Dithering.allCases[r.pick(3)],
                                        palette: GIFEncoderOptions.Palette.allCases[r.pick(3)],
                                        maxColors: r.int(), preservesTransparency: r.bool(),
                                        goal: GIFEncoderOptions.Goal.allCases[r.pick(2)])
        options.quantizationSpace = GIFEncoderOptions.QuantizationSpace.allCases[r.pick(2)]
        options.everyNthFrame = r.int()
        if r.bool() { options.frameRate = FrameRate(numerator: r.int(), denominator: r.int()) }
        if r.bool() { options.temporalTolerance = r.int() }
        if r.bool() { options.keyframeInterval = r.int() }
        let width = r.pick(24) + (r.bool() ? 0 : -1), height = r.pick(24)
        let rate = FrameRate(numerator: r.int(), denominator: r.int()) ?? FrameRate(numerator: 30)!
        let first = r.bool() ? r.int() : 0
        let frames = r.pick(6)
        let pixels = r.rest()
        let url = Scratch.file("out.gif", Data())
        guard let encoder = try? GIFEncoder(url: url, width: width, height: height, frameRate: rate,
                                            options: options, firstFrameIndex: first) else { return }
        // Frames cut from the remaining bytes (repeated to fill a frame; grey when there are none).
        let count = width * height * 4
        for k in 0..<frames {
            var frame = [UInt8](repeating: 128, count: count)
            if !pixels.isEmpty { for i in 0..<count { frame[i] = pixels[(i + k * 7) % pixels.count] } }
            try? encoder.append(Bitmap(width: width, height: height, pixels: frame))
        }
        if r.bool() { try? encoder.append(Bitmap(width: width + 1, height: height)) }
        try? encoder.finish()
    }
}
