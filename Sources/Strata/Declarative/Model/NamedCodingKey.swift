// A coding key made from any string, for types that read objects whose keys are not a fixed
// enum (a node's properties, a terminal theme's colours).

/// A `CodingKey` for any string; integer keys are not used.
package struct NamedCodingKey: CodingKey {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(_ name: String) { stringValue = name }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
