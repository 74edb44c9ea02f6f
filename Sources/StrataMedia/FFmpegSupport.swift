// Small glue between Swift and FFmpeg's C API shared by the encoder and the probe: error codes to
// text, the `file:` URL form that stops FFmpeg reading a colon in a path as a protocol, and a
// one-time lowering of FFmpeg's log level so that encoders do not chatter on stderr.
import Foundation
import CFFmpeg

enum FFmpegSupport {
    /// FFmpeg's text for a negative error code ("No such file or directory", "Invalid argument").
    static func errorString(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let text: String = buffer.withUnsafeMutableBufferPointer { buf in
            if av_strerror(code, buf.baseAddress, buf.count) < 0 { return "error \(code)" }
            return String(cString: buf.baseAddress!)
        }
        return text
    }

    /// The URL FFmpeg should open for a local file path.
    static func fileURL(_ path: String) -> String { "file:" + path }

    /// Silences FFmpeg's own log (once per process): every failure reaches the caller as an
    /// error naming the file and the reason, and FFmpeg's lines would name temporary files and
    /// repeat it. `STRATA_FFMPEG_LOG=error|warning|info|verbose|debug` turns it back on.
    static let quietLogging: Void = {
        guard av_log_get_level() == AV_LOG_INFO else { return }
        let levels = ["quiet": AV_LOG_QUIET, "error": AV_LOG_ERROR, "warning": AV_LOG_WARNING, "info": AV_LOG_INFO,
                      "verbose": AV_LOG_VERBOSE, "debug": AV_LOG_DEBUG]
        let wanted = ProcessInfo.processInfo.environment["STRATA_FFMPEG_LOG"].flatMap { levels[$0.lowercased()] }
        av_log_set_level(wanted ?? AV_LOG_QUIET)
    }()

    /// A C string as a Swift string, or nil.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
