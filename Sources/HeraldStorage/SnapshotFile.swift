import FoundationEssentials
import HeraldCore

/// A snapshot's bytes: its header, then the state (``SnapshotPayload``).
///
/// Interactions are in record chunks, encoded and decoded on every core; the small
/// settings are JSON. How long a million interactions take each way: docs/performance.md,
/// "Snapshots". Snapshots of format version 1, what
/// heraldd wrote before sections, are still read (``FormatVersion1Payload``).
package struct SnapshotFile: Sendable {
    package var header: SnapshotHeader
    package var payload: [UInt8]

    /// Encodes `state` as generation `generation`, created at `now`; record chunks on
    /// `parallel` when given.
    package init(
        encoding state: HeraldState,
        generation: UInt64,
        now: Date,
        parallel: SnapshotParallelRunner? = nil
    ) throws(SnapshotFileError) {
        do {
            payload = try SnapshotPayload.encode(state, parallel: parallel)
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
    package var byteCount: Int { SnapshotHeader.size + payload.count }

    /// Checks a whole file — header, length, payload checksum — without decoding the state.
    package static func verify(_ bytes: UnsafeRawBufferPointer) throws(SnapshotFileError) -> SnapshotHeader {
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
    /// recovery and for fuzzing. The state has `configuration`, whose limits the restore
    /// keeps (a notification list's bytes): heraldd's own, so that what a raised limit
    /// kept survives a restart.
    ///
    /// Any input returns a state or throws; it never traps, and never reserves memory by
    /// a count or length the file states beyond what its bytes can hold. Damage throws an
    /// error whose ``SnapshotFileError/isDamage`` is true; only a file whose checksums hold
    /// can throw `.unsupportedVersion`.
    package static func decode(
        _ bytes: [UInt8], configuration: CoreConfiguration = CoreConfiguration()
    ) throws(SnapshotFileError) -> (header: SnapshotHeader, state: HeraldState) {
        let (header, state, _) = try decode(bytes, configuration: configuration, deferringStore: false)
        return (header, state)
    }

    /// The same, with the interactions and notifications left in `store` when
    /// `deferringStore` (and the file of format 2 or later): the state holds the rest.
    package static func decode(
        _ bytes: [UInt8], configuration: CoreConfiguration, deferringStore: Bool
    ) throws(SnapshotFileError) -> (header: SnapshotHeader, state: HeraldState, store: StoreSections?) {
        let verified = bytes.withUnsafeBytes { raw in
            Result { () throws(SnapshotFileError) in try verify(raw) }
        }
        let header = try verified.get()
        guard header.version != 1 else {
            let state = try FormatVersion1Payload.decode(bytes)
            try checkInteractionCount(header.interactions, state)
            return (header, state, nil)
        }
        let (state, sections) = try SnapshotPayload.decode(
            bytes, version: header.version, configuration: configuration, deferringStore: deferringStore)
        guard !sections.isEmpty else {
            try checkInteractionCount(header.interactions, state)
            return (header, state, nil)
        }
        return (header, state, StoreSections(file: bytes, sections: sections, interactions: header.interactions, configuration: configuration))
    }

    /// Throws unless `state` holds the `interactions` a header counts.
    static func checkInteractionCount(_ interactions: UInt64, _ state: HeraldState) throws(SnapshotFileError) {
        guard UInt64(state.interactionCount) == interactions else {
            throw SnapshotFileError(
                .undecodable,
                "The header counts \(interactions) interactions; the payload holds \(state.interactionCount)."
            )
        }
    }
}

extension SnapshotFile {
    /// The state of a snapshot as JSON, a member per piece, for a person
    /// (`heraldctl inspect-snapshot --json`): dates in ISO 8601, members sorted.
    package static func inspectionJSON(_ state: HeraldState) -> [UInt8] {
        SnapshotPayload.inspectionJSON(state)
    }
}
