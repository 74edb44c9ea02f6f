// The libFuzzer entry point. Built with -parse-as-library, so Swift emits no `main` and
// libFuzzer's own runs the loop. STRATA_FUZZ_TARGET names the target (see `FuzzTarget`);
// `scripts/fuzz.sh` sets it. Each target feeds the bytes to public or internal API the way a
// file from outside would reach it, and ignores the errors thrown: a crash, a hang, a leak or a
// sanitizer report is the finding.
import Foundation

enum FuzzTarget: String, CaseIterable {
    /// PNG/JPEG/WebP bytes through `ImageDecoder` (header peek, then FFmpeg).
    case image
    /// A media file opened by `MediaProbe`, `FFmpegVideoSource` (frames decoded and converted) and
    /// `AudioDecoder` (samples read after a seek).
    case media
    /// `GIFEncoderOptions`, sizes, rates and frames drawn from the bytes, encoded to a file.
    case gif
    /// A YAML/JSON template read, filled in with its defaults, checked and made into a scene.
    case template
    /// A `{{ … }}` expression parsed and evaluated against a small scope.
    case expression
    /// CSV and JSON Lines rows (batch data files).
    case rows
    /// SubRip / WebVTT caption files.
    case captions
    /// A Lottie animation (JSON, .tgs, .lottie) compiled to layers and drawn.
    case lottie
    /// A Lottie expression (After Effects' language) compiled into a small animation and drawn.
    case lottieScript = "lottie-script"
}

nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if selected == nil {
        let name = ProcessInfo.processInfo.environment["STRATA_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("STRATA_FUZZ_TARGET must be one of: \(names) (it is \"\(name)\")\n".utf8))
            exit(2)
        }
        selected = target
    }
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    switch selected! {
    case .image: FuzzImage.run(bytes)
    case .media: FuzzMedia.run(bytes)
    case .gif: FuzzGIF.run(bytes)
    case .template: FuzzTemplate.run(bytes)
    case .expression: FuzzExpression.run(bytes)
    case .rows: FuzzRows.run(bytes)
    case .captions: FuzzCaptions.run(bytes)
    case .lottie: FuzzLottie.run(bytes)
    case .lottieScript: FuzzLottieScript.run(bytes)
    }
    return 0
}

/// A per-process scratch folder for targets whose API reads files (in /dev/shm when there is one).
enum Scratch {
    static let folder: URL = {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm")
            : FileManager.default.temporaryDirectory
        let url = base.appendingPathComponent("strata-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.folder) }
        return url
    }()

    /// Writes `data` to `name` in the scratch folder.
    static func file(_ name: String, _ data: Data) -> URL {
        let url = folder.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: data)
        return url
    }
}

/// Reads values off the front of the fuzzer's bytes (zeros once they run out).
struct ByteReader {
    private let bytes: [UInt8]
    private var at = 0
    init(_ data: Data) { bytes = [UInt8](data) }

    var remaining: Int { bytes.count - at }

    mutating func byte() -> UInt8 {
        guard at < bytes.count else { return 0 }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A small value in 0..<count.
    mutating func pick(_ count: Int) -> Int { Int(byte()) % count }

    /// An integer that is usually small but may be anything, extremes included.
    mutating func int() -> Int {
        switch byte() % 8 {
        case 0: return Int.max - Int(byte())
        case 1: return Int.min + Int(byte())
        case 2: return -Int(byte())
        case 3: var v = 0; for _ in 0..<8 { v = v << 8 | Int(byte()) }; return v
        case 4: return Int(byte()) << 8 | Int(byte())
        default: return Int(byte())
        }
    }

    /// The rest of the bytes.
    mutating func rest() -> [UInt8] {
        defer { at = bytes.count }
        return Array(bytes[min(at, bytes.count)...])
    }
}
