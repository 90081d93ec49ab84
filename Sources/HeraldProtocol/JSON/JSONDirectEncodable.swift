/// A type that writes itself straight into a `JSONValue`, without `Codable`'s containers:
/// the shortcut `JSONValueEncoder` takes for the results of hot methods such as `donate`.
///
/// The value must be exactly the one `encode(to:)` gives through `JSONValueEncoder` —
/// the same members in the same order, nil members left out, dates as RFC 3339 — and tests
/// compare both; keep the result small and flat, where that is easy to see.
package protocol JSONDirectEncodable: Encodable {
    var directJSONValue: JSONValue { get }
}
