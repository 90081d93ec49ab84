import HeraldProtocol

/// Reading heraldd's answers and writing params, as heraldctl's commands do it: a member
/// of an object by name (nil for anything else), and Swift values as JSON.
extension JSONValue {
    subscript(key: String) -> JSONValue? { objectValue?[key] }

    var intValue: Int? { numberValue?.intValue }
    var doubleValue: Double? { numberValue?.doubleValue }

    /// An array of strings, nil when it is not one.
    var strings: [String]? {
        guard let elements = arrayValue else { return nil }
        let strings = elements.compactMap(\.stringValue)
        return strings.count == elements.count ? strings : nil
    }

    /// True only for `true`.
    var isTrue: Bool { boolValue ?? false }

    /// An object of `members`, by name, so that equal params are written equally.
    static func members(_ members: [String: JSONValue]) -> JSONValue {
        .object(JSONObject(members.sorted { $0.key < $1.key }.map { JSONObject.Member(key: $0.key, value: $0.value) }))
    }
}

extension Optional<JSONValue> {
    subscript(key: String) -> JSONValue? { self?[key] }
}

/// A Swift value as params hold it.
protocol JSONConvertible {
    var json: JSONValue { get }
}

extension String: JSONConvertible {
    var json: JSONValue { .string(self) }
}

extension Bool: JSONConvertible {
    var json: JSONValue { .bool(self) }
}

extension Int: JSONConvertible {
    var json: JSONValue { .number(JSONNumber(self)) }
}

extension UInt32: JSONConvertible {
    var json: JSONValue { .number(JSONNumber(Int(self))) }
}

extension Double: JSONConvertible {
    var json: JSONValue { .number(JSONNumber(self)) }
}

extension JSONValue: JSONConvertible {
    var json: JSONValue { self }
}

extension Array: JSONConvertible where Element: JSONConvertible {
    var json: JSONValue { .array(map(\.json)) }
}

extension Dictionary: JSONConvertible where Key == String, Value: JSONConvertible {
    var json: JSONValue { .members(mapValues(\.json)) }
}
