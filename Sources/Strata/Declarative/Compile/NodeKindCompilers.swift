// The seam for kinds of node whose layer lives in a module above Strata (a `terminal` node's
// `TerminalLayer` is StrataTerminal's, and StrataTerminal depends on Strata). The compiler cannot
// name such a layer; the module that owns it registers a `NodeKindCompiler` for the node type,
// explicitly (`TerminalNodes.register()`; the `strata` command and every StrataScript do it before
// they read a template), and the compiler asks the registry for it. No lookup by name or
// reflection: a kind that nobody registered is one clear error naming the node.
import Foundation
import StrataCore
import Synchronization

/// Makes the layer of a node kind that a module above Strata supplies.
///
/// The compiler still does everything common to layers: it sets the common properties
/// (`opacity`, `position`, `shadowRadius`, …), builds children, the mask, animations and timelines,
/// and places the layer. The kind compiler reads its own properties (those in `properties`),
/// reports what is wrong with them through the context, and returns the layer sized to its
/// content (or to `context.explicitSize`).
public protocol NodeKindCompiler: Sendable {
    /// The kind's own properties and what each expects, in the words error messages use
    /// (`"session": "a list of lines"`).
    var properties: [String: String] { get }
    /// The layer for `node`.
    func makeLayer(for node: Node, context: NodeKindContext) -> CALayer
}

/// What a kind compiler knows while it makes a layer, and where it reports problems.
public final class NodeKindContext {
    /// The node's JSON path (`layers[0].children[2]`).
    public let path: String
    /// The composition's frames per second (changes are best placed on its frame grid).
    public let frameRate: Double
    /// The composition's length in seconds.
    public let duration: Double
    /// The size the node gives itself (`frame`, `bounds` or `size`), nil when it has none.
    public let explicitSize: CGSize?
    /// The limits the composition is compiled under.
    public let limits: SceneLimits
    /// Problems reported so far.
    public private(set) var issues: [CompositionIssue] = []

    /// Where the node's own clock starts in scene seconds: the start of the section it is in
    /// (0 outside sections). A time the node gives (a `start`) counts from it.
    public let startOffset: Double
    private let resolveAsset: (String) throws -> URL

    init(path: String, frameRate: Double, duration: Double, explicitSize: CGSize?, limits: SceneLimits,
         startOffset: Double = 0, asset: @escaping (String) throws -> URL = { URL(fileURLWithPath: $0) }) {
        self.path = path; self.frameRate = frameRate; self.duration = duration
        self.explicitSize = explicitSize; self.limits = limits
        self.startOffset = startOffset; self.resolveAsset = asset
    }

    /// The URL of an asset path as the composition resolves them (relative to the template's or
    /// the scene's asset folder; a template refuses paths outside its folder): throws a message.
    public func asset(_ path: String) throws -> URL { try resolveAsset(path) }

    /// The time under `key` in seconds (a number of seconds, or text such as `"1.5s"` or
    /// `"12f"`, as every time of the model; nil when absent, a problem reported when invalid).
    public func time(_ node: Node, _ key: String) -> Double? {
        guard let v = node.properties[key] else { return nil }
        guard let t = try? PropertyDecoding.time(v, fps: frameRate), t.isFinite else {
            issue(key, "expected \(ValueKind.time.expectation), got \(v)")
            return nil
        }
        return t
    }

    /// Reports a problem with the property `key` (nil: the node as a whole).
    public func issue(_ key: String?, _ message: String) {
        issues.append(CompositionIssue(path: key.map { "\(path).\($0)" } ?? path, message: message))
    }

    /// The number under `key` (nil when absent; a problem reported when it is not a number or
    /// outside `range`).
    public func number(_ node: Node, _ key: String, in range: ClosedRange<Double>? = nil) -> Double? {
        guard let v = node.properties[key] else { return nil }
        guard let n = v.number, n.isFinite else { issue(key, "expected a number, got \(v)"); return nil }
        if let range, !range.contains(n) {
            issue(key, "expected a number in \(TemplateValue.number(range.lowerBound).text)…\(TemplateValue.number(range.upperBound).text), got \(v)")
            return nil
        }
        return n
    }

    /// The text under `key` (nil when absent; a problem reported when it is not text).
    public func string(_ node: Node, _ key: String) -> String? {
        guard let v = node.properties[key] else { return nil }
        guard let s = v.string else { issue(key, "expected text, got \(v)"); return nil }
        return s
    }

    /// The boolean under `key`.
    public func bool(_ node: Node, _ key: String) -> Bool? {
        guard let v = node.properties[key] else { return nil }
        guard case .bool(let b) = v else { issue(key, "expected true or false, got \(v)"); return nil }
        return b
    }

    /// The colour under `key`, read as every other colour of the model (nil when absent or an
    /// empty text, which templates use for "not set").
    public func color(_ node: Node, _ key: String) -> Color? {
        guard let v = node.properties[key] else { return nil }
        return color(v, key: key)
    }

    /// `value` read as a colour, a problem reported under `key` (a key path such as
    /// `"colors.Badge"`) when it is not one; nil for an empty text.
    public func color(_ v: PropertyValue, key: String) -> Color? {
        guard v != .string("") else { return nil }
        do { return try PropertyDecoding.color(v) } catch {
            issue(key, "expected \(ValueKind.color.expectation), got \(v)")
            return nil
        }
    }

    /// One of `options` under `key`.
    public func choice(_ node: Node, _ key: String, _ options: [String]) -> String? {
        guard let v = node.properties[key] else { return nil }
        guard let s = v.string, options.contains(s) else {
            issue(key, "expected one of \(options.map { "\"\($0)\"" }.joined(separator: ", ")), got \(v)")
            return nil
        }
        return s
    }
}

/// The registered kind compilers.
public enum NodeKindCompilers {
    private static let registry = KindRegistry()

    /// Installs `compiler` for nodes of `type` (replacing one registered before).
    public static func register(_ compiler: NodeKindCompiler, for type: NodeType) {
        registry.withCheckedLock { $0[type] = compiler }
    }

    /// The compiler registered for `type`, if any.
    public static func compiler(for type: NodeType) -> NodeKindCompiler? {
        registry.withCheckedLock { $0[type] }
    }
}

extension NodeType {
    /// Whether a module above Strata supplies this kind's layer (through `NodeKindCompilers`),
    /// and which one, for the message when it has not registered it.
    var supplyingModule: (module: String, registration: String)? {
        switch self {
        case .terminal: ("StrataTerminal", "TerminalNodes.register()")
        case .lottie: ("StrataLottie", "LottieNodes.register()")
        default: nil
        }
    }
}

/// A lock-protected table of kind compilers.
private final class KindRegistry: Sendable {
    private let table = Mutex<[NodeType: NodeKindCompiler]>([:])
    func withCheckedLock<T: Sendable>(_ body: (inout [NodeType: NodeKindCompiler]) -> T) -> T {
        table.withCheckedLock { body(&$0) }
    }
}
