// Scene-level audio: music and voice-over placed on the scene's timeline, and players that are
// heard without being shown. Exports mix these with the audio of the players in the layer tree.
// The lists are the scene's own (`Scene.media`).
import Foundation
import Synchronization
import StrataCore
import StrataMedia

/// An audio file placed on a scene's timeline.
public struct SceneAudioTrack: Sendable, Equatable {
    /// The file (any audio or video file FFmpeg reads; its first audio stream is used).
    public var url: URL
    /// Scene time at which the track starts.
    public var start: Double
    /// Where in the file playback starts (trims the beginning), in seconds.
    public var offset: Double
    /// How long it plays; nil: to the end of the file (or of the scene).
    public var duration: Double?
    /// Linear gain, 0…1 (values above 1 amplify and may clip).
    public var volume: Float

    /// A track of `url` starting at scene time `start`, playing from `offset` seconds into the file
    /// for `duration` seconds (nil: to the end) at gain `volume`.
    public init(url: URL, start: Double = 0, offset: Double = 0, duration: Double? = nil, volume: Float = 1) {
        self.url = url
        self.start = start
        self.offset = offset
        self.duration = duration
        self.volume = volume
    }
}

extension Scene {
    /// Places the audio of `url` on the timeline: from scene time `start`, playing the file from
    /// `offset` seconds for `duration` seconds (nil: to its end) at `volume`.
    ///
    /// ```swift
    /// scene.addAudio(url: URL(fileURLWithPath: "music.m4a"), at: 0.5, offset: 12, duration: 8, volume: 0.6)
    /// ```
    public func addAudio(url: URL, at start: Double = 0, offset: Double = 0, duration: Double? = nil, volume: Float = 1) {
        media.update {
            $0.tracks.append(SceneAudioTrack(url: url, start: start, offset: offset, duration: duration, volume: volume))
        }
    }

    /// Mixes `player`'s audio into exports even though no layer shows it (a soundtrack driven
    /// by `play()`/`pause()` in scheduled blocks).
    public func addAudio(player: AVPlayer) {
        media.update { store in
            if !store.players.contains(where: { $0 === player }) { store.players.append(player) }
        }
    }

    /// The audio tracks placed with `addAudio(url:…)`.
    public var audioTracks: [SceneAudioTrack] { media.current.tracks }

    /// The players added with `addAudio(player:)`.
    public var audioPlayers: [AVPlayer] { media.current.players }
}

/// A scene's audio: its tracks and the players heard without being shown.
// @unchecked: `lists` (players are not Sendable) is read and written only while `lock` is held.
final class SceneMedia: @unchecked Sendable {
    struct Lists {
        var tracks: [SceneAudioTrack] = []
        var players: [AVPlayer] = []
    }
    private let lock = Mutex(())
    private var lists = Lists()

    func update(_ body: (inout Lists) -> Void) { lock.withCheckedLock { _ in body(&lists) } }

    var current: Lists {
        var copy = Lists()
        lock.withCheckedLock { _ in copy = lists }
        return copy
    }
}
