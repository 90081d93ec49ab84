import Foundation

/// Encodes any `Encodable` value into Herald's compact binary snapshot payload.
///
/// The payload is the key table (a varint count, then each key as a varint length and
/// its UTF-8), then the root value. Every value starts with a ``BinaryStateTag``:
/// integers are zigzag or plain varints, doubles their bit pattern (so a `Date`'s
/// `timeIntervalSinceReferenceDate` round-trips exactly), strings a varint length and
/// UTF-8, byte strings (`bytes`) a 4-byte length and the bytes. A keyed container is its byte length (4 bytes) then (key number, value) pairs; an
/// unkeyed one its byte length and element count (4 bytes each) then the elements. The
/// lengths let a reader skip a value without reading it. Written in one pass into one
/// buffer, about sixty times faster than `JSONEncoder` for a million interactions.
public struct BinaryStateEncoder: Sendable {
    /// Runs `work(0)` … `work(count - 1)` at once and returns when every one is done.
    public typealias ParallelRunner = @Sendable (_ count: Int, _ work: @escaping @Sendable (Int) -> Void) -> Void

    /// When set, the values that can (a store's record chunks) are encoded in parallel
    /// on it; the daemon's runs on threads below the event loops' priority.
    public var parallel: ParallelRunner?

    public init(parallel: ParallelRunner? = nil) {
        self.parallel = parallel
    }

    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let writer = BinaryStateWriter()
        writer.parallel = parallel
        try writer.encodeValue(value, depth: 0)
        var out: [UInt8] = []
        out.reserveCapacity(writer.bytes.count + 16 * writer.keys.count + 8)
        BinaryStateWriter.appendVarint(UInt64(writer.keys.count), to: &out)
        for key in writer.keys {
            BinaryStateWriter.appendVarint(UInt64(key.utf8.count), to: &out)
            out.append(contentsOf: key.utf8)
        }
        out.append(contentsOf: writer.bytes)
        return out
    }
}

/// The first byte of every value in a binary payload.
enum BinaryStateTag: UInt8 {
    case null = 0, `false`, `true`, int, uint, double, float, string, keyed, unkeyed, bytes
}

/// The buffer, the key table and the containers still open.
///
/// Containers are written in place as they are filled; one that is open when a container
/// above it writes again (or the value holding it ends) is closed then, by patching its
/// length. So nested containers and super-encoders work in any order Codable allows
/// except writing to a container after a sibling at its level has been started.
final class BinaryStateWriter {
    struct Frame {
        /// Where the container's 4-byte length is, or -1 while no container is open.
        var lengthAt = -1
        var kind: BinaryStateTag = .null
        var count: UInt32 = 0
    }

    @exclusivity(unchecked) var bytes: [UInt8] = []
    var keys: [String] = []
    var parallel: BinaryStateEncoder.ParallelRunner?
    private var keyNumbers: [String: Int] = [:]
    @exclusivity(unchecked) private var frames: [Frame] = []

    init() {
        bytes.reserveCapacity(1 << 16)
    }

    /// Writes `value` as a new frame one below `depth - 1`'s, and closes it.
    func encodeValue<T: Encodable>(_ value: T, depth: Int) throws {
        close(above: depth - 1)
        frames.append(Frame())
        try value.encode(to: BinaryStateEncoding(writer: self, depth: depth))
        close(above: depth - 1)
    }

    /// Closes every frame deeper than `depth`.
    func close(above depth: Int) {
        while frames.count - 1 > depth {
            let frame = frames.removeLast()
            switch frame.kind {
            case .keyed, .unkeyed:
                precondition(bytes.count - frame.lengthAt - 4 <= Int(UInt32.max), "A container is longer than 4 GiB.")
                patch(UInt32(bytes.count - frame.lengthAt - 4), at: frame.lengthAt)
                if frame.kind == .unkeyed {
                    patch(frame.count, at: frame.lengthAt + 4)
                }
            case .null where frame.lengthAt < 0:
                // A value that encoded nothing reads back as an empty keyed container.
                bytes.append(BinaryStateTag.keyed.rawValue)
                appendFixed(0)
            default:
                break
            }
        }
    }

    /// Opens a container of `kind` at frame `depth` unless one of that kind is open.
    func open(_ kind: BinaryStateTag, depth: Int) {
        close(above: depth)
        let frame = frames[depth]
        if frame.lengthAt >= 0 {
            precondition(frame.kind == kind, "A value asked for two different kinds of container.")
            return
        }
        bytes.append(kind.rawValue)
        frames[depth].lengthAt = bytes.count
        frames[depth].kind = kind
        appendFixed(0)
        if kind == .unkeyed {
            appendFixed(0)
        }
    }

    /// Starts a member of the keyed container at `depth`: closes what is open below it
    /// and writes the key's number.
    func beginMember(_ key: some CodingKey, depth: Int) {
        close(above: depth)
        let name = key.stringValue
        let number: Int
        if let known = keyNumbers[name] {
            number = known
        } else {
            number = keys.count
            keys.append(name)
            keyNumbers[name] = number
        }
        appendVarint(UInt64(number))
    }

    /// A new, empty frame at `depth` for a super-encoder; closed by whatever writes above it next.
    func pushFrame(depth: Int) -> BinaryStateEncoding {
        close(above: depth - 1)
        frames.append(Frame())
        return BinaryStateEncoding(writer: self, depth: depth)
    }

    /// The elements written so far to the unkeyed container at `depth`.
    func count(depth: Int) -> Int {
        depth < frames.count ? Int(frames[depth].count) : 0
    }

    /// Starts an element of the unkeyed container at `depth`.
    func beginElement(depth: Int) {
        close(above: depth)
        frames[depth].count += 1
    }

    /// Marks the frame at `depth` as holding a single value about to be written.
    func beginSingle(depth: Int) {
        close(above: depth)
        precondition(frames[depth].lengthAt < 0 && frames[depth].kind == .null, "A single value was encoded twice.")
        frames[depth].kind = .string  // any non-container kind: written, nothing to patch
    }

    // MARK: Primitives

    func writeNil() { bytes.append(BinaryStateTag.null.rawValue) }
    func write(_ value: Bool) { bytes.append(value ? BinaryStateTag.true.rawValue : BinaryStateTag.false.rawValue) }

    func write(_ value: String) {
        bytes.append(BinaryStateTag.string.rawValue)
        var value = value
        value.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    func write(_ value: Double) {
        bytes.append(BinaryStateTag.double.rawValue)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    func write(_ value: Float) {
        bytes.append(BinaryStateTag.float.rawValue)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    func write(signed value: Int64) {
        bytes.append(BinaryStateTag.int.rawValue)
        appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    func write(unsigned value: UInt64) {
        bytes.append(BinaryStateTag.uint.rawValue)
        appendVarint(value)
    }

    /// A byte string that `body` appends in place: the tag, a 4-byte length patched once
    /// `body` returns, and what it appended.
    func writeBytes(_ body: (inout [UInt8]) throws -> Void) rethrows {
        bytes.append(BinaryStateTag.bytes.rawValue)
        let lengthAt = bytes.count
        appendFixed(0)
        try body(&bytes)
        precondition(bytes.count - lengthAt - 4 <= Int(UInt32.max), "A byte string is longer than 4 GiB.")
        patch(UInt32(bytes.count - lengthAt - 4), at: lengthAt)
    }

    private func appendVarint(_ value: UInt64) {
        Self.appendVarint(value, to: &bytes)
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private func appendFixed(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private func patch(_ value: UInt32, at offset: Int) {
        let little = value.littleEndian
        for index in 0..<4 {
            bytes[offset + index] = UInt8(truncatingIfNeeded: little >> (8 * index))
        }
    }
}

/// The `Encoder` handed to each value: the writer and the value's frame.
struct BinaryStateEncoding: Encoder {
    let writer: BinaryStateWriter
    let depth: Int

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        writer.open(.keyed, depth: depth)
        return KeyedEncodingContainer(BinaryKeyedEncoding<Key>(writer: writer, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.open(.unkeyed, depth: depth)
        return BinaryUnkeyedEncoding(writer: writer, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        BinarySingleValueEncoding(writer: writer, depth: depth)
    }

    /// The unkeyed container of member `key` of this value's keyed container, as its
    /// concrete type: for code that writes many values by hand.
    func unkeyedMember(_ key: some CodingKey) -> BinaryUnkeyedEncoding {
        writer.open(.keyed, depth: depth)
        writer.beginMember(key, depth: depth)
        _ = writer.pushFrame(depth: depth + 1)
        writer.open(.unkeyed, depth: depth + 1)
        return BinaryUnkeyedEncoding(writer: writer, depth: depth + 1)
    }
}
