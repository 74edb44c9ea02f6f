// UIKit's current-context stack and its text drawing conveniences, so that ported `draw(_:)`
// code that calls `UIGraphicsGetCurrentContext()` or `"Hi".draw(at:withAttributes:)` records into
// the layer's context. A layer's default `display()` pushes its context while `draw(in:)` runs.
import Foundation

/// Per-thread stack of current contexts (drawing code runs on the thread building the scene).
private final class ContextStack {
    var contexts: [CGContext] = []
    private static let stacks = PerThreadObject { ContextStack() }
    static var current: ContextStack { stacks.current }
}

/// The context drawing currently goes to (UIKit): the one pushed last on this thread, nil when
/// none.
public func UIGraphicsGetCurrentContext() -> CGContext? { ContextStack.current.contexts.last }

/// Makes `context` the current context.
public func UIGraphicsPushContext(_ context: CGContext) { ContextStack.current.contexts.append(context) }

/// Restores the previous current context.
public func UIGraphicsPopContext() { _ = ContextStack.current.contexts.popLast() }

extension NSAttributedString {
    /// Draws the string with its top-left at `point` into the current context (UIKit). Runs
    /// without a font use Helvetica 12, without a colour black, as UIKit does.
    public func draw(at point: CGPoint) {
        UIGraphicsGetCurrentContext()?.draw(TextContent(attributedString: self), at: point)
    }

    /// Draws the string wrapped to `rect` into the current context (UIKit).
    public func draw(in rect: CGRect) {
        UIGraphicsGetCurrentContext()?.draw(TextContent(attributedString: self), in: rect)
    }
}

extension String {
    /// Draws the string with `attributes` (`.font`, `.foregroundColor`, `.kern`, …) with its
    /// top-left at `point` into the current context (UIKit's `NSString.draw(at:withAttributes:)`).
    public func draw(at point: CGPoint, withAttributes attributes: [NSAttributedString.Key: Any]? = nil) {
        NSAttributedString(string: self, attributes: attributes).draw(at: point)
    }

    /// Draws the string wrapped to `rect` into the current context.
    public func draw(in rect: CGRect, withAttributes attributes: [NSAttributedString.Key: Any]? = nil) {
        NSAttributedString(string: self, attributes: attributes).draw(in: rect)
    }
}
