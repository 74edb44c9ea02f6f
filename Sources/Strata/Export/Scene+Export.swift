// The export pipeline: frames are rendered on the calling thread (the model tree is confined to
// it; the tile workers draw in parallel underneath) and flow through a bounded queue to an
// encoder thread. Output is written under a temporary name in the destination folder and renamed
// only when complete, so a failure never leaves a half-written file under the final name.
import Foundation
import StrataCore
import StrataRender
import StrataMedia

/// What an export writes, from the destination's extension.
public enum ExportTarget: Equatable, Sendable {
    case video(ContainerFormat)
    case gif
    /// A folder of PNG files `frame_00000.png …`.
    case pngSequence

    /// The target for a URL: `.mp4 .mov .webm .gif`, or no extension / an existing folder for PNGs.
    public init(url: URL) throws {
        let ext = url.pathExtension.lowercased()
        var isDir: ObjCBool = false
        if ext.isEmpty || (FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue) {
            self = .pngSequence
        } else if ext == "gif" {
            self = .gif
        } else if let f = ContainerFormat(pathExtension: ext), f.isVideo {
            self = .video(f)
        } else {
            throw ExportError.unknownExtension(path: url.path, ext: ext)
        }
    }
}

/// Problems exporting.
public enum ExportError: Error, CustomStringConvertible {
    case unknownExtension(path: String, ext: String)
    case missingFolder(path: String, folder: String)
    case notWritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unknownExtension(let p, let e):
            "cannot export to \(p): unknown extension '.\(e)' (expected .mp4, .mov, .webm, .gif, or a folder for PNG frames)"
        case .missingFolder(let p, let f): "cannot export to \(p): the folder \(f) does not exist"
        case .notWritable(let p, let r): "cannot export to \(p): \(r)"
        }
    }
}

extension Scene {
    /// Renders the scene (or `options.frameRange`) and writes it to `url`; the format comes from
    /// the extension: `.mp4 .mov .webm .gif`, or a folder for PNGs.
    public func export(to url: URL, options: ExportOptions = ExportOptions()) throws {
        let rate = try validated()
        let target = try ExportTarget(url: url)
        let total = rate.frameCount(forDuration: duration)
        let range = options.frameRange ?? 0..<total
        guard range.lowerBound >= 0, range.upperBound <= total, !range.isEmpty else {
            throw SceneError.invalidFrameRange("frame range \(range.lowerBound)..<\(range.upperBound) must be non-empty and within 0..<\(total)")
        }
        let folder = url.deletingLastPathComponent()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDir), isDir.boolValue else {
            throw ExportError.missingFolder(path: url.path, folder: folder.path)
        }
        guard FileManager.default.isWritableFile(atPath: folder.path) else {
            throw ExportError.notWritable(path: url.path, reason: "the folder \(folder.path) is not writable")
        }
        let temp = folder.appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let width = pixelWidth, height = pixelHeight
        let sink: FrameSink
        switch target {
        case .video(let format):
            sink = try VideoEncoder(url: temp, format: format, width: width, height: height, frameRate: rate, options: options.video)
        case .gif:
            sink = try GIFEncoder(url: temp, width: width, height: height, frameRate: rate, options: options.gif)
        case .pngSequence:
            try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: false)
            sink = PNGSequenceWriter(folder: temp, firstIndex: range.lowerBound)
        }
        do {
            try pump(range: range, rate: rate, sink: sink, options: options)
            if FileManager.default.fileExists(atPath: url.path) {
                if target == .pngSequence { try FileManager.default.removeItem(at: url) }
            }
            if rename(temp.path, url.path) != 0 {
                throw ExportError.notWritable(path: url.path, reason: String(cString: strerror(errno)))
            }
            // Temporary files are created private; the result gets the usual permissions.
            let mask = umask(0); umask(mask)
            chmod(url.path, (target == .pngSequence ? 0o777 : 0o666) & ~mask)
        } catch {
            try? FileManager.default.removeItem(at: temp)
            throw error
        }
    }

    /// Renders frames in order and feeds them to `sink` on a second thread.
    private func pump(range: Range<Int>, rate: FrameRate, sink: FrameSink, options: ExportOptions) throws {
        let queue = FrameQueue<Bitmap>(capacity: options.queueDepth)
        let failure = FailureBox()
        let done = DispatchSemaphore(value: 0)
        let count = range.count
        let started = Date()
        let progress = options.progress
        let encoderThread = Thread {
            var encoded = 0
            while let frame = queue.pop() {
                do { try sink.append(frame) } catch {
                    failure.set(error); queue.close(); break
                }
                encoded += 1
                if let progress {
                    let elapsed = Date().timeIntervalSince(started)
                    let fps = elapsed > 0 ? Double(encoded) / elapsed : 0
                    progress(ExportProgress(framesDone: encoded, frameCount: count, framesPerSecond: fps,
                                            secondsRemaining: fps > 0 ? Double(count - encoded) / fps : .infinity))
                }
            }
            if failure.error == nil {
                do { try sink.finish() } catch { failure.set(error) }
            }
            done.signal()
        }
        encoderThread.stackSize = 8 << 20
        encoderThread.start()
        var renderError: Error?
        for index in range {
            do {
                let frame = try renderFrame(at: rate.time(ofFrame: index), options: options.render)
                if !queue.push(frame) { break }
            } catch {
                renderError = error; break
            }
        }
        if renderError != nil { failure.set(renderError!) }
        queue.close()
        done.wait()
        if let e = renderError ?? failure.error { throw e }
    }
}

/// Where rendered frames go.
protocol FrameSink: AnyObject, Sendable {
    func append(_ frame: Bitmap) throws
    func finish() throws
}

extension VideoEncoder: FrameSink {}
extension GIFEncoder: FrameSink {}

/// Writes numbered PNG files into a folder.
final class PNGSequenceWriter: FrameSink, @unchecked Sendable {
    let folder: URL
    private var index: Int
    init(folder: URL, firstIndex: Int) { self.folder = folder; self.index = firstIndex }
    func append(_ frame: Bitmap) throws {
        try frame.writePNG(to: folder.appendingPathComponent(String(format: "frame_%05d.png", index)))
        index += 1
    }
    func finish() throws {}
}

/// The first error seen by either thread.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Error?
    var error: Error? { lock.lock(); defer { lock.unlock() }; return stored }
    func set(_ e: Error) { lock.lock(); if stored == nil { stored = e }; lock.unlock() }
}
