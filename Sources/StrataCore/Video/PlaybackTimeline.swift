// The player's clock as a pure function of its scheduled calls. Every call that changes playback
// (`play`, `pause`, `rate`, `seek`, queue changes, looping, volume) is recorded with the scene
// time of the code that made it (`CACurrentMediaTime()`). Between two calls the item time moves
// linearly at the rate, until the item's end, where `actionAtItemEnd` (or a looper) decides what
// follows. The state after each call is kept as a checkpoint, so the state at any scene time is
// "the last checkpoint at or before it, advanced" — the same value whether frames are rendered in
// order or one alone (random access), and the same segments the audio mixer places.
import Foundation

/// What a player does at one scene time.
public struct PlaybackState {
    /// The scene time the state describes.
    public internal(set) var time: Double
    /// The queue; the first item is the current one.
    public internal(set) var queue: [AVPlayerItem]
    /// The current item's time in seconds.
    public internal(set) var itemTime: Double
    /// The playback rate (0 paused).
    public internal(set) var rate: Double
    /// Whether the player is muted (`AVPlayer.isMuted`).
    public internal(set) var isMuted: Bool
    /// The player's volume, 0…1 (`AVPlayer.volume`).
    public internal(set) var volume: Float
    /// What the player does when the current item ends.
    public internal(set) var actionAtItemEnd: AVPlayer.ActionAtItemEnd
    /// Completed loops of an `AVPlayerLooper`.
    public internal(set) var loopCount: Int
    var loop: Loop?

    struct Loop {
        let item: AVPlayerItem
        let start: Double
        let end: Double?
        var isEnabled: Bool
    }

    /// The current item, if any.
    public var currentItem: AVPlayerItem? { queue.first }
    /// The gain audio plays at: the volume, or 0 when muted.
    public var gain: Float { isMuted ? 0 : volume }
}

/// An interval of scene time during which a player plays an item forwards (for audio).
public struct PlaybackSegment: Sendable, Equatable {
    /// The item's file.
    public var url: URL
    /// The item (`AVPlayerItem.identifier`).
    public var itemIdentifier: UInt64
    /// The player (a process-unique number).
    public var playerIdentifier: UInt64
    /// Scene time where the segment starts and ends.
    public var sceneStart: Double
    /// Scene time where the segment ends.
    public var sceneEnd: Double
    /// The item time at `sceneStart`.
    public var itemStart: Double
    /// Item seconds per scene second (> 0).
    public var rate: Double
    /// Linear gain (volume, 0 when muted).
    public var gain: Float
    /// Whether the item's file has audio.
    public var hasAudio: Bool
}

/// A change of playback, applied at a scene time.
enum PlaybackEvent {
    case rate(Double)
    case seek(Double)
    case muted(Bool)
    case volume(Float)
    case actionAtItemEnd(AVPlayer.ActionAtItemEnd)
    case replaceCurrentItem(AVPlayerItem?)
    case insert(AVPlayerItem, after: AVPlayerItem?)
    case remove(AVPlayerItem)
    case removeAll
    case advanceToNextItem
    case startLooping(AVPlayerItem, start: Double, end: Double?)
    case stopLooping
}

/// The recorded calls of one player and the checkpoints after each.
struct PlaybackTimeline {
    private var events: [(time: Double, event: PlaybackEvent)] = []
    private var checkpoints: [PlaybackState] = []
    private let initial: PlaybackState

    init(initial: PlaybackState) {
        self.initial = initial
    }

    /// Records `event` at scene time `time`. Calls arrive in time order as a scene runs; a call
    /// at an earlier time (a player reused by another scene) is inserted and the later
    /// checkpoints are recomputed.
    mutating func record(_ event: PlaybackEvent, at time: Double) {
        let t = max(0, time)
        var index = events.count
        while index > 0 && events[index - 1].time > t { index -= 1 }
        events.insert((t, event), at: index)
        checkpoints.removeSubrange(min(index, checkpoints.count)...)
        var state = index == 0 ? initial : checkpoints[index - 1]
        for i in index..<events.count {
            Self.advance(&state, to: events[i].time, emit: nil)
            Self.apply(events[i].event, to: &state)
            checkpoints.append(state)
        }
    }

    /// The state at scene time `t` (every call at or before `t` applied).
    func state(at t: Double) -> PlaybackState {
        var lo = 0, hi = events.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if events[mid].time <= t { lo = mid + 1 } else { hi = mid }
        }
        var state = lo == 0 ? initial : checkpoints[lo - 1]
        Self.advance(&state, to: t, emit: nil)
        return state
    }

    /// The forward-playing intervals within [from, to), as (state at the start, duration).
    func segments(from: Double, to: Double, emit: (PlaybackState, Double) -> Void) {
        guard to > from else { return }
        var state = self.state(at: from)
        withoutActuallyEscaping(emit) { emit in
            for e in events where e.time > from && e.time < to {
                Self.advance(&state, to: e.time, emit: emit)
                Self.apply(e.event, to: &state)
            }
            Self.advance(&state, to: to, emit: emit)
        }
    }

    // MARK: - The state machine

    /// Where forward playback of the current item stops (the loop end, a trim, or its end).
    private static func end(of state: PlaybackState, _ item: AVPlayerItem) -> Double {
        let itemEnd = item.playableEnd
        if let loop = state.loop, loop.isEnabled, loop.item === item, let e = loop.end { return min(e, itemEnd) }
        return itemEnd
    }

    /// Moves the state's clock to `t`, handling item ends; `emit` receives each forward-playing
    /// interval (the state at its start and its length in scene seconds).
    static func advance(_ state: inout PlaybackState, to t: Double, emit: ((PlaybackState, Double) -> Void)?) {
        var guardCount = 0
        while state.time < t {
            guardCount += 1
            guard guardCount < 1_000_000, let item = state.queue.first, state.rate != 0 else { break }
            let remaining = t - state.time
            if state.rate > 0 {
                let end = end(of: state, item)
                if state.itemTime < end {
                    let need = (end - state.itemTime) / state.rate
                    if need > remaining {
                        emit?(state, remaining)
                        state.itemTime += state.rate * remaining
                        state.time = t
                        break
                    }
                    emit?(state, need)
                    state.time += need
                    state.itemTime = end
                }
                // At the end of the item.
                if let loop = state.loop, loop.isEnabled, loop.item === item {
                    let start = min(loop.start, end)
                    if end - start <= 0 { state.rate = 0; break }
                    state.itemTime = start
                    state.loopCount += 1
                    // Whole loops need no segments for the picture: skip them at once.
                    let period = (end - start) / state.rate
                    let left = t - state.time
                    if emit == nil, left >= period {
                        let n = (left / period).rounded(.down) - 1
                        if n >= 1 {
                            state.time += n * period
                            state.loopCount += Int(n)
                        }
                    }
                    continue
                }
                switch state.actionAtItemEnd {
                case .pause:
                    state.rate = 0
                case .none:
                    state.time = t
                case .advance:
                    state.queue.removeFirst()
                    state.itemTime = 0
                    if state.loop?.item === item { state.loop = nil }
                }
            } else {
                // Backwards: down to the start, then stop.
                let need = state.itemTime / -state.rate
                if need > remaining {
                    state.itemTime += state.rate * remaining
                    state.time = t
                    break
                }
                state.time += need
                state.itemTime = 0
                state.rate = 0
            }
        }
        state.time = max(state.time, t)
    }

    static func apply(_ event: PlaybackEvent, to state: inout PlaybackState) {
        switch event {
        case .rate(let r):
            state.rate = r.isFinite ? r : 0
        case .seek(let s):
            let end = state.queue.first.map { $0.playableEnd } ?? 0
            state.itemTime = min(max(0, s.isFinite ? s : 0), end)
        case .muted(let m):
            state.isMuted = m
        case .volume(let v):
            state.volume = max(0, v)
        case .actionAtItemEnd(let a):
            state.actionAtItemEnd = a
        case .replaceCurrentItem(let item):
            if state.loop != nil, state.loop?.item === state.queue.first { state.loop = nil }
            if !state.queue.isEmpty { state.queue.removeFirst() }
            if let item { state.queue.insert(item, at: 0) }
            state.itemTime = 0
        case .insert(let item, let after):
            guard !state.queue.contains(where: { $0 === item }) else { return }
            if let after, let i = state.queue.firstIndex(where: { $0 === after }) {
                state.queue.insert(item, at: i + 1)
            } else {
                state.queue.append(item)
            }
            if state.queue.count == 1 { state.itemTime = 0 }
        case .remove(let item):
            guard let i = state.queue.firstIndex(where: { $0 === item }) else { return }
            state.queue.remove(at: i)
            if i == 0 { state.itemTime = 0 }
            if state.loop?.item === item { state.loop = nil }
        case .removeAll:
            state.queue.removeAll()
            state.itemTime = 0
            state.loop = nil
        case .advanceToNextItem:
            if !state.queue.isEmpty {
                if state.loop?.item === state.queue[0] { state.loop = nil }
                state.queue.removeFirst()
            }
            state.itemTime = 0
        case .startLooping(let item, let start, let end):
            state.queue = [item]
            state.itemTime = max(0, start)
            state.loop = PlaybackState.Loop(item: item, start: max(0, start), end: end, isEnabled: true)
            state.loopCount = 0
        case .stopLooping:
            state.loop?.isEnabled = false
        }
    }
}
