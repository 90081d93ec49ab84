/// A JSON text as Herald reads and writes it.
///
/// Numbers keep their literal text so that a request `id` such as `1.50` or
/// `10000000000000000000001` is echoed exactly as the client wrote it; objects keep
/// their members in the order they arrived so that pass-through content (`userInfo`)
/// comes back as it was sent.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON number, kept as its literal text.
package struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written in the JSON text, for example `-1.5e3`.
    package let literal: String

    /// Wraps a literal that is already valid JSON number syntax.
    package init(literal: String) {
        self.literal = literal
    }

    package init(_ value: Int) {
        self.literal = String(value)
    }

    package init(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            self.literal = String(Int64(value))
        } else {
            self.literal = "\(value)"
        }
    }

    package var doubleValue: Double? { Double(literal) }
    package var intValue: Int? { Int(literal) }
    package var description: String { literal }
}

/// A JSON object whose members keep their arrival order.
///
/// Lookup by name is linear: Herald's objects are small, and a linear scan over a handful
/// of members beats hashing (so nothing looks up every member of a client's object by
/// name). Equality ignores member order, as JSON does.
package struct JSONObject: Sendable, Hashable, Sequence {
    package struct Member: Sendable, Hashable {
        package var key: String
        package var value: JSONValue
        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    package private(set) var members: [Member]

    package init(_ members: [Member] = []) {
        self.members = members
    }

    package init(_ pairs: KeyValuePairs<String, JSONValue>) {
        self.members = pairs.map { Member(key: $0.key, value: $0.value) }
    }

    package var count: Int { members.count }
    package var isEmpty: Bool { members.isEmpty }
    package var keys: [String] { members.map(\.key) }

    /// The value of the last member named `key`, as most JSON readers do with duplicates.
    package subscript(key: String) -> JSONValue? {
        get {
            // Comparing lengths first spares most members a full string comparison.
            let length = key.utf8.count
            for member in members.reversed() where member.key.utf8.count == length && member.key == key {
                return member.value
            }
            return nil
        }
        set {
            members.removeAll { $0.key == key }
            if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    package func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    /// Equal when both hold the same members by name, whatever their order; of members
    /// with the same name only the last counts, as in ``subscript(_:)``, so an object
    /// with duplicate names equals itself.
    ///
    /// Linear in the members, and each value is compared once (so nesting never
    /// multiplies the work): small objects by a scan, larger ones through a table of each
    /// side's last members — never a look-up per member, which is quadratic (seconds for a
    /// large object, with the state's lock held).
    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count > smallCount || rhs.members.count > smallCount else {
            var distinct = 0
            for (index, member) in lhs.members.enumerated() where lhs.isLast(index) {
                guard rhs[member.key] == member.value else { return false }
                distinct += 1
            }
            return distinct == rhs.members.indices.count { rhs.isLast($0) }
        }
        return lhs.lastMembers == rhs.lastMembers
    }

    /// Up to this many members, a scan beats building a table.
    private static let smallCount = 8

    /// Whether no later member has the name of the member at `index`.
    private func isLast(_ index: Int) -> Bool {
        let key = members[index].key
        return !members[(index + 1)...].contains { $0.key == key }
    }

    package func hash(into hasher: inout Hasher) {
        // Order-independent: combine the last members' hashes commutatively.
        let last = lastMembers
        var combined = 0
        for (key, value) in last {
            var memberHasher = Hasher()
            memberHasher.combine(key)
            memberHasher.combine(value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(last.count)
        hasher.combine(combined)
    }

    /// Each name's last value.
    private var lastMembers: [String: JSONValue] {
        var last = [String: JSONValue](minimumCapacity: members.count)
        for member in members {
            last[member.key] = member.value
        }
        return last
    }
}

extension JSONValue {
    package var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    package var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    package var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    package var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    package var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The JSON type's name as a person reads it in an error: "a string", "an object".
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    package init(nilLiteral: ()) { self = .null }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    package init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    package init(stringLiteral value: String) { self = .string(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}
