from manim import *

class TitleCard(Scene):
    def construct(self):
        self.camera.background_color = "#101820"
        letters = VGroup(*[Text(c, font="DejaVu Sans", weight=BOLD, font_size=144) for c in "STRATA"]).arrange(RIGHT, buff=0.06)
        subtitle = Text("Core Animation, rendered to video", font="DejaVu Sans", font_size=40, color="#9AA5B1")
        bar = RoundedRectangle(corner_radius=0.05, width=3.6, height=0.1, fill_color="#FF5A36", fill_opacity=1, stroke_width=0)
        VGroup(letters, subtitle, bar).arrange(DOWN, buff=0.3)
        self.play(LaggedStart(*[FadeIn(l, shift=UP * 0.6) for l in letters], lag_ratio=0.13, run_time=1.0))
        self.play(FadeIn(subtitle, run_time=0.4))
        self.play(GrowFromCenter(bar, run_time=0.8))
        self.wait(0.8)
