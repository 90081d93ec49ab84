import FoundationEssentials
import HeraldCore

/// The fixed 56 bytes at the start of every snapshot file, little-endian:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `HERALDSS` |
/// | 8 | 4 | format version (6; 1–5 are still read) |
/// | 12 | 4 | payload encoding (3 in version 2: sections, ``SnapshotPayload``; 2 in version 1: the generic binary coder with interactions in record chunks, ``FormatVersion1Payload``) |
/// | 16 | 8 | generation: 1 for the first snapshot, one more for each after |
/// | 24 | 8 | creation time, milliseconds since 1970 |
/// | 32 | 8 | interactions stored |
/// | 40 | 8 | payload length, bytes |
/// | 48 | 4 | CRC-32C of the payload |
/// | 52 | 4 | CRC-32C of bytes 0–51 |
///
/// The payload follows, and nothing after it.
package struct SnapshotHeader: Sendable, Hashable {
    package static let size = 56
    package static let magic: [UInt8] = Array("HERALDSS".utf8)
    /// The newest format this build reads and the one it writes: 2, or its newest
    /// section's when a later one adds a piece of state (``SnapshotPayload/formatVersion``).
    package static let currentVersion: UInt32 = SnapshotPayload.formatVersion

    /// The payload encoding of format version 1: the generic binary coder, interactions in
    /// record chunks. Read, no longer written. (Encodings 0 and 1, JSON and one tagged value
    /// per member, were never in a release and are not read.)
    package static let version1Encoding: UInt32 = 2
    /// The payload encoding of format version 2 and later: sections (``SnapshotPayload``).
    package static let sectionsEncoding: UInt32 = 3

    /// The name of each encoding this build reads, for a person.
    package static let encodingNames: [UInt32: String] = [version1Encoding: "binary", sectionsEncoding: "sectioned binary"]

    /// Whether this build reads a payload of `encoding` in format `version`. A build that
    /// predates an encoding refuses it as unsupported rather than mistaking it for damage.
    static func reads(version: UInt32, encoding: UInt32) -> Bool {
        (version == 1 && encoding == version1Encoding) || (version >= 2 && version <= currentVersion && encoding == sectionsEncoding)
    }

    package var version: UInt32 = SnapshotHeader.currentVersion
    package var encoding: UInt32 = SnapshotHeader.sectionsEncoding
    package var generation: UInt64
    package var createdAt: Date
    package var interactions: UInt64
    package var payloadLength: UInt64
    package var payloadChecksum: UInt32

    package init(generation: UInt64, createdAt: Date, interactions: UInt64, payloadLength: UInt64, payloadChecksum: UInt32) {
        self.generation = generation
        self.createdAt = createdAt
        self.interactions = interactions
        self.payloadLength = payloadLength
        self.payloadChecksum = payloadChecksum
    }

    /// The 56 bytes, header checksum included.
    package var bytes: [UInt8] {
        var out: [UInt8] = Self.magic
        out.reserveCapacity(Self.size)
        Self.append(version, to: &out)
        Self.append(encoding, to: &out)
        Self.append(generation, to: &out)
        Self.append(UInt64(bitPattern: Int64((createdAt.timeIntervalSince1970 * 1000).rounded())), to: &out)
        Self.append(interactions, to: &out)
        Self.append(payloadLength, to: &out)
        Self.append(payloadChecksum, to: &out)
        Self.append(CRC32C.checksum(out), to: &out)
        return out
    }

    /// Reads a header, checking its magic, then its own checksum, then its version and
    /// encoding, in that order: a newer version is told apart from damage only while the
    /// checksum holds, so a flipped version byte is damage (and recovery falls back to
    /// `.previous`), not a newer format. Every version keeps these 56 bytes' layout.
    package init(parsing bytes: UnsafeRawBufferPointer) throws(SnapshotFileError) {
        try Self.checkFrame(bytes)
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        let version = load(8, UInt32.self)
        guard version <= Self.currentVersion, version > 0 else {
            throw SnapshotFileError(
                .unsupportedVersion,
                "The snapshot has format version \(version); this heraldd reads up to \(Self.currentVersion)."
            )
        }
        self.version = version
        self.encoding = load(12, UInt32.self)
        self.generation = load(16, UInt64.self)
        self.createdAt = Date(timeIntervalSince1970: Double(Int64(bitPattern: load(24, UInt64.self))) / 1000)
        self.interactions = load(32, UInt64.self)
        self.payloadLength = load(40, UInt64.self)
        self.payloadChecksum = load(48, UInt32.self)
        guard Self.reads(version: version, encoding: encoding) else {
            throw SnapshotFileError(
                .unsupportedVersion,
                "The snapshot's payload encoding \(encoding) of format version \(version) is unknown to this heraldd."
            )
        }
    }

    /// Checks what every version shares: the length, the magic and the header's own
    /// checksum at byte 52.
    static func checkFrame(_ bytes: UnsafeRawBufferPointer) throws(SnapshotFileError) {
        guard bytes.count >= Self.size else {
            throw SnapshotFileError(.truncated, "The file is \(bytes.count) bytes, shorter than a snapshot header (\(Self.size)).")
        }
        guard Array(bytes[0..<8]) == Self.magic else {
            throw SnapshotFileError(.notASnapshot, "The file does not start with HERALDSS.")
        }
        let checksum = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 52, as: UInt32.self))
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<52])) == checksum else {
            throw SnapshotFileError(.checksumMismatch, "The header's checksum does not hold.")
        }
    }

    /// The generation of a header whose frame holds, whatever its version.
    static func generation(inFrame bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard (try? checkFrame(bytes)) != nil else { return nil }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }
}
