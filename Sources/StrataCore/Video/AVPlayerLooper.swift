// Loops one item on a queue player (AVFoundation's `AVPlayerLooper`), optionally over a time
// range of it. Creating the looper replaces the player's queue with the item (positioned at the
// range's start) at the scene time of the creating code; playback still starts with `play()`.
// **Strata:** Apple's looper fills the queue with replicas of the template item; here the one
// item wraps from the range's end to its start, which shows the same frames and needs one decoder.
import Foundation

/// Loops an item on an `AVQueuePlayer`.
public final class AVPlayerLooper {
    /// Whether the looper is working.
    public enum Status: Int, Sendable {
        /// Not yet known. **Strata:** never reported; the status is known at once.
        case unknown = 0
        /// Looping (the item opened).
        case ready = 1
        /// The item's file could not be opened.
        case failed = 2
        /// `disableLooping()` was called.
        case cancelled = 3
    }

    private weak var player: AVQueuePlayer?
    /// The item being looped.
    public let templateItem: AVPlayerItem
    private var disabled = false

    /// Loops `timeRange` of `templateItem` (`.invalid`: the whole item) on `player`.
    public init(player: AVQueuePlayer, templateItem: AVPlayerItem, timeRange: CMTimeRange = .invalid) {
        self.player = player
        self.templateItem = templateItem
        let start = timeRange.isValid && timeRange.start.isNumeric ? timeRange.start.seconds : 0
        let end: Double? = timeRange.isValid && timeRange.end.isNumeric ? timeRange.end.seconds : nil
        player.record(.startLooping(templateItem, start: start, end: end))
    }

    /// The items the looper plays (Strata: the template item itself).
    public var loopingPlayerItems: [AVPlayerItem] { [templateItem] }

    /// Completed loops at the current scene time.
    public var loopCount: Int { player?.currentState.loopCount ?? 0 }

    /// `.ready` while looping, `.failed` when the item cannot be opened, `.cancelled` after
    /// `disableLooping()`.
    public var status: Status {
        if disabled { return .cancelled }
        return templateItem.status == .failed ? .failed : .ready
    }

    /// The item's error, if it failed.
    public var error: Error? { templateItem.error }

    /// Lets the current loop play to its end, after which the player's `actionAtItemEnd` applies.
    public func disableLooping() {
        disabled = true
        player?.record(.stopLooping)
    }
}
