/// `JSONValue` through any `Encoder` or `Decoder`.
///
/// With `JSONValueEncoder` (and in params, `ParamsReader`) a `JSONValue` passes through untouched.
/// With other coders numbers go through `Int` or `Double` (a literal such as `1.50` loses
/// its form), and an object is a keyed container of one member, ``membersKey``, holding
/// its members as `[name, value]` pairs in order: a keyed container of the object's own
/// names would cost a look-up per member to read back (O(n²): 21 s for 16,000 members in
/// a snapshot's binary coder) and keep only one of duplicate names. A keyed container of
/// the object's names, as earlier snapshots hold them, is still read.
extension JSONValue: Codable {
    package init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd {
                elements.append(try array.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: JSONMemberKey.self) {
            var members: [JSONObject.Member] = []
            let keys = object.allKeys
            if keys.count == 1, keys[0].stringValue == Self.membersKey {
                var pairs = try object.nestedUnkeyedContainer(forKey: keys[0])
                while !pairs.isAtEnd {
                    var pair = try pairs.nestedUnkeyedContainer()
                    let name = try pair.decode(String.self)
                    members.append(JSONObject.Member(key: name, value: try pair.decode(JSONValue.self)))
                }
                self = .object(JSONObject(members))
                return
            }
            for key in keys {
                members.append(JSONObject.Member(key: key.stringValue, value: try object.decode(JSONValue.self, forKey: key)))
            }
            self = .object(JSONObject(members))
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let integer = try? single.decode(Int.self) {
            self = .number(JSONNumber(integer))
        } else {
            let double = try single.decode(Double.self)
            self = .number(JSONNumber(literal: double.description))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        if let encoder = encoder as? JSONValueEncoding {
            encoder.node.kind = .single
            encoder.node.single = self
            return
        }
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let bool):
            var single = encoder.singleValueContainer()
            try single.encode(bool)
        case .number(let number):
            var single = encoder.singleValueContainer()
            if let integer = Int(number.literal) {
                try single.encode(integer)
            } else {
                try single.encode(Double(number.literal) ?? .nan)
            }
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements {
                try array.encode(element)
            }
        case .object(let object):
            var container = encoder.container(keyedBy: JSONMemberKey.self)
            var pairs = container.nestedUnkeyedContainer(forKey: JSONMemberKey(Self.membersKey))
            for member in object.members {
                var pair = pairs.nestedUnkeyedContainer()
                try pair.encode(member.key)
                try pair.encode(member.value)
            }
        }
    }
}

extension JSONValue {
    /// The one member of an object's keyed container through coders other than Herald's
    /// own: its members as `[name, value]` pairs. Starts with NUL, so no app writes it.
    static let membersKey = "\u{0}members"
}
