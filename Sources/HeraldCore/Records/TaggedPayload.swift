import FoundationEssentials

/// Reads what format version 1 holds outside its record chunks: values of the generic
/// binary coder Herald wrote then, turned into JSON for Foundation's decoder.
///
/// Such a payload is a key table (a varint count, then each key as a varint length and
/// UTF-8), then one value. Every value starts with a tag byte: null, false, true; an
/// integer (zigzag or plain varint); a double or a float (its little-endian bit pattern); a
/// string (a varint length and UTF-8); a keyed container (a 4-byte length, then pairs of
/// a key number and a value); an unkeyed one (a 4-byte length and a 4-byte count, then
/// the values); a byte string (a 4-byte length and the bytes: the record chunks). Herald
/// no longer writes it; this reads what the last build that did (0.1.0's main) left on
/// disk. Every read is bounds-checked, nesting is limited to ``maximumDepth``, and a
/// damaged value throws ``SnapshotFileError`` naming the file byte.
package struct TaggedPayload {
    package static let maximumDepth = 256

    private enum Tag: UInt8 {
        case null = 0, `false`, `true`, int, uint, double, float, string, keyed, unkeyed, bytes
    }

    package let bytes: UnsafeRawBufferPointer
    /// What offset 0 of `bytes` is in the file, for errors.
    private let fileOffset: Int
    private let end: Int
    private(set) var keys: [String] = []
    /// Where the root value starts.
    package private(set) var root = 0

    /// Reads the key table of the payload that fills `range` of `bytes`, and checks that
    /// one value fills the rest.
    package init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, fileOffset: Int = 0) throws(SnapshotFileError) {
        self.bytes = bytes
        self.fileOffset = fileOffset
        self.end = range.upperBound
        var input = PayloadReader(bytes, range: range)
        keys = try input.strings()
        root = input.cursor
        guard try self.end(ofValueAt: root) == end else { throw damaged(at: root, "the payload has bytes past its root value.") }
    }

    /// A whole payload of the generic coder (a rarely set member of a version-1 record),
    /// as JSON; `fileOffset` is where it starts in the file.
    package static func json(of payload: UnsafeRawBufferPointer, fileOffset: Int) throws(SnapshotFileError) -> Data {
        let tagged = try TaggedPayload(payload, range: 0..<payload.count, fileOffset: fileOffset)
        return try tagged.json(at: tagged.root)
    }

    package func damaged(at offset: Int, _ reason: String) -> SnapshotFileError {
        SnapshotFileError(
            .undecodable,
            "The checksums hold but the state does not decode: at file byte \(fileOffset + offset), \(reason)"
        )
    }

    // MARK: Containers

    /// The members of the keyed container at `offset`, by name; a name twice is damage.
    package func members(ofKeyedAt offset: Int) throws(SnapshotFileError) -> [String: Int] {
        var (input, _) = try body(ofContainerAt: offset, .keyed)
        var members: [String: Int] = [:]
        while !input.isAtEnd {
            let name = try key(&input)
            guard members.updateValue(input.cursor, forKey: name) == nil else {
                throw damaged(at: input.cursor, "a container holds \(name) twice.")
            }
            try skip(&input)
        }
        return members
    }

    /// The offsets of the elements of the unkeyed container at `offset`.
    package func elements(ofUnkeyedAt offset: Int) throws(SnapshotFileError) -> [Int] {
        var (input, count) = try body(ofContainerAt: offset, .unkeyed)
        var elements: [Int] = []
        while !input.isAtEnd {
            elements.append(input.cursor)
            try skip(&input)
        }
        guard UInt64(elements.count) == count else {
            throw damaged(at: offset, "an array holds another number of elements than it says.")
        }
        return elements
    }

    package func string(at offset: Int) throws(SnapshotFileError) -> String {
        var input = PayloadReader(bytes, range: offset..<end)
        guard try input.byte() == Tag.string.rawValue else { throw damaged(at: offset, "a string was expected.") }
        return try input.string()
    }

    /// Where the bytes of the byte string at `offset` lie.
    package func byteString(at offset: Int) throws(SnapshotFileError) -> Range<Int> {
        var input = PayloadReader(bytes, range: offset..<end)
        guard try input.byte() == Tag.bytes.rawValue else { throw damaged(at: offset, "a byte string was expected.") }
        return try input.span(try input.fixed(4))
    }

    // MARK: JSON

    /// The value at `offset` as JSON text: an object for a keyed container, an array for
    /// an unkeyed one; a double in its shortest form that reads back the same.
    package func json(at offset: Int) throws(SnapshotFileError) -> Data {
        var out: [UInt8] = []
        var input = PayloadReader(bytes, range: offset..<end)
        try writeJSON(&input, depth: 0, to: &out)
        return Data(out)
    }

    private func writeJSON(_ input: inout PayloadReader, depth: Int, to out: inout [UInt8]) throws(SnapshotFileError) {
        let start = input.cursor
        guard depth <= Self.maximumDepth else { throw damaged(at: start, "values nest deeper than \(Self.maximumDepth).") }
        switch try tag(&input) {
        case .null: out += Array("null".utf8)
        case .false: out += Array("false".utf8)
        case .true: out += Array("true".utf8)
        case .int:
            let raw = try input.varint()
            out += Array(String(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)).utf8)
        case .uint: out += Array(String(try input.varint()).utf8)
        case .double: try writeNumber(Double(bitPattern: try input.fixed(8)), at: start, to: &out)
        case .float: try writeNumber(Double(Float(bitPattern: UInt32(try input.fixed(4)))), at: start, to: &out)
        case .string: Self.writeJSONString(bytes[try input.lengthPrefixed()], to: &out)
        case .keyed:
            var (body, _) = try containerBody(&input, .keyed, at: start)
            out.append(UInt8(ascii: "{"))
            var first = true
            while !body.isAtEnd {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                Self.writeJSONString(try key(&body).utf8, to: &out)
                out.append(UInt8(ascii: ":"))
                try writeJSON(&body, depth: depth + 1, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .unkeyed:
            var (body, count) = try containerBody(&input, .unkeyed, at: start)
            out.append(UInt8(ascii: "["))
            var written: UInt64 = 0
            while !body.isAtEnd {
                if written > 0 { out.append(UInt8(ascii: ",")) }
                try writeJSON(&body, depth: depth + 1, to: &out)
                written += 1
            }
            guard written == count else { throw damaged(at: start, "an array holds another number of elements than it says.") }
            out.append(UInt8(ascii: "]"))
        case .bytes:
            throw damaged(at: start, "a byte string is where a value was expected.")
        }
    }

    private func writeNumber(_ value: Double, at offset: Int, to out: inout [UInt8]) throws(SnapshotFileError) {
        guard value.isFinite else { throw damaged(at: offset, "a number is not finite.") }
        out += Array(value.description.utf8)
    }

    /// `utf8` as a JSON string. Bytes that are not UTF-8 are copied as they are, for
    /// Foundation's decoder to refuse.
    private static func writeJSONString(_ utf8: some Sequence<UInt8>, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0..<0x20:
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: Primitives

    private func tag(_ input: inout PayloadReader) throws(SnapshotFileError) -> Tag {
        let offset = input.cursor
        let byte = try input.byte()
        guard let tag = Tag(rawValue: byte) else { throw damaged(at: offset, "unknown value tag \(byte).") }
        return tag
    }

    private func key(_ input: inout PayloadReader) throws(SnapshotFileError) -> String {
        let offset = input.cursor
        let number = try input.varint()
        guard number < UInt64(keys.count) else { throw damaged(at: offset, "key number \(number) is not in the key table.") }
        return keys[Int(number)]
    }

    /// A reader of the body of the container at `offset`, and its element count (0 for
    /// a keyed one).
    private func body(ofContainerAt offset: Int, _ kind: Tag) throws(SnapshotFileError) -> (PayloadReader, UInt64) {
        var input = PayloadReader(bytes, range: offset..<end)
        guard try tag(&input) == kind else { throw damaged(at: offset, kind == .keyed ? "an object was expected." : "an array was expected.") }
        return try containerBody(&input, kind, at: offset)
    }

    /// The body of the container whose tag `input` has just read, bounded by `input`'s own
    /// end; moves `input` past it.
    private func containerBody(_ input: inout PayloadReader, _ kind: Tag, at offset: Int) throws(SnapshotFileError) -> (PayloadReader, UInt64) {
        let range = try input.span(try input.fixed(4))
        var body = PayloadReader(bytes, range: range)
        let count = kind == .unkeyed ? try body.fixed(4) : 0
        return (body, count)
    }

    /// Moves `input` past the value it is at, without reading it.
    private func skip(_ input: inout PayloadReader) throws(SnapshotFileError) {
        let offset = input.cursor
        let next = try end(ofValueAt: offset)
        guard next <= input.end else { throw damaged(at: offset, "a value runs past its container.") }
        _ = try input.span(UInt64(next - offset))
    }

    /// The offset just past the value at `offset`.
    private func end(ofValueAt offset: Int) throws(SnapshotFileError) -> Int {
        var input = PayloadReader(bytes, range: offset..<end)
        switch try tag(&input) {
        case .null, .false, .true: break
        case .int, .uint: _ = try input.varint()
        case .double: _ = try input.fixed(8)
        case .float: _ = try input.fixed(4)
        case .string: _ = try input.lengthPrefixed()
        case .keyed, .unkeyed, .bytes: _ = try input.span(try input.fixed(4))
        }
        return input.cursor
    }
}
