// Counter-based random numbers for particles: a value is a pure function of the emitter's seed,
// the particle's identity (cell path and birth index, and its parent's for a sub-cell) and which
// property it is for. Nothing is drawn in sequence, so a particle gets the same values whether
// frame 250 is rendered alone or after frames 0–249, on any thread, in any order.
//
// The mixing function is SplitMix64's finaliser (Steele, Lea, Flood 2014), which passes BigCrush
// as a generator over a counter; values in [0, 1) take its top 53 bits.
import Foundation

/// The random source of one particle.
struct ParticleRandom: Sendable {
    /// The particle's identity, already mixed.
    let key: UInt64

    /// The numbered properties that take a random value (one stream each).
    enum Stream: UInt64 {
        case lifetime = 1, velocity, cone, coneTurn, shapeA, shapeB, shapeC, shapeCorner
        case scale, spin, red, green, blue, alpha
    }

    @inline(__always)
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The key of a top-level cell's particle stream: seed and cell index.
    static func cellKey(seed: UInt32, cellIndex: Int) -> UInt64 {
        mix(mix(UInt64(seed) &+ 0x5EED) ^ (UInt64(cellIndex) &* 0xA24B_AED4_963E_E407))
    }

    /// The key of the particles a particle's sub-cell `cellIndex` emits.
    static func subcellKey(parent: UInt64, cellIndex: Int) -> UInt64 {
        mix(parent ^ (UInt64(cellIndex) &* 0x9FB2_1C65_1E98_DF25) ^ 0x5C0B_CE11)
    }

    /// The random source of birth `index` in the stream `streamKey`.
    init(streamKey: UInt64, index: Int) {
        key = ParticleRandom.mix(streamKey ^ (UInt64(bitPattern: Int64(index)) &* 0xD1B5_4A32_D192_ED03))
    }

    /// A value in [0, 1) for `stream`.
    @inline(__always)
    func unit(_ stream: Stream) -> Double {
        Double(ParticleRandom.mix(key ^ (stream.rawValue &* 0xC2B2_AE3D_27D4_EB4F)) >> 11) * 0x1p-53
    }

    /// `mean + range · (2u − 1)`: uniform in [mean − range, mean + range]. Apple's rule, as its
    /// documentation of `lifetimeRange` states it: lifetime 10 s with a range of 3 s lives 7–13 s.
    @inline(__always)
    func around(_ mean: Double, range: Double, _ stream: Stream) -> Double {
        range == 0 ? mean : mean + range * (2 * unit(stream) - 1)
    }
}
