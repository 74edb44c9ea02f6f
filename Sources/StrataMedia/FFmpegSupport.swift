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

    /// Lowers FFmpeg's log level from the default (info) to errors, once per process.
    static let quietLogging: Void = {
        if av_log_get_level() == AV_LOG_INFO { av_log_set_level(AV_LOG_ERROR) }
    }()

    /// A C string as a Swift string, or nil.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
