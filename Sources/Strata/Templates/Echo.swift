// Values echoed in error messages are cut short. A message names the file, the field and what
// was expected, and shows the start of what it found — never a 30 MB field of an untrusted data
// file, nor a character of 100 000 combining accents.
import Foundation

enum Echo {
    /// The most Unicode scalars of a text echoed, and the most items of a list.
    static let maximumScalars = 80, maximumItems = 16

    /// `s` whole when short, else its first scalars and its length: `abc… (52428800 bytes)`.
    static func text(_ s: String) -> String {
        var scalars = s.unicodeScalars.makeIterator()
        var kept = String.UnicodeScalarView()
        for _ in 0..<maximumScalars {
            guard let c = scalars.next() else { return s }
            kept.append(c)
        }
        guard scalars.next() != nil else { return s }
        return String(kept) + "… (\(s.utf8.count) bytes)"
    }

    /// `items` (already echoed) joined, the list cut after `maximumItems`: `1, 2, … (500 items)`.
    static func list<C: Collection>(_ items: C, _ echo: (C.Element) -> String) -> String {
        let shown = items.prefix(maximumItems).map(echo).joined(separator: ", ")
        return items.count > maximumItems ? shown + ", … (\(items.count) items)" : shown
    }
}
