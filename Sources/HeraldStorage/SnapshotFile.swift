import Foundation
import HeraldCore

/// A snapshot's bytes: its header, then the state as JSON.
///
/// The payload is the state's own `Codable` form through Foundation's JSON encoder:
/// readable with standard tools (`tail -c +57 state.snapshot | jq`). It is far too slow
/// for a million interactions (about a minute each way, see `make bench-snapshot`); the
/// header's `encoding` field leaves room for a compact binary payload that replaces it.
public struct SnapshotFile: Sendable {
    public var header: SnapshotHeader
    public var payload: Data

    /// Encodes `state` as generation `generation`, created at `now`.
    public init(encoding state: HeraldState, generation: UInt64, now: Date) throws(SnapshotFileError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        do {
            payload = try encoder.encode(state)
        } catch {
            throw SnapshotFileError(.undecodable, "The state could not be encoded: \(error).")
        }
        let checksum = payload.withUnsafeBytes { CRC32C.checksum($0) }
        header = SnapshotHeader(
            generation: generation,
            createdAt: now,
            interactions: UInt64(state.interactionCount),
            payloadLength: UInt64(payload.count),
            payloadChecksum: checksum
        )
    }

    /// The file's size in bytes.
    public var byteCount: Int { SnapshotHeader.size + payload.count }

    /// Checks a whole file — header, length, payload checksum — without decoding the state.
    public static func verify(_ bytes: UnsafeRawBufferPointer) throws(SnapshotFileError) -> SnapshotHeader {
        let header = try SnapshotHeader(parsing: bytes)
        let available = UInt64(bytes.count - SnapshotHeader.size)
        guard available >= header.payloadLength else {
            throw SnapshotFileError(
                .truncated,
                "The header promises \(header.payloadLength) bytes of payload; the file holds \(available)."
            )
        }
        guard available == header.payloadLength else {
            throw SnapshotFileError(.checksumMismatch, "The file has \(available - header.payloadLength) bytes past its payload.")
        }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[SnapshotHeader.size...])
        guard CRC32C.checksum(payload) == header.payloadChecksum else {
            throw SnapshotFileError(.checksumMismatch, "The payload's checksum does not hold.")
        }
        return header
    }

    /// Verifies and decodes a whole file. The state has the default configuration: set it.
    public static func decode(_ bytes: Data) throws(SnapshotFileError) -> (header: SnapshotHeader, state: HeraldState) {
        let verified = bytes.withUnsafeBytes { raw in
            Result { () throws(SnapshotFileError) in try verify(raw) }
        }
        let header = try verified.get()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let state: HeraldState
        do {
            state = try decoder.decode(HeraldState.self, from: bytes[(bytes.startIndex + SnapshotHeader.size)...])
        } catch {
            throw SnapshotFileError(.undecodable, "The checksums hold but the state does not decode: \(error).")
        }
        guard UInt64(state.interactionCount) == header.interactions else {
            throw SnapshotFileError(
                .undecodable,
                "The header counts \(header.interactions) interactions; the payload holds \(state.interactionCount)."
            )
        }
        return (header, state)
    }
}
