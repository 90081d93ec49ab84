/// Reads a snapshot's bytes in place, every read bounds-checked against a range: the
/// primitives of every section and of the record chunks.
///
/// A damaged file throws ``SnapshotFileError`` `.undecodable` naming the file byte at
/// fault; it never traps, and no count it reads can claim more elements than the bytes
/// left hold.
package struct PayloadReader {
    package let bytes: UnsafeRawBufferPointer
    package private(set) var cursor: Int
    package let end: Int

    /// Reads `range` of `bytes`, a whole snapshot file.
    package init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
        self.bytes = bytes
        self.cursor = range.lowerBound
        self.end = range.upperBound
    }

    package var isAtEnd: Bool { cursor >= end }
    package var remaining: Int { end - cursor }

    /// Damage at file byte `offset`.
    package func damaged(at offset: Int, _ reason: String) -> SnapshotFileError {
        SnapshotFileError(.undecodable, "The checksums hold but the state does not decode: at file byte \(offset), \(reason)")
    }

    package mutating func byte() throws(SnapshotFileError) -> UInt8 {
        guard cursor < end else { throw damaged(at: cursor, "a value runs past its section.") }
        defer { cursor += 1 }
        return bytes[cursor]
    }

    package mutating func varint() throws(SnapshotFileError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw damaged(at: cursor - 1, "a number is longer than 64 bits.") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// A count of elements, each at least a byte long, so never more than the bytes left.
    package mutating func count() throws(SnapshotFileError) -> Int {
        let start = cursor
        let count = try varint()
        guard count <= UInt64(remaining) else { throw damaged(at: start, "a count of \(count) is larger than the bytes left.") }
        return Int(count)
    }

    /// `size` bytes, little-endian.
    package mutating func fixed(_ size: Int) throws(SnapshotFileError) -> UInt64 {
        guard remaining >= size else { throw damaged(at: cursor, "a value runs past its section.") }
        var value: UInt64 = 0
        for index in 0..<size {
            value |= UInt64(bytes[cursor + index]) << (8 * UInt64(index))
        }
        cursor += size
        return value
    }

    package mutating func double() throws(SnapshotFileError) -> Double {
        guard remaining >= 8 else { throw damaged(at: cursor, "a value runs past its section.") }
        defer { cursor += 8 }
        return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: cursor, as: UInt64.self)))
    }

    /// Where the next `length` bytes lie; moves past them.
    package mutating func span(_ length: UInt64) throws(SnapshotFileError) -> Range<Int> {
        guard length <= UInt64(remaining) else { throw damaged(at: cursor, "a value of \(length) bytes runs past its section.") }
        defer { cursor += Int(length) }
        return cursor..<(cursor + Int(length))
    }

    /// A varint length, then that many bytes: where they lie.
    package mutating func lengthPrefixed() throws(SnapshotFileError) -> Range<Int> {
        try span(try varint())
    }

    package mutating func string() throws(SnapshotFileError) -> String {
        let range = try lengthPrefixed()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// A count, then that many strings.
    package mutating func strings() throws(SnapshotFileError) -> [String] {
        let count = try count()
        var strings: [String] = []
        strings.reserveCapacity(count)
        for _ in 0..<count { strings.append(try string()) }
        return strings
    }
}

/// The writing side of ``PayloadReader``'s primitives.
extension [UInt8] {
    package mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        append(UInt8(value))
    }

    package mutating func appendFixed(_ value: UInt64, size: Int) {
        for index in 0..<size {
            append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }

    package mutating func appendDouble(_ value: Double) {
        appendFixed(value.bitPattern, size: 8)
    }

    package mutating func appendString(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count))
            append(contentsOf: utf8)
        }
    }

    package mutating func appendStrings(_ values: [String]) {
        appendVarint(UInt64(values.count))
        for value in values { appendString(value) }
    }

    /// A varint length, then `bytes`.
    package mutating func appendLengthPrefixed(_ bytes: some Collection<UInt8>) {
        appendVarint(UInt64(bytes.count))
        append(contentsOf: bytes)
    }
}
