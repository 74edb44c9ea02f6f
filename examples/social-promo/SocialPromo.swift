// A promo in three sections — a title, what is new, a call to action — that replace each other
// with transitions, laid out relative to the canvas, so the same script renders a landscape and
// a vertical video. Run: swift run example-social-promo               (writes social-promo.mp4)
//                        swift run example-social-promo render --size 1080x1920 -o vertical.mp4
import StrataCLI

@main
struct SocialPromo: StrataScript {
    var title = "Strata"
    var features = ["Sections with transitions", "Layout that fills the canvas", "One script, every format"]

    var scene: Scene {
        Scene(size: .hd720, frameRate: 30, duration: 7, background: .hex("#0B1021")) {
            Sections {
                Section(duration: 3) {
                    VStack(spacing: 24) {
                        Text(title).font("DejaVu Sans Bold", size: 112).foreground(.white).scaleIn(delay: 0.2)
                        Layer().background(.hex("#FF5A36")).cornerRadius(4).frame(width: .percent(40), height: .points(8))
                            .animate(.scaleX, from: 0, to: 1, duration: 0.8, timing: .named(.easeOutCubic), delay: 0.6)
                    }
                    .frame(maxWidth: .infinity).center().id("title")
                }
                Section(duration: 3) {
                    VStack(alignment: .leading, spacing: 28) {
                        Text("What's new").font("DejaVu Sans Bold", size: 64).foreground(.hex("#FF5A36")).id("heading")
                        Spacer()
                        for (i, feature) in features.enumerated() {
                            HStack(spacing: 20) {
                                Layer().frame(width: 20, height: 20).cornerRadius(10).background(.white)
                                Text(feature).font("DejaVu Sans", size: 44).foreground(.white)
                            }
                            .slideIn(from: .leading, duration: 0.5, delay: .seconds(0.5 + 0.2 * Double(i)))
                        }
                        Spacer()
                    }
                    .frame(maxWidth: .infinity, maxHeight: .infinity).padding(.safeArea).id("list")
                }
                .background(.hex("#13203F"))
                .transition(.push(.fromRight, duration: 0.6))
                Section(duration: 2.4) {
                    Text("Try it today").font("DejaVu Sans Bold", size: 80).foreground(.white).center().id("cta")
                }
                .background(.hex("#FF5A36"))
                .transition(.iris(duration: 0.8))
            }
        }
    }
}
