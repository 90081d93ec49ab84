/// The containers of ``BinaryStateDecoding``.
///
/// A keyed container reads its (key, value offset) pairs once; a lookup is a linear scan,
/// which beats hashing for Herald's types of at most fifteen members.
struct BinaryKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let decoder: BinaryStateDecoding
    private let members: [(key: Int, offset: Int)]

    init(decoder: BinaryStateDecoding) throws {
        let source = decoder.source
        let (body, end, _) = try source.container(at: decoder.offset, .keyed)
        var members: [(key: Int, offset: Int)] = []
        var cursor = body
        while cursor < end {
            let keyAt = cursor
            let key = try source.readVarint(at: &cursor)
            guard key < UInt64(source.keys.count) else { throw source.corrupted(at: keyAt, "Key number \(key) is not in the key table.") }
            members.append((Int(key), cursor))
            cursor = try source.end(ofValueAt: cursor)
        }
        guard cursor == end else { throw source.corrupted(at: decoder.offset, "A container's members overrun it.") }
        self.decoder = decoder
        self.members = members
    }

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { members.compactMap { Key(stringValue: decoder.source.keys[$0.key]) } }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    private func find(_ key: Key) -> Int? {
        let name = key.stringValue
        let keys = decoder.source.keys
        for member in members where keys[member.key] == name {
            return member.offset
        }
        return nil
    }

    func offset(of key: Key) throws -> Int {
        guard let offset = find(key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: [], debugDescription: "The container at payload byte \(decoder.offset) has no \(key.stringValue).")
            )
        }
        return offset
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder.source.decodeNil(at: try offset(of: key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.source.decodeBool(at: try offset(of: key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.source.decodeString(at: try offset(of: key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.source.decodeDouble(at: try offset(of: key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.source.decodeFloat(at: try offset(of: key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.source.decodeInteger(type, at: try offset(of: key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: try decoder.child(at: try offset(of: key)))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try superDecoder(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try superDecoder(forKey: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(forKey: Key(stringValue: "super")!)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try decoder.child(at: try offset(of: key))
    }
}

struct BinaryUnkeyedDecoding: UnkeyedDecodingContainer {
    private let decoder: BinaryStateDecoding
    private let end: Int
    private var cursor: Int
    let count: Int?
    private(set) var currentIndex = 0

    init(decoder: BinaryStateDecoding) throws {
        let (body, end, count) = try decoder.source.container(at: decoder.offset, .unkeyed)
        self.decoder = decoder
        self.end = end
        self.cursor = body
        self.count = count
    }

    var codingPath: [any CodingKey] { [] }
    var remainingBytes: Int { end - cursor }

    func corrupted(_ reason: String) -> DecodingError {
        decoder.source.corrupted(at: cursor, reason)
    }

    var isAtEnd: Bool { cursor >= end || currentIndex >= count ?? 0 }

    /// The next element's offset; moves past it.
    private mutating func next(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(codingPath: [], debugDescription: "The array at payload byte \(decoder.offset) has no more elements.")
            )
        }
        let offset = cursor
        cursor = try decoder.source.end(ofValueAt: offset)
        guard cursor <= end else { throw decoder.source.corrupted(at: offset, "An element runs past its array.") }
        currentIndex += 1
        return offset
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, try decoder.source.decodeNil(at: cursor) else { return false }
        _ = try next(Never.self)
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decoder.source.decodeBool(at: try next(type)) }
    mutating func decode(_ type: String.Type) throws -> String { try decoder.source.decodeString(at: try next(type)) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decoder.source.decodeDouble(at: try next(type)) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decoder.source.decodeFloat(at: try next(type)) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    /// The next element, a byte string: where its bytes lie in ``BinaryStateSource/bytes``.
    mutating func decodeBytes() throws -> Range<Int> {
        try decoder.source.bytesRange(at: try next([UInt8].self))
    }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try decoder.source.decodeInteger(type, at: try next(type))
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: try decoder.child(at: try next(type)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try superDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try superDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try decoder.child(at: try next(Any.self))
    }
}

struct BinarySingleValueDecoding: SingleValueDecodingContainer {
    let decoder: BinaryStateDecoding

    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { (try? decoder.source.decodeNil(at: decoder.offset)) ?? false }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.source.decodeBool(at: decoder.offset) }
    func decode(_ type: String.Type) throws -> String { try decoder.source.decodeString(at: decoder.offset) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.source.decodeDouble(at: decoder.offset) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.source.decodeFloat(at: decoder.offset) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.source.decodeInteger(type, at: decoder.offset) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.source.decodeInteger(type, at: decoder.offset) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.source.decodeInteger(type, at: decoder.offset) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.source.decodeInteger(type, at: decoder.offset) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.source.decodeInteger(type, at: decoder.offset) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.source.decodeInteger(type, at: decoder.offset) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.source.decodeInteger(type, at: decoder.offset) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.source.decodeInteger(type, at: decoder.offset) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.source.decodeInteger(type, at: decoder.offset) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.source.decodeInteger(type, at: decoder.offset) }

    /// A wrapped value is the value itself, at the same offset.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: try decoder.child(at: decoder.offset))
    }
}
