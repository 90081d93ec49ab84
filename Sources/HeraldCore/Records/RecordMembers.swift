import FoundationEssentials
import HeraldProtocol

/// Who a record's JSON is for: the snapshot file, or a person reading
/// `heraldctl inspect-snapshot --json`.
package enum RecordStyle {
    /// Dates as seconds since 2001-01-01, so that they come back exactly; a client's JSON
    /// objects as ``ClientJSON`` pairs, so that their order survives.
    case snapshot
    /// Dates in ISO 8601 to the second; a client's JSON as the client sent it.
    case inspection
}

/// The members of a record's JSON object, in the order added, absent ones left out.
///
/// Records add their members in alphabetical order: the order Foundation's encoder
/// (`sortedKeys`) wrote before Storage had records of its own, so equal states are written
/// equally, and as before.
package struct RecordMembers {
    private var members: [JSONObject.Member] = []
    package let style: RecordStyle

    package init(_ style: RecordStyle, capacity: Int = 8) {
        self.style = style
        members.reserveCapacity(capacity)
    }

    package var value: JSONValue { .object(JSONObject(members)) }

    package mutating func add(_ key: String, _ value: JSONValue?) {
        if let value { members.append(JSONObject.Member(key: key, value: value)) }
    }

    package mutating func add(_ key: String, _ value: String?) {
        add(key, value.map(JSONValue.string))
    }

    package mutating func add(_ key: String, _ value: Bool?) {
        add(key, value.map(JSONValue.bool))
    }

    package mutating func add(_ key: String, _ value: (some BinaryInteger)?) {
        add(key, value.map { JSONValue.number(JSONNumber(literal: String($0))) })
    }

    /// A finite number, in the fewest digits that read back as the same `Double`.
    package mutating func add(_ key: String, _ value: Double?) {
        add(key, value.map { JSONValue.number(JSONNumber($0)) })
    }

    package mutating func add(_ key: String, _ value: Date?) {
        add(key, value.map(date))
    }

    package mutating func add<T: RawRepresentable<String>>(_ key: String, _ value: T?) {
        add(key, value.map { JSONValue.string($0.rawValue) })
    }

    package mutating func add(_ key: String, _ values: [String]?) {
        add(key, values.map { JSONValue.array($0.map(JSONValue.string)) })
    }

    package mutating func add<T: RawRepresentable<String>>(_ key: String, _ values: [T]?) {
        add(key, values.map { JSONValue.array($0.map { .string($0.rawValue) }) })
    }

    /// Each element's record, written by `write` in this style.
    package mutating func add<T>(_ key: String, _ values: [T]?, _ write: (T, RecordStyle) -> JSONValue) {
        let style = style
        add(key, values.map { JSONValue.array($0.map { write($0, style) }) })
    }

    /// A client's own JSON (`userInfo`, `sound`, a call record).
    package mutating func addClientJSON(_ key: String, _ value: JSONValue?) {
        add(key, value.map { style == .snapshot ? ClientJSON.pairs($0) : $0 })
    }

    package func date(_ date: Date) -> JSONValue {
        switch style {
        case .snapshot:
            .number(JSONNumber(date.timeIntervalSinceReferenceDate))
        case .inspection:
            // To the millisecond, as heraldd's answers write times (issue 45).
            .string(RFC3339.format(date))
        }
    }
}

/// A client's JSON in a snapshot: every object as one member, `"\u{0}members"`, holding its
/// members as `[name, value]` pairs, so that their order and duplicate names survive
/// (`JSONValue`'s `Codable` wrote it so before Storage had records of its own, and format 4
/// keeps it). Plain objects, as the earliest snapshots hold them, are read too.
package enum ClientJSON {
    package static let membersKey = "\u{0}members"

    package static func pairs(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            let pairs = object.members.map { JSONValue.array([.string($0.key), Self.pairs($0.value)]) }
            return .object(JSONObject([JSONObject.Member(key: membersKey, value: .array(pairs))]))
        case .array(let elements):
            return .array(elements.map(Self.pairs))
        case .null, .bool, .number, .string:
            return value
        }
    }

    package static func read(_ value: JSONValue) throws(RecordDamage) -> JSONValue {
        switch value {
        case .object(let object):
            if object.count == 1, object.members[0].key == membersKey {
                guard case .array(let pairs) = object.members[0].value else { throw RecordDamage("an object's pairs are not an array.") }
                var members: [JSONObject.Member] = []
                members.reserveCapacity(pairs.count)
                for pair in pairs {
                    guard case .array(let nameAndValue) = pair, nameAndValue.count == 2, case .string(let name) = nameAndValue[0] else {
                        throw RecordDamage("an object's member is not a [name, value] pair.")
                    }
                    members.append(JSONObject.Member(key: name, value: try read(nameAndValue[1])))
                }
                return .object(JSONObject(members))
            }
            var members: [JSONObject.Member] = []
            members.reserveCapacity(object.count)
            for member in object.members {
                members.append(JSONObject.Member(key: member.key, value: try read(member.value)))
            }
            return .object(JSONObject(members))
        case .array(let elements):
            var read: [JSONValue] = []
            read.reserveCapacity(elements.count)
            for element in elements { read.append(try Self.read(element)) }
            return .array(read)
        case .null, .bool, .number, .string:
            return value
        }
    }
}
