/// The containers of ``BinaryStateEncoding``: each writes straight into the writer's buffer.
struct BinaryKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: BinaryStateWriter
    let depth: Int

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) {
        writer.beginMember(key, depth: depth)
        writer.writeNil()
    }
    mutating func encode(_ value: Bool, forKey key: Key) {
        writer.beginMember(key, depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: String, forKey key: Key) {
        writer.beginMember(key, depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) {
        writer.beginMember(key, depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: Float, forKey key: Key) {
        writer.beginMember(key, depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) { encodeSigned(Int64(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) { encodeSigned(Int64(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) { encodeSigned(Int64(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) { encodeSigned(Int64(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) { encodeSigned(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) { encodeUnsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { encodeUnsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { encodeUnsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { encodeUnsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { encodeUnsigned(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        writer.beginMember(key, depth: depth)
        try writer.encodeValue(value, depth: depth + 1)
    }

    private func encodeSigned(_ value: Int64, _ key: Key) {
        writer.beginMember(key, depth: depth)
        writer.write(signed: value)
    }

    private func encodeUnsigned(_ value: UInt64, _ key: Key) {
        writer.beginMember(key, depth: depth)
        writer.write(unsigned: value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        superEncoder(forKey: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        superEncoder(forKey: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.beginMember(key, depth: depth)
        return writer.pushFrame(depth: depth + 1)
    }
}

struct BinaryUnkeyedEncoding: UnkeyedEncodingContainer {
    let writer: BinaryStateWriter
    let depth: Int

    var codingPath: [any CodingKey] { [] }
    var count: Int { writer.count(depth: depth) }

    mutating func encodeNil() {
        writer.beginElement(depth: depth)
        writer.writeNil()
    }
    mutating func encode(_ value: Bool) {
        writer.beginElement(depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: String) {
        writer.beginElement(depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: Double) {
        writer.beginElement(depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: Float) {
        writer.beginElement(depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: Int) { encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int8) { encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int16) { encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int32) { encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int64) { encodeSigned(value) }
    mutating func encode(_ value: UInt) { encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) { encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) { encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) { encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) { encodeUnsigned(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        writer.beginElement(depth: depth)
        try writer.encodeValue(value, depth: depth + 1)
    }

    /// How the encoder may run work in parallel, if it may.
    var parallel: BinaryStateEncoder.ParallelRunner? { writer.parallel }

    /// A byte string that `body` appends in place, for records laid out by hand.
    mutating func encodeBytes(_ body: (inout [UInt8]) throws -> Void) rethrows {
        writer.beginElement(depth: depth)
        try writer.writeBytes(body)
    }

    private func encodeSigned(_ value: Int64) {
        writer.beginElement(depth: depth)
        writer.write(signed: value)
    }

    private func encodeUnsigned(_ value: UInt64) {
        writer.beginElement(depth: depth)
        writer.write(unsigned: value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        superEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        superEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        writer.beginElement(depth: depth)
        return writer.pushFrame(depth: depth + 1)
    }
}

struct BinarySingleValueEncoding: SingleValueEncodingContainer {
    let writer: BinaryStateWriter
    let depth: Int

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() {
        writer.beginSingle(depth: depth)
        writer.writeNil()
    }
    mutating func encode(_ value: Bool) {
        writer.beginSingle(depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: String) {
        writer.beginSingle(depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: Double) {
        writer.beginSingle(depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: Float) {
        writer.beginSingle(depth: depth)
        writer.write(value)
    }
    mutating func encode(_ value: Int) { encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int8) { encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int16) { encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int32) { encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int64) { encodeSigned(value) }
    mutating func encode(_ value: UInt) { encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) { encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) { encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) { encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) { encodeUnsigned(value) }

    /// A wrapped value is the value itself: it fills this same frame.
    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: BinaryStateEncoding(writer: writer, depth: depth))
    }

    private func encodeSigned(_ value: Int64) {
        writer.beginSingle(depth: depth)
        writer.write(signed: value)
    }

    private func encodeUnsigned(_ value: UInt64) {
        writer.beginSingle(depth: depth)
        writer.write(unsigned: value)
    }
}
