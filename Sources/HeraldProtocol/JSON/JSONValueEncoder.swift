import FoundationEssentials

/// Encodes `Encodable` types into a `JSONValue`.
///
/// Object members keep the order they were encoded in (for synthesized conformances, the
/// order of the `CodingKeys`); `nil` optionals are omitted, as `encodeIfPresent` does.
/// `JSONValue` members are stored as they are and `Date` as an RFC 3339 UTC string with
/// milliseconds, `2026-11-22T14:02:00.000Z`.
///
/// Numbers: integers are written exactly. A `Double` or `Float` that is integral and
/// smaller than 10^15 in magnitude is written without a fraction (`3.0` → `3`), the same
/// rule as `JSONNumber.init(_: Double)`, so a value reads the same whichever way it was
/// built; any other finite value is written as Swift's shortest round-trip description
/// (`0.1` → `0.1`, `1e20` → `1e+20`). NaN and infinities cannot be written in JSON and
/// throw `EncodingError.invalidValue`. A value that encodes nothing at all becomes `{}`.
///
/// A `JSONDirectEncodable` value is better written straight to text (`writeJSON(to:)`);
/// here it takes `Encodable`'s way, which its tests compare that text with.
package struct JSONValueEncoder: Sendable {
    package init() {}

    package func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try encodeThroughEncodable(value)
    }

    private func encodeThroughEncodable<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = JSONValueEncoding(node: JSONEncodedNode(), path: .root)
        return try encoder.box(value, path: .root).resolved
    }
}

/// A value under construction: a finished `JSONValue`, or a container still being filled.
enum JSONEncodedSlot {
    case value(JSONValue)
    case node(JSONEncodedNode)

    var resolved: JSONValue {
        switch self {
        case .value(let value): value
        case .node(let node): node.resolved
        }
    }
}

/// A container under construction, shared by the encoder and the containers it hands out.
final class JSONEncodedNode {
    enum Kind {
        case unset
        case single
        case array
        case object
    }

    var kind = Kind.unset
    var single = JSONValue.null
    var elements: [JSONEncodedSlot] = []
    var members: [(key: String, slot: JSONEncodedSlot)] = []

    /// Makes this node an object (keeping its members if it already is one).
    func becomeObject() {
        if kind != .object {
            kind = .object
            members = []
        }
    }

    func becomeArray() {
        if kind != .array {
            kind = .array
            elements = []
        }
    }

    /// Sets a member, replacing an earlier member of the same name in place.
    func setMember(_ key: String, _ slot: JSONEncodedSlot) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].slot = slot
        } else {
            members.append((key, slot))
        }
    }

    var resolved: JSONValue {
        switch kind {
        case .unset:
            .object(JSONObject())
        case .single:
            single
        case .array:
            .array(elements.map(\.resolved))
        case .object:
            .object(JSONObject(members.map { JSONObject.Member(key: $0.key, value: $0.slot.resolved) }))
        }
    }
}

extension JSONNumber {
    /// The literal for a floating-point value, by the rule in `JSONValueEncoder`'s documentation.
    static func encoding<T: BinaryFloatingPoint & CustomStringConvertible>(
        _ value: T,
        codingPath: [any CodingKey]
    ) throws -> JSONNumber {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: codingPath, debugDescription: "\(value) cannot be written in JSON.")
            )
        }
        if value == value.rounded(), abs(value) < 1e15 {
            return JSONNumber(literal: String(Int64(value)))
        }
        return JSONNumber(literal: value.description)
    }
}
