import Dispatch
import FoundationEssentials
import HeraldCore
import HeraldProtocol

/// The stored interactions: the app-name table (a count, then each name), then the record
/// chunks (a count, then each chunk's length and bytes). A chunk holds up to
/// ``InteractionRecordLayout/chunkSize`` records, oldest donation first, laid out as
/// ``InteractionRecordLayout`` says.
///
/// Chunks are independent, so a snapshot encodes them and a start decodes them on every
/// core at once; only the insertion into the store is serial.
enum InteractionsSection: RecordChunkSection {
    static let name = "interactions"
    static let since: UInt32 = 2
    static let isStore = true

    /// Encodes runs of ``InteractionRecordLayout/chunkSize`` positions of the donation
    /// order, each into a buffer of its own — all at once on `parallel`, one after another
    /// without it — then hands the buffers over in order, each a piece of the payload.
    /// (A run holds fewer records where some were removed; an empty one is left out.) The
    /// runs' records are found in one pass over the store
    /// (``HeraldState/storedRecordRuns(_:)``), not looked up one position at a time.
    static func write(_ state: HeraldState, to pieces: inout PayloadPieces, parallel: ParallelWork?) throws {
        let positions = state.storedRecordPositions
        let runs = state.storedRecordRuns(
            stride(from: positions.lowerBound, to: positions.upperBound, by: InteractionRecordLayout.chunkSize).map {
                $0..<Swift.min($0 + InteractionRecordLayout.chunkSize, positions.upperBound)
            })
        let chunks = try runEach(runs.count, on: parallel) { index in
            var buffer: [UInt8] = []
            buffer.reserveCapacity(runs.recordCount(at: index) * 160)
            InteractionRecordWriter.appending(to: &buffer) { writer in
                state.forEachStoredRecord(in: runs, at: index) { uid, app, donatedAt, record in
                    writer.append(uid: uid, app: app, donatedAt: donatedAt, record: record)
                }
            }
            return buffer
        }.filter { !$0.isEmpty }
        pieces.tail.appendStrings(state.storedAppNames)
        pieces.tail.appendVarint(UInt64(chunks.count))
        for chunk in chunks {
            pieces.tail.appendVarint(UInt64(chunk.count))
            pieces.append(chunk: chunk)
        }
    }

    static func restore(from file: [UInt8], range: Range<Int>, into state: inout HeraldState) throws(SnapshotFileError) {
        let (names, chunks) = try file.withUnsafeBytes { raw in
            Result { () throws(SnapshotFileError) in
                var input = PayloadReader(raw, range: range)
                let names = try input.strings()
                let count = try input.count()
                var chunks: [Range<Int>] = []
                for _ in 0..<count {
                    chunks.append(try input.lengthPrefixed())
                }
                guard input.isAtEnd else { throw input.damaged(at: input.cursor, "the interactions section has bytes past its last chunk.") }
                return (names, chunks)
            }
        }.get()
        try restoreRecords(from: file, appNames: names, chunks: chunks, rareMembers: .json, into: &state)
    }

    /// Restores the app names, then the records of `chunks` (ranges of `file`).
    ///
    /// The chunks are decoded on threads of their own, as many at once as there are cores,
    /// while this thread inserts each one, in order, as soon as it is ready: insertion (a
    /// third of the work) overlaps decoding instead of following it.
    static func restoreRecords(
        from file: [UInt8],
        appNames: [String],
        chunks: [Range<Int>],
        rareMembers: InteractionRecordReader.RareMembers,
        into state: inout HeraldState
    ) throws(SnapshotFileError) {
        guard state.restoreAppNames(appNames) else {
            throw SnapshotFileError(.undecodable, "The checksums hold but the state does not decode: an app name is listed twice.")
        }
        let decoded = chunks.map {
            DecodedChunk<HeraldState.StoredRecord>(
                expecting: $0.count, chunkSize: InteractionRecordLayout.chunkSize, minimumRecordSize: InteractionRecordLayout.minimumRecordSize)
        }
        var restored = 0
        var failure: SnapshotFileError?
        file.withUnsafeBytes { bytes in
            nonisolated(unsafe) let file = bytes
            DetachedThread.start(named: "herald-restore") {
                runOnEveryCore(chunks.count) { index in
                    decoded[index].fill(
                        InteractionRecordReader(file: file, range: chunks[index], appCount: appNames.count, rareMembers: rareMembers)
                    ) { reader throws(SnapshotFileError) in try reader.next() }
                }
            }
            // The workers read `file`: every one must be done before it goes away.
            defer {
                for chunk in decoded { chunk.waitUntilFilled() }
            }
            // Chunks are full but the last; the least size of a record bounds what a damaged
            // file can make this reserve.
            state.reserveStoredRecords(
                Swift.min(InteractionRecordLayout.chunkSize * chunks.count, file.count / InteractionRecordLayout.minimumRecordSize)
            )
            for chunk in decoded {
                chunk.waitUntilFilled()
                if let error = chunk.failure {
                    failure = error
                    return
                }
                restored += chunk.count
                chunk.removeAll { record in
                    // The reader checked the app number and set the identifier.
                    _ = state.restoreRecord(record)
                }
            }
        }
        if let failure { throw failure }
        // A key stored twice replaces the first record: damage, not a state to serve.
        guard state.interactionCount == restored else {
            throw SnapshotFileError(.undecodable, "The checksums hold but the state does not decode: two records have the same key.")
        }
    }

    /// The app names, then every record, oldest donation first:
    /// `{apps, records: [{app, donatedAt, interaction, uid}]}`.
    static func inspection(of state: HeraldState) -> JSONValue {
        var records: [JSONValue] = []
        records.reserveCapacity(state.interactionCount)
        state.forEachStoredRecord(at: state.storedRecordPositions) { record in
            var members = RecordMembers(.inspection, capacity: 4)
            members.add("app", record.app)
            members.add("donatedAt", record.donatedAt)
            members.add("interaction", InteractionInspection.json(record.interaction))
            members.add("uid", record.uid)
            records.append(members.value)
        }
        var form = RecordMembers(.inspection, capacity: 2)
        form.add("apps", state.storedAppNames)
        form.add("records", JSONValue.array(records))
        return form.value
    }
}
