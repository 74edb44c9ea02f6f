// The parts of Core Graphics' drawing API and of CALayer's drawing, hit-testing and scrolling
// services that Strata does not implement yet, so the gap is visible (OpenCombine's
// RemainingCombineInterface habit). Each line says what ported code would miss.
//
// CGContext
// - Bitmap contexts (`CGContext(data:width:height:…)`, `makeImage()`,
//   `UIGraphicsImageRenderer`): drawing off screen into a CGImage needs Cairo from Core; record
//   into a layer instead.
// - Shadows (`setShadow(offset:blur:color:)`), transparency layers
//   (`beginTransparencyLayer`), pattern and shading objects (`CGPattern`, `CGShading`),
//   `clip(to:mask:)`, `replacePathWithStrokedPath()`, `setFlatness`, PDF and PostScript
//   output, `CGContextShowGlyphs` / Core Text (`CTLineDraw`). Text is drawn through
//   `NSAttributedString.draw(at:/in:)` and `String.draw(at:/in:withAttributes:)`.
// - Colour spaces other than sRGB; `setFillColor` with pattern colours.
// - `plusDarker` blend mode (drawn as normal); Porter–Duff modes follow Cairo's operators.
// - `drawRadialGradient` with only one of the two extension options and two circles that do
//   not contain one another (a cone) draws without extension.
//
// CALayer
// - `hitTest(_:)` is not overridable (Swift on Linux cannot override extension members);
//   `contains(_:)` is, and hit testing uses it.
// - `drawsAsynchronously`, `isOpaque` (the backing store is always transparent),
//   `contentsFormat`, `setNeedsDisplay(_:)` redrawing only a rectangle (it redraws all).
// - `contentsRect` / `contentsCenter` do not apply to custom drawing (they do to image contents).
// - `layoutManager` / `CAConstraint` (macOS), `preferredFrameSize()`.
// - After `display()` records a drawing, `contents` stays as it was (on iOS it becomes the
//   backing store object).
import Foundation
