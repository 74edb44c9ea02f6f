// The media side of one export, on the scene's thread: installs the FFmpeg decoders, finds the
// players (in the layer tree, frame by frame, and those added with `scene.addAudio(player:)`),
// checks their items and the scene's audio files before and during rendering (a missing or
// corrupt file stops the export with an error naming it, or shows a placeholder with a warning),
// decides whether the file gets an audio track, and after each rendered frame turns the players'
// timelines into the audio intervals the mixer places. Audio for [t(k−1), t(k)) is final once
// frame k has been rendered: every call scheduled before t(k) has run by then.
import Foundation
import StrataCore
import StrataMedia

/// The `Strata` target's explicit registration of FFmpeg's decoder with Core's player model.
enum MediaDecoders {
    /// Installs the FFmpeg frame source unless the program installed its own (once; run when a
    /// scene is made and before each export).
    static let install: Void = {
        VideoFrameSources.registerDefault { try FFmpegVideoSource(url: $0) }
    }()
}

final class ExportMediaSession {
    private let scene: Scene
    private let options: ExportOptions
    private var players: [AVPlayer] = []
    private var knownPlayers = Set<UInt64>()
    private var checkedItems = Set<UInt64>()
    private var failedItems = Set<UInt64>()
    /// Whether the output gets an audio track.
    private(set) var wantsAudio = false
    /// Scene time of the first exported frame (audio sample 0).
    let origin: Double
    /// Scene time up to which audio intervals have been handed out.
    private var audioTime: Double
    /// Intervals of the scene's own tracks, handed out with the first batch.
    private var trackSegments: [MixSegment] = []

    init(scene: Scene, options: ExportOptions, origin: Double, end: Double, carriesAudio: Bool) throws {
        _ = MediaDecoders.install
        self.scene = scene
        self.options = options
        self.origin = origin
        audioTime = origin
        // Items and tracks are opened under the scene's limits.
        try scene.mediaContext.run { try start(end: end, carriesAudio: carriesAudio) }
    }

    private func start(end: Double, carriesAudio: Bool) throws {
        for p in scene.audioPlayers { adopt(p) }
        discoverPlayers()
        try checkItems(at: origin)

        // Scene tracks: open each file now, so a missing one fails before any rendering.
        var sceneHasAudio = !scene.audioPlayers.isEmpty
        for (i, track) in scene.audioTracks.enumerated() {
            let length: Double
            do {
                let decoder = try AudioDecoder(url: track.url, limits: scene.mediaContext.limits)
                length = track.duration ?? max(0, decoder.duration - track.offset)
            } catch {
                if options.mediaFailure == .fail { throw error }
                Self.warn(options, "\(error) (its audio is left out)")
                continue
            }
            sceneHasAudio = true
            let start = track.start, stop = min(track.start + length, end)
            guard stop > origin, stop > start else { continue }
            trackSegments.append(MixSegment(url: track.url, voiceKey: "track-\(i)", sceneStart: start, sceneEnd: stop,
                                            itemStart: track.offset, rate: 1, gain: track.volume, limits: scene.mediaContext.limits))
        }
        switch options.audio.mode {
        case .never: wantsAudio = false
        case .always: wantsAudio = carriesAudio
        case .automatic:
            let playersHaveAudio = players.contains { p in
                p.state(atSceneTime: origin).queue.contains { $0.frameSource?.hasAudio == true }
            }
            wantsAudio = carriesAudio && (sceneHasAudio || playersHaveAudio)
        }
    }

    /// After frame k (at `time`) is rendered: new players, item checks, and the audio intervals
    /// of [previous time, time).
    func afterFrame(at time: Double) throws -> [MixSegment] {
        try scene.mediaContext.run {
            discoverPlayers()
            try checkItems(at: time)
            return segments(until: time)
        }
    }

    /// The intervals up to the end of the export (after the last frame).
    func finish(at end: Double) -> [MixSegment] {
        segments(until: end)
    }

    // MARK: - Players

    private func adopt(_ player: AVPlayer) {
        if knownPlayers.insert(player.identifier).inserted { players.append(player) }
    }

    private func discoverPlayers() {
        func walk(_ layer: CALayer) {
            if let p = (layer as? AVPlayerLayer)?.player { adopt(p) }
            if let m = layer.mask { walk(m) }
            layer.sublayers?.forEach(walk)
        }
        walk(scene.rootLayer)
    }

    /// Opens the items queued at `time`; a failed one stops the export (or warns once).
    private func checkItems(at time: Double) throws {
        for player in players {
            let state = player.state(atSceneTime: time)
            for (i, item) in state.queue.enumerated() {
                // Items are opened once; the current one is re-checked for decoding failures.
                guard i == 0 || !checkedItems.contains(item.identifier) else { continue }
                checkedItems.insert(item.identifier)
                guard item.status == .failed, let error = item.error else { continue }
                if options.mediaFailure == .fail { throw error }
                if failedItems.insert(item.identifier).inserted {
                    Self.warn(options, "\(error) (showing a placeholder)")
                }
            }
        }
    }

    static func warn(_ options: ExportOptions, _ message: String) {
        if let handler = options.warning {
            handler(message)
        } else {
            FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
        }
    }

    // MARK: - Audio

    private func segments(until time: Double) -> [MixSegment] {
        guard wantsAudio else { return [] }
        var result = trackSegments
        trackSegments = []
        guard time > audioTime else { return result }
        for player in players {
            for s in player.playbackSegments(from: audioTime, to: time) where s.hasAudio && !failedItems.contains(s.itemIdentifier) {
                result.append(MixSegment(url: s.url, voiceKey: "player-\(s.playerIdentifier)-item-\(s.itemIdentifier)",
                                         sceneStart: s.sceneStart, sceneEnd: s.sceneEnd, itemStart: s.itemStart,
                                         rate: s.rate, gain: s.gain, limits: scene.mediaContext.limits))
            }
        }
        audioTime = time
        return result
    }
}
