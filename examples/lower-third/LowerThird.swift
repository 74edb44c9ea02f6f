// A lower third as a reusable component: a name and a title on a coloured plate slide in from the
// left, hold, and slide out. Run: swift run example-lower-third
import StrataCLI

/// A name plate for the bottom-left of a frame.
struct NamePlate: Component {
    var name: String
    var title: String
    var accent: Color

    var body: some NodeConvertible {
        HStack(alignment: .center, spacing: 20) {
            Layer().frame(width: 10, height: 110).background(accent)
            VStack(alignment: .leading, spacing: 6) {
                Text(name).font("DejaVu Sans Bold", size: 48).foreground(.white)
                Text(title).font("DejaVu Sans", size: 28).foreground(.hex("#C9D1D9"))
            }
        }
        .id("plate")
        .pin(.bottomLeading, inset: 72)
        .timeline {
            Chain {
                Parallel {
                    Animate(.translationX, from: -80, to: 0, duration: 0.6, timing: .named(.easeOutCubic))
                    Animate(.opacity, from: 0, to: 1, duration: 0.4)
                }
                Wait(2.4)
                Parallel {
                    Animate(.translationX, to: -80, duration: 0.5, timing: .named(.easeInCubic))
                    Animate(.opacity, to: 0, duration: 0.5)
                }
            }
        }
    }
}

@main
struct LowerThird: StrataScript {
    var scene: Scene {
        Scene(size: CGSize(width: 1280, height: 720), frameRate: 30, duration: 4) {
            Gradient([.hex("#243B55"), .hex("#141E30")], from: .topLeading, to: .bottomTrailing)
                .frame(width: 1280, height: 720)
            NamePlate(name: "Ada Lovelace", title: "Analyst of the Analytical Engine", accent: .hex("#FF5A36"))
        }
    }
}
