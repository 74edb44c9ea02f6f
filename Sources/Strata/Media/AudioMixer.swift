// The audio mixing stage of an export: the intervals in which players play (and the scene's own
// audio tracks) in, one interleaved float stream at the output rate out. Each interval says which
// file plays from which item time, at which rate and gain, over which span of scene time; spans
// are placed at sample positions round((t − origin) · rate). Intervals of the same player and
// item that continue each other (the export hands them over frame by frame) extend one voice, so
// a clip that plays for a minute is decoded as one continuous stream; anything else (a seek, a
// loop, a rate change) starts a voice with a fresh, sample-accurate seek. Decoders are reused per
// file. Voices are summed with their gains and the sum is clipped to −1…1. Runs on the encoder
// thread; memory is the decoders plus one block.
import Foundation
import StrataCore
import StrataMedia

/// One interval of audio to place (Sendable, built on the scene thread).
struct MixSegment: Sendable {
    var url: URL
    /// Identifies a continuous voice (player and item, or a scene track).
    var voiceKey: String
    var sceneStart: Double
    var sceneEnd: Double
    var itemStart: Double
    var rate: Double
    var gain: Float
    /// The limits of the scene the audio belongs to, which its file is opened under.
    var limits: MediaLimits
}

final class AudioMixer {
    let sampleRate: Int
    let channels: Int
    /// Scene time of output sample 0.
    let origin: Double
    /// Output samples produced so far (per channel).
    private(set) var cursor: Int64 = 0

    private final class Voice {
        let key: String
        let url: URL
        let decoder: AudioDecoder
        var start: Int64
        var end: Int64
        var rate: Double
        /// Item time at `end` (to recognise the continuing interval).
        var itemEnd: Double
        /// Gain changes: (from sample, gain), ascending.
        var gains: [(Int64, Float)]
        var exhausted = false
        init(key: String, url: URL, decoder: AudioDecoder, start: Int64, end: Int64, rate: Double, itemEnd: Double, gain: Float) {
            self.key = key; self.url = url; self.decoder = decoder; self.start = start; self.end = end
            self.rate = rate; self.itemEnd = itemEnd; self.gains = [(start, gain)]
        }
    }

    private var pending: [MixSegment] = []
    private var voices: [Voice] = []
    private var idleDecoders: [URL: [AudioDecoder]] = [:]
    private var scratch: [Float] = []

    /// Called instead of failing when a file cannot be decoded; nil: such errors are thrown.
    private let onFailure: ((Error) -> Void)?
    private var failedURLs = Set<URL>()

    init(sampleRate: Int, channels: Int, origin: Double, onFailure: ((Error) -> Void)? = nil) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.origin = origin
        self.onFailure = onFailure
    }

    /// Whether audio plays at `rate`: Apple's varispeed algorithm covers 1/32…32 and mutes the
    /// audio outside it (so does Strata; it also bounds the resampler's ratio).
    static func isAudible(rate: Double) -> Bool { rate >= 1.0 / 32 && rate <= 32 }

    func sample(at t: Double) -> Int64 { Int64(((t - origin) * Double(sampleRate)).rounded()) }

    /// Queues intervals to place (in any order; they are placed when the output reaches them).
    func add(_ segments: [MixSegment]) {
        pending.append(contentsOf: segments.filter { $0.sceneEnd > $0.sceneStart && Self.isAudible(rate: $0.rate) })
        pending.sort { ($0.sceneStart, $0.voiceKey) < ($1.sceneStart, $1.voiceKey) }
    }

    /// The mix of samples [cursor, end), interleaved.
    func render(through end: Int64) throws -> [Float] {
        guard end > cursor else { return [] }
        let count = Int(end - cursor)
        var out = [Float](repeating: 0, count: count * channels)
        // Start or extend voices for the intervals that begin before `end`.
        while let s = pending.first, sample(at: s.sceneStart) < end {
            pending.removeFirst()
            guard !failedURLs.contains(s.url) else { continue }
            do {
                try place(s)
            } catch {
                guard let onFailure else { throw error }
                failedURLs.insert(s.url)
                onFailure(error)
            }
        }
        // Voices that ended before this block (and were not continued) give their decoders back;
        // one that ends exactly at the block's start may still be continued, so they wait a block.
        voices.removeAll { v in
            guard v.end <= cursor else { return false }
            idleDecoders[v.url, default: []].append(v.decoder)
            return true
        }
        for voice in voices {
            do {
                try mix(voice, into: &out, from: cursor, to: end)
            } catch {
                guard let onFailure else { throw error }
                voice.exhausted = true
                if failedURLs.insert(voice.url).inserted { onFailure(error) }
            }
        }
        for i in out.indices { out[i] = min(1, max(-1, out[i])) }
        cursor = end
        return out
    }

    private func place(_ s: MixSegment) throws {
        let start = max(sample(at: s.sceneStart), cursor)
        let end = sample(at: s.sceneEnd)
        guard end > start else { return }
        if let v = voices.first(where: { $0.key == s.voiceKey && $0.end == sample(at: s.sceneStart) }),
           v.rate == s.rate, abs(v.itemEnd - s.itemStart) < 1e-3 {
            v.end = end
            v.itemEnd = s.itemStart + (s.sceneEnd - s.sceneStart) * s.rate
            if v.gains.last!.1 != s.gain { v.gains.append((start, s.gain)) }
            return
        }
        // A new voice: seek to the item time at the (possibly clipped) start.
        let skipped = Double(start - sample(at: s.sceneStart)) / Double(sampleRate)
        let decoder: AudioDecoder
        if var idle = idleDecoders[s.url], !idle.isEmpty {
            decoder = idle.removeLast()
            idleDecoders[s.url] = idle
        } else {
            decoder = try AudioDecoder(url: s.url, sampleRate: sampleRate, channels: channels, limits: s.limits)
        }
        try decoder.start(at: s.itemStart + skipped * s.rate, rate: s.rate)
        voices.append(Voice(key: s.voiceKey, url: s.url, decoder: decoder, start: start, end: end, rate: s.rate,
                            itemEnd: s.itemStart + (s.sceneEnd - s.sceneStart) * s.rate, gain: s.gain))
    }

    private func mix(_ v: Voice, into out: inout [Float], from blockStart: Int64, to blockEnd: Int64) throws {
        let a = max(v.start, blockStart), b = min(v.end, blockEnd)
        guard b > a, !v.exhausted else { return }
        let n = Int(b - a)
        if scratch.count < n * channels { scratch = [Float](repeating: 0, count: n * channels) }
        let got = try scratch.withUnsafeMutableBufferPointer { try v.decoder.read(into: $0, frames: n) }
        if got < n { v.exhausted = true }
        var gainIndex = 0
        for i in 0..<got {
            let position = a + Int64(i)
            while gainIndex + 1 < v.gains.count && v.gains[gainIndex + 1].0 <= position { gainIndex += 1 }
            let g = v.gains[gainIndex].1
            if g == 0 { continue }
            let o = Int(position - blockStart) * channels
            for c in 0..<channels { out[o + c] += scratch[i * channels + c] * g }
        }
    }
}
