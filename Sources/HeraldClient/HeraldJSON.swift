import FoundationEssentials

/// Any JSON value: what the client hands over where the protocol leaves a member open
/// (`rpc.discover`'s document, an alternative this client does not know).
public enum HeraldJSON: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([HeraldJSON])
    case object([String: HeraldJSON])

    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode([HeraldJSON].self) {
            self = .array(value)
        } else {
            self = .object(try single.decode([String: HeraldJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let value): try single.encode(value)
        case .integer(let value): try single.encode(value)
        case .number(let value): try single.encode(value)
        case .string(let value): try single.encode(value)
        case .array(let value): try single.encode(value)
        case .object(let value): try single.encode(value)
        }
    }

    /// The member `name` of an object, else nil.
    public subscript(name: String) -> HeraldJSON? {
        if case .object(let members) = self { return members[name] }
        return nil
    }

    /// The string this value is, else nil.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// This value read as `type`, through its JSON text.
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONDecoder().decode(type, from: JSONEncoder().encode(self))
    }
}

/// Any member name, for reading the member an alternative of a `oneOf` is told apart by.
struct HeraldCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    /// The string at member `name` of the object `decoder` reads, else nil.
    static func string(in decoder: any Decoder, at name: String) -> String? {
        let container = try? decoder.container(keyedBy: HeraldCodingKey.self)
        return try? container?.decodeIfPresent(String.self, forKey: HeraldCodingKey(stringValue: name))
    }
}
