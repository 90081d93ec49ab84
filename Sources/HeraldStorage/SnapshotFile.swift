import Foundation
import HeraldCore

/// A snapshot's bytes: its header, then the state's `Codable` form.
///
/// The payload is written by ``BinaryStateEncoder``, the interactions in record chunks:
/// for a million interactions about 2 s to encode and 2.5 s to decode on two cores
/// (`herald-bench snapshot-payload`). Snapshots whose header says JSON or tagged binary —
/// the encodings before it, about a minute and 7 s to decode — are still read.
public struct SnapshotFile: Sendable {
    public var header: SnapshotHeader
    public var payload: [UInt8]

    /// Encodes `state` as generation `generation`, created at `now`, in `payloadEncoding`
    /// (binary unless a test asks for JSON; tagged binary is read, no longer written).
    public init(
        encoding state: HeraldState,
        generation: UInt64,
        now: Date,
        payloadEncoding: UInt32 = SnapshotHeader.binaryEncoding,
        parallel: BinaryStateEncoder.ParallelRunner? = nil
    ) throws(SnapshotFileError) {
        precondition(payloadEncoding != SnapshotHeader.taggedBinaryEncoding, "Herald no longer writes tagged binary payloads.")
        do {
            if payloadEncoding == SnapshotHeader.jsonEncoding {
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .secondsSince1970
                payload = Array(try encoder.encode(state))
            } else {
                payload = try BinaryStateEncoder(parallel: parallel).encode(state)
            }
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
        header.encoding = payloadEncoding
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

    /// Verifies and decodes a whole file: the one reader of a snapshot's bytes, for
    /// recovery and for fuzzing. The state has the default configuration: set it.
    ///
    /// Any input returns a state or throws; it never traps, and never reserves memory by
    /// a count or length the file states beyond what its bytes can hold. Damage throws an
    /// error whose ``SnapshotFileError/isDamage`` is true; only a header whose checksum
    /// holds can throw `.unsupportedVersion`.
    public static func decode(_ bytes: [UInt8]) throws(SnapshotFileError) -> (header: SnapshotHeader, state: HeraldState) {
        let verified = bytes.withUnsafeBytes { raw in
            Result { () throws(SnapshotFileError) in try verify(raw) }
        }
        let header = try verified.get()
        let state: HeraldState
        do {
            if header.encoding == SnapshotHeader.jsonEncoding {
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .secondsSince1970
                state = try decoder.decode(HeraldState.self, from: Data(bytes[SnapshotHeader.size...]))
            } else {
                state = try BinaryStateDecoder().decode(HeraldState.self, from: bytes, payloadStart: SnapshotHeader.size)
            }
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
