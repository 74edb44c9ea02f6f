// The player (AVFoundation's `AVPlayer`): plays one item on a clock driven by scene time. Calls
// take effect at the scene time of the code that makes them — while building the scene that is 0,
// inside `scene.at(t) { player.play() }` it is t — and reads (`rate`, `currentTime()`,
// `currentItem`) answer for that time too. A player starts paused at its item's time 0, as on
// iOS. The whole history lives in a `PlaybackTimeline`, so what a player shows at a scene time
// depends on nothing but the calls scheduled up to then.
//
// **Strata:** seeks are exact and instantaneous (tolerances are accepted and ignored, completion
// handlers run at once with `true`); playback never stalls or buffers.
import Foundation

/// Plays media items on the scene's clock.
open class AVPlayer {
    /// What happens when the current item reaches its end.
    public enum ActionAtItemEnd: Int, Sendable {
        /// Move to the next queued item (AVQueuePlayer's default).
        case advance = 0
        /// Pause at the end, showing the last frame (AVPlayer's default).
        case pause = 1
        /// Keep the rate but stay at the end, showing the last frame.
        case none = 2
    }

    /// Whether the player is playing.
    public enum TimeControlStatus: Int, Sendable {
        /// The rate is 0, or there is no item.
        case paused = 0
        /// Buffering before playing. **Strata:** never reported; offline frames are always ready.
        case waitingToPlayAtSpecifiedRate = 1
        /// The rate is not 0 and there is an item.
        case playing = 2
    }

    /// Whether the player can play.
    public enum Status: Int, Sendable {
        /// No current item.
        case unknown = 0
        /// The current item's file opened.
        case readyToPlay = 1
        /// The current item's file could not be opened; `error` says why.
        case failed = 2
    }

    /// A process-unique number for the player.
    public let identifier: UInt64
    var timeline: PlaybackTimeline

    /// The rate `play()` uses; 1 by default.
    public var defaultRate: Float = 1

    /// A player with no item.
    public convenience init() {
        self.init(playerItem: nil)
    }

    /// A player of the file at `url`.
    public convenience init(url: URL) {
        self.init(playerItem: AVPlayerItem(url: url))
    }

    /// A player of `item` (nil: none yet).
    public init(playerItem item: AVPlayerItem?) {
        identifier = PlayerIdentity.next()
        timeline = PlaybackTimeline(initial: PlaybackState(
            time: 0, queue: item.map { [$0] } ?? [], itemTime: 0, rate: 0, isMuted: false, volume: 1,
            actionAtItemEnd: .pause, loopCount: 0, loop: nil))
    }

    init(items: [AVPlayerItem], actionAtItemEnd: ActionAtItemEnd) {
        identifier = PlayerIdentity.next()
        timeline = PlaybackTimeline(initial: PlaybackState(
            time: 0, queue: items, itemTime: 0, rate: 0, isMuted: false, volume: 1,
            actionAtItemEnd: actionAtItemEnd, loopCount: 0, loop: nil))
    }

    // MARK: State at the current scene time

    /// The player's state at the scene time of the running code.
    public var currentState: PlaybackState { timeline.state(at: CACurrentMediaTime()) }

    /// The player's state at scene time `t`.
    public func state(atSceneTime t: Double) -> PlaybackState { timeline.state(at: t) }

    /// The intervals of [from, to) in which the player plays an item forwards (what the audio
    /// mixer places).
    public func playbackSegments(from: Double, to: Double) -> [PlaybackSegment] {
        var result: [PlaybackSegment] = []
        let player = identifier
        timeline.segments(from: from, to: to) { state, length in
            guard let item = state.currentItem, state.rate > 0, length > 0 else { return }
            result.append(PlaybackSegment(url: item.url, itemIdentifier: item.identifier, playerIdentifier: player,
                                          sceneStart: state.time, sceneEnd: state.time + length,
                                          itemStart: state.itemTime, rate: state.rate, gain: state.gain,
                                          hasAudio: item.frameSource?.hasAudio ?? false))
        }
        return result
    }

    func record(_ event: PlaybackEvent) {
        timeline.record(event, at: CACurrentMediaTime())
    }

    // MARK: AVPlayer API

    /// The item playing now.
    public var currentItem: AVPlayerItem? { currentState.currentItem }

    /// Replaces the current item (playback continues at the same rate from the new item's start).
    public func replaceCurrentItem(with item: AVPlayerItem?) { record(.replaceCurrentItem(item)) }

    /// The playback rate: 0 paused, 1 normal speed, 2 double, negative backwards.
    public var rate: Float {
        get { Float(currentState.rate) }
        set { record(.rate(Double(newValue))) }
    }

    /// Plays at `defaultRate`.
    public func play() { record(.rate(Double(defaultRate))) }

    /// Pauses (rate 0).
    public func pause() { record(.rate(0)) }

    /// Whether the player is playing now.
    public var timeControlStatus: TimeControlStatus {
        let s = currentState
        return s.rate != 0 && s.currentItem != nil ? .playing : .paused
    }

    /// `.readyToPlay` when the current item opened, `.failed` when it did not.
    public var status: Status {
        guard let item = currentItem else { return .unknown }
        return item.status == .failed ? .failed : .readyToPlay
    }

    /// The error of the current item, if it failed.
    public var error: Error? { currentItem?.error }

    /// Jumps to `time` in the current item (clamped to the item).
    public func seek(to time: CMTime) {
        guard time.isNumeric else { return }
        record(.seek(time.seconds))
    }

    /// Jumps to `time`; Strata's seeks are always exact, so the tolerances do not matter.
    public func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) { seek(to: time) }

    /// Jumps to `time` and calls `completionHandler(true)` (seeks complete at once).
    public func seek(to time: CMTime, completionHandler: @escaping (Bool) -> Void) {
        seek(to: time)
        completionHandler(true)
    }

    /// The current item's time now.
    public func currentTime() -> CMTime {
        CMTime(seconds: currentState.itemTime, preferredTimescale: 600_000)
    }

    /// Silences the player's audio.
    public var isMuted: Bool {
        get { currentState.isMuted }
        set { record(.muted(newValue)) }
    }

    /// The audio gain, 0…1 (linear).
    public var volume: Float {
        get { currentState.volume }
        set { record(.volume(newValue)) }
    }

    /// What happens at the end of the current item; `.pause` by default (`.advance` for
    /// `AVQueuePlayer`).
    public var actionAtItemEnd: ActionAtItemEnd {
        get { currentState.actionAtItemEnd }
        set { record(.actionAtItemEnd(newValue)) }
    }
}

enum PlayerIdentity {
    private static let counter = LockedCounter()
    static func next() -> UInt64 { counter.next() }
}
