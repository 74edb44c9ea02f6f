// A media file as a player plays it (AVFoundation's `AVPlayerItem`). The item opens its file the
// first time something needs it (its duration, a frame) through `VideoFrameSources`; a file that
// cannot be opened makes the item `.failed` with an `error` naming the file. Each item holds one
// decoder, and an item plays in one player, so there is one decoder per (file, player): two
// players of the same file each make their own item.
import Foundation

/// The playback model of one media file.
open class AVPlayerItem: CustomStringConvertible {
    /// Whether the item can play.
    public enum Status: Int, Sendable {
        /// Not opened yet.
        case unknown
        /// Opened: duration and frames are available.
        case readyToPlay
        /// The file could not be opened or decoded; see `error`.
        case failed
    }

    /// The media file.
    public let url: URL
    /// A process-unique number (a Sendable key for the item in the export pipeline).
    public let identifier: UInt64
    /// The item's end when it plays forwards (AVFoundation's trim): `.invalid` (the default)
    /// plays to the end of the media.
    public var forwardPlaybackEndTime: CMTime = .invalid

    private var source: VideoFrameSource?
    private var loadError: Error?
    private var loaded = false

    /// An item for the media file at `url` (opened on first use).
    public init(url: URL) {
        self.url = url
        self.identifier = ItemIdentity.next()
    }

    /// The status after trying to open the file (opening it if that has not been tried).
    public var status: Status {
        load()
        return source != nil && loadError == nil ? .readyToPlay : .failed
    }

    /// Why the item failed, naming the file; nil while it plays.
    public var error: Error? {
        load()
        return loadError
    }

    /// The media's length (`.indefinite` when the file cannot be opened).
    public var duration: CMTime {
        guard let s = frameSource else { return .indefinite }
        return CMTime(seconds: s.duration, preferredTimescale: 600_000)
    }

    /// The size of the video as shown (sample aspect ratio and rotation applied).
    public var presentationSize: CGSize {
        guard let s = frameSource else { return .zero }
        return CGSize(width: s.naturalSize.width, height: s.naturalSize.height)
    }

    /// The decoder of the item's file, opening it on first use; nil when it failed.
    public var frameSource: VideoFrameSource? {
        load()
        return source
    }

    /// The time at which forward playback ends, in seconds: the trim point or the duration.
    var playableEnd: Double {
        guard let s = frameSource else { return 0 }
        let end = forwardPlaybackEndTime.isNumeric ? forwardPlaybackEndTime.seconds : s.duration
        return max(0, min(end, s.duration))
    }

    /// Records a failure met after opening (a frame that cannot be decoded).
    public func recordFailure(_ error: Error) {
        if loadError == nil { loadError = error }
    }

    /// Opens the file once.
    private func load() {
        guard !loaded else { return }
        loaded = true
        loadError = nil
        do {
            source = try VideoFrameSources.makeSource(url: url)
        } catch VideoSourceError.noDecoder {
            // Not the file's fault: try again once a decoder is installed.
            loaded = false
            loadError = VideoSourceError.noDecoder
        } catch {
            loadError = error
        }
    }

    open var description: String { "<AVPlayerItem \(url.lastPathComponent)>" }
}

enum ItemIdentity {
    private static let counter = LockedCounter()
    static func next() -> UInt64 { counter.next() }
}
