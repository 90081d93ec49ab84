import FoundationEssentials
import HeraldCore

/// A change log segment's bytes: a header, then records, each its body's length, its
/// body's CRC32C and the body (``ChangeRecord``). Format: docs/operations.md, "The change log".
///
/// A segment holds the changes made after the snapshot of generation `baseGeneration`
/// was copied (0: after an empty start). A crash can tear the last record; so the reader
/// keeps every record up to the first that is short or whose checksum does not hold, and
/// drops that one and everything after it: nothing torn is ever applied.
package enum ChangeLogFile {
    package static let magic: [UInt8] = Array("HRLDCLOG".utf8)
    /// The version written. Version 1 (every record a request's params) is still read:
    /// a heraldd upgraded with a log on disk replays it.
    package static let version: UInt16 = 2
    package static let readableVersions: ClosedRange<UInt16> = 1...2
    /// magic (8), version (2), flags (2: bit 0, continues the segment before it), base
    /// generation (8), created at (8), CRC32C of those 28 bytes (4).
    package static let headerSize = 32
    /// Length (4) and CRC32C (4) ahead of each body.
    package static let recordOverhead = 8
    /// No body is longer: a longer length is damage, not a record to allocate for.
    package static let maxBodyBytes = 64 << 20

    package struct Header: Sendable, Hashable {
        package var version: UInt16
        package var baseGeneration: UInt64
        package var createdAt: Date
        /// Begun at a start that replayed the segment before it, rather than at a snapshot:
        /// it continues that segment, and no replay begins with it.
        package var continues = false
    }

    /// What reading a segment found.
    package struct Reading: Sendable {
        package var header: Header
        /// The whole records, in order; empty when they were handed on one by one instead
        /// (``read(_:each:)``).
        package var records: [ChangeRecord]
        /// How many whole records there were.
        package var recordCount: Int
        /// Bytes after the last whole record: a torn or damaged tail, dropped.
        package var droppedBytes: Int
        /// The header and the whole records, in bytes.
        package var validLength: Int
        /// Why reading stopped before the end; nil when every byte was a whole record.
        package var problem: String?
    }

    package static func header(baseGeneration: UInt64, createdAt: Date, continues: Bool = false, version: UInt16 = version) -> [UInt8] {
        var bytes = magic
        bytes.appendLittleEndian(version)
        bytes.appendLittleEndian(UInt16(continues ? 1 : 0))
        bytes.appendLittleEndian(baseGeneration)
        bytes.appendLittleEndian(createdAt.timeIntervalSince1970.bitPattern)
        bytes.appendLittleEndian(bytes.withUnsafeBytes { CRC32C.checksum($0) })
        return bytes
    }

    /// Appends one framed record to `bytes`, in a segment of format `version`.
    package static func append(_ record: ChangeRecord, to bytes: inout [UInt8], version: UInt16 = version) {
        appendRecord(to: &bytes) { record.encodeBody(into: &$0, version: version) }
    }

    /// Appends one framed record whose body `encodeBody` appends (a ``ChangeRecord``'s
    /// encoding, made from its parts).
    package static func appendRecord(to bytes: inout [UInt8], _ encodeBody: (inout [UInt8]) -> Void) {
        let start = bytes.count
        appendUnsealedRecord(to: &bytes, encodeBody)
        sealRecord(&bytes, at: start)
    }

    /// Appends a record's frame, left zero, and its body: ``sealRecord(_:at:)`` fills the
    /// frame in once the body is final.
    package static func appendUnsealedRecord(to bytes: inout [UInt8], _ encodeBody: (inout [UInt8]) -> Void) {
        bytes.append(contentsOf: repeatElement(0, count: recordOverhead))
        encodeBody(&bytes)
    }

    /// Writes the frame of the record that begins at `start` of `bytes` and runs to their
    /// end: its body's length and checksum.
    package static func sealRecord(_ bytes: inout [UInt8], at start: Int) {
        bytes.withUnsafeMutableBytes { raw in
            let body = UnsafeRawBufferPointer(rebasing: raw[(start + recordOverhead)...])
            raw.storeBytes(of: UInt32(body.count).littleEndian, toByteOffset: start, as: UInt32.self)
            raw.storeBytes(of: CRC32C.checksum(body).littleEndian, toByteOffset: start + 4, as: UInt32.self)
        }
    }

    /// Reads a header; throws when it is short, not a change log, damaged or of a newer version.
    package static func readHeader(_ bytes: UnsafeRawBufferPointer) throws(SnapshotFileError) -> Header {
        guard bytes.count >= headerSize else {
            throw SnapshotFileError(.truncated, "The change log is \(bytes.count) bytes, shorter than its \(headerSize)-byte header.")
        }
        guard bytes.prefix(8).elementsEqual(magic) else {
            throw SnapshotFileError(.notASnapshot, "The file does not start with HRLDCLOG: it is not a change log.")
        }
        var reader = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[8..<headerSize]))
        let version = reader.read(UInt16.self)!
        let flags = reader.read(UInt16.self)!
        let base = reader.read(UInt64.self)!
        let created = Double(bitPattern: reader.read(UInt64.self)!)
        let stored = reader.read(UInt32.self)!
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<(headerSize - 4)])) == stored else {
            throw SnapshotFileError(.checksumMismatch, "The change log's header checksum does not hold.")
        }
        guard readableVersions.contains(version) else {
            throw SnapshotFileError(
                .unsupportedVersion,
                "The change log is of format version \(version); this heraldd reads versions \(readableVersions.lowerBound) to \(readableVersions.upperBound).")
        }
        return Header(
            version: version, baseGeneration: base, createdAt: Date(timeIntervalSince1970: created.isFinite ? created : 0),
            continues: flags & 1 != 0)
    }

    /// Reads a whole segment: the one reader of a change log's bytes, for recovery,
    /// `heraldctl inspect-snapshot` and fuzzing. Never traps; never allocates by a length
    /// beyond what the bytes hold. Throws only for the header.
    package static func read(_ bytes: [UInt8]) throws(SnapshotFileError) -> Reading {
        var records: [ChangeRecord] = []
        var reading = try read(bytes) { records.append($0) }
        reading.records = records
        return reading
    }

    /// The same, handing each whole record to `each` as it is read rather than keeping
    /// them: replay applies them meanwhile, and a million records are never held at once.
    package static func read(_ bytes: [UInt8], each: (consuming ChangeRecord) -> Void) throws(SnapshotFileError) -> Reading {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SnapshotFileError) in try read(raw, each: each) }
        }.get()
    }

    private static func read(_ raw: UnsafeRawBufferPointer, each: (consuming ChangeRecord) -> Void) throws(SnapshotFileError) -> Reading {
        var records = RecordsRead(header: try readHeader(raw))
        var offset = headerSize
        records.read(raw, from: &offset, atFileEnd: true, each: each)
        return records.reading(validLength: offset, fileSize: raw.count)
    }

    /// How many bytes of a segment file are read at a time (``read(_:window:each:)``).
    package static let readWindow = 4 << 20

    /// Reads a whole segment from `file` as ``read(_:each:)`` reads it from memory, a
    /// window of `window` bytes at a time (more for a record longer than that): a restart
    /// hands the first records on at once rather than after reading the whole segment,
    /// and never holds more of it than a window.
    package static func read(
        _ file: OpenSnapshotFile, window: Int = readWindow, each: (consuming ChangeRecord) -> Void
    ) throws(SnapshotFileError) -> Reading {
        var requested = max(window, headerSize)
        var buffer = try file.bytes(at: 0, count: requested)
        let header = try buffer.withUnsafeBytes { raw in Result { () throws(SnapshotFileError) in try readHeader(raw) } }.get()
        var records = RecordsRead(header: header)
        // Where `buffer` begins in the file, and how far into it the records are read.
        var start = 0
        var offset = headerSize
        var atFileEnd = false
        while true {
            // A window shorter than asked for ends the file: one that shrank meanwhile
            // reads as truncated there.
            atFileEnd = start + buffer.count >= file.size || buffer.count < requested
            let needsMore = buffer.withUnsafeBytes { raw in records.read(raw, from: &offset, atFileEnd: atFileEnd, each: each) }
            guard needsMore else { break }
            // The record at `offset` runs past the window: the next begins with it.
            let length = buffer.withUnsafeBytes { raw in
                raw.count - offset >= recordOverhead ? Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) : 0
            }
            start += offset
            offset = 0
            requested = max(window, recordOverhead + length)
            buffer = try file.bytes(at: start, count: requested)
        }
        return records.reading(validLength: start + offset, fileSize: atFileEnd ? start + buffer.count : file.size)
    }

    /// The records of one segment as they are read, a window at a time or all at once.
    private struct RecordsRead {
        let header: Header
        var count = 0
        var problem: String?
        var names = ChangeRecord.RecentNames()

        init(header: Header) {
            self.header = header
        }

        /// Reads the records from `offset` of `raw`, handing each whole one to `each` and
        /// moving `offset` past it, until `raw` ends or one is not whole (``problem``).
        /// Unless `raw` ends where the file does, a record that runs past it is left for
        /// the next window: true when the file goes on past what was read.
        @discardableResult
        mutating func read(
            _ raw: UnsafeRawBufferPointer, from offset: inout Int, atFileEnd: Bool, each: (consuming ChangeRecord) -> Void
        ) -> Bool {
            while offset < raw.count, problem == nil {
                guard raw.count - offset >= recordOverhead else {
                    guard atFileEnd else { return true }
                    problem = "record \(count + 1) is torn: \(raw.count - offset) bytes of its frame"
                    break
                }
                let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                let stored = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                guard length <= maxBodyBytes else {
                    problem = "record \(count + 1) states a length of \(length) bytes, past the \(maxBodyBytes) a record may take"
                    break
                }
                guard raw.count - offset - recordOverhead >= length else {
                    guard atFileEnd else { return true }
                    problem = "record \(count + 1) is torn: \(raw.count - offset - recordOverhead) of its \(length) bytes"
                    break
                }
                let body = UnsafeRawBufferPointer(rebasing: raw[(offset + recordOverhead)..<(offset + recordOverhead + length)])
                guard CRC32C.checksum(body) == stored else {
                    problem = "record \(count + 1)'s checksum does not hold"
                    break
                }
                guard let record = ChangeRecord(body: body, version: header.version, names: &names) else {
                    problem = "record \(count + 1)'s checksum holds but it does not decode"
                    break
                }
                each(consume record)
                count += 1
                offset += recordOverhead + length
            }
            return problem == nil && !atFileEnd
        }

        /// What was read, the whole records ending at `validLength` of a file of `fileSize` bytes.
        func reading(validLength: Int, fileSize: Int) -> Reading {
            Reading(
                header: header, records: [], recordCount: count, droppedBytes: fileSize - validLength, validLength: validLength,
                problem: problem)
        }
    }
}
