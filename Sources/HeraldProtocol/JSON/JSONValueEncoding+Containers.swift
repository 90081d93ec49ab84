/// The keyed and unkeyed containers of `JSONValueEncoding`.
struct JSONKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONValueEncoding
    let node: JSONEncodedNode
    let path: JSONCodingPath

    var codingPath: [any CodingKey] { path.codingPath }

    private func set(_ value: JSONValue, _ key: Key) {
        node.setMember(key.stringValue, .value(value))
    }

    private func set<T: BinaryInteger>(integer value: T, _ key: Key) {
        set(.number(JSONNumber(literal: String(value))), key)
    }

    mutating func encodeNil(forKey key: Key) { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) { set(.string(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) { set(.number(JSONNumber(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) { set(integer: value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) { set(integer: value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) { set(integer: value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) { set(integer: value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) { set(integer: value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { set(integer: value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { set(integer: value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { set(integer: value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { set(integer: value, key) }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(.number(try JSONNumber.encoding(value, codingPath: path.appending(key).codingPath)), key)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(.number(try JSONNumber.encoding(value, codingPath: path.appending(key).codingPath)), key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.setMember(key.stringValue, try encoder.box(value, path: path.appending(key)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        childEncoder(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        childEncoder(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = JSONMemberKey("super")
        let child = JSONEncodedNode()
        node.setMember(key.stringValue, .node(child))
        return JSONValueEncoding(node: child, path: path.appending(key))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        childEncoder(key)
    }

    private func childEncoder(_ key: Key) -> JSONValueEncoding {
        let child = JSONEncodedNode()
        node.setMember(key.stringValue, .node(child))
        return JSONValueEncoding(node: child, path: path.appending(key))
    }
}

struct JSONUnkeyedEncoding: UnkeyedEncodingContainer {
    let encoder: JSONValueEncoding
    let node: JSONEncodedNode
    let path: JSONCodingPath

    var codingPath: [any CodingKey] { path.codingPath }
    var count: Int { node.elements.count }

    private func append(_ value: JSONValue) {
        node.elements.append(.value(value))
    }

    private func append<T: BinaryInteger>(integer value: T) {
        append(.number(JSONNumber(literal: String(value))))
    }

    private var nextPath: JSONCodingPath { path.appending(index: node.elements.count) }

    mutating func encodeNil() { append(.null) }
    mutating func encode(_ value: Bool) { append(.bool(value)) }
    mutating func encode(_ value: String) { append(.string(value)) }
    mutating func encode(_ value: Int) { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int8) { append(integer: value) }
    mutating func encode(_ value: Int16) { append(integer: value) }
    mutating func encode(_ value: Int32) { append(integer: value) }
    mutating func encode(_ value: Int64) { append(integer: value) }
    mutating func encode(_ value: UInt) { append(integer: value) }
    mutating func encode(_ value: UInt8) { append(integer: value) }
    mutating func encode(_ value: UInt16) { append(integer: value) }
    mutating func encode(_ value: UInt32) { append(integer: value) }
    mutating func encode(_ value: UInt64) { append(integer: value) }

    mutating func encode(_ value: Double) throws {
        append(.number(try JSONNumber.encoding(value, codingPath: nextPath.codingPath)))
    }

    mutating func encode(_ value: Float) throws {
        append(.number(try JSONNumber.encoding(value, codingPath: nextPath.codingPath)))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.elements.append(try encoder.box(value, path: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nextEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nextEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        nextEncoder()
    }

    private func nextEncoder() -> JSONValueEncoding {
        let child = JSONEncodedNode()
        let encoder = JSONValueEncoding(node: child, path: nextPath)
        node.elements.append(.node(child))
        return encoder
    }
}
