// Joining chunks of one render (`strata render --frames A..B` on several machines) into one file,
// without re-encoding: MP4/MOV/WebM packets are copied by libavformat (`VideoPartJoiner`), GIF
// frames by giflib with their compressed data as is (`GIFPartJoiner`). Every part is checked
// against the first before anything is written (same streams, codecs, sizes, frame rates, stream
// headers); the result is written under a temporary name in the destination folder and renamed
// when complete, so a failure leaves no file behind, not even the temporary one.
//
// Chunks rendered by Strata carry their own frame times (a chunk of frames 300…599 starts at
// 300 / fps) and start with a keyframe of a closed GOP; when every chunk starts on a multiple of
// the keyframe interval, the joined file decodes to exactly the frames of a whole render (for GIF
// with `keyframeInterval` set, it is the same file byte for byte).
import Foundation
import StrataCore

/// Joins video or GIF chunks end to end without re-encoding them.
///
/// ```swift
/// let parts = ["c0.mp4", "c1.mp4", "c2.mp4"].map { URL(fileURLWithPath: $0) }
/// let joined = try MediaConcatenator.concatenate(parts, to: URL(fileURLWithPath: "out.mp4"))
/// print(joined.frames, joined.duration)
/// ```
public enum MediaConcatenator {
    /// What a join wrote.
    public struct Result: Sendable, Equatable {
        /// The container written.
        public var format: ContainerFormat
        /// Video frames (GIF images) in the joined file.
        public var frames: Int
        /// Its length in seconds (the video track's; the sum of the delays for GIF).
        public var duration: Double
    }

    /// Joins `parts`, in the order given, into `output`: `.mp4 .mov .webm` parts into a video
    /// file of any of those containers that can hold their codecs, `.gif` parts into a GIF.
    /// Throws `MediaError.cannotJoin` naming the part (or the output) and what was expected;
    /// nothing is left at `output`, or beside it, after an error.
    @discardableResult
    public static func concatenate(_ parts: [URL], to output: URL) throws -> Result {
        _ = FFmpegSupport.quietLogging
        let out = output.standardizedFileURL
        let ext = out.pathExtension.lowercased()
        guard let format = ContainerFormat(pathExtension: ext), format != .webp else {
            throw MediaError.cannotJoin(path: out.path, reason: ext.isEmpty
                ? "the output needs an extension: .mp4, .mov, .webm or .gif"
                : "unknown extension '.\(ext)' for the output (expected .mp4, .mov, .webm or .gif)")
        }
        guard !parts.isEmpty else { throw MediaError.cannotJoin(path: out.path, reason: "no parts were given") }
        for (i, part) in parts.enumerated() {
            let label = Self.label(part, i, parts.count)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: part.path, isDirectory: &isDirectory) else {
                throw MediaError.cannotJoin(path: label, reason: "the file does not exist")
            }
            guard !isDirectory.boolValue else { throw MediaError.cannotJoin(path: label, reason: "it is a folder, not a media file") }
            if let refusal = InputFile.refusal(at: part.path) { throw MediaError.cannotJoin(path: label, reason: refusal) }
            guard FileManager.default.isReadableFile(atPath: part.path) else {
                throw MediaError.cannotJoin(path: label, reason: "the file is not readable")
            }
            let partExt = part.pathExtension.lowercased()
            guard let partFormat = ContainerFormat(pathExtension: partExt), partFormat != .webp else {
                throw MediaError.cannotJoin(path: label, reason: "unknown extension '.\(partExt)' (expected .mp4, .mov, .webm or .gif parts)")
            }
            if (partFormat == .gif) != (format == .gif) {
                throw MediaError.cannotJoin(path: label, reason: format == .gif
                    ? "it is \(partFormat.withArticle) file, but the output is a GIF (GIFs join with GIFs only)"
                    : "it is a GIF, but the output is \(format.withArticle) file (GIFs join with GIFs only)")
            }
            if part.standardizedFileURL.path == out.path {
                throw MediaError.cannotJoin(path: label, reason: "it is also the output file; write the joined file elsewhere")
            }
        }
        let folder = out.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MediaError.cannotJoin(path: out.path, reason: "the folder \(folder.path) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder.path) else {
            throw MediaError.cannotJoin(path: out.path, reason: "the folder \(folder.path) is not writable")
        }
        if let reason = OutputDestination.refusal(at: out.path) { throw MediaError.cannotJoin(path: out.path, reason: reason) }
        TemporaryOutput.removeAbandonedOnce(in: folder)
        let temp = TemporaryOutput.url(for: out)
        do {
            let result: Result
            if format == .gif {
                result = try GIFPartJoiner(parts: parts, output: temp, finalPath: out.path).join()
            } else {
                result = try VideoPartJoiner(parts: parts, output: temp, format: format, finalPath: out.path).join()
            }
            if rename(temp.path, out.path) != 0 {
                throw MediaError.cannotJoin(path: out.path, reason: String(cString: strerror(errno)))
            }
            FilePermissions.applyDefaultMode(to: out.path)
            return result
        } catch {
            try? FileManager.default.removeItem(at: temp)
            throw error
        }
    }

    /// "/x/c1.mp4 (part 2 of 3)".
    static func label(_ part: URL, _ index: Int, _ count: Int) -> String {
        "\(part.path) (part \(index + 1) of \(count))"
    }
}

extension ContainerFormat {
    /// "an MP4", "a MOV", "a WebM".
    var withArticle: String { (self == .mp4 ? "an " : "a ") + displayName }
}
