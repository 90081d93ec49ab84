import FoundationEssentials

/// A JSON object type that writes itself straight into JSON text, without `Codable`'s
/// containers or a `JSONValue` between: the results of hot methods (`donate`,
/// `update-content`) and the params of subscribers' lines.
///
/// The text must be exactly what `encode(to:)` gives through `JSONValueEncoder` — the same
/// members in the same order, nil members left out, dates as RFC 3339 — and tests compare
/// the two; keep the type small and flat, where that is easy to see.
package protocol JSONDirectEncodable: Encodable {
    /// Adds the members, in order.
    func addMembers(to members: inout JSONDirectMembers)
}

extension JSONDirectEncodable {
    /// Appends the value as compact JSON text.
    package func writeJSON(to buffer: inout [UInt8]) {
        var members = JSONDirectMembers(writingAfter: &buffer)
        addMembers(to: &members)
        members.finish(into: &buffer)
    }
}

/// The members of an object a `JSONDirectEncodable` value adds, written as they come, in
/// the order given, with nil ones left out as a synthesized `encode(to:)` does with
/// `encodeIfPresent`. Member names are Herald's own literals, plain ASCII, written without
/// escaping.
package struct JSONDirectMembers {
    private var text: [UInt8] = []
    private var wroteMember = false

    /// Writes the members after `buffer`'s bytes, which it holds meanwhile (`buffer` is
    /// empty until ``finish(into:)`` gives them back).
    init(writingAfter buffer: inout [UInt8]) {
        swap(&text, &buffer)
        text.append(UInt8(ascii: "{"))
    }

    /// Closes the object and gives the text back to `buffer`.
    mutating func finish(into buffer: inout [UInt8]) {
        text.append(UInt8(ascii: "}"))
        swap(&text, &buffer)
    }

    /// Writes `"key":` after a comma when a member came before. A name is a literal, read
    /// where the program keeps it: no string to retain and release for each member.
    private mutating func writeName(_ key: StaticString) {
        if wroteMember { text.append(UInt8(ascii: ",")) }
        wroteMember = true
        text.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { text.append(contentsOf: $0) }
        text.append(UInt8(ascii: "\""))
        text.append(UInt8(ascii: ":"))
    }

    /// Adds a leaf.
    private mutating func addLeaf(_ key: StaticString, _ value: JSONValue) {
        writeName(key)
        value.write(to: &text)
    }

    package mutating func add(_ key: StaticString, _ value: JSONValue?) {
        if let value { addLeaf(key, value) }
    }

    package mutating func add(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        writeName(key)
        JSONValue.writeString(value, to: &text)
    }

    package mutating func add(_ key: StaticString, _ value: Bool?) {
        if let value { addLeaf(key, .bool(value)) }
    }

    package mutating func add(_ key: StaticString, _ value: Int?) {
        if let value { addLeaf(key, .number(JSONNumber(value))) }
    }

    package mutating func add(_ key: StaticString, _ value: UInt32?) {
        if let value { addLeaf(key, .number(JSONNumber(Int(value)))) }
    }

    /// A finite number, as `JSONValueEncoder` writes it (the same rule as `JSONNumber`'s).
    package mutating func add(_ key: StaticString, _ value: Double?) {
        if let value { addLeaf(key, .number(JSONNumber(value))) }
    }

    package mutating func add(_ key: StaticString, _ value: Date?) {
        guard let value else { return }
        writeName(key)
        RFC3339.writeQuoted(value, to: &text)
    }

    package mutating func add<Value: JSONEnum>(_ key: StaticString, _ value: Value?) {
        add(key, value?.rawValue)
    }

    package mutating func add<Value: JSONDirectEncodable>(_ key: StaticString, _ value: Value?) {
        guard let value else { return }
        writeName(key)
        value.writeJSON(to: &text)
    }

    package mutating func add(_ key: StaticString, _ value: [String]?) {
        guard let value else { return }
        writeName(key)
        writeArray(value) { JSONValue.writeString($0, to: &$1) }
    }

    package mutating func add<Value: JSONEnum>(_ key: StaticString, _ value: [Value]?) {
        add(key, value?.map(\.rawValue))
    }

    package mutating func add<Value: JSONDirectEncodable>(_ key: StaticString, _ value: [Value]?) {
        guard let value else { return }
        writeName(key)
        writeArray(value) { $0.writeJSON(to: &$1) }
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
