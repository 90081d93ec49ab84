import Foundation

/// Decodes what ``BinaryStateEncoder`` wrote.
///
/// Every read is bounds-checked and every length checked against what holds it, so a
/// truncated or damaged payload throws a `DecodingError` naming the byte offset; it never
/// traps. Nesting deeper than ``maximumDepth`` is refused, so crafted input cannot
/// exhaust the stack.
public struct BinaryStateDecoder {
    public static let maximumDepth = 256

    public init() {}

    /// Decodes the payload that fills `bytes` from `payloadStart` to the end (a snapshot
    /// file's bytes can be decoded in place, past its header). Offsets in errors count
    /// from the start of `bytes`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], payloadStart: Int = 0) throws -> T {
        precondition(payloadStart >= 0 && payloadStart <= bytes.count)
        let source = try BinaryStateSource(bytes, payloadStart: payloadStart)
        let root = source.rootOffset
        let value = try T(from: BinaryStateDecoding(source: source, offset: root, depth: 0))
        guard try source.end(ofValueAt: root) == bytes.count else {
            throw source.corrupted(at: root, "The payload has bytes past its root value.")
        }
        return value
    }
}

/// The payload and its key table, with bounds-checked readers.
final class BinaryStateSource {
    let bytes: [UInt8]
    let keys: [String]
    let rootOffset: Int

    convenience init(_ bytes: [UInt8], payloadStart: Int = 0) throws {
        let table = BinaryStateSource(bytes: bytes, keys: [], rootOffset: 0)
        var offset = payloadStart
        let count = try table.readVarint(at: &offset)
        // Each key takes a byte at least: a count past the bytes left is damage, not a size to reserve.
        guard count <= UInt64(bytes.count - offset) else { throw table.corrupted(at: 0, "The key table claims \(count) keys.") }
        var keys: [String] = []
        keys.reserveCapacity(Int(count))
        for _ in 0..<count {
            keys.append(try table.readString(at: &offset))
        }
        self.init(bytes: bytes, keys: keys, rootOffset: offset)
    }

    private init(bytes: [UInt8], keys: [String], rootOffset: Int) {
        self.bytes = bytes
        self.keys = keys
        self.rootOffset = rootOffset
    }

    func corrupted(at offset: Int, _ reason: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "At payload byte \(offset): \(reason)"))
    }

    func mismatch(_ type: Any.Type, at offset: Int) -> DecodingError {
        let found = offset < bytes.count ? String(describing: BinaryStateTag(rawValue: bytes[offset]) ?? .null) : "the end"
        return DecodingError.typeMismatch(
            type,
            .init(codingPath: [], debugDescription: "At payload byte \(offset): expected \(type), found \(found).")
        )
    }

    func tag(at offset: Int) throws -> BinaryStateTag {
        guard offset >= 0, offset < bytes.count else { throw corrupted(at: offset, "The payload ends inside a value.") }
        guard let tag = BinaryStateTag(rawValue: bytes[offset]) else {
            throw corrupted(at: offset, "Unknown value tag \(bytes[offset]).")
        }
        return tag
    }

    func readVarint(at offset: inout Int) throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw corrupted(at: offset, "The payload ends inside a number.") }
            let byte = bytes[offset]
            offset += 1
            guard shift < 64 else { throw corrupted(at: offset - 1, "A number is longer than 64 bits.") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    func readFixed(at offset: inout Int, size: Int) throws -> UInt64 {
        guard offset >= 0, size <= bytes.count - offset else { throw corrupted(at: offset, "The payload ends inside a value.") }
        var value: UInt64 = 0
        for index in 0..<size {
            value |= UInt64(bytes[offset + index]) << (8 * UInt64(index))
        }
        offset += size
        return value
    }

    /// A varint length followed by that many UTF-8 bytes.
    func readString(at offset: inout Int) throws -> String {
        let start = offset
        let length = try readVarint(at: &offset)
        guard length <= UInt64(bytes.count - offset) else { throw corrupted(at: start, "A string runs past the payload.") }
        let end = offset + Int(length)
        let string = String(decoding: bytes[offset..<end], as: UTF8.self)
        offset = end
        return string
    }

    /// The (length, count) of the container at `offset`, checked; its body starts 5 or 9
    /// bytes in.
    func container(at offset: Int, _ kind: BinaryStateTag) throws -> (body: Int, end: Int, count: Int) {
        guard try tag(at: offset) == kind else { throw mismatch(kind == .keyed ? [String: Any].self : [Any].self, at: offset) }
        var cursor = offset + 1
        let length = try readFixed(at: &cursor, size: 4)
        var count = 0
        if kind == .unkeyed {
            count = Int(try readFixed(at: &cursor, size: 4))
        }
        let bodyStart = offset + 5
        guard length <= UInt64(bytes.count - bodyStart) else { throw corrupted(at: offset, "A container runs past the payload.") }
        let end = bodyStart + Int(length)
        guard cursor <= end else { throw corrupted(at: offset, "A container is shorter than its header.") }
        // Each element takes a byte at least.
        guard count <= end - cursor else { throw corrupted(at: offset, "An array claims \(count) elements in \(end - cursor) bytes.") }
        return (cursor, end, count)
    }

    /// The offset just past the value at `offset`, found without reading it.
    func end(ofValueAt offset: Int) throws -> Int {
        var cursor = offset + 1
        switch try tag(at: offset) {
        case .null, .false, .true:
            return cursor
        case .int, .uint:
            _ = try readVarint(at: &cursor)
        case .double:
            _ = try readFixed(at: &cursor, size: 8)
        case .float:
            _ = try readFixed(at: &cursor, size: 4)
        case .string:
            let length = try readVarint(at: &cursor)
            guard length <= UInt64(bytes.count - cursor) else { throw corrupted(at: offset, "A string runs past the payload.") }
            cursor += Int(length)
        case .bytes:
            return try bytesRange(at: offset).upperBound
        case .keyed:
            return try container(at: offset, .keyed).end
        case .unkeyed:
            return try container(at: offset, .unkeyed).end
        }
        return cursor
    }

    // MARK: Primitives

    func decodeNil(at offset: Int) throws -> Bool {
        try tag(at: offset) == .null
    }

    func decodeBool(at offset: Int) throws -> Bool {
        switch try tag(at: offset) {
        case .true: true
        case .false: false
        default: throw mismatch(Bool.self, at: offset)
        }
    }

    func decodeString(at offset: Int) throws -> String {
        guard try tag(at: offset) == .string else { throw mismatch(String.self, at: offset) }
        var cursor = offset + 1
        return try readString(at: &cursor)
    }

    /// Where the bytes of the byte string at `offset` are, checked to lie in the payload.
    func bytesRange(at offset: Int) throws -> Range<Int> {
        guard try tag(at: offset) == .bytes else { throw mismatch([UInt8].self, at: offset) }
        var cursor = offset + 1
        let length = try readFixed(at: &cursor, size: 4)
        guard length <= UInt64(bytes.count - cursor) else { throw corrupted(at: offset, "A byte string runs past the payload.") }
        return cursor..<(cursor + Int(length))
    }

    func decodeDouble(at offset: Int) throws -> Double {
        var cursor = offset + 1
        switch try tag(at: offset) {
        case .double: return Double(bitPattern: try readFixed(at: &cursor, size: 8))
        case .float: return Double(Float(bitPattern: UInt32(try readFixed(at: &cursor, size: 4))))
        default: throw mismatch(Double.self, at: offset)
        }
    }

    func decodeFloat(at offset: Int) throws -> Float {
        var cursor = offset + 1
        switch try tag(at: offset) {
        case .float: return Float(bitPattern: UInt32(try readFixed(at: &cursor, size: 4)))
        case .double: return Float(Double(bitPattern: try readFixed(at: &cursor, size: 8)))
        default: throw mismatch(Float.self, at: offset)
        }
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) throws -> T {
        var cursor = offset + 1
        let result: T?
        switch try tag(at: offset) {
        case .int:
            let raw = try readVarint(at: &cursor)
            result = T(exactly: Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
        case .uint:
            result = T(exactly: try readVarint(at: &cursor))
        default:
            throw mismatch(type, at: offset)
        }
        guard let result else { throw corrupted(at: offset, "The number does not fit \(type).") }
        return result
    }
}

/// The `Decoder` handed to each value: the source and where the value starts.
struct BinaryStateDecoding: Decoder {
    let source: BinaryStateSource
    let offset: Int
    let depth: Int

    init(source: BinaryStateSource, offset: Int, depth: Int) throws {
        guard depth <= BinaryStateDecoder.maximumDepth else {
            throw source.corrupted(at: offset, "Values nest deeper than \(BinaryStateDecoder.maximumDepth).")
        }
        self.source = source
        self.offset = offset
        self.depth = depth
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try BinaryKeyedDecoding<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try BinaryUnkeyedDecoding(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        BinarySingleValueDecoding(decoder: self)
    }

    /// A decoder for the value at `offset`, one level down.
    func child(at offset: Int) throws -> BinaryStateDecoding {
        try BinaryStateDecoding(source: source, offset: offset, depth: depth + 1)
    }
}
