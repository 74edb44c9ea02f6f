// A debug check of the invariant the tile workers rely on (RenderOptions.verifiesTileCoverage):
// a frame's buffer starts uninitialised (pooled or recycled), so every tile must be written
// exactly once as a whole — copied from the previous frame, found already in a recycled buffer
// that holds it, or stored from its drawn pixels — optionally followed by a store of the changed
// part inside it (a tile drawn from its kept prefix). The workers note each write here; after
// the frame the log checks every tile and names the first ones that broke the rule. Off, the
// renderer makes no log and pays one nil check per write.
import Foundation
import Synchronization

final class TileCoverageLog: Sendable {
    enum Write: Equatable, CustomStringConvertible {
        /// Bytes copied from the previous frame.
        case copied(PixelRect)
        /// The recycled buffer already held these bytes (nothing written).
        case held(PixelRect)
        /// Drawn pixels stored.
        case stored(PixelRect)

        var rect: PixelRect {
            switch self { case .copied(let r), .held(let r), .stored(let r): r }
        }
        var description: String {
            let size = text(rect)
            switch self {
            case .copied: return "copied \(size)"
            case .held: return "held \(size)"
            case .stored: return "stored \(size)"
            }
        }
    }

    let width: Int, height: Int, tileWidth: Int, tileHeight: Int
    private let writes: Mutex<[[Write]]>

    init(width: Int, height: Int, tileWidth: Int, tileHeight: Int) {
        self.width = width; self.height = height; self.tileWidth = tileWidth; self.tileHeight = tileHeight
        let count = ((width + tileWidth - 1) / tileWidth) * ((height + tileHeight - 1) / tileHeight)
        writes = Mutex(Array(repeating: [], count: count))
    }

    func note(_ tile: Int, _ write: Write) {
        writes.withCheckedLock { $0[tile].append(write) }
    }

    /// The rectangle of tile `t`, computed here independently of the renderer.
    func rect(of t: Int) -> PixelRect {
        let columns = (width + tileWidth - 1) / tileWidth
        let x = t % columns * tileWidth, y = t / columns * tileHeight
        return PixelRect(x0: x, y0: y, x1: min(width, x + tileWidth), y1: min(height, y + tileHeight))
    }

    /// What went wrong, one line per bad tile (empty when every tile was written as it must be).
    /// `heldMatches(rect, part)` tells whether a held tile's bytes are those of the previous
    /// frame (outside `part`, when a changed part was stored over them).
    func violations(heldMatches: (PixelRect, PixelRect?) -> Bool) -> [String] {
        let all = writes.withCheckedLock { $0 }
        var out: [String] = []
        for (t, w) in all.enumerated() {
            if let problem = Self.problem(with: w, in: rect(of: t), heldMatches: heldMatches) {
                out.append("tile \(t) \(text(rect(of: t))): \(problem) [writes: \(w.map(\.description).joined(separator: ", "))]")
            }
        }
        return out
    }

    /// Why `writes` do not write the tile `rect` exactly once, or nil when they do.
    static func problem(with writes: [Write], in rect: PixelRect, heldMatches: (PixelRect, PixelRect?) -> Bool) -> String? {
        guard let base = writes.first else { return "neither copied nor stored" }
        for w in writes where w.rect.intersection(rect) != w.rect || w.rect.isEmpty {
            return "\(w) is not inside the tile"
        }
        guard base.rect == rect else {
            return "its first write (\(base)) does not cover the tile"
        }
        if case .held = base, !heldMatches(rect, writes.count > 1 ? writes[1].rect : nil) { return "held, but the buffer's bytes are not the previous frame's" }
        switch writes.count {
        case 1:
            return nil
        case 2:
            if case .stored = base { return "stored, then written again" }
            guard case .stored(let part) = writes[1] else { return "copied twice" }
            return part == rect ? "both copied and stored whole" : nil
        default:
            return "written \(writes.count) times"
        }
    }
}

private func text(_ r: PixelRect) -> String { "(\(r.x0),\(r.y0))–(\(r.x1),\(r.y1))" }
