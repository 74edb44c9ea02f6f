// A logo reveal: a ring draws itself on, a disc grows inside it with a spring, the word mark fades
// in beside it. Run: swift run example-logo-reveal
import StrataCLI

@main
struct LogoReveal: StrataScript {
    var scene: Scene {
        Scene(size: CGSize(width: 1280, height: 720), frameRate: 30, duration: 3, background: .white) {
            HStack(spacing: 40) {
                ZStack {
                    Shape(.circle(center: CGPoint(x: 90, y: 90), radius: 80))
                        .fill(.clear).stroke(.hex("#0B6E4F"), width: 14, cap: .round)
                        .draw(duration: 1.0, timing: .easeInOut)
                    Shape(.circle(center: CGPoint(x: 50, y: 50), radius: 50)).fill(.hex("#08A045"))
                        .scaleIn(from: 0, duration: 0.6, delay: 0.8)
                }
                VStack(alignment: .leading, spacing: 4) {
                    Text("verdant").font("DejaVu Sans Bold", size: 96).foreground(.hex("#0B6E4F"))
                    Text("grows with you").font("DejaVu Sans", size: 36).foreground(.hex("#6B9080"))
                }
                .slideIn(from: .trailing, distance: 40, duration: 0.7, delay: 1.3)
            }
            .center()
        }
    }
}
