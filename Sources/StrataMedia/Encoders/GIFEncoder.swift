// The GIF encoder stage: premultiplied RGBA frames in, an animated GIF89a out, written with
// giflib. Each frame is quantised (PaletteBuilder, PaletteMapper) to a local palette, to one
// global palette built from all frames, or (automatic, the default) to the global palette when it
// renders the frame closely and a local one otherwise. Only the rectangle that changed since the
// previous frame is re-encoded (disposal "do not dispose"), pixels inside it that did not change
// are written as transparent so the previous frame shows through, and an unchanged frame makes
// the frame before it last longer (its delay is patched while its bytes are still held, see
// `GIFByteBuffer`; a 1×1 transparent pixel carries the delay where the 16-bit field is full):
// static regions cost nothing and do not flicker. A pixel whose new palette colour is the one
// already on screen is made transparent too. Image data is LZW-coded by `GIFLZWEncoder` (giflib
// writes the blocks around it): up to three codings a frame — as mapped, with those holes, with
// holes that may take their colour where that continues a string — the smallest kept; each at
// the smallest code size its indices need (the frame's transparent index is the lowest one it
// does not show, and flat palettes put the colours that change most first; a flat palette's
// frames that it renders poorly, as SSIM's luminance term sees it, map onto the whole table, the
// flat palette followed by the full palette's other colours), its LZW table kept
// when full (a deferred clear) or cleared, whichever is smaller. Temporal stability: a pixel counts as
// unchanged when its colour is within `temporalTolerance` levels of the colour it had when it was last written, so the small
// frame-to-frame variations of lossy or noisy sources neither shimmer nor cost bytes (the
// comparison is against the last written colour, not the previous frame, so slow drifts are
// caught once they exceed the tolerance); gradient content mapped undithered onto the interval's
// palette is instead held against what the screen shows (`heldAgainstDisplay`), so its error
// cannot build up at all. Frames may be dropped for a lower output rate
// (`everyNthFrame`, `frameRate`). Frame k lasts round(100·(k+1)/fps) − round(100·k/fps)
// centiseconds at the output rate, so the delays add up to the duration exactly, to the
// centisecond; k counts from `firstFrameIndex`, the number of the first frame when the file is a
// chunk of a longer animation. With `keyframeInterval`, the encoder starts afresh at frame numbers
// that are multiples of it (full frame, own palette statistics), so chunks that start there, joined,
// equal a whole render byte for byte. Browsers stretch 0–1 cs delays to about 10 cs, so rates above 50 fps play slowly
// there. The output depends only on the frames and options.
//
// Measured against FFmpeg's palettegen/paletteuse + gifsicle on documentation GIFs and terminal
// tapes (Benchmarks/doc-gifs.sh, Benchmarks/terminal-gifs.sh; docs/performance.md,
// docs/terminal-gifs.md): fewer bytes in less time everywhere, SSIM above the peer's on the
// tapes, the demo and the title card, below it on flat motion graphics whose source has only a
// few hundred colours (the peer's full 255-colour palette covers them exactly).
import Foundation
import StrataCore
import Glibc
import CGif
import Synchronization
import CStrataGIF

// @unchecked: the giflib handle, spool and frame state are used only while `lock` is held.
/// Writes `Bitmap` frames to an animated GIF with giflib.
///
/// Calls are serialised by an internal lock, so an encoder may be handed to another thread; a
/// file whose encoder is released without `finish()` is closed where it stopped.
public final class GIFEncoder: @unchecked Sendable {
    /// The file being written.
    public let url: URL
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// The exact frame rate the delays are derived from.
    public let frameRate: FrameRate
    /// The options the encoder was created with.
    public let options: GIFEncoderOptions
    /// The number (at the output rate) of the file's first frame in the whole animation it is a
    /// chunk of; 0 for a whole animation.
    public let firstFrameIndex: Int

    /// The number of frames appended so far.
    public var frameCount: Int { lock.withCheckedLock { _ in appended } }

    /// The delay of frame `index` in centiseconds at `frameRate`:
    /// round(100·(index+1)/fps) − round(100·index/fps).
    public static func delay(ofFrame index: Int, frameRate: FrameRate) -> Int {
        centiseconds(before: index + 1, frameRate) - centiseconds(before: index, frameRate)
    }

    private let path: String
    /// Held by every public method: the encoder's mutable state is touched only under it.
    private let lock = Mutex(())
    private var gif: UnsafeMutablePointer<GifFileType>?
    /// What giflib writes, held until the next frame starts (see `GIFByteBuffer`).
    private var output: GIFByteBuffer?
    /// The last written frame while its bytes are still held: where its delay is in the buffer,
    /// and the delay. An unchanged frame after it lengthens it instead of adding a frame.
    private var lastFrameDelay: (offset: Int, centiseconds: Int)?
    private var appended = 0
    private var written = 0
    private var isOpen = false
    /// The source colours of the pixels as last written (what the canvas stands for).
    private var reference: [UInt8]?
    /// Per pixel: unchanged since last written (within the tolerance).
    private var unchangedMask: [Bool] = []
    /// The rate the delays are computed at (the input rate, reduced by the options).
    private let outputRate: FrameRate
    /// Frames kept for output so far (spooled or written).
    private var kept = 0
    /// The temporal tolerance in use (see `GIFEncoderOptions.temporalTolerance`).
    private var tolerance: Int
    /// The histogram of local palettes, reused from frame to frame.
    private var scratchStatistics = ColorStatistics()
    /// The last local palette's mapper, whose buffers the next one reuses.
    private var recycledMapper: PaletteMapper?
    // Global palette mode: statistics of every frame and the spooled frames.
    private var statistics: ColorStatistics?
    /// The spooled frames: a temporary file opened for reading and writing, its name removed.
    private var spool: FileHandle?
    /// Frames in the spool (the current keyframe interval's).
    private var spooled = 0
    /// The interval's first spooled frames, kept in memory (at most `spoolMemoryLimit` bytes)
    /// rather than written to the spool file: the later ones, once they would pass the limit,
    /// go to the file. (Writing raw 1080p frames to the file was about a sixth of a Lottie GIF's
    /// time, the kernel copying them into the page cache.)
    private var heldFrames: [[UInt8]] = []
    private var heldBytes = 0
    /// The interval's frames in the spool file, after the held ones.
    private var fileSpooled = 0
    /// Whether the screen descriptor (and the global palette, if any) has been written.
    private var headerWritten = false
    /// Whether the interval's palette is a smaller one for flat graphics (see
    /// `flatGraphicsPalette`): every frame of the interval then uses it.
    private var intervalIsFlat = false
    /// The colour each pixel shows (packed RGB; UInt32.max: nothing yet), while frames are
    /// differenced.
    private var displayed: [UInt32] = []
    /// Flat graphics, the spooled interval: pixels that changed from one frame to the next, by
    /// exact colour (see `orderedByUse`), and the last frame spooled.
    private var changeCounts: [UInt32: Int] = [:]
    private var previousSpooled: [UInt8]?
    /// Flat graphics, the spooled interval: each frame's changed pixels by exact colour (as
    /// `changeCounts`, frame by frame), for `framesBeyondFlatPalette`.
    private var frameChanges: [[UInt32: Int]] = []
    /// Per pixel, `heldAgainstDisplay`'s last question and answer for the interval's palette:
    /// source colour (bits 32–55), colour shown (bits 0–31), held (bit 63); emptied when a new
    /// interval's palette is built.
    private var heldAnswers: [UInt64] = []
    /// The LZW coders of a frame's candidate codings, one a candidate (each has its own table).
    private var coders: [LZWCoding] = []

    /// Creates `url` for a `width`×`height` GIF at `frameRate`. Throws `MediaError` when the file
    /// cannot be created or a size or option is out of range.
    /// `firstFrameIndex` makes the file a chunk of a longer animation that starts at that output
    /// frame (delays and keyframe intervals follow the whole animation's frame numbers).
    public init(url: URL, width: Int, height: Int, frameRate: FrameRate,
                options: GIFEncoderOptions = GIFEncoderOptions(), firstFrameIndex: Int = 0) throws {
        self.url = url
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.options = options
        self.firstFrameIndex = firstFrameIndex
        self.path = url.path
        self.tolerance = options.resolvedTemporalTolerance
        guard options.everyNthFrame >= 1 else {
            throw MediaError.invalidOption(path: path, reason: "everyNthFrame \(options.everyNthFrame) must be at least 1")
        }
        try Self.checkRate(frameRate, "frame rate", path: path)
        if let target = options.frameRate { try Self.checkRate(target, "GIF frame rate", path: path) }
        if let target = options.frameRate, target.framesPerSecond < frameRate.framesPerSecond {
            outputRate = target
        } else if options.everyNthFrame > 1 {
            // (Checked before multiplying: a huge n would overflow the denominator.)
            let (denominator, overflow) = frameRate.denominator.multipliedReportingOverflow(by: options.everyNthFrame)
            guard !overflow, let reduced = FrameRate(numerator: frameRate.numerator, denominator: denominator),
                  Self.fitsDelayField(reduced) else {
                throw MediaError.invalidOption(path: path, reason: "everyNthFrame \(options.everyNthFrame) at \(frameRate) fps makes "
                                               + "frames longer than a GIF frame can last (655.35 s)")
            }
            outputRate = reduced
        } else {
            outputRate = frameRate
        }
        guard width > 0, height > 0, width <= 65_535, height <= 65_535 else {
            throw MediaError.invalidFrameSize(path: path, reason: "size \(width)×\(height) must be within 1...65535 per side for GIF")
        }
        guard (2...256).contains(options.maxColors) else {
            throw MediaError.invalidOption(path: path, reason: "maxColors \(options.maxColors) is outside 2...256")
        }
        if let strength = options.ditherStrength, !(strength.isFinite && (0...1).contains(strength)) {
            throw MediaError.invalidOption(path: path, reason: "dither strength \(strength) is outside 0...1")
        }
        guard (0...65_536).contains(options.loopCount) else {
            throw MediaError.invalidOption(path: path, reason: "loop count \(options.loopCount) is outside 0...65536")
        }
        guard (0...Self.maximumFrameIndex).contains(firstFrameIndex) else {
            throw MediaError.invalidOption(path: path, reason: "first frame index \(firstFrameIndex) is outside 0...\(Self.maximumFrameIndex)")
        }
        if let interval = options.keyframeInterval, interval < 1 {
            throw MediaError.invalidOption(path: path, reason: "keyframe interval \(interval) must be at least 1")
        }
        // Opened here rather than by EGifOpenFileName, which creates files readable by the owner only.
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        guard descriptor >= 0 else {
            throw MediaError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        var error: Int32 = 0
        let output = GIFByteBuffer(descriptor: descriptor)
        guard let gif = EGifOpen(Unmanaged.passUnretained(output).toOpaque(), { gif, bytes, count in
            guard let gif, let user = gif.pointee.UserData, let bytes, count > 0 else { return 0 }
            Unmanaged<GIFByteBuffer>.fromOpaque(user).takeUnretainedValue().append(bytes, count: Int(count))
            return count
        }, &error) else {
            Glibc.close(descriptor)
            if OutputDestination.isFile(path) { try? FileManager.default.removeItem(atPath: path) }
            throw MediaError.cannotWrite(path: path, reason: Self.giflibMessage(error))
        }
        self.output = output
        self.gif = gif
        EGifSetGifVersion(gif, true)
        do {
            if options.palette != .perFrame {
                statistics = ColorStatistics()
                let spoolURL = FileManager.default.temporaryDirectory
                    .appendingPathComponent("strata-gif-\(UUID().uuidString).rgba")
                let handle = FileManager.default.createFile(atPath: spoolURL.path, contents: nil)
                    ? FileHandle(forUpdatingAtPath: spoolURL.path) : nil
                // Its name goes at once: the open handle keeps the file, and a process that dies
                // (killed, crashed) leaves nothing in the temporary folder.
                unlink(spoolURL.path)
                guard let handle else {
                    throw MediaError.cannotWrite(path: spoolURL.path, reason: "cannot create the frame spool for \(path)")
                }
                spool = handle
            } else {
                try writeHeader(globalPalette: nil)
            }
        } catch {
            close(removingFile: true)
            throw error
        }
        isOpen = true
    }

    deinit {
        close(removingFile: false)
    }

    /// Adds one frame; its size must be the encoder's size.
    public func append(_ frame: Bitmap) throws {
        try lock.withCheckedLock { _ in
            try MediaError.checkAppend(to: path, isOpen: isOpen, frameIndex: appended, width: frame.width, height: frame.height,
                                       expectedWidth: width, expectedHeight: height)
            defer { appended += 1 }
            guard keeps(frameAt: appended) else { return }
            do {
                if kept > 0, let interval = options.keyframeInterval, (firstFrameIndex + kept) % interval == 0 {
                    try startInterval()
                }
                kept += 1
                if let spool {
                    frame.pixels.withUnsafeBufferPointer { pixels in
                        if options.preservesTransparency {
                            let region = FrameRegion(pixels: pixels, stride: width, x: 0, y: 0, width: width, height: height,
                                                     keepTransparency: true)
                            statistics!.add(region)
                        } else {
                            // Straight from the frame: no region copied out of it (the same statistics).
                            statistics!.add(rgba: pixels)
                        }
                    }
                    countChanges(frame.pixels)
                    if fileSpooled == 0 && heldBytes + frame.pixels.count <= options.spoolMemoryLimit {
                        heldFrames.append(frame.pixels)
                        heldBytes += frame.pixels.count
                    } else {
                        try spool.write(contentsOf: frame.pixels)
                        fileSpooled += 1
                    }
                    spooled += 1
                } else {
                    try encode(frame.pixels, with: nil)
                }
            } catch {
                isOpen = false
                throw Self.wrap(error, path: path, operation: "writing frame \(appended)")
            }
        }
    }

    /// Writes any spooled frames and the trailer, and closes the file.
    public func finish() throws {
        try lock.withCheckedLock { _ in
            guard isOpen else { throw MediaError.alreadyFinished(path: path) }
            isOpen = false
            guard appended > 0 else {
                close(removingFile: true)
                throw MediaError.noFrames(path: path)
            }
            do {
                try flushSpool()
            } catch {
                close(removingFile: false)
                throw Self.wrap(error, path: path, operation: "writing frames")
            }
            var error: Int32 = 0
            let status = EGifCloseFile(gif, &error)
            gif = nil
            let flushFailure = output?.flush()
            close(removingFile: false)
            if status == GIF_ERROR {
                throw MediaError.libraryFailure(path: path, operation: "closing the GIF (EGifCloseFile)", reason: Self.giflibMessage(error))
            }
            if let flushFailure { throw MediaError.cannotWrite(path: path, reason: flushFailure) }
        }
    }

    // MARK: - Writing

    /// A new keyframe interval: writes the last interval's spooled frames, then forgets the
    /// reference so the next frame is written whole.
    private func startInterval() throws {
        try flushSpool()
        if statistics != nil {
            statistics = ColorStatistics()
            changeCounts = [:]
            frameChanges = []
            previousSpooled = nil
            try spool?.truncate(atOffset: 0)
        }
        reference = nil
        tolerance = options.resolvedTemporalTolerance
    }

    /// Global or automatic palettes: builds the palette of the spooled frames (the interval's),
    /// writes the header with it as the global palette the first time (as a local palette of
    /// each frame that uses it afterwards), and encodes the spooled frames.
    private func flushSpool() throws {
        guard let spool, let statistics, spooled > 0 else { return }
        // One slot stays free for transparency (kept alpha, or unchanged pixels).
        var colors = PaletteBuilder.palette(from: statistics, maxColors: options.resolvedMaxColors - 1,
                                            exactUpTo: options.maxColors - 1, space: options.quantizationSpace)
        intervalIsFlat = false
        // Flat graphics: frames the smaller palette renders poorly (see `framesBeyondFlatPalette`)
        // map onto the whole table, the smaller palette followed by the full palette's other
        // colours; the others onto the smaller palette, its first entries.
        var flatMapper: PaletteMapper?
        var beyondFlat: [Bool] = []
        if let smaller = flatGraphicsPalette(statistics, full: colors) {
            let flat = Self.orderedByUse(smaller, statistics, changes: changeCounts, space: options.quantizationSpace)
            intervalIsFlat = true
            beyondFlat = framesBeyondFlatPalette(flat)
            if beyondFlat.contains(true) {
                let others = Self.farthest(from: flat, among: colors, count: options.resolvedMaxColors - 1 - flat.count)
                colors = flat + Self.orderedByUse(others, statistics, changes: changeCounts, space: options.quantizationSpace)
                flatMapper = PaletteMapper(colors: flat, isExact: false, space: options.quantizationSpace)
            } else {
                colors = flat
            }
        } else {
            colors = Self.orderedByUse(colors, statistics, changes: changeCounts, space: options.quantizationSpace)
        }
        frameChanges = []
        let mapper = PaletteMapper(colors: colors, isExact: isExact(statistics, colors), space: options.quantizationSpace)
        heldAnswers = []
        // Flat graphics (few distinct colours over the whole animation) have no noise
        // to tolerate: every change is real (measured on the flat UI clip: SSIM
        // 0.999998 exact vs 0.999964 with a tolerance of 2, for 0.8 % more bytes).
        if options.temporalTolerance == nil, options.goal == .quality, statistics.exactCounts != nil { tolerance = 0 }
        let isGlobal = !headerWritten
        if !headerWritten { try writeHeader(globalPalette: mapper.colors) }
        // The held frames first, then those in the file, in the order they came.
        let held = heldFrames
        heldFrames = []
        heldBytes = 0
        // The frame's palette: the whole table, or only the smaller flat palette at its start.
        var frame = 0
        func subset() -> PaletteMapper? {
            defer { frame += 1 }
            return frame < beyondFlat.count && beyondFlat[frame] ? nil : flatMapper
        }
        for pixels in held { try encode(pixels, with: mapper, subset: subset(), paletteIsGlobal: isGlobal) }
        if fileSpooled > 0 {
            // Each frame read straight into one buffer (positioned reads; the handle's offset, at
            // the end for the next writes, stays where it is): reading into fresh `Data` and
            // copying it into a fresh array was two 8 MB allocations a 1080p frame, a fifth of a
            // GIF export's page faults (perf, gears.json at 1080p).
            let frameBytes = width * height * 4, descriptor = spool.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: frameBytes)
            for k in 0..<fileSpooled {
                let read = buffer.withUnsafeMutableBytes { raw -> Int in
                    var done = 0
                    while done < frameBytes {
                        let n = pread(descriptor, raw.baseAddress! + done, frameBytes - done, off_t(k * frameBytes + done))
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { break }
                        done += n
                    }
                    return done
                }
                guard read == frameBytes else {
                    throw MediaError.libraryFailure(path: path, operation: "reading the frame spool", reason: "it ended early")
                }
                try encode(buffer, with: mapper, subset: subset(), paletteIsGlobal: isGlobal)
            }
        }
        spooled = 0
        fileSpooled = 0
    }

    /// Flat graphics (at most 4096 distinct colours over the interval: text, UI, terminals) with
    /// more colours than a palette holds: most are antialiasing shades between a few flat
    /// colours, and a smaller palette renders them as well. The smallest of
    /// `flatPaletteSizes` whose pixel-weighted root-mean-square error over the interval's exact
    /// colours is at most `flatPaletteTolerance` levels, and over the pixels that changed from
    /// frame to frame at most `flatPaletteChangeTolerance`, used for the interval's frames it
    /// renders closely (`framesBeyondFlatPalette`: the others map onto the whole table, this
    /// palette followed by the full one's other colours); nil when none is smaller than `full` or the options
    /// ask for something else (a size goal, a global or per-frame palette, a set tolerance).
    private func flatGraphicsPalette(_ statistics: ColorStatistics, full: [RGB8]) -> [RGB8]? {
        guard options.goal == .quality, options.palette == .automatic,
              let counts = statistics.exactCounts, counts.count > full.count else { return nil }
        for size in Self.flatPaletteSizes where size < full.count {
            let colors = PaletteBuilder.palette(from: statistics, maxColors: size, space: options.quantizationSpace)
            let mapper = PaletteMapper(colors: colors, isExact: false, space: options.quantizationSpace)
            func rms(_ weights: [UInt32: Int]) -> Double {
                var squared = 0.0, pixels = 0.0
                for (packed, count) in weights {
                    let r = Float(packed >> 16), g = Float((packed >> 8) & 0xFF), b = Float(packed & 0xFF)
                    let c = colors[mapper.nearest(r, g, b)]
                    let dr = r - Float(c.r), dg = g - Float(c.g), db = b - Float(c.b)
                    squared += Double(dr * dr + dg * dg + db * db) * Double(count)
                    pixels += Double(count)
                }
                return pixels > 0 ? (squared / (3 * pixels)).squareRoot() : 0
            }
            if rms(counts) <= Self.flatPaletteTolerance && rms(changeCounts) <= Self.flatPaletteChangeTolerance { return colors }
        }
        return nil
    }

    /// Flat graphics: for each spooled frame of the interval, whether the smaller `flat` palette
    /// renders its changed pixels (`frameChanges`) with a loss SSIM would see: the loss of SSIM's
    /// luminance term, Σ (s − q)² / (s² + q² + C1) over each changed pixel's channels (s the
    /// source, q the nearest flat colour, C1 = (0.01 · 255)²), over all the frame's pixels,
    /// above `flatLuminanceLossTolerance`. A few levels off near black weigh as much there as
    /// many levels off in bright areas: the lower third's fade-in and fade-out frames, a plate
    /// a few levels above black, scored SSIM 0.976 on a 48-colour palette (0.99994 on 255).
    private func framesBeyondFlatPalette(_ flat: [RGB8]) -> [Bool] {
        let mapper = PaletteMapper(colors: flat, isExact: false, space: options.quantizationSpace)
        var lossOf: [UInt32: Double] = [:]
        func loss(_ packed: UInt32) -> Double {
            if let known = lossOf[packed] { return known }
            let source = RGB8(r: UInt8(packed >> 16), g: UInt8((packed >> 8) & 0xFF), b: UInt8(packed & 0xFF))
            let shown = flat[mapper.exactPaletteIndex(source.r, source.g, source.b)
                             ?? mapper.nearest(Float(source.r), Float(source.g), Float(source.b))]
            let sum = Self.luminanceLoss(source, shown)
            lossOf[packed] = sum
            return sum
        }
        let pixels = Double(3 * width * height)
        return frameChanges.map { changes in
            // In colour order, so that the sum does not depend on the dictionary's order.
            changes.keys.sorted().reduce(0.0) { $0 + loss($1) * Double(changes[$1]!) } / pixels > Self.flatLuminanceLossTolerance
        }
    }

    /// The `count` colours of `candidates` farthest from `palette` as SSIM's luminance term sees
    /// it (`luminanceLoss` to their nearest colour there), those in it left out; ties in
    /// `candidates`' order.
    static func farthest(from palette: [RGB8], among candidates: [RGB8], count: Int) -> [RGB8] {
        let scored = candidates.enumerated().compactMap { (i, c) -> (distance: Double, index: Int)? in
            let d = palette.map { luminanceLoss(c, $0) }.min() ?? .infinity
            return d == 0 ? nil : (d, i)
        }
        return scored.sorted { $0.distance != $1.distance ? $0.distance > $1.distance : $0.index < $1.index }
            .prefix(max(0, count)).map { candidates[$0.index] }
    }

    /// The loss of SSIM's luminance term between colours `a` and `b`, summed over the channels:
    /// (a − b)² / (a² + b² + C1), C1 = (0.01 · 255)².
    static func luminanceLoss(_ a: RGB8, _ b: RGB8) -> Double {
        func term(_ x: UInt8, _ y: UInt8) -> Double {
            let x = Double(x), y = Double(y)
            return (x - y) * (x - y) / (x * x + y * y + 6.5025)
        }
        return term(a.r, b.r) + term(a.g, b.g) + term(a.b, b.b)
    }

    /// The luminance loss (per channel of every pixel of the frame) above which a frame of flat
    /// graphics maps onto the whole table rather than the smaller palette. Measured on the lower
    /// third (Benchmarks/doc-gifs.sh, release build; before: 78 966 B at SSIM 0.999247, every
    /// frame on 48 colours; those frames still diffused): 1e-2 → 80 150 B at 0.999566, 1e-3 →
    /// 81 273 B at 0.999931, 3e-4 → 84 712 B at 0.999968, 1e-4 → 89 895 B at 0.999982, 3e-5 →
    /// 92 561 B at 0.999984; undiffused (now the default), 3e-4 → 80 817 B at 0.999972. The
    /// example tapes keep their bytes down to 3e-4 (at 1e-4 git-graph takes 46 B more for less
    /// SSIM); the countdown has no frame above 3e-5 (its small changes, over the whole frame).
    static let flatLuminanceLossTolerance = 3e-4

    /// Flat graphics: `colors` with the most written first — pixels that changed from frame to
    /// frame and map to each (`changes`), then pixels of the interval's frames — so that a frame
    /// showing only common colours (a typed character and the cursor) has small indices and a
    /// small LZW code size; unchanged when the statistics hold no exact colours. Ties keep the
    /// palette's order. Measured on the example tapes: 1–4 % fewer bytes.
    static func orderedByUse(_ colors: [RGB8], _ statistics: ColorStatistics, changes: [UInt32: Int],
                             space: GIFEncoderOptions.QuantizationSpace) -> [RGB8] {
        guard let counts = statistics.exactCounts, colors.count > 1 else { return colors }
        let mapper = PaletteMapper(colors: colors, isExact: false, space: space)
        func index(_ packed: UInt32) -> Int {
            let r = UInt8(packed >> 16), g = UInt8((packed >> 8) & 0xFF), b = UInt8(packed & 0xFF)
            return mapper.exactPaletteIndex(r, g, b) ?? mapper.nearest(Float(r), Float(g), Float(b))
        }
        var changed = [Int](repeating: 0, count: colors.count), shown = changed
        for (packed, count) in changes { changed[index(packed)] += count }
        for (packed, count) in counts { shown[index(packed)] += count }
        let order = colors.indices.sorted {
            changed[$0] != changed[$1] ? changed[$0] > changed[$1] : shown[$0] != shown[$1] ? shown[$0] > shown[$1] : $0 < $1
        }
        return order.map { colors[$0] }
    }

    /// Counts, by exact colour, the pixels of `pixels` that differ from the frame spooled before
    /// (the first frame counts whole), while the interval is flat graphics.
    private func countChanges(_ pixels: [UInt8]) {
        defer { previousSpooled = pixels }
        guard statistics?.exactCounts != nil else { changeCounts = [:]; frameChanges = []; return }
        var counts: [UInt32: Int] = [:]
        // Runs of one colour counted at once (a dictionary update a run, not a pixel), found by
        // C's loop (`strata_gif_changed_runs`, eight pixels at a time with AVX2 while all eight
        // are unchanged or go on the run) in batches: the same counts. Packed RGB from the
        // little-endian RGBA word.
        let capacity = 4096, n = pixels.count / 4
        var runColors = [UInt32](repeating: 0, count: capacity), runLengths = [Int](repeating: 0, count: capacity)
        var pendingColor = UInt32.max, pendingLength = 0, p = 0
        let previous = previousSpooled.flatMap { $0.count == pixels.count ? $0 : nil }
        repeat {
            var runCount = 0
            p = pixels.withUnsafeBytes { raw in
                runColors.withUnsafeMutableBufferPointer { colors in
                    runLengths.withUnsafeMutableBufferPointer { lengths in
                        let current = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                        if let previous {
                            return previous.withUnsafeBytes { old in
                                strata_gif_changed_runs(current, old.baseAddress!.assumingMemoryBound(to: UInt32.self), p, n,
                                                        &pendingColor, &pendingLength, colors.baseAddress!, lengths.baseAddress!,
                                                        capacity, &runCount, 1)
                            }
                        }
                        return strata_gif_changed_runs(current, nil, p, n, &pendingColor, &pendingLength, colors.baseAddress!,
                                                       lengths.baseAddress!, capacity, &runCount, 1)
                    }
                }
            }
            for i in 0..<runCount { counts[runColors[i], default: 0] += runLengths[i] }
        } while p < n
        if pendingLength > 0 { counts[pendingColor, default: 0] += pendingLength }
        changeCounts.merge(counts, uniquingKeysWith: +)
        frameChanges.append(counts)
    }

    /// The palette sizes `flatGraphicsPalette` tries, smallest first.
    static let flatPaletteSizes = [16, 24, 32, 48, 64, 96, 128, 192]
    /// Root-mean-square error, in levels per channel, that a smaller palette for flat graphics
    /// may add. Measured on the example tapes (Benchmarks/terminal-gifs.sh): 0.8 picks 48
    /// colours for each of them, at SSIM 0.9996–0.9997 against the lossless frames, above the
    /// palettegen + gifsicle -O3 peer's 0.9992–0.9995; 1.0 would pick 32 for git-graph, below it.
    static let flatPaletteTolerance = 0.8
    /// The same error over the pixels that changed from frame to frame (each counted in every
    /// frame it changed in). Weighted by all pixels alone, a still background hides the colours
    /// of what moves: the lower-third template's fading panel took a 32-colour palette (RMS 0.8
    /// over all pixels) and was drawn up to 93 levels off (33 195 pixels over 12 levels in its
    /// 150 frames at 640 px). Measured (Benchmarks/doc-gifs.sh, terminal-gifs.sh): at 1.5 the
    /// lower third takes 48 colours, at most 28 levels off (1 842 pixels over 12), SSIM
    /// 0.998658 → 0.999247 for 64 513 → 78 966 B; the countdown 0.999767 → 0.999939, 92 472 →
    /// 126 510 B; the example tapes keep their palettes and bytes. At 0.8 the lower third takes
    /// 255 colours (0.999943, 92 275 B) and the tapes 6–17 % more bytes.
    static let flatPaletteChangeTolerance = 1.5

    private func isExact(_ statistics: ColorStatistics, _ colors: [RGB8]) -> Bool {
        if let exact = statistics.exactColors { return exact.count <= colors.count }
        return false
    }

    /// The logical screen (with the global palette, if any) and the looping extension.
    private func writeHeader(globalPalette: [RGB8]?) throws {
        var map: UnsafeMutablePointer<ColorMapObject>?
        if let globalPalette { map = try makeColorMap(globalPalette, reservingTransparency: true) }
        defer { if map != nil { GifFreeMapObject(map) } }
        try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map), "writing the screen descriptor (EGifPutScreenDesc)")
        headerWritten = true
        if options.loopCount != 1 {
            let repetitions = options.loopCount == 0 ? 0 : options.loopCount - 1
            let application: [UInt8] = Array("NETSCAPE2.0".utf8)
            let loop: [UInt8] = [1, UInt8(repetitions & 0xFF), UInt8(repetitions >> 8)]
            try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "writing the loop extension")
            try check(EGifPutExtensionBlock(gif, Int32(application.count), application), "writing the loop extension")
            try check(EGifPutExtensionBlock(gif, Int32(loop.count), loop), "writing the loop extension")
            try check(EGifPutExtensionTrailer(gif), "writing the loop extension")
        }
    }

    /// Encodes one frame: the changed rectangle, mapped to `globalMapper` (the interval's palette:
    /// the file's global one when `paletteIsGlobal`, else repeated as a local one), to `subset`
    /// (a flat palette at the table's start) or to its own.
    private func encode(_ pixels: [UInt8], with globalMapper: PaletteMapper?, subset: PaletteMapper? = nil,
                        paletteIsGlobal: Bool = true) throws {
        let delay = Self.delay(ofFrame: firstFrameIndex + written, frameRate: outputRate)
        let keepsTransparency = options.preservesTransparency
        let differencing = !keepsTransparency && reference != nil
        // Gradient content on the interval's palette, undithered: pixels are held against what
        // the screen shows (see `heldAgainstDisplay`) while the frame fits that palette.
        var holdsAgainstDisplay = differencing && globalMapper != nil && usesDisplayRule
        var mapper: PaletteMapper?
        var rect = (x: 0, y: 0, width: 0, height: 0)
        var region: FrameRegion
        while true {
            let changed: (x: Int, y: Int, width: Int, height: Int)?
            if holdsAgainstDisplay {
                changed = heldAgainstDisplay(pixels, globalMapper!)
            } else if differencing {
                changed = Self.changedRect(reference!, pixels, tolerance: tolerance,
                                        unchanged: &unchangedMask, width: width, height: height)
            } else {
                changed = (0, 0, width, height)
            }
            guard let changedRect = changed else {
                // Nothing changed: the last frame lasts longer (as gifsicle's optimiser does), or,
                // when that frame is already out, one transparent pixel carries the delay.
                if !lengthenLastFrame(by: delay) { try writeUnchangedFrame(delay: delay) }
                written += 1
                return
            }
            rect = changedRect
            // Inside the changed rectangle, unchanged pixels become transparent (unless transparency
            // is kept, where each frame replaces the last).
            region = pixels.withUnsafeBufferPointer { current in
                if differencing {
                    return unchangedMask.withUnsafeBufferPointer {
                        FrameRegion(pixels: current, stride: width, x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                                    keepTransparency: false, unchanged: $0)
                    }
                }
                return FrameRegion(pixels: current, stride: width, x: rect.x, y: rect.y, width: rect.width,
                                   height: rect.height, keepTransparency: keepsTransparency)
            }
            if let globalMapper, options.palette == .global || intervalIsFlat || fitsGlobal(region, globalMapper) {
                mapper = subset ?? globalMapper
                break
            }
            // A frame for a local palette: what counts as changed is decided by the tolerance.
            guard holdsAgainstDisplay else { break }
            holdsAgainstDisplay = false
        }
        let usesTransparency = keepsTransparency || !region.transparent.isEmpty
        if mapper == nil {
            scratchStatistics.reset()
            scratchStatistics.add(region)
            let statistics = scratchStatistics
            let reserve = usesTransparency ? 1 : 0
            let colors = PaletteBuilder.palette(from: statistics, maxColors: options.resolvedMaxColors - reserve,
                                                exactUpTo: options.maxColors - reserve, space: options.quantizationSpace)
            mapper = PaletteMapper(colors: colors, isExact: isExact(statistics, colors), space: options.quantizationSpace,
                                   recycling: recycledMapper)
            recycledMapper = mapper
        }
        guard let mapper else { preconditionFailure("a frame has a palette") }
        // The slot after the colours is the transparent one (the global palette always reserves it).
        let transparentIndex = usesTransparency ? mapper.colors.count : Int(NO_TRANSPARENT_COLOR)
        var indices = mapper.map(region, dithering: resolvedDithering(), strength: options.ditherStrength,
                                 transparentIndex: UInt8(clamping: max(0, transparentIndex)))
        // Pixels whose new colour is the one already shown need not be written: they become
        // transparent, with their index as the alternative the LZW coder may still pick.
        var sameOnScreen: [Int16]?
        // giflib codes the indices as mapped (the colours already shown written again, which can
        // make longer runs than holes would); the LZW coder below gets the holes.
        var plainIndices = indices
        if differencing, usesTransparency, displayed.count == width * height {
            var alternatives = [Int16](repeating: -1, count: indices.count)
            // C's loop (`strata_gif_mark_same_on_screen`): the same marks as pixel by pixel here.
            let packed = mapper.colors.map(\.packed)
            let r = rect, width = self.width
            let any = indices.withUnsafeMutableBufferPointer { indices in
                alternatives.withUnsafeMutableBufferPointer { alternatives in
                    displayed.withUnsafeBufferPointer { displayed in
                        strata_gif_mark_same_on_screen(indices.baseAddress!, alternatives.baseAddress!, r.width, r.height,
                                                       displayed.baseAddress!, width, r.x, r.y, packed, UInt8(transparentIndex))
                    }
                }
            } != 0
            if any { sameOnScreen = alternatives }
        }
        if let same = sameOnScreen {
            // What is left to write may be a smaller rectangle, or nothing at all.
            let r = rect
            var bounds = [Int](repeating: 0, count: 4)
            _ = strata_gif_bounds_other_than(indices, r.width, r.height, UInt8(transparentIndex), &bounds)
            let (minX, minY, maxX, maxY) = (bounds[0], bounds[1], bounds[2], bounds[3])
            if maxX < 0 {
                // The screen shows this frame already: the last frame lasts longer.
                Self.updateReference(&reference!, from: pixels, rect: rect, unchanged: unchangedMask, width: width)
                if !lengthenLastFrame(by: delay) { try writeUnchangedFrame(delay: delay) }
                written += 1
                return
            }
            if maxX - minX + 1 < rect.width || maxY - minY + 1 < rect.height {
                let inner = (x: rect.x + minX, y: rect.y + minY, width: maxX - minX + 1, height: maxY - minY + 1)
                var croppedIndices: [UInt8] = [], croppedPlain: [UInt8] = [], croppedSame: [Int16] = []
                croppedIndices.reserveCapacity(inner.width * inner.height)
                croppedPlain.reserveCapacity(inner.width * inner.height)
                croppedSame.reserveCapacity(inner.width * inner.height)
                for row in minY...maxY {
                    let from = row * rect.width + minX
                    croppedIndices += indices[from..<(from + inner.width)]
                    croppedPlain += plainIndices[from..<(from + inner.width)]
                    croppedSame += same[from..<(from + inner.width)]
                }
                // Pixels outside the smaller rectangle keep their reference (they show it).
                indices = croppedIndices
                plainIndices = croppedPlain
                sameOnScreen = croppedSame
                rect = inner
            }
        }
        // Up to three codings of the frame, the smallest kept, all by `GIFLZWEncoder`: the indices
        // as mapped (colours already shown written again, which can make longer runs than holes
        // would); with those pixels as holes; and with holes any of which — an unchanged pixel or
        // one already showing its colour — may take its colour where that continues a string.
        // (kind 0: as mapped; 1: holes; 2: holes with alternatives.)
        var candidates: [(kind: Int, indices: [UInt8], alternatives: [Int16])] = [(0, plainIndices, [])]
        if sameOnScreen != nil { candidates.append((1, indices, [])) }
        if differencing, usesTransparency,
           let alternatives = ownColourAlternatives(indices, pixels: pixels, rect: rect, mapper: mapper,
                                                   transparentIndex: UInt8(transparentIndex), sameOnScreen: sameOnScreen) {
            candidates.append((2, indices, alternatives))
        }
        // The frame's transparent index is the lowest one none of its pixels shows (the graphics
        // control block names it frame by frame), so that the code size below follows the
        // colours the frame uses rather than the palette's length.
        var frameTransparent = transparentIndex
        if usesTransparency {
            var used = [Bool](repeating: false, count: 257)
            used.withUnsafeMutableBufferPointer { used in
                for candidate in candidates {
                    // The holes' indices (kinds 1 and 2) are each pixel's mapped index or the
                    // transparent one, so the mapped indices (kind 0) already hold every one
                    // they show: only those are read (the same set, a third of the reading).
                    if candidate.kind == 0 { strata_gif_mark_used(candidate.indices, candidate.indices.count, used.baseAddress!) }
                    candidate.alternatives.withUnsafeBufferPointer { for a in $0 where a >= 0 { used[Int(a)] = true } }
                }
            }
            used[transparentIndex] = false
            frameTransparent = used.firstIndex(of: false) ?? transparentIndex
            if frameTransparent != transparentIndex {
                let from = UInt8(transparentIndex), to = UInt8(frameTransparent)
                for c in candidates.indices {
                    candidates[c].indices.withUnsafeMutableBufferPointer { buffer in
                        for p in buffer.indices where buffer[p] == from { buffer[p] = to }
                    }
                }
            }
        }
        var map: UnsafeMutablePointer<ColorMapObject>?
        if let globalMapper, mapper === globalMapper || mapper === subset {
            // The same table the interval's own file would hold as its global palette.
            if !paletteIsGlobal { map = try makeColorMap(globalMapper.colors, reservingTransparency: true) }
        } else {
            map = try makeColorMap(mapper.colors, reservingTransparency: usesTransparency)
        }
        defer { if map != nil { GifFreeMapObject(map) } }
        if map == nil, let gif, let previous = gif.pointee.Image.ColorMap {
            // giflib 5.2 forgets (without freeing) the last frame's local colour map when a frame
            // has none: freed here (found by AddressSanitizer's leak check).
            GifFreeMapObject(previous)
            gif.pointee.Image.ColorMap = nil
        }
        // Each at the smallest code size its indices need (decoders take any from 2 up) — or, for
        // files made in keyframe intervals, to be joined by `GIFPartJoiner` (which copies LZW
        // data only at its colour table's size), at that size — its table kept when full or
        // cleared, whichever codes smaller.
        let tableCodeSize = max(2, Int((map ?? gif?.pointee.SColorMap)?.pointee.BitsPerPixel ?? 8))
        // The candidates are coded side by side (`codingThreads`), each by its own coder; the
        // smallest is chosen in candidate order afterwards, so the bytes are those of coding them
        // one after another.
        while coders.count < candidates.count { coders.append(LZWCoding()) }
        let keyframed = options.keyframeInterval != nil, jobs = Array(coders.prefix(candidates.count)), coding = candidates
        let codeOne: @Sendable (Int) -> Void = { c in
            let candidate = coding[c]
            let top = max(candidate.indices.withUnsafeBufferPointer { Int($0.max() ?? 0) },
                          candidate.alternatives.withUnsafeBufferPointer { Int($0.max() ?? 0) })
            jobs[c].code(candidate.indices, alternatives: candidate.alternatives,
                         codeSize: keyframed ? tableCodeSize : GIFLZWEncoder.minimumCodeSize(holding: top))
        }
        if options.codingThreads > 1 && candidates.count > 1 {
            DispatchQueue.concurrentPerform(iterations: candidates.count, execute: codeOne)
        } else {
            for c in candidates.indices { codeOne(c) }
        }
        var best: (kind: Int, output: GIFLZWEncoder.Output, codeSize: Int)?
        for (c, candidate) in candidates.enumerated() {
            guard let coded = jobs[c].takeResult() else { continue }
            if best == nil || coded.output.blocks.count < best!.output.blocks.count { best = (candidate.kind, coded.output, coded.codeSize) }
        }
        guard let best else { preconditionFailure("a frame has at least one coding") }
        try writeControlBlock(delay: delay, transparentIndex: Int32(usesTransparency ? frameTransparent : transparentIndex),
                              disposal: keepsTransparency ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT)
        try writeImage(rect, map, codes: best.output.blocks, codeSize: best.codeSize)
        // What the screen shows now, in the palette's indices (`transparentIndex` for holes).
        var writtenIndices = best.kind == 0 ? plainIndices : indices
        if best.kind == 2 {
            let alternatives = candidates[candidates.count - 1].alternatives
            let r = rect, width = self.width
            // Through a pointer: a write to the property a pixel was checked for exclusive
            // access at run time each (the same result).
            // The positions come in increasing order: the row is followed rather than divided
            // out pixel by pixel (two divisions a pixel were most of this loop).
            unchangedMask.withUnsafeMutableBufferPointer { unchanged in
                writtenIndices.withUnsafeMutableBufferPointer { writtenIndices in
                    var row = 0, rowStart = 0
                    for taken in best.output.tookAlternative {
                        let p = Int(taken)
                        while p >= rowStart + r.width { row += 1; rowStart += r.width }
                        unchanged[(r.y + row) * width + r.x + p - rowStart] = false
                        writtenIndices[p] = UInt8(alternatives[p])
                    }
                }
            }
        }
        updateDisplayed(writtenIndices, rect: rect, colors: mapper.colors, transparentIndex: transparentIndex, whole: !differencing)
        if differencing {
            Self.updateReference(&reference!, from: pixels, rect: rect, unchanged: unchangedMask, width: width)
        } else {
            reference = pixels
        }
        written += 1
    }

    /// One image whose pixels are already LZW-coded: its descriptor, the code size, the code
    /// sub-blocks, the terminating empty block. (giflib writes a code size of its own, the colour
    /// table's bits, as the descriptor's last byte; the held bytes let it be replaced.)
    private func writeImage(_ rect: (x: Int, y: Int, width: Int, height: Int), _ map: UnsafeMutablePointer<ColorMapObject>?,
                            codes: [UInt8], codeSize: Int) throws {
        try check(EGifPutImageDesc(gif, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), false, map),
                  "writing image descriptor \(written) (EGifPutImageDesc)")
        guard let output, output.count > 0, let giflibSize = output.byte(at: output.count - 1), (2...8).contains(giflibSize) else {
            throw MediaError.libraryFailure(path: path, operation: "writing image \(self.written)",
                                            reason: "giflib did not end the image descriptor with a code size")
        }
        output.set(UInt8(codeSize), at: output.count - 1)
        try codes.withUnsafeBufferPointer { blocks in
            var offset = 0
            while offset < blocks.count {
                let block = blocks.baseAddress! + offset
                try check(offset == 0 ? EGifPutCode(gif, Int32(codeSize), block) : EGifPutCodeNext(gif, block),
                          "writing image \(written) (EGifPutCode)")
                offset += Int(blocks[offset]) + 1
            }
        }
        try check(EGifPutCodeNext(gif, nil), "writing image \(written) (EGifPutCodeNext)")
    }

    /// Whether frames of the interval are differenced by `heldAgainstDisplay` rather than by the
    /// temporal tolerance: gradient content (the interval's colours were not counted exactly), mapped
    /// without dithering, with the tolerance left to the encoder and the quality goal.
    private var usesDisplayRule: Bool {
        options.temporalTolerance == nil && options.goal == .quality && !intervalIsFlat
            && statistics?.exactCounts == nil && resolvedDithering() == .none
    }

    /// Differencing for gradient content on the interval's palette: a pixel is held (written as
    /// transparent) while the colour the screen shows is within `displayHoldSlack` (squared
    /// distance, levels²) of the best the palette can do for its colour now — nearest palette
    /// colour's squared distance — and counts as changed otherwise. Unlike a tolerance against the
    /// colour last written, the error cannot build up: a slowly drifting glow is re-sent once the
    /// palette renders it better than the screen does. Marks `unchangedMask` and returns the
    /// bounding box of the changed pixels (nil: none); pixels that show nothing yet are changed.
    private func heldAgainstDisplay(_ pixels: [UInt8], _ mapper: PaletteMapper) -> (x: Int, y: Int, width: Int, height: Int)? {
        let count = width * height
        if unchangedMask.count != count { unchangedMask = [Bool](repeating: false, count: count) }
        guard displayed.count == count else {
            for p in 0..<count { unchangedMask[p] = false }
            return (0, 0, width, height)
        }
        // The answer depends only on the source colour and the colour shown (the palette is the
        // interval's): static areas ask the same question frame after frame, and are answered
        // from `heldAnswers` without a nearest-colour search. The loop is C's
        // (`strata_gif_held_against_display`: eight pixels at a time with AVX2 while all eight
        // ask the question they asked last and were held; the same mask, answers and rectangle
        // as the Swift loop it replaces, which spent 84 M instructions a 1080p frame of rlottie's
        // confetti.json here).
        if heldAnswers.count != count { heldAnswers = [UInt64](repeating: UInt64.max, count: count) }
        var bounds = [Int](repeating: 0, count: 4)
        let (width, height) = (self.width, self.height)
        // The rows in two bands on two threads when the encoder may use two (`codingThreads`):
        // while the spooled frames are flushed the drawing is over and the second core idle.
        let threads = Int32(min(2, max(1, options.codingThreads)))
        let any = pixels.withUnsafeBufferPointer { source in
            displayed.withUnsafeBufferPointer { shown in
                unchangedMask.withUnsafeMutableBufferPointer { mask in
                    heldAnswers.withUnsafeMutableBufferPointer { answers in
                        bounds.withUnsafeMutableBufferPointer { bounds in
                            mapper.withCPalette { palette in
                                strata_gif_held_against_display(source.baseAddress!, shown.baseAddress!, answers.baseAddress!,
                                                                mask.baseAddress!, width, height, Int32(Self.displayHoldSlack),
                                                                palette, bounds.baseAddress!, 1, threads)
                            }
                        }
                    }
                }
            }
        }
        guard any != 0 else { return nil }
        let (minX, minY, maxX, maxY) = (bounds[0], bounds[1], bounds[2], bounds[3])
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    /// How much further (squared distance, levels²) than the palette's nearest colour the colour
    /// shown may be for `heldAgainstDisplay` to keep it. Measured on the title card (debug build,
    /// bytes and SSIM against the lossless frames; the peer 2 017 112 B at 0.996548): 0 →
    /// 1 747 159 B at 0.996936, 1 → 1 629 071 B at 0.996804, 2 → 1 550 665 B at 0.996637,
    /// 3 → 1 454 765 B at 0.996461, 6 → 1 147 388 B at 0.995815. (A tolerance of 1 against
    /// the colour last written: 1 442 655 B at 0.995935; of 0: 1 861 431 B at 0.996871.)
    static let displayHoldSlack = 2

    /// For each pixel of `rect` written transparent because it did not change, the index of its
    /// own colour (what it would be written as had it changed); -1 for the others. nil when no
    /// pixel is transparent that way.
    private func ownColourAlternatives(_ indices: [UInt8], pixels: [UInt8], rect: (x: Int, y: Int, width: Int, height: Int),
                                       mapper: PaletteMapper, transparentIndex: UInt8, sameOnScreen: [Int16]?) -> [Int16]? {
        var alternatives = sameOnScreen ?? [Int16](repeating: -1, count: indices.count)
        // C's loop (`strata_gif_own_colour_alternatives`): each index as `exactPaletteIndex`,
        // else `nearest`, gives it, through the same cache.
        let width = self.width
        let found = indices.withUnsafeBufferPointer { indices in
            alternatives.withUnsafeMutableBufferPointer { alternatives in
                unchangedMask.withUnsafeBufferPointer { unchanged in
                    pixels.withUnsafeBufferPointer { pixels in
                        mapper.withCPalette { palette in
                            strata_gif_own_colour_alternatives(indices.baseAddress!, alternatives.baseAddress!, rect.width, rect.height,
                                                               unchanged.baseAddress!, pixels.baseAddress!, width, rect.x, rect.y,
                                                               transparentIndex, palette)
                        }
                    }
                }
            }
        }
        let any = sameOnScreen != nil || found != 0
        return any ? alternatives : nil
    }

    /// Records the colours `indices` put on screen in `rect` (`whole`: the frame replaces all
    /// that was shown). Only kept while frames are differenced (no kept transparency).
    private func updateDisplayed(_ indices: [UInt8], rect: (x: Int, y: Int, width: Int, height: Int), colors: [RGB8],
                                 transparentIndex: Int, whole: Bool) {
        guard !options.preservesTransparency else { return }
        if whole || displayed.count != width * height { displayed = [UInt32](repeating: UInt32.max, count: width * height) }
        let packed = colors.map(\.packed), width = self.width
        indices.withUnsafeBufferPointer { indices in
            displayed.withUnsafeMutableBufferPointer { displayed in
                strata_gif_update_displayed(indices.baseAddress!, rect.width, rect.height, displayed.baseAddress!, width,
                                            rect.x, rect.y, packed, packed.count, transparentIndex)
            }
        }
    }

    /// The dithering the current frame is mapped with: the options' method, `.automatic` none (see
    /// `GIFEncoderOptions.Dithering.automatic` for what was measured).
    private func resolvedDithering() -> GIFEncoderOptions.Dithering {
        options.dithering == .automatic ? .none : options.dithering
    }

    /// `.automatic` palettes: whether the global palette renders `region` closely enough that a
    /// local colour table (up to 768 bytes) would not pay: root-mean-square error of the nearest
    /// global colours at most `automaticPaletteTolerance` levels per channel.
    private func fitsGlobal(_ region: FrameRegion, _ mapper: PaletteMapper) -> Bool {
        // C's loop (`strata_gif_squared_error`): the error of the last colour remembered (runs of
        // one colour look the palette up once), the same sum in the same order.
        var counted = 0
        let squared = region.rgb.withUnsafeBufferPointer { rgb in
            region.transparent.withUnsafeBufferPointer { transparent in
                mapper.withCPalette { palette in
                    strata_gif_squared_error(rgb.baseAddress, transparent.isEmpty ? nil : transparent.baseAddress,
                                             region.width * region.height, palette, &counted)
                }
            }
        }
        guard counted > 0 else { return true }
        return (squared / Double(3 * counted)).squareRoot() <= Self.automaticPaletteTolerance
    }

    /// Measured on the GIF benchmark clips: flat UI frames map onto a global palette within
    /// about 1 level; video frames need 3–6 and are better served by their own. The built-in
    /// demo's frames (gradient background, moving shapes) need 1.4–2.1 with a palette cut from
    /// 128³ bins: at 1.5, 92 of its 120 frames took local palettes, for 850 864 B at SSIM 0.998147;
    /// at 2.5 all take the global one, 595 615 B at 0.998038 (debug build, Benchmarks/doc-gifs.sh).
    static let automaticPaletteTolerance = 2.5

    /// Whether input frame `index` is kept for output (frame-rate reduction).
    private func keeps(frameAt index: Int) -> Bool {
        if let target = options.frameRate, target.framesPerSecond < frameRate.framesPerSecond {
            // The first input frame at or after the next output time.
            let time = frameRate.time(ofFrame: index)
            return time >= outputRate.time(ofFrame: kept) - 1e-9
        }
        return index % max(1, options.everyNthFrame) == 0
    }

    /// Copies the written pixels of `rect` into the reference.
    private static func updateReference(_ reference: inout [UInt8], from pixels: [UInt8], rect: (x: Int, y: Int, width: Int, height: Int),
                                        unchanged: [Bool], width: Int) {
        reference.withUnsafeMutableBytes { ref in
            pixels.withUnsafeBytes { src in
                unchanged.withUnsafeBufferPointer { unchanged in
                    strata_gif_update_reference(ref.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                                src.baseAddress!.assumingMemoryBound(to: UInt32.self), unchanged.baseAddress!,
                                                rect.width, rect.height, width, rect.x, rect.y)
                }
            }
        }
    }

    /// A frame identical to the previous one: one transparent pixel that only carries the delay.
    private func writeUnchangedFrame(delay: Int) throws {
        try writeControlBlock(delay: delay, transparentIndex: 0, disposal: DISPOSE_DO_NOT)
        let map = try makeColorMap([RGB8(r: 0, g: 0, b: 0)], reservingTransparency: false)
        defer { GifFreeMapObject(map) }
        try check(EGifPutImageDesc(gif, 0, 0, 1, 1, false, map), "writing image descriptor \(written) (EGifPutImageDesc)")
        var pixel: [GifPixelType] = [0]
        try check(EGifPutLine(gif, &pixel, 1), "writing image \(written) (EGifPutLine)")
    }

    /// Starts a frame: writes out what the previous one left in the buffer, then the frame's
    /// graphics control block, remembering where its delay is so it can still grow.
    private func writeControlBlock(delay: Int, transparentIndex: Int32, disposal: Int32) throws {
        try flushOutput()
        var control = GraphicsControlBlock(DisposalMode: disposal, UserInputFlag: false,
                                           DelayTime: Int32(delay), TransparentColor: transparentIndex)
        var bytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &bytes)
        let start = output?.count ?? 0
        try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), bytes), "writing graphics control block \(written)")
        // The block as written: '!', 0xF9, its length (4), packed fields, delay (little-endian), …
        if let output, output.byte(at: start) == 0x21, output.byte(at: start + 1) == 0xF9 {
            lastFrameDelay = (start + 4, delay)
        } else {
            lastFrameDelay = nil
        }
    }

    /// Lengthens the last written frame by `delay` when its bytes are still held and the sum fits
    /// GIF's 16-bit delay field; false otherwise.
    private func lengthenLastFrame(by delay: Int) -> Bool {
        guard let last = lastFrameDelay, let output, last.centiseconds + delay <= 65_535 else { return false }
        let total = last.centiseconds + delay
        output.set(UInt8(total & 0xFF), at: last.offset)
        output.set(UInt8(total >> 8), at: last.offset + 1)
        lastFrameDelay = (last.offset, total)
        return true
    }

    /// Writes the held bytes to the file.
    private func flushOutput() throws {
        guard let output else { return }
        if let reason = output.flush() { throw MediaError.cannotWrite(path: path, reason: reason) }
        lastFrameDelay = nil
    }

    /// A giflib colour map holding `colors` (plus a black slot for transparency), padded with black
    /// to a power of two of at least 2 entries.
    private func makeColorMap(_ colors: [RGB8], reservingTransparency: Bool) throws -> UnsafeMutablePointer<ColorMapObject> {
        let used = colors.count + (reservingTransparency ? 1 : 0)
        var size = 2
        while size < used { size *= 2 }
        var entries = colors.map { GifColorType(Red: $0.r, Green: $0.g, Blue: $0.b) }
        entries += Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size - colors.count)
        guard let map = GifMakeMapObject(Int32(size), entries) else {
            throw MediaError.libraryFailure(path: path, operation: "building a colour map (GifMakeMapObject)", reason: "out of memory")
        }
        return map
    }

    private func check(_ status: Int32, _ operation: String) throws {
        guard status == GIF_ERROR else { return }
        let code = gif?.pointee.Error ?? 0
        throw MediaError.libraryFailure(path: path, operation: operation, reason: Self.giflibMessage(code))
    }

    /// Closes the giflib handle (writing what it has) and removes the spool; optionally the file.
    private func close(removingFile: Bool) {
        if let gif {
            var error: Int32 = 0
            _ = EGifCloseFile(gif, &error)
            self.gif = nil
        }
        if let output {
            if !removingFile { _ = output.flush() }
            output.close()
            self.output = nil
        }
        try? spool?.close()
        spool = nil
        // (Only a file: a device or pipe written to, such as /dev/null, stays.)
        if removingFile, OutputDestination.isFile(path) { try? FileManager.default.removeItem(atPath: path) }
    }

    // MARK: - Helpers

    /// round(100 · frames / fps) for a rational rate, halves rounded up. In 128 bits: with the
    /// bounds `init` checks (rates of 32-bit terms, frame numbers below 2⁴⁰, frames of at most
    /// 655.35 s) the product fits and so does the result.
    private static func centiseconds(before frames: Int, _ rate: FrameRate) -> Int {
        let numerator = 100 * Int128(frames) * Int128(rate.denominator)
        return Int((2 * numerator + Int128(rate.numerator)) / (2 * Int128(rate.numerator)))
    }

    /// The largest frame number a file may start at (about 580 years at 60 fps).
    public static let maximumFrameIndex = 1 << 40

    /// Whether one frame at `rate` fits GIF's 16-bit delay field: at most 65 535 centiseconds.
    private static func fitsDelayField(_ rate: FrameRate) -> Bool {
        rate.denominator <= Int(Int32.max) && 100 * rate.denominator <= 65_535 * rate.numerator
    }

    /// A rate of 32-bit terms whose frames fit GIF's delay field.
    private static func checkRate(_ rate: FrameRate, _ what: String, path: String) throws {
        guard rate.numerator <= Int(Int32.max), rate.denominator <= Int(Int32.max) else {
            throw MediaError.invalidOption(path: path, reason: "\(what) \(rate.numerator)/\(rate.denominator) needs terms of at most \(Int32.max)")
        }
        guard fitsDelayField(rate) else {
            throw MediaError.invalidOption(path: path, reason: "\(what) \(rate) fps makes frames longer than a GIF frame can last (655.35 s)")
        }
    }

    /// Marks each pixel of `current` unchanged when no colour channel differs from `reference` by
    /// more than `tolerance`, and returns the bounding box of the changed ones (nil: none).
    static func changedRect(_ reference: [UInt8], _ current: [UInt8], tolerance: Int, unchanged: inout [Bool],
                            width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        if unchanged.count != width * height { unchanged = [Bool](repeating: false, count: width * height) }
        // C's loop (`strata_gif_changed_rect`): pixels whose RGB bytes are equal (most of a
        // frame that changed little) told apart eight at a time with AVX2, the others by their
        // channels; the same flags and rectangle as comparing every channel.
        var bounds = [Int](repeating: 0, count: 4)
        let any = reference.withUnsafeBufferPointer { a in
            current.withUnsafeBufferPointer { b in
                unchanged.withUnsafeMutableBufferPointer { mask in
                    strata_gif_changed_rect(a.baseAddress!, b.baseAddress!, mask.baseAddress!, width, height, Int32(clamping: tolerance),
                                            &bounds, 1)
                }
            }
        }
        guard any != 0 else { return nil }
        return (bounds[0], bounds[1], bounds[2] - bounds[0] + 1, bounds[3] - bounds[1] + 1)
    }

    private static func giflibMessage(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }

    private static func wrap(_ error: Error, path: String, operation: String) -> Error {
        if error is MediaError { return error }
        return MediaError.libraryFailure(path: path, operation: operation, reason: "\(error.localizedDescription)")
    }
}

/// The bytes giflib writes, held in memory until the encoder writes them to the file: the frame
/// being written stays here until the next one starts, so an unchanged frame that follows can
/// lengthen its delay in place instead of becoming a frame of its own. Holds at most one frame.
final class GIFByteBuffer {
    private let descriptor: Int32
    private var bytes: [UInt8] = []
    private var isClosed = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The bytes held.
    var count: Int { bytes.count }

    func append(_ source: UnsafePointer<UInt8>, count: Int) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: source, count: count))
    }

    func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    func set(_ value: UInt8, at offset: Int) { bytes[offset] = value }

    /// Forgets the bytes after the first `count`.
    func truncate(to count: Int) { bytes.removeSubrange(count...) }

    /// Writes the held bytes to the descriptor; the reason when it could not.
    func flush() -> String? {
        guard !isClosed else { return "the file is closed" }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            done += n
        }
        bytes.removeAll(keepingCapacity: true)
        return nil
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }
}

/// One candidate coding of a frame: its LZW coder (a table of its own) and, after `code`, its
/// smallest output — the table kept when full or cleared, whichever codes smaller. The coder and
/// the result are in a Mutex the coding owns: the iteration of `concurrentPerform` given its
/// index takes it once, the encoder (under its own lock) before and after.
final class LZWCoding: Sendable {
    private struct State {
        var coder = GIFLZWEncoder()
        var result: (output: GIFLZWEncoder.Output, codeSize: Int)?
    }
    private let state = Mutex(State())

    /// Codes `indices` (with `alternatives`) at `codeSize`, keeping the smaller of the two
    /// full-table choices as the result.
    func code(_ indices: [UInt8], alternatives: [Int16], codeSize: Int) {
        state.withCheckedLock { s in
            var coded = s.coder.encode(indices, alternatives: alternatives, minimumCodeSize: codeSize, clearsWhenFull: false)
            if coded.filledTable {
                let cleared = s.coder.encode(indices, alternatives: alternatives, minimumCodeSize: codeSize, clearsWhenFull: true)
                if cleared.blocks.count < coded.blocks.count { coded = cleared }
            }
            s.result = (coded, codeSize)
        }
    }

    /// The last `code`'s output and code size, leaving none.
    func takeResult() -> (output: GIFLZWEncoder.Output, codeSize: Int)? {
        state.withCheckedLock { s in
            defer { s.result = nil }
            return s.result
        }
    }
}
