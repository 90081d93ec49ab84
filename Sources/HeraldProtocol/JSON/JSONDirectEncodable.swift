import Foundation

/// A JSON object type that names its members once, for two ways of writing them without
/// `Codable`'s containers: as a `JSONValue` (``directJSONValue``, for a subscriber's line
/// or a page's budget) and straight into JSON text (``writeJSON(to:)``, for a response:
/// the results of hot methods such as `donate` and `update-content`).
///
/// Both must be exactly what `encode(to:)` gives through `JSONValueEncoder` — the same
/// members in the same order, nil members left out, dates as RFC 3339 — and tests compare
/// all three; keep the type small and flat, where that is easy to see.
package protocol JSONDirectEncodable: Encodable {
    /// Adds the members, in order.
    func addMembers(to members: inout JSONDirectMembers)
}

extension JSONDirectEncodable {
    /// The value as a tree.
    package var directJSONValue: JSONValue {
        var members = JSONDirectMembers(capacity: 8)
        addMembers(to: &members)
        return members.value
    }

    /// Appends the value as compact JSON text, as `directJSONValue.write(to:)` would.
    package func writeJSON(to buffer: inout [UInt8]) {
        var members = JSONDirectMembers(writingAfter: &buffer)
        addMembers(to: &members)
        members.finishText(into: &buffer)
    }
}

/// The members of an object a `JSONDirectEncodable` value adds, in the order given, with
/// nil ones left out as a synthesized `encode(to:)` does with `encodeIfPresent`: gathered
/// for a `JSONValue`, or written as text as they come. Member names are Herald's own
/// literals, plain ASCII, written without escaping.
package struct JSONDirectMembers {
    private var members: [JSONObject.Member] = []
    private var text: [UInt8] = []
    private let writesText: Bool
    private var wroteMember = false

    package init(capacity: Int) {
        writesText = false
        members.reserveCapacity(capacity)
    }

    /// Writes the members as text after `buffer`'s bytes, which it holds meanwhile (it is
    /// empty until ``finishText(into:)`` gives them back).
    init(writingAfter buffer: inout [UInt8]) {
        writesText = true
        swap(&text, &buffer)
        text.append(UInt8(ascii: "{"))
    }

    /// Closes the object and gives the text back to `buffer`.
    mutating func finishText(into buffer: inout [UInt8]) {
        text.append(UInt8(ascii: "}"))
        swap(&text, &buffer)
    }

    package var value: JSONValue { .object(JSONObject(members)) }

    /// Writes `"key":` after a comma when a member came before.
    private mutating func writeName(_ key: String) {
        if wroteMember { text.append(UInt8(ascii: ",")) }
        wroteMember = true
        text.append(UInt8(ascii: "\""))
        var key = key
        key.withUTF8 { text.append(contentsOf: $0) }
        text.append(UInt8(ascii: "\""))
        text.append(UInt8(ascii: ":"))
    }

    /// Adds a leaf, made a `JSONValue` only for the tree.
    private mutating func addLeaf(_ key: String, _ value: JSONValue) {
        if writesText {
            writeName(key)
            value.write(to: &text)
        } else {
            members.append(JSONObject.Member(key: key, value: value))
        }
    }

    package mutating func add(_ key: String, _ value: JSONValue?) {
        if let value { addLeaf(key, value) }
    }

    package mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        if writesText {
            writeName(key)
            JSONValue.writeString(value, to: &text)
        } else {
            members.append(JSONObject.Member(key: key, value: .string(value)))
        }
    }

    package mutating func add(_ key: String, _ value: Bool?) {
        if let value { addLeaf(key, .bool(value)) }
    }

    package mutating func add(_ key: String, _ value: Int?) {
        if let value { addLeaf(key, .number(JSONNumber(value))) }
    }

    package mutating func add(_ key: String, _ value: UInt32?) {
        if let value { addLeaf(key, .number(JSONNumber(Int(value)))) }
    }

    /// A finite number, as `JSONValueEncoder` writes it (the same rule as `JSONNumber`'s).
    package mutating func add(_ key: String, _ value: Double?) {
        if let value { addLeaf(key, .number(JSONNumber(value))) }
    }

    package mutating func add(_ key: String, _ value: Date?) {
        add(key, value.map(RFC3339.format))
    }

    package mutating func add<Value: JSONEnum>(_ key: String, _ value: Value?) {
        add(key, value?.rawValue)
    }

    package mutating func add<Value: JSONDirectEncodable>(_ key: String, _ value: Value?) {
        guard let value else { return }
        if writesText {
            writeName(key)
            value.writeJSON(to: &text)
        } else {
            members.append(JSONObject.Member(key: key, value: value.directJSONValue))
        }
    }

    package mutating func add(_ key: String, _ value: [String]?) {
        guard let value else { return }
        if writesText {
            writeName(key)
            writeArray(value) { JSONValue.writeString($0, to: &$1) }
        } else {
            members.append(JSONObject.Member(key: key, value: .array(value.map(JSONValue.string))))
        }
    }

    package mutating func add<Value: JSONEnum>(_ key: String, _ value: [Value]?) {
        add(key, value?.map(\.rawValue))
    }

    package mutating func add<Value: JSONDirectEncodable>(_ key: String, _ value: [Value]?) {
        guard let value else { return }
        if writesText {
            writeName(key)
            writeArray(value) { $0.writeJSON(to: &$1) }
        } else {
            members.append(JSONObject.Member(key: key, value: .array(value.map(\.directJSONValue))))
        }
    }

    /// Writes `elements` as a JSON array, each by `write`.
    private mutating func writeArray<Element>(_ elements: [Element], _ write: (Element, inout [UInt8]) -> Void) {
        text.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            write(element, &text)
        }
        text.append(UInt8(ascii: "]"))
    }
}
