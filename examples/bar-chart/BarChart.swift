// A bar chart from data: each bar grows to its value with a spring, one after another, its label
// and value under and over it. Run: swift run example-bar-chart
import StrataCLI

@main
struct BarChart: StrataScript {
    var data: [(label: String, value: Double)] = [("Mon", 42), ("Tue", 68), ("Wed", 55), ("Thu", 91), ("Fri", 76)]
    let chartHeight: CGFloat = 400

    var scene: Scene {
        let top = data.map(\.value).max() ?? 1
        return Scene(size: CGSize(width: 1280, height: 720), frameRate: 30, duration: 3, background: .hex("#F6F8FA")) {
            Text("Visitors per day").font("DejaVu Sans Bold", size: 44).foreground(.hex("#24292F"))
                .pin(.top, inset: 48).fadeIn()
            HStack(alignment: .bottom, spacing: 48) {
                for (i, item) in data.enumerated() {
                    let height = chartHeight * CGFloat(item.value / top)
                    VStack(spacing: 12) {
                        Text(String(Int(item.value))).font("DejaVu Sans Bold", size: 28).foreground(.hex("#57606A"))
                            .fadeIn(delay: .seconds(0.6 + 0.15 * Double(i)))
                        Layer().frame(width: 120, height: height).cornerRadius(10)
                            .background(Color(oklch: 0.62, 0.16, 250 - 25 * Double(i)))
                            .anchorPoint(x: 0.5, y: 1)
                            .animate(.scaleY, from: 0, to: 1, timing: .spring(duration: 0.7, bounce: 0.25),
                                     delay: .seconds(0.3 + 0.15 * Double(i)))
                        Text(item.label).font("DejaVu Sans", size: 28).foreground(.hex("#24292F"))
                    }
                }
            }
            .pin(.bottom, inset: 60)
        }
    }
}
