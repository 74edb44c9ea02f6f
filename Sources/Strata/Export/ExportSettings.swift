// The export choices a person makes by name — the command line's flags (`--codec`, `--alpha`,
// `--colors` …), a template's `export:` block, a render panel — as one value. `problems(for:)`
// checks them against the output before anything is written (each problem names the flag and
// what the output can take instead), `apply(to:for:)` turns them into `ExportOptions`. Settings
// from two places merge (`merged(over:)`: the command line over a template's defaults); defaults
// that do not apply to the chosen output (a template's GIF colours when the output is an MP4)
// are dropped rather than refused (`resolved(over:for:)`).
import Foundation
import StrataCore
import StrataMedia

/// Export settings by name, each optional (nil: the export's default).
public struct ExportSettings: Sendable, Equatable {
    /// One setting: its flag is `--` + the kebab-case name, its template key the camel-case name.
    public enum Field: String, Sendable, CaseIterable, Comparable {
        /// `codec`: the video codec of .mp4/.mov/.webm.
        case codec
        /// `alpha`: keep the scene's transparency.
        case alpha
        /// `pixelFormat`: the video's pixel layout.
        case pixelFormat
        /// `crf`: constant quality of H.264/HEVC or VP9/AV1; lower is better.
        case crf
        /// `bitrate`: an average video bit rate instead of constant quality.
        case bitrate
        /// `quality`: WebP quality 0–100.
        case quality
        /// `preset`: the encoder's speed preset.
        case preset
        /// `audio`: always or never an audio track.
        case audio
        /// `background`: the colour frames are composited over.
        case background
        /// `colors`: GIF colours per palette.
        case colors
        /// `dither`: GIF dithering and its strength.
        case dither
        /// `loop`: times a GIF or WebP plays (0 for ever).
        case loop
        /// `maxBytes`: the size a GIF must fit in.
        case maxBytes
        /// `gifFPS`: a lower frame rate for a GIF.
        case gifFPS
        /// `lossless`: lossless WebP frames.
        case lossless

        /// The command-line flag, e.g. `--pixel-format`.
        public var flag: String {
            switch self {
            case .gifFPS: return "--gif-fps"
            default:
                var s = "--"
                for c in rawValue {
                    if c.isUppercase { s += "-" + c.lowercased() } else { s.append(c) }
                }
                return s
            }
        }

        /// The key in a template's `export:` block (`gifFps` for `--gif-fps`).
        public var templateKey: String { self == .gifFPS ? "gifFps" : rawValue }

        /// Fields compare in the order of `allCases` (the order of the flags in help).
        public static func < (a: Field, b: Field) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// GIF dithering and its strength (nil: the encoder's default for the method).
    public struct Dither: Sendable, Equatable {
        /// Automatic (the encoder's choice: at present none), none, ordered (Bayer) or
        /// diffusion (Floyd–Steinberg).
        public var method: GIFEncoderOptions.Dithering
        /// 0...1; nil: the method's default.
        public var strength: Double?
        /// Dithering by `method` at `strength`.
        public init(method: GIFEncoderOptions.Dithering, strength: Double? = nil) {
            self.method = method
            self.strength = strength
        }
    }

    /// Video codec of .mp4/.mov/.webm (not `.webp`: a .webp output is always WebP).
    public var codec: VideoEncoderOptions.Codec?
    /// Keep the scene's transparency (PNG frames, GIF, WebP, MOV with ProRes 4444, WebM with VP9).
    public var alpha: Bool?
    /// The video's pixel layout (an alpha one implies `alpha`).
    public var pixelFormat: VideoEncoderOptions.PixelFormat?
    /// Constant quality of H.264/HEVC (0–51) or VP9/AV1 (0–63); lower is better.
    public var crf: Int?
    /// Average video bit rate in bits per second (instead of constant quality).
    public var bitrate: Int?
    /// WebP quality 0–100 (with `lossless`, the compression effort).
    public var quality: Int?
    /// Encoder speed preset (`VideoEncoderOptions.presets`).
    public var preset: String?
    /// true: always an audio track (silence when nothing plays); false: never one.
    public var audio: Bool?
    /// The colour behind the scene, which frames are composited over (instead of black).
    public var background: Color?
    /// GIF colours per palette, 2–256.
    public var colors: Int?
    /// GIF dithering.
    public var dither: Dither?
    /// Times a GIF or WebP plays: 0 forever, n ≥ 1 that many times.
    public var loop: Int?
    /// The size a GIF must fit in, in bytes (smaller settings are tried until it does).
    public var maxBytes: Int?
    /// A lower frame rate for a GIF.
    public var gifFPS: Double?
    /// Lossless WebP frames.
    public var lossless: Bool?

    /// No setting given: every export default.
    public init() {}

    /// The fields that are set.
    public var setFields: [Field] { Field.allCases.filter(isSet) }

    /// Whether `field` has a value.
    public func isSet(_ field: Field) -> Bool {
        switch field {
        case .codec: codec != nil
        case .alpha: alpha != nil
        case .pixelFormat: pixelFormat != nil
        case .crf: crf != nil
        case .bitrate: bitrate != nil
        case .quality: quality != nil
        case .preset: preset != nil
        case .audio: audio != nil
        case .background: background != nil
        case .colors: colors != nil
        case .dither: dither != nil
        case .loop: loop != nil
        case .maxBytes: maxBytes != nil
        case .gifFPS: gifFPS != nil
        case .lossless: lossless != nil
        }
    }

    /// Clears `field`.
    public mutating func clear(_ field: Field) {
        switch field {
        case .codec: codec = nil
        case .alpha: alpha = nil
        case .pixelFormat: pixelFormat = nil
        case .crf: crf = nil
        case .bitrate: bitrate = nil
        case .quality: quality = nil
        case .preset: preset = nil
        case .audio: audio = nil
        case .background: background = nil
        case .colors: colors = nil
        case .dither: dither = nil
        case .loop: loop = nil
        case .maxBytes: maxBytes = nil
        case .gifFPS: gifFPS = nil
        case .lossless: lossless = nil
        }
    }

    /// These settings with `defaults` filling the fields not set here.
    public func merged(over defaults: ExportSettings) -> ExportSettings {
        var m = self
        m.codec = codec ?? defaults.codec
        m.alpha = alpha ?? defaults.alpha
        m.pixelFormat = pixelFormat ?? defaults.pixelFormat
        m.crf = crf ?? defaults.crf
        m.bitrate = bitrate ?? defaults.bitrate
        m.quality = quality ?? defaults.quality
        m.preset = preset ?? defaults.preset
        m.audio = audio ?? defaults.audio
        m.background = background ?? defaults.background
        m.colors = colors ?? defaults.colors
        m.dither = dither ?? defaults.dither
        m.loop = loop ?? defaults.loop
        m.maxBytes = maxBytes ?? defaults.maxBytes
        m.gifFPS = gifFPS ?? defaults.gifFPS
        m.lossless = lossless ?? defaults.lossless
        return m
    }

    // MARK: Text

    /// Sets `field` from its text as written after the flag (`--crf 23`, `--loop forever`,
    /// `--max-bytes 2MB`); flags without a value (`--alpha`) take "true" or "false".
    public mutating func set(_ field: Field, text raw: String) throws {
        let text = raw.trimmingCharacters(in: .whitespaces)
        func fail(_ expected: String) -> ExportSettingsError {
            ExportSettingsError(fields: [field], message: "\(field.flag) '\(raw)': expected \(expected)")
        }
        func integer(_ range: ClosedRange<Int>) throws -> Int {
            guard let n = Int(text), range.contains(n) else { throw fail("a whole number from \(range.lowerBound) to \(range.upperBound)") }
            return n
        }
        func bool() throws -> Bool {
            switch text.lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: throw fail("true or false")
            }
        }
        switch field {
        case .codec:
            let names = Self.codecNames
            guard let c = VideoEncoderOptions.Codec(rawValue: text.lowercased()), c != .webp else {
                throw fail("one of \(names.joined(separator: ", ")) (a .webp output is always WebP)")
            }
            codec = c
        case .alpha: alpha = try bool()
        case .pixelFormat:
            let name = text.lowercased().replacingOccurrences(of: "le", with: "", options: [.anchored, .backwards])
            guard let f = VideoEncoderOptions.PixelFormat(rawValue: name), !f.isRGB else {
                throw fail("one of \(VideoEncoderOptions.PixelFormat.allCases.filter { !$0.isRGB }.map(\.rawValue).joined(separator: ", "))")
            }
            pixelFormat = f
        case .crf: crf = try integer(0...63)
        case .bitrate:
            guard let b = Self.parseAmount(text, units: ["k": 1_000, "m": 1_000_000, "g": 1_000_000_000], trailing: ["bps", "b/s", "b"]),
                  b >= 1_000, b <= 2_000_000_000 else {
                throw fail("bits per second from 1k to 2G, e.g. 800k, 5M or 2500000")
            }
            bitrate = b
        case .quality: quality = try integer(0...100)
        case .preset:
            guard VideoEncoderOptions.presets.contains(text) else {
                throw fail("one of \(VideoEncoderOptions.presets.joined(separator: ", "))")
            }
            preset = text
        case .audio: audio = try bool()
        case .background:
            guard let c = try? PropertyDecoding.color(.string(text)) else {
                throw fail("a colour: #RRGGBB, #RRGGBBAA, a CSS name such as white, or oklch(l c h)")
            }
            background = c
        case .colors: colors = try integer(2...256)
        case .dither:
            let parts = text.lowercased().split(separator: "=", maxSplits: 1).map(String.init)
            let methods: [String: GIFEncoderOptions.Dithering] = ["none": .none, "ordered": .ordered, "diffusion": .floydSteinberg,
                                                                  "floyd-steinberg": .floydSteinberg, "auto": .automatic]
            guard let name = parts.first, let method = methods[name] else {
                throw fail("auto, none, ordered or diffusion, optionally with a strength from 0 to 1 (diffusion=0.75)")
            }
            var strength: Double?
            if parts.count == 2 {
                guard method != .none, let s = Double(parts[1]), s.isFinite, (0...1).contains(s) else {
                    throw fail(method == .none ? "none without a strength" : "a strength from 0 to 1 after '=' (diffusion=0.75)")
                }
                strength = s
            }
            dither = Dither(method: method, strength: strength)
        case .loop:
            if ["forever", "infinite", "always"].contains(text.lowercased()) { loop = 0; return }
            guard let n = Int(text), (1...65_535).contains(n) else {
                throw fail("forever, or the number of times to play from 1 to 65535")
            }
            loop = n
        case .maxBytes:
            guard let b = Self.parseAmount(text, units: ["k": 1_000, "kb": 1_000, "m": 1_000_000, "mb": 1_000_000,
                                                          "g": 1_000_000_000, "gb": 1_000_000_000, "kib": 1_024, "mib": 1_048_576,
                                                          "gib": 1_073_741_824, "b": 1], trailing: []),
                  b >= 1_000 else {
                throw fail("a size of at least 1KB, e.g. 500KB, 2MB, 1.5MiB or 800000")
            }
            maxBytes = b
        case .gifFPS:
            guard let f = Double(text), f.isFinite, f > 0, f <= 100 else { throw fail("frames per second in (0, 100]") }
            gifFPS = f
        case .lossless: lossless = try bool()
        }
    }

    /// The codecs `--codec` takes.
    public static let codecNames = VideoEncoderOptions.Codec.allCases.filter { $0 != .webp }.map(\.rawValue)

    /// "5M" → 5 000 000, "500KB" → 500 000, "1.5MiB" → 1 572 864, "800000" → 800 000.
    static func parseAmount(_ text: String, units: [String: Double], trailing: [String]) -> Int? {
        var t = text.lowercased().replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "_", with: "")
        if let suffix = trailing.first(where: { t.hasSuffix($0) && t.count > $0.count }) { t = String(t.dropLast(suffix.count)) }
        let digits = t.prefix { $0.isNumber || $0 == "." }
        let unit = String(t.dropFirst(digits.count))
        guard let value = Double(digits), value.isFinite, value >= 0 else { return nil }
        let factor = unit.isEmpty ? 1 : units[unit]
        guard let factor, value * factor < 1e15 else { return nil }
        return Int((value * factor).rounded())
    }

    // MARK: Checking against an output

    /// What is wrong with these settings for an export to `url` (empty: nothing). Checked before
    /// anything is rendered or written; each problem names its flags and what would work.
    public func problems(for url: URL) -> [ExportSettingsError] {
        let target: ExportTarget
        do { target = try ExportTarget(url: url) } catch {
            // The export itself names an unknown extension; settings make it a problem here.
            return setFields.isEmpty ? [] : [ExportSettingsError(fields: [], message: "\(error)")]
        }
        return problems(for: target, path: url.path)
    }

    /// Throws the first problem `problems(for:)` finds.
    public func check(for url: URL) throws {
        if let first = problems(for: url).first { throw first }
    }

    /// The output's name in messages: "MP4", "a GIF", "PNG frames".
    private static func describe(_ target: ExportTarget) -> String {
        switch target {
        case .video(let f): return "a .\(f.pathExtension) output"
        case .gif: return "a .gif output"
        case .pngSequence: return "PNG frames (a folder)"
        }
    }

    /// The outputs that keep alpha, for messages.
    public static let alphaOutputs = "PNG frames (a folder), .gif, .webp, .mov (ProRes 4444) and .webm (VP9)"

    func problems(for target: ExportTarget, path: String) -> [ExportSettingsError] {
        var out: [ExportSettingsError] = []
        func refuse(_ fields: [Field], _ message: String) { out.append(ExportSettingsError(fields: fields, message: message)) }
        let output = Self.describe(target)
        let container: ContainerFormat?
        if case .video(let f) = target { container = f } else { container = nil }
        let isMovie = container.map { $0 != .webp } ?? false
        let isWebP = container == .webp
        let isGIF = target == .gif
        let wantsAlpha = alpha == true || pixelFormat?.hasAlpha == true

        // The codec and the container.
        if let codec {
            if !isMovie {
                refuse([.codec], "--codec applies to .mp4, .mov and .webm outputs, not \(output)"
                       + (isWebP ? " (a .webp output is always WebP)" : isGIF ? " (GIFs are written by Strata's GIF encoder)" : ""))
            } else if let container, !codec.containers.contains(container) {
                let fits = ContainerFormat.allCases.filter { codec.containers.contains($0) }.map { ".\($0.pathExtension)" }
                let takes = VideoEncoderOptions.Codec.allCases.filter { $0 != .webp && $0.containers.contains(container) }.map(\.rawValue)
                refuse([.codec], "--codec \(codec) cannot go in \(output): \(codec) goes in \(fits.joined(separator: " or ")) files; "
                       + ".\(container.pathExtension) takes \(takes.joined(separator: ", "))")
            } else if !codec.isAvailable {
                refuse([.codec], "--codec \(codec): this FFmpeg has no \(codec) encoder")
            }
        }
        // The codec the export will use (nil for GIF, WebP and PNG).
        var effective: VideoEncoderOptions.Codec?
        if isMovie, let container {
            if let codec, codec.containers.contains(container) { effective = codec }
            else if wantsAlpha && container == .mov { effective = .prores }
            else if container == .webm { effective = .vp9 }
            else { effective = .h264 }
        }

        // Alpha.
        if wantsAlpha {
            let flag: [Field] = alpha == true ? [.alpha] : [.pixelFormat]
            let said = alpha == true ? "--alpha" : "--pixel-format \(pixelFormat!)"
            if container == .mp4 {
                refuse(flag, "\(said): MP4 files cannot carry alpha; outputs that can: \(Self.alphaOutputs)")
            } else if let effective, let container, (container == .mov && effective != .prores) || (container == .webm && effective != .vp9) {
                refuse(flag + [.codec], "\(said) with --codec \(effective): \(effective) in .\(container.pathExtension) cannot carry alpha; "
                       + "outputs that can: \(Self.alphaOutputs)")
            }
            if background != nil { refuse([.background] + flag, "--background paints behind the frames and makes them opaque; it cannot go with \(said)") }
        }
        if let pixelFormat {
            if !isMovie {
                refuse([.pixelFormat], "--pixel-format applies to .mp4, .mov and .webm outputs, not \(output)"
                       + (isWebP ? " (WebP is RGB: --alpha keeps transparency)" : ""))
            } else if let effective {
                if alpha == true && !pixelFormat.hasAlpha {
                    refuse([.pixelFormat, .alpha], "--pixel-format \(pixelFormat) has no alpha plane; --alpha needs "
                           + (effective == .prores ? "yuva444p10 (ProRes 4444)" : "yuva420p (VP9)") + " or no --pixel-format")
                } else if pixelFormat.hasAlpha, container != .mp4, !(effective == .prores && pixelFormat == .yuva444p10), !(effective == .vp9 && pixelFormat == .yuva420p) {
                    refuse([.pixelFormat], "--pixel-format \(pixelFormat) does not go in \(output) with \(effective): alpha is yuva444p10 with ProRes (.mov) or yuva420p with VP9 (.webm)")
                } else if !pixelFormat.hasAlpha, effective.isAvailable, !effective.supports(pixelFormat) {
                    let ok = VideoEncoderOptions.PixelFormat.allCases.filter { !$0.isRGB && effective.supports($0) }.map(\.rawValue)
                    refuse([.pixelFormat], "--pixel-format \(pixelFormat): the \(effective) encoder does not take it (it takes \(ok.joined(separator: ", ")))")
                }
            }
        }

        // Quality and speed.
        if crf != nil && bitrate != nil { refuse([.crf, .bitrate], "--crf and --bitrate both set the video's quality: give one") }
        if let crf {
            if !isMovie {
                refuse([.crf], "--crf applies to .mp4, .mov and .webm outputs, not \(output)" + (isWebP ? " (use --quality 0–100 or --lossless)" : ""))
            } else if effective == .prores {
                refuse([.crf], "--crf does not apply to ProRes (intra-only at a fixed quality); use H.264, HEVC, VP9 or AV1 for a CRF")
            } else if let effective, codec != nil || container != .webm, !(0...((effective == .h264 || effective == .hevc) ? 51 : 63)).contains(crf) {
                refuse([.crf], "--crf \(crf) is outside \((effective == .h264 || effective == .hevc) ? "0–51" : "0–63") for \(effective)")
            } else if codec == nil, container == .webm, crf > 51 {
                refuse([.crf], "--crf \(crf): without --codec a .webm output takes the H.264 scale 0–51 (mapped onto VP9's); give --codec vp9 for VP9's 0–63")
            }
        }
        if bitrate != nil {
            if !isMovie { refuse([.bitrate], "--bitrate applies to .mp4, .mov and .webm outputs, not \(output)" + (isWebP ? " (use --quality or --lossless)" : "")) }
            else if effective == .prores { refuse([.bitrate], "--bitrate does not apply to ProRes (its bit rate follows from its profile)") }
        }
        if let preset {
            if !isMovie { refuse([.preset], "--preset applies to .mp4, .mov and .webm outputs, not \(output)") }
            else if effective == .prores { refuse([.preset], "--preset \(preset) does not apply to ProRes") }
        }
        if quality != nil && !isWebP {
            refuse([.quality], "--quality applies to .webp outputs, not \(output)" + (isMovie ? " (for video use --crf or --bitrate)" : isGIF ? " (for GIF use --colors, --dither or --max-bytes)" : ""))
        }
        if lossless == true && !isWebP { refuse([.lossless], "--lossless applies to .webp outputs, not \(output)") }

        // Audio.
        if audio == true, !(container?.carriesAudio ?? false) {
            refuse([.audio], "--audio: \(output) has no audio track; .mp4, .mov and .webm do")
        }

        // GIF.
        let gifOnly: [(Field, Bool)] = [(.colors, colors != nil), (.dither, dither != nil), (.maxBytes, maxBytes != nil), (.gifFPS, gifFPS != nil)]
        for (field, set) in gifOnly where set && !isGIF {
            refuse([field], "\(field.flag) applies to .gif outputs, not \(output)")
        }
        if loop != nil && !isGIF && !isWebP { refuse([.loop], "--loop applies to .gif and .webp outputs, not \(output)") }
        return out
    }

    /// These settings over `defaults` (a template's) for `url`: every field given here is kept
    /// and checked; a default that does not apply to the output is dropped. Throws the first
    /// problem of the fields given here.
    public func resolved(over defaults: ExportSettings, for url: URL) throws -> ExportSettings {
        var merged = self.merged(over: defaults)
        for _ in 0..<Field.allCases.count {
            let problems = merged.problems(for: url)
            guard !problems.isEmpty else { return merged }
            let fromDefaults = Set(problems.flatMap(\.fields).filter { !isSet($0) && merged.isSet($0) })
            if fromDefaults.isEmpty { throw problems[0] }
            for f in fromDefaults { merged.clear(f) }
        }
        try merged.check(for: url)
        return merged
    }

    // MARK: Applying

    /// Sets `options` as these settings say for an export to `url` (checked first).
    public func apply(to options: inout ExportOptions, for url: URL) throws {
        try check(for: url)
        if let codec { options.video.codec = codec }
        if alpha == true || pixelFormat?.hasAlpha == true { options.preservesAlpha = true }
        if alpha == false { options.preservesAlpha = false }
        if let pixelFormat { options.video.pixelFormat = pixelFormat }
        else if codec == .prores && options.video.pixelFormat == .yuv420p { options.video.pixelFormat = .yuv422p10 }  // ProRes 422 HQ
        if let crf { options.video.crf = crf }
        if let bitrate { options.video.bitrate = bitrate }
        if let preset { options.video.preset = preset }
        if let quality { options.video.webp.quality = quality }
        if let lossless { options.video.webp.lossless = lossless }
        if let audio { options.audio.mode = audio ? .always : .never }
        if let background { options.background = background.cgColor }
        if let colors { options.gif.maxColors = colors }
        if let dither {
            options.gif.dithering = dither.method
            options.gif.ditherStrength = dither.strength
        }
        if let loop {
            options.gif.loopCount = loop
            options.video.webp.loopCount = loop
        }
        if let maxBytes { options.maximumBytes = maxBytes }
        if let gifFPS { options.gif.frameRate = FrameRate(gifFPS) }
    }
}

/// A setting that does not fit the output, or a value that is not one; names the flags.
public struct ExportSettingsError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The settings involved.
    public let fields: [ExportSettings.Field]
    /// What is wrong and what would work, naming the flags.
    public let message: String
    /// A problem with `fields`, described by `message`.
    public init(fields: [ExportSettings.Field], message: String) {
        self.fields = fields
        self.message = message
    }
    /// The message.
    public var description: String { message }
}
