import Foundation

/// A type that reads itself straight from a `JSONValue`, without `Codable`'s containers,
/// coding paths and generic dispatch: the shortcut `JSONValueDecoder` takes for the params
/// of hot methods such as `donate`.
///
/// A shortcut, not a second definition. A conformance only has to accept *part* of what
/// the type's `init(from:)` accepts, and read the same value from it; whenever it is not
/// sure — a missing member, a wrong type, a number written `1.0` — it throws, and
/// `JSONValueDecoder` decodes the same value again through `Decodable`. So every error a
/// client sees, its `reason` and its `pointer`, still comes from the one `Decodable` path,
/// and the shortcut never needs to know how errors are worded. Tests compare both paths.
public protocol JSONDirectDecodable: Decodable {
    init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure)
}

/// "Not this way": the value needs `Decodable` to be read, or to be rejected in words.
public struct JSONDirectDecodingFailure: Error, Sendable {
    public init() {}
}

extension JSONValue {
    /// The members of an object, as a keyed container requires.
    public func directObject() throws(JSONDirectDecodingFailure) -> JSONObject {
        guard case .object(let object) = self else { throw JSONDirectDecodingFailure() }
        return object
    }
}

extension JSONObject {
    /// A member `init(from:)` decodes with `decode(_:forKey:)`: present, and of its type.
    public func required<Value: JSONDirectDecodable>(
        _ key: String,
        as type: Value.Type = Value.self
    ) throws(JSONDirectDecodingFailure) -> Value {
        guard let value = self[key] else { throw JSONDirectDecodingFailure() }
        return try Value(directlyFrom: value)
    }

    /// A member `init(from:)` decodes with `decodeIfPresent(_:forKey:)`: absent and null
    /// are nil, as they are there.
    public func optional<Value: JSONDirectDecodable>(
        _ key: String,
        as type: Value.Type = Value.self
    ) throws(JSONDirectDecodingFailure) -> Value? {
        guard let value = self[key], !value.isNull else { return nil }
        return try Value(directlyFrom: value)
    }
}

// The leaves, read as `JSONValueDecoder` reads them when it has no doubt.

extension String: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        guard case .string(let string) = value else { throw JSONDirectDecodingFailure() }
        self = string
    }
}

extension Bool: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        guard case .bool(let bool) = value else { throw JSONDirectDecodingFailure() }
        self = bool
    }
}

/// Plain decimal literals only; `1.0`, `1e2` and out-of-range values go the long way.
extension Int: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        guard case .number(let number) = value, let integer = Int(number.literal) else {
            throw JSONDirectDecodingFailure()
        }
        self = integer
    }
}

extension Date: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        guard case .string(let string) = value, let date = RFC3339.parse(string) else {
            throw JSONDirectDecodingFailure()
        }
        self = date
    }
}

extension JSONValue: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) {
        self = value
    }
}

extension Array: JSONDirectDecodable where Element: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        guard case .array(let elements) = value else { throw JSONDirectDecodingFailure() }
        var decoded: [Element] = []
        decoded.reserveCapacity(elements.count)
        for element in elements {
            decoded.append(try Element(directlyFrom: element))
        }
        self = decoded
    }
}

extension JSONEnum {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        guard case .string(let rawValue) = value, let decoded = Self(rawValue: rawValue) else {
            throw JSONDirectDecodingFailure()
        }
        self = decoded
    }
}
