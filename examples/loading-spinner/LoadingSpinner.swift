// A loading spinner for a README, as a GIF: twelve bars around a circle, each fading out after
// the one before it, forever (one second a turn, so the GIF loops seamlessly).
// Run: swift run example-loading-spinner   (writes loading-spinner.gif)
import StrataCLI

@main
struct LoadingSpinner: StrataScript {
    static let defaultOutput = "loading-spinner.gif"

    var scene: Scene {
        Scene(size: CGSize(width: 160, height: 160), frameRate: 24, duration: 1, background: .white) {
            Group {
                for i in 0..<12 {
                    Layer().frame(width: 10, height: 34).cornerRadius(5).background(.hex("#0969DA"))
                        .anchorPoint(x: 0.5, y: 2.2)
                        .position(x: 80, y: 80)
                        .rotation(.degrees(Double(i) * 30))
                        .keyframes(.opacity, [1, 0.15, 1], keyTimes: [0, 0.999, 1], duration: 1,
                                   delay: .seconds(Double(i) / 12 - 1))
                        .repeat(.forever)
                }
            }
            .frame(width: 160, height: 160)
        }
    }
}
