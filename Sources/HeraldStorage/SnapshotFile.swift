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
    /// The payload as written: the pieces it was made in.
    package let payloadPieces: PayloadPieces

    /// The payload in one array, for tests and tools that read it back.
    package var payload: [UInt8] { payloadPieces.joined() }

    /// Encodes `state` as generation `generation`, created at `now`; record chunks on
    /// `parallel` when given.
    package init(
        encoding state: HeraldState,
        generation: UInt64,
        now: Date,
        parallel: ParallelWork? = nil
    ) throws(SnapshotFileError) {
        do {
            payloadPieces = try SnapshotPayload.encode(state, parallel: parallel)
        } catch {
            throw SnapshotFileError(.undecodable, "The state could not be encoded: \(error).")
        }
        header = SnapshotHeader(
            generation: generation,
            createdAt: now,
            interactions: UInt64(state.interactionCount),
            payloadLength: UInt64(payloadPieces.count),
            payloadChecksum: payloadPieces.checksum
        )
    }

    /// The file's size in bytes.
    package var byteCount: Int { SnapshotHeader.size + payloadPieces.count }

    /// Checks a whole file — header, length, payload checksum — without decoding the state.
    package static func verify(_ bytes: UnsafeRawBufferPointer) throws(SnapshotFileError) -> SnapshotHeader {
        let header = try SnapshotHeader(parsing: bytes)
        try checkLength(header, available: bytes.count - SnapshotHeader.size)
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
        return (header, state, StoreSections(read: bytes, sections: sections, interactions: header.interactions, configuration: configuration))
    }

    /// A start's read of a snapshot of format 6 or later: the header, then only the sections
    /// before the store, checked against their own checksum (``LeadingChecksumSection``),
    /// and the state they hold. The store's sections, and the payload's checksum over all
    /// of it, are left to ``StoreSections/restore()``, which reads the rest of `source`.
    /// Nil for a file of an earlier format, which is read whole as before.
    ///
    /// Damage in what it reads throws as ``decode(_:configuration:deferringStore:)`` would;
    /// damage past it is found by the store's restore.
    package static func decodeLeading(
        _ source: OpenSnapshotFile, configuration: CoreConfiguration
    ) throws(SnapshotFileError) -> (header: SnapshotHeader, state: HeraldState, store: StoreSections)? {
        // The header, and the leading checksum's section: its name (a byte of length and the
        // name's bytes), its length (8) and its 12 bytes.
        let leadingName = LeadingChecksumSection.name.utf8.count
        let start = try source.prefix(SnapshotHeader.size + 1 + leadingName + 8 + LeadingChecksumSection.byteCount)
        let header = try start.withUnsafeBytes { raw in Result { () throws(SnapshotFileError) in try SnapshotHeader(parsing: raw) } }.get()
        try checkLength(header, available: source.size - SnapshotHeader.size)
        guard header.version >= LeadingChecksumSection.since else { return nil }
        let covered = try start.withUnsafeBytes { raw in
            Result { () throws(SnapshotFileError) -> Range<Int> in
                var input = PayloadReader(raw, range: SnapshotHeader.size..<raw.count)
                let name = try input.string()
                let length = try input.fixed(8)
                guard name == LeadingChecksumSection.name, length == UInt64(LeadingChecksumSection.byteCount) else {
                    throw input.damaged(at: SnapshotHeader.size, "the payload does not begin with its \(LeadingChecksumSection.name) section.")
                }
                let coveredLength = try input.fixed(8)
                _ = try input.fixed(4)
                guard coveredLength <= UInt64(source.size - input.cursor) else {
                    throw SnapshotFileError(.checksumMismatch, "The \(LeadingChecksumSection.name) section covers \(coveredLength) bytes; the file is shorter.")
                }
                return input.cursor..<(input.cursor + Int(coveredLength))
            }
        }.get()
        let leading = try source.prefix(covered.upperBound)
        _ = try LeadingChecksumSection.covered(in: leading, range: (covered.lowerBound - LeadingChecksumSection.byteCount)..<covered.lowerBound)
        guard
            let state = try SnapshotPayload.leadingState(of: leading, covered: covered, version: header.version, configuration: configuration)
        else { return nil }
        return (header, state, StoreSections(unread: source, header: header, from: covered.upperBound, configuration: configuration))
    }

    /// Throws unless the payload's length in `header` is what the file holds past it.
    static func checkLength(_ header: SnapshotHeader, available: Int) throws(SnapshotFileError) {
        guard UInt64(available) >= header.payloadLength else {
            throw SnapshotFileError(.truncated, "The header promises \(header.payloadLength) bytes of payload; the file holds \(available).")
        }
        guard UInt64(available) == header.payloadLength else {
            throw SnapshotFileError(.checksumMismatch, "The file has \(UInt64(available) - header.payloadLength) bytes past its payload.")
        }
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
