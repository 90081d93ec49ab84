/// The keyed and unkeyed containers of `JSONValueDecoding`.
struct JSONKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONValueDecoding
    let object: JSONObject

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        var seen = Set<String>()
        return object.members.compactMap { member in
            seen.insert(member.key).inserted ? Key(stringValue: member.key) : nil
        }
    }

    func contains(_ key: Key) -> Bool {
        object[key.stringValue] != nil
    }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: codingPath, debugDescription: "No member named \"\(key.stringValue)\".")
            )
        }
        return value
    }

    private func path(_ key: Key) -> JSONCodingPath {
        decoder.path.appending(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try member(key).isNull
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.unboxBool(member(key), path: path(key))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.unboxString(member(key), path: path(key))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.unboxFloatingPoint(type, from: member(key), path: path(key))
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.unboxFloatingPoint(type, from: member(key), path: path(key))
    }

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
        try decoder.unboxInteger(type, from: member(key), path: path(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(type, from: member(key), path: path(key))
    }

    // One lookup instead of the default's three (contains, decodeNil, decode).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = object[key.stringValue], !value.isNull else { return nil }
        return try decoder.unbox(type, from: value, path: path(key))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = object[key.stringValue], !value.isNull else { return nil }
        return try decoder.unboxString(value, path: path(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = object[key.stringValue], !value.isNull else { return nil }
        return try decoder.unboxBool(value, path: path(key))
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = object[key.stringValue], !value.isNull else { return nil }
        return try decoder.unboxInteger(type, from: value, path: path(key))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = object[key.stringValue], !value.isNull else { return nil }
        return try decoder.unboxFloatingPoint(type, from: value, path: path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try childDecoder(member(key), key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try childDecoder(member(key), key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = JSONMemberKey("super")
        return JSONValueDecoding(value: object[key.stringValue] ?? .null, path: decoder.path.appending(key), prefix: decoder.prefix)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        childDecoder(object[key.stringValue] ?? .null, key)
    }

    private func childDecoder(_ value: JSONValue, _ key: Key) -> JSONValueDecoding {
        JSONValueDecoding(value: value, path: path(key), prefix: decoder.prefix)
    }
}

struct JSONUnkeyedDecoding: UnkeyedDecodingContainer {
    let decoder: JSONValueDecoding
    let elements: [JSONValue]
    private(set) var currentIndex = 0

    init(decoder: JSONValueDecoding, elements: [JSONValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var currentPath: JSONCodingPath { decoder.path.appending(index: currentIndex) }

    /// The element at `currentIndex`, which the caller consumes on success.
    private func element(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: currentPath.codingPath,
                    debugDescription: "\(decoder.subject(decoder.path)) needs more than \(elements.count) elements."
                )
            )
        }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard try element(Never.self).isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try decoder.unboxBool(element(type), path: currentPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try decoder.unboxString(element(type), path: currentPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
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

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let value = try decoder.unboxInteger(type, from: element(type), path: currentPath)
        currentIndex += 1
        return value
    }

    private mutating func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
        let value = try decoder.unboxFloatingPoint(type, from: element(type), path: currentPath)
        currentIndex += 1
        return value
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.unbox(type, from: element(type), path: currentPath)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try nextDecoder(type).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try nextDecoder([JSONValue].self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try nextDecoder(JSONValue.self)
        currentIndex += 1
        return decoder
    }

    private func nextDecoder(_ type: Any.Type) throws -> JSONValueDecoding {
        JSONValueDecoding(value: try element(type), path: currentPath, prefix: decoder.prefix)
    }
}
