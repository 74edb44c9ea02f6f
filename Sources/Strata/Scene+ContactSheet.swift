// A contact sheet of a scene: frames at even times in a grid, each reduced, to see a whole
// animation at once (`strata sheet`, a script's `sheet`).
import Foundation
import StrataCore
import StrataRender

extension Scene {
    /// `count` frames at even times (0, d/count, 2d/count, …) in a grid, each reduced by a whole
    /// factor.
    public func contactSheet(count: Int = 12, columns: Int = 4, reduction: Int = 4) throws -> Bitmap {
        let rate = try validated()
        let frames = try (0..<max(1, count)).map { i -> Bitmap in
            let k = min(frameCount - 1, Int((Double(i) * duration / Double(max(1, count)) * rate.framesPerSecond).rounded(.down)))
            return try renderFrame(index: max(0, k))
        }
        return ContactSheet.make(frames, columns: columns, reduction: reduction)
    }
}
