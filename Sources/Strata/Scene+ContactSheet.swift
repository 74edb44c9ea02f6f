// A contact sheet of a scene: frames at even times in a grid, each reduced, to see a whole
// animation at once (`strata sheet`, a script's `sheet`).
import Foundation
import StrataCore
import StrataRender

extension Scene {
    /// `count` frames at even times (0, d/count, 2d/count, …) in a grid, each reduced by a whole
    /// factor; with `labels`, each cell is labelled with its frame's time and number
    /// (`1.50s #45`).
    public func contactSheet(count: Int = 12, columns: Int = 4, reduction: Int = 4, labels: Bool = false) throws -> Bitmap {
        let rate = try validated()
        let indices = (0..<max(1, count)).map { i in
            max(0, min(frameCount - 1, Int((Double(i) * duration / Double(max(1, count)) * rate.framesPerSecond).rounded(.down))))
        }
        let frames = try indices.map { try renderFrame(index: $0) }
        let text = labels ? indices.map { Self.sheetLabel(time: rate.time(ofFrame: $0), frame: $0) } : nil
        return ContactSheet.make(frames, columns: columns, reduction: reduction, labels: text)
    }

    /// A contact sheet cell's label: the time to hundredths and the frame number.
    static func sheetLabel(time: Double, frame: Int) -> String {
        String(format: "%.2fs #%d", time, frame)
    }
}
