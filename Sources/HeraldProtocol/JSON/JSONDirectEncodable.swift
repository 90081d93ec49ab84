import Foundation

/// A type that writes itself straight into a `JSONValue`, without `Codable`'s containers:
/// the shortcut `JSONValueEncoder` takes for the results of hot methods such as `donate`.
///
/// The value must be exactly the one `encode(to:)` gives through `JSONValueEncoder` —
/// the same members in the same order, nil members left out, dates as RFC 3339 — and tests
/// compare both; keep the result small and flat, where that is easy to see.
package protocol JSONDirectEncodable: Encodable {
    var directJSONValue: JSONValue { get }
}

/// The members of an object a `JSONDirectEncodable` value writes, in the order given, with
/// nil ones left out as a synthesized `encode(to:)` does with `encodeIfPresent`.
package struct JSONDirectMembers {
    private var members: [JSONObject.Member] = []

    package init(capacity: Int) {
        members.reserveCapacity(capacity)
    }

    package var value: JSONValue { .object(JSONObject(members)) }

    package mutating func add(_ key: String, _ value: JSONValue?) {
        if let value { members.append(JSONObject.Member(key: key, value: value)) }
    }

    package mutating func add(_ key: String, _ value: String?) {
        if let value { members.append(JSONObject.Member(key: key, value: .string(value))) }
    }

    package mutating func add(_ key: String, _ value: Bool?) {
        if let value { members.append(JSONObject.Member(key: key, value: .bool(value))) }
    }

    package mutating func add(_ key: String, _ value: Int?) {
        if let value { members.append(JSONObject.Member(key: key, value: .number(JSONNumber(value)))) }
    }

    package mutating func add(_ key: String, _ value: UInt32?) {
        if let value { members.append(JSONObject.Member(key: key, value: .number(JSONNumber(Int(value))))) }
    }

    /// A finite number, as `JSONValueEncoder` writes it (the same rule as `JSONNumber`'s).
    package mutating func add(_ key: String, _ value: Double?) {
        if let value { members.append(JSONObject.Member(key: key, value: .number(JSONNumber(value)))) }
    }

    package mutating func add(_ key: String, _ value: Date?) {
        if let value { members.append(JSONObject.Member(key: key, value: .string(RFC3339.format(value)))) }
    }

    package mutating func add<Value: JSONEnum>(_ key: String, _ value: Value?) {
        if let value { members.append(JSONObject.Member(key: key, value: .string(value.rawValue))) }
    }

    package mutating func add<Value: JSONDirectEncodable>(_ key: String, _ value: Value?) {
        if let value { members.append(JSONObject.Member(key: key, value: value.directJSONValue)) }
    }

    package mutating func add(_ key: String, _ value: [String]?) {
        if let value { members.append(JSONObject.Member(key: key, value: .array(value.map(JSONValue.string)))) }
    }

    package mutating func add<Value: JSONEnum>(_ key: String, _ value: [Value]?) {
        if let value { members.append(JSONObject.Member(key: key, value: .array(value.map { .string($0.rawValue) }))) }
    }

    package mutating func add<Value: JSONDirectEncodable>(_ key: String, _ value: [Value]?) {
        if let value { members.append(JSONObject.Member(key: key, value: .array(value.map(\.directJSONValue)))) }
    }
}
