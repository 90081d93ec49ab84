import HeraldProtocol

/// Appends stored interactions to a byte buffer in ``InteractionRecordLayout``: the
/// buffer and the primitives. What a record holds is written by `append(_:)` in
/// `InteractionRecord.swift`, a person by `appendPerson(_:)` in `InteractionRecord+Person.swift`.
package struct InteractionRecordWriter {
    package var bytes: [UInt8] = []

    /// Runs `body` with a writer that appends to `buffer` in place: the buffer moves into
    /// the writer and back, so what it already holds is never copied.
    package static func appending(to buffer: inout [UInt8], _ body: (inout InteractionRecordWriter) throws -> Void) rethrows {
        var writer = InteractionRecordWriter()
        swap(&writer.bytes, &buffer)
        defer { swap(&writer.bytes, &buffer) }
        try body(&writer)
    }

    // MARK: Primitives

    /// Keeps the place of a record's or a person's flags: a varint of exactly
    /// ``InteractionRecordLayout/flagsWidth`` bytes, filled in by `fillFlags`.
    package mutating func reserveFlags() -> Int {
        let at = bytes.count
        for _ in 0..<InteractionRecordLayout.flagsWidth { bytes.append(0) }
        return at
    }

    /// Writes `flags` as a varint padded to ``InteractionRecordLayout/flagsWidth`` bytes:
    /// every byte but the last has its continuation bit set, so any varint reader reads it.
    package mutating func fillFlags(_ flags: UInt64, at offset: Int) {
        bytes.withUnsafeMutableBufferPointer { bytes in
            var value = flags
            for index in 0..<InteractionRecordLayout.flagsWidth {
                let last = index == InteractionRecordLayout.flagsWidth - 1
                bytes[offset + index] = UInt8(truncatingIfNeeded: value & 0x7F) | (last ? 0 : 0x80)
                value >>= 7
            }
        }
    }

    package mutating func appendVarint(_ value: UInt64) {
        bytes.appendVarint(value)
    }

    /// Its bit pattern, little-endian, in one append.
    package mutating func appendDouble(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Its length, then its UTF-8 bytes in one copy (a native string's, without copying
    /// the string itself).
    package mutating func appendString(_ value: String) {
        let appended: Void? = value.utf8.withContiguousStorageIfAvailable { utf8 in
            bytes.appendVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
        if appended == nil { bytes.appendString(value) }
    }

    package mutating func appendCase<T: Equatable>(_ value: T, of table: [T]) {
        guard let index = table.firstIndex(of: value) else {
            preconditionFailure("\(value) is missing from its table in InteractionRecordLayout.")
        }
        bytes.append(UInt8(index))
    }

    /// A member that is rarely set: the JSON of its record (`Records/`), length-prefixed.
    package mutating func appendRare(_ json: JSONValue) {
        let lengthAt = bytes.count
        json.write(to: &bytes)
        let length = bytes.count - lengthAt
        // The length goes before the JSON: moved into place once it is known.
        var prefix: [UInt8] = []
        prefix.appendVarint(UInt64(length))
        bytes.insert(contentsOf: prefix, at: lengthAt)
    }
}
