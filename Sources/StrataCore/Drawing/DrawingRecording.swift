// The recorded commands of one drawing as one immutable, Sendable value whose hash is computed
// once: it is hashed every frame as part of the backing-store cache key.
import Foundation

/// The commands of one drawing, with their hash computed once (a recording is hashed every frame
/// as part of the backing-store key).
public final class DrawingRecording: Hashable, Sendable, CustomStringConvertible {
    /// The commands in order.
    public let commands: [DrawingCommand]
    private let cachedHash: Int

    /// A recording of `commands`.
    public init(commands: [DrawingCommand]) {
        self.commands = commands
        var h = Hasher()
        h.combine(commands)
        cachedHash = h.finalize()
    }

    /// True when the recording draws nothing (it holds no painting command).
    public var isEmpty: Bool {
        !commands.contains { c in
            switch c {
            case .fill, .stroke, .clear, .linearGradient, .radialGradient, .image, .text: return true
            default: return false
            }
        }
    }

    public static func == (l: DrawingRecording, r: DrawingRecording) -> Bool {
        l === r || (l.cachedHash == r.cachedHash && l.commands == r.commands)
    }

    public func hash(into h: inout Hasher) { h.combine(cachedHash) }

    public var description: String { "DrawingRecording(\(commands.count) commands)" }
}
