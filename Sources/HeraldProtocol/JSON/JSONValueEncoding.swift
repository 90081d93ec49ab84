import FoundationEssentials

/// The `Encoder` behind `JSONValueEncoder`: one per value being encoded, and its own
/// single-value container.
final class JSONValueEncoding: Encoder, SingleValueEncodingContainer {
    let node: JSONEncodedNode
    let path: JSONCodingPath

    init(node: JSONEncodedNode, path: JSONCodingPath) {
        self.node = node
        self.path = path
    }

    var codingPath: [any CodingKey] { path.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(JSONKeyedEncoding<Key>(encoder: self, node: node, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return JSONUnkeyedEncoding(encoder: self, node: node, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// The encoded form of `value`, found at `path`: a finished value where it is one.
    func box<T: Encodable>(_ value: T, path: JSONCodingPath) throws -> JSONEncodedSlot {
        if T.self == JSONValue.self {
            return .value(value as! JSONValue)
        }
        if T.self == String.self {
            return .value(.string(value as! String))
        }
        if T.self == Int.self {
            return .value(.number(JSONNumber(value as! Int)))
        }
        if T.self == Bool.self {
            return .value(.bool(value as! Bool))
        }
        if T.self == Double.self {
            return .value(.number(try JSONNumber.encoding(value as! Double, codingPath: path.codingPath)))
        }
        if T.self == Date.self {
            return .value(.string(RFC3339.format(value as! Date)))
        }
        let child = JSONValueEncoding(node: JSONEncodedNode(), path: path)
        try value.encode(to: child)
        if child.node.kind == .single {
            return .value(child.node.single)
        }
        return .node(child.node)
    }

    // MARK: SingleValueEncodingContainer

    private func store(_ value: JSONValue) {
        node.kind = .single
        node.single = value
    }

    func encodeNil() { store(.null) }
    func encode(_ value: Bool) { store(.bool(value)) }
    func encode(_ value: String) { store(.string(value)) }
    func encode(_ value: Double) throws { store(.number(try JSONNumber.encoding(value, codingPath: codingPath))) }
    func encode(_ value: Float) throws { store(.number(try JSONNumber.encoding(value, codingPath: codingPath))) }
    func encode(_ value: Int) { store(.number(JSONNumber(value))) }
    func encode(_ value: Int8) { store(.number(JSONNumber(literal: String(value)))) }
    func encode(_ value: Int16) { store(.number(JSONNumber(literal: String(value)))) }
    func encode(_ value: Int32) { store(.number(JSONNumber(literal: String(value)))) }
    func encode(_ value: Int64) { store(.number(JSONNumber(literal: String(value)))) }
    func encode(_ value: UInt) { store(.number(JSONNumber(literal: String(value)))) }
    func encode(_ value: UInt8) { store(.number(JSONNumber(literal: String(value)))) }
    func encode(_ value: UInt16) { store(.number(JSONNumber(literal: String(value)))) }
    func encode(_ value: UInt32) { store(.number(JSONNumber(literal: String(value)))) }
    func encode(_ value: UInt64) { store(.number(JSONNumber(literal: String(value)))) }

    func encode<T: Encodable>(_ value: T) throws {
        switch try box(value, path: path) {
        case .value(let value):
            store(value)
        case .node(let child):
            node.kind = child.kind
            node.single = child.single
            node.elements = child.elements
            node.members = child.members
        }
    }
}
