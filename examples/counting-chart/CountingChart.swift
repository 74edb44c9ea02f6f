// Five bars grow, their labels riding on them and counting to their values, under a title; then all fades out. Run: swift run example-counting-chart
import StrataCLI

@main
struct CountingChart: StrataScript {
    var data: [(label: String, value: Double)] = [("Mon", 42), ("Tue", 68), ("Wed", 55), ("Thu", 91), ("Fri", 76)]

    var scene: Scene {
        Scene(size: CGSize(width: 1280, height: 720), frameRate: 30, duration: 6, background: .hex("#F6F8FA")) {
            Group {
                Text("Sign-ups per day").font("DejaVu Sans Bold", size: 44).foreground(.hex("#24292F")).pin(.top, inset: 48)
                HStack(alignment: .bottom, spacing: 48) {
                    for (i, item) in data.enumerated() {
                        let delay = TimeValue.seconds(0.5 + 0.3 * Double(i))
                        VStack(spacing: 12) {
                            Counter(from: 0, to: item.value, duration: 1.5, delay: delay).font("DejaVu Sans Bold", size: 28).foreground(.hex("#57606A"))
                                .animate(.translationY, from: 4 * item.value, to: 0, duration: 1.5, timing: .easeOut, delay: delay)
                            Layer().frame(width: 120, height: 4 * item.value).cornerRadius(10).anchorPoint(x: 0.5, y: 1)
                                .background(Color(oklch: 0.62, 0.16, 250 - 25 * Double(i))).animate(.scaleY, from: 0, to: 1, duration: 1.5, timing: .easeOut, delay: delay)
                            Text(item.label).font("DejaVu Sans", size: 28).foreground(.hex("#24292F"))
                        }
                    }
                }.pin(.bottom, inset: 60)
            }.frame(width: 1280, height: 720).fadeOut(at: 5.2, duration: 0.8)
        }
    }
}
