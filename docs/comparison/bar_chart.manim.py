from manim import *

class BarChart(Scene):
    def construct(self):
        values = [42, 68, 55, 91, 76]
        bars = VGroup(*[Rectangle(width=1.2, height=v / 25, fill_color=BLUE, fill_opacity=1, stroke_width=0) for v in values])
        bars.arrange(RIGHT, buff=0.48, aligned_edge=DOWN).to_edge(DOWN, buff=0.6)
        self.play(LaggedStart(*[GrowFromEdge(b, DOWN) for b in bars], lag_ratio=0.15))
        self.wait(1.5)
