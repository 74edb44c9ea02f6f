// The one error type of the media stage. Every case names the file it concerns and says what went
// wrong in words a user can act on ("cannot open /x/y.mp4 for writing: No such file or directory",
// "cannot encode /x/y.mp4: width 641 must be even for yuv420p"); library error codes are turned
// into their text by the encoder or decoder that met them.
import Foundation

/// An error from encoding, decoding or probing a media file.
public enum MediaError: Error, CustomStringConvertible, LocalizedError, Equatable, Sendable {
    /// The file could not be created or opened for writing.
    case cannotWrite(path: String, reason: String)
    /// The file could not be opened or read as media.
    case cannotRead(path: String, reason: String)
    /// The frame size cannot be encoded with the chosen format or settings.
    case invalidFrameSize(path: String, reason: String)
    /// An appended frame's size differs from the size the encoder was created with.
    case frameSizeMismatch(path: String, frameIndex: Int, width: Int, height: Int, expectedWidth: Int, expectedHeight: Int)
    /// The encoder the options ask for is not part of this FFmpeg build.
    case encoderUnavailable(path: String, encoder: String)
    /// The container, codec and pixel format do not go together.
    case unsupportedCombination(path: String, reason: String)
    /// An option value is out of range or unknown.
    case invalidOption(path: String, reason: String)
    /// A library call failed while working on the file.
    case libraryFailure(path: String, operation: String, reason: String)
    /// A frame was appended, or `finish()` called, after the encoder had finished or failed.
    case alreadyFinished(path: String)
    /// `finish()` was called before any frame was appended.
    case noFrames(path: String)
    /// Chunks could not be joined: a part is missing, unreadable or does not match the first
    /// part, or the output cannot be written (`path` is the part or the output concerned).
    case cannotJoin(path: String, reason: String)

    /// The message naming the file and what went wrong.
    public var description: String {
        switch self {
        case let .cannotWrite(path, reason):
            return "cannot open \(path) for writing: \(reason)"
        case let .cannotRead(path, reason):
            return "cannot open \(path) for reading: \(reason)"
        case let .invalidFrameSize(path, reason):
            return "cannot encode \(path): \(reason)"
        case let .frameSizeMismatch(path, index, w, h, ew, eh):
            return "cannot encode \(path): frame \(index) is \(w)×\(h) but the encoder was created for \(ew)×\(eh)"
        case let .encoderUnavailable(path, encoder):
            return "cannot encode \(path): the \(encoder) encoder is not available in this FFmpeg build"
        case let .unsupportedCombination(path, reason):
            return "cannot encode \(path): \(reason)"
        case let .invalidOption(path, reason):
            return "cannot encode \(path): \(reason)"
        case let .libraryFailure(path, operation, reason):
            return "\(operation) failed for \(path): \(reason)"
        case let .alreadyFinished(path):
            return "\(path) is already finished (or failed); no more frames can be written"
        case let .noFrames(path):
            return "no frames were appended to \(path)"
        case let .cannotJoin(path, reason):
            return "cannot join \(path): \(reason)"
        }
    }

    /// The same message as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension MediaError {
    /// The checks an encoder makes of each frame before it takes it: the file is still open
    /// (`alreadyFinished`) and the frame is the encoder's size (`frameSizeMismatch`, naming the
    /// frame's index among those appended).
    static func checkAppend(to path: String, isOpen: Bool, frameIndex: Int, width: Int, height: Int,
                            expectedWidth: Int, expectedHeight: Int) throws {
        guard isOpen else { throw MediaError.alreadyFinished(path: path) }
        guard width == expectedWidth, height == expectedHeight else {
            throw MediaError.frameSizeMismatch(path: path, frameIndex: frameIndex, width: width, height: height,
                                               expectedWidth: expectedWidth, expectedHeight: expectedHeight)
        }
    }
}
