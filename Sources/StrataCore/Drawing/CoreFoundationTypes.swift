// Core Foundation's type names as ported code spells its bridging casts (`name as CFString`,
// `url as CFURL`, `options as CFDictionary`). Foundation on Linux has no CF types of its own;
// here they are the Foundation classes the casts bridge to, which is what Strata's APIs that take
// them (`CGFont`, ImageIO) read.
import Foundation

/// Core Foundation's string, Foundation's `NSString` here (toll-free bridged as on Apple's platforms).
public typealias CFString = NSString
/// Core Foundation's URL: `NSURL`.
public typealias CFURL = NSURL
/// Core Foundation's dictionary: `NSDictionary`.
public typealias CFDictionary = NSDictionary
/// Core Foundation's array: `NSArray`.
public typealias CFArray = NSArray
/// Core Foundation's data: `NSData`.
public typealias CFData = NSData
/// Core Foundation's number: `NSNumber`.
public typealias CFNumber = NSNumber
/// Any Core Foundation object: `AnyObject`.
public typealias CFTypeRef = AnyObject

// @unchecked: immutable (one `let`); CFString is NSString here, which is not Sendable.
/// A font by name (Core Graphics' `CGFont`): ported code hands it to `CATextLayer.font`.
public final class CGFont: Hashable, @unchecked Sendable {
    /// The name it was made with (a family, "Family Style" or PostScript name).
    public let postScriptName: CFString?
    /// The same name.
    public var fullName: CFString? { postScriptName }

    /// A font named `name`; nil for an empty name (fontconfig resolves any other name, falling
    /// back to a similar face, when the text is drawn).
    public init?(_ name: CFString) {
        guard name.length > 0 else { return nil }
        postScriptName = name
    }

    public static func == (a: CGFont, b: CGFont) -> Bool { a.postScriptName == b.postScriptName }
    public func hash(into h: inout Hasher) { h.combine(postScriptName.map { $0 as String }) }
}
