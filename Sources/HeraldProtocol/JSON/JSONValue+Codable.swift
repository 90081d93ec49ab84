/// `JSONValue` through any `Encoder` or `Decoder`.
///
/// With `JSONValueDecoder` and `JSONValueEncoder` a `JSONValue` passes through untouched.
/// With other coders numbers go through `Int` or `Double` (a literal such as `1.50` loses
/// its form) and objects through keyed containers (member order follows the coder).
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? JSONValueDecoding {
            self = decoder.value
            return
        }
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
            for key in object.allKeys {
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

    public func encode(to encoder: any Encoder) throws {
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
            for member in object.members {
                try container.encode(member.value, forKey: JSONMemberKey(member.key))
            }
        }
    }
}
