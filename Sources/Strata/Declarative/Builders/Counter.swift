// Numbers and text that change, in the DSL: `Counter(from: 0, to: 42)` counts while a bar grows,
// `.typewriter()`, `.revealWords()`, `.revealLines()` and `.scramble()` reveal a text. Each sets
// the text node's counter or reveal keys and animates `value` or `revealed` as any other
// animation (duration, timing curve, delay; timelines and `stagger` too). The compiler turns them
// into a discrete keyframe animation of the text layer's `string`
// (CompositionCompiler+TextDrivers.swift).
import Foundation
import StrataCore

/// A number that animates, written in a format (a `CATextLayer` whose `string` changes at the
/// frames where the written number does). Digits are tabular by default, so the text does not
/// jitter as it counts.
///
/// ```swift
/// Counter(from: 0, to: 1234, format: .number(prefix: "$"), duration: 2, timing: .easeOut)
///     .font("DejaVu Sans Bold", size: 64).foreground(.white).center()
/// ```
///
/// Animate it later or again with `.animate(.value, to: 100, duration: 1, delay: 3)` or a
/// timeline step `Animate("id", .value, to: 100)`.
public struct Counter: LayerElement {
    /// The node of the declarative model this element builds.
    public var node: Node

    /// A counter showing `value` in `format` (animate `.value` to make it count).
    public init(_ value: Double = 0, format: NumberFormat = .number()) {
        node = Node(.text, properties: ["value": .number(value), "format": format.propertyValue])
    }

    /// A counter that counts from `from` to `to` in `duration` seconds along `timing`, starting
    /// at `delay` (showing `from` until then).
    public init(from: Double, to: Double, format: NumberFormat = .number(), duration: TimeValue = 1,
                timing: TimingCurve? = .easeOut, delay: TimeValue = 0) {
        self.init(from, format: format)
        node.animations.append(AnimationSpec(property: "value", from: .number(from), to: .number(to), duration: duration,
                                             delay: delay, timing: timing))
    }

    /// The font by name and size in points.
    public func font(_ name: String, size: CGFloat) -> Counter { property("font", name).set(.fontSize, size) }
    /// The font size in points (keeping the font).
    public func fontSize(_ size: CGFloat) -> Counter { set(.fontSize, size) }
    /// The text's colour.
    public func foreground(_ c: Color) -> Counter { set(.foregroundColor, c) }
    /// How the text aligns within the layer (`.right` keeps the last digit in place as the
    /// number grows wider).
    public func alignment(_ a: CATextLayerAlignmentMode) -> Counter { property("alignmentMode", a.rawValue) }
    /// Whether digits are tabular (default true: each digit as wide as the others).
    public func monospacedDigits(_ on: Bool = true) -> Counter { property("monospacedDigits", on) }
}

extension LayerProperty {
    /// A counter's number (`value`; `Counter`, or a text node with a `value`).
    public static var value: LayerProperty<Double> { .init("value") }
    /// The part of a text revealed (`revealed`, 0…1; see `reveal(_:duration:timing:delay:)`).
    public static var revealed: LayerProperty<Double> { .init("revealed") }
    /// A text's string (`string`), animated discretely by keyframes: each value holds its share
    /// of the duration (`Text("2020").keyframes(.string, ["2021", "2022"], duration: 2)`).
    public static var string: LayerProperty<String> { .init("string") }
}

extension LayerElement {
    /// Reveals the text from nothing to all of it in `duration`, starting at `delay` (hidden
    /// until then): by characters, words, lines, or a scramble that decodes. On a stack,
    /// `.stagger(0.3) { $0.reveal(.init(.words)) }` reveals its texts one after another.
    public func reveal(_ reveal: TextReveal, duration: TimeValue = 1, timing: TimingCurve? = .linear, delay: TimeValue = 0) -> Self {
        with {
            $0.properties["reveal"] = reveal.propertyValue
            $0.properties["revealed"] = .number(0)
            $0.animations.append(AnimationSpec(property: "revealed", from: .number(0), to: .number(1), duration: duration,
                                               delay: delay, timing: timing))
        }
    }

    /// Hides the text until a timeline reveals it by `reveal`'s unit:
    /// `Text("Hello").revealable(.init(.words)).id("hi")` with `Animate("hi", .revealed, to: 1)`,
    /// or a `Stagger` of such steps over several texts.
    public func revealable(_ reveal: TextReveal = TextReveal(.characters)) -> Self {
        with {
            $0.properties["reveal"] = reveal.propertyValue
            $0.properties["revealed"] = .number(0)
        }
    }

    /// Types the text a character at a time.
    public func typewriter(duration: TimeValue = 1, timing: TimingCurve? = .linear, delay: TimeValue = 0) -> Self {
        reveal(TextReveal(.characters), duration: duration, timing: timing, delay: delay)
    }

    /// Shows the text a word at a time.
    public func revealWords(duration: TimeValue = 1, timing: TimingCurve? = .linear, delay: TimeValue = 0) -> Self {
        reveal(TextReveal(.words), duration: duration, timing: timing, delay: delay)
    }

    /// Shows the text a line at a time.
    public func revealLines(duration: TimeValue = 1, timing: TimingCurve? = .linear, delay: TimeValue = 0) -> Self {
        reveal(TextReveal(.lines), duration: duration, timing: timing, delay: delay)
    }

    /// Shows random characters that settle into the text from the left (the same ones at every
    /// render for a `seed`).
    public func scramble(seed: Int = 0, characters: String = TextReveal.defaultScrambleCharacters, duration: TimeValue = 1,
                         timing: TimingCurve? = .linear, delay: TimeValue = 0) -> Self {
        reveal(TextReveal(.scramble, seed: seed, characters: characters), duration: duration, timing: timing, delay: delay)
    }
}
