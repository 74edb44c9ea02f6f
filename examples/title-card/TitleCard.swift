// A title card: the letters of a word rise in one after another, a subtitle fades in, an accent
// bar grows under them. Run: swift run example-title-card   (writes title-card.mp4)
//                          swift run example-title-card sheet -o sheet.png
import StrataCLI

@main
struct TitleCard: StrataScript {
    var title = "STRATA"
    var subtitle = "Core Animation, rendered to video"

    var scene: Scene {
        Scene(size: CGSize(width: 1280, height: 720), frameRate: 30, duration: 3, background: .hex("#101820")) {
            VStack(spacing: 16) {
                HStack(spacing: 4) {
                    for (i, letter) in title.enumerated() {
                        Text(String(letter)).font("DejaVu Sans Bold", size: 144).foreground(.white)
                            .slideIn(from: .bottom, distance: 60, duration: 0.6, delay: .seconds(0.08 * Double(i)))
                    }
                }
                Text(subtitle).font("DejaVu Sans", size: 40).foreground(.hex("#9AA5B1"))
                    .fadeIn(duration: 0.6, delay: 0.9)
                Shape(.roundedRect(CGRect(x: 0, y: 0, width: 360, height: 10), cornerRadius: 5)).fill(.hex("#FF5A36"))
                    .animate(.scaleX, from: 0, to: 1, duration: 0.8, timing: .named(.easeOutCubic), delay: 1.2)
            }
            .center()
        }
    }
}
