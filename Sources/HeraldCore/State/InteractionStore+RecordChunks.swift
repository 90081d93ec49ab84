import Dispatch
import Foundation
import Synchronization

/// The interactions of a binary snapshot: chunks of up to
/// ``InteractionRecordLayout/chunkSize`` records, oldest donation first, each chunk one
/// byte string laid out as ``InteractionRecordLayout`` says.
///
/// Chunks are independent, so a snapshot can encode them and a start decode them on
/// every core at once; only the insertion into the store is serial.
extension InteractionStore {
    /// Encodes runs of ``InteractionRecordLayout/chunkSize`` positions of the donation
    /// order, each into a buffer of its own — all at once when the encoder has a parallel
    /// runner, one after another otherwise — then appends the buffers in order. (A run
    /// holds fewer records where some were removed; an empty one is left out.)
    func encodeRecordChunks(into chunks: inout BinaryUnkeyedEncoding) throws {
        let parallel = chunks.parallel ?? { count, work in
            for index in 0..<count { work(index) }
        }
        let positions = donationPositions
        let runs = stride(from: positions.lowerBound, to: positions.upperBound, by: InteractionRecordLayout.chunkSize).map {
            $0..<Swift.min($0 + InteractionRecordLayout.chunkSize, positions.upperBound)
        }
        let encoded = Mutex([Result<[UInt8], any Error>?](repeating: nil, count: runs.count))
        let store = self
        parallel(runs.count) { index in
            let result = Result { () throws -> [UInt8] in
                var buffer: [UInt8] = []
                buffer.reserveCapacity(runs[index].count * 160)
                try InteractionRecordWriter.appending(to: &buffer) { writer in
                    try store.forEach(at: runs[index]) { key, stored in try writer.append(stored, at: key) }
                }
                return buffer
            }
            encoded.withLock { $0[index] = result }
        }
        let buffers = try encoded.withLock { $0 }.map { result in
            guard let result else { preconditionFailure("A parallel runner returned before every run was encoded.") }
            return try result.get()
        }
        var total = buffers.reduce(0) { $0 + $1.count + 5 }
        for bytes in buffers where !bytes.isEmpty {
            chunks.encodeBytes { buffer in
                if total > 0 {
                    buffer.reserveCapacity(buffer.count + total)
                    total = 0
                }
                buffer.append(contentsOf: bytes)
            }
        }
    }

    /// Reads every chunk of `chunks`, whose bytes are in `payload`, and inserts the records.
    ///
    /// The chunks are decoded on Dispatch's threads, as many at once as there are cores,
    /// while this thread inserts each one, in order, as soon as it is ready: insertion (a
    /// third of the work) overlaps decoding instead of following it.
    mutating func decodeRecordChunks(
        from chunks: inout BinaryUnkeyedDecoding,
        payload: [UInt8],
        appCount: Int
    ) throws {
        var ranges: [Range<Int>] = []
        while !chunks.isAtEnd {
            ranges.append(try chunks.decodeBytes())
        }
        let decoded = ranges.map { DecodedChunk(expecting: $0.count) }
        var inserted = 0
        try payload.withUnsafeBytes { bytes in
            nonisolated(unsafe) let payload = bytes
            for (chunk, range) in zip(decoded, ranges) {
                DispatchQueue.global().async {
                    chunk.fill(from: payload, range: range, appCount: appCount)
                }
            }
            // The workers read `payload`: every one must be done before it goes away.
            defer {
                for chunk in decoded { chunk.waitUntilFilled() }
            }
            // Chunks are full but the last; the least size of a record bounds what a damaged
            // payload can make this reserve.
            reserveCapacity(
                count
                    + Swift.min(
                        InteractionRecordLayout.chunkSize * ranges.count,
                        payload.count / InteractionRecordLayout.minimumRecordSize
                    )
            )
            for chunk in decoded {
                chunk.waitUntilFilled()
                if let failure = chunk.failure { throw failure }
                inserted += chunk.count
                chunk.removeAll { record in
                    insert(record.interaction, uid: record.uid, app: record.app, donatedAt: record.donatedAt)
                }
            }
        }
        try Self.checkNoKeyTwice(count: count, records: inserted)
    }
}

/// The records of one chunk, decoded by one worker and then moved into the store one by
/// one by another thread: in memory of its own, because an array would copy each record
/// (a retain of every string) and then release it.
///
/// The worker writes `records`, `count` and `failure`, then signals `filled`; the inserting
/// thread reads them only after waiting for it, which orders the two.
private final class DecodedChunk: @unchecked Sendable {
    private var records: UnsafeMutablePointer<InteractionRecord>
    private var capacity: Int
    private(set) var count = 0
    private(set) var failure: (any Error)?
    private let filled = DispatchSemaphore(value: 0)
    private var waited = false

    /// Room for the records a chunk of `byteCount` bytes can hold: a full chunk's, unless
    /// the bytes are too few for that many (a record takes at least
    /// ``InteractionRecordLayout/minimumRecordSize`` bytes). So a damaged payload of many
    /// small chunks cannot make the decoder reserve more than its own size.
    init(expecting byteCount: Int) {
        capacity = Swift.max(1, Swift.min(InteractionRecordLayout.chunkSize, byteCount / InteractionRecordLayout.minimumRecordSize))
        records = .allocate(capacity: capacity)
    }

    deinit {
        records.deinitialize(count: count)
        records.deallocate()
    }

    /// Decodes the records in `range` of `payload`; on a worker thread.
    func fill(from payload: UnsafeRawBufferPointer, range: Range<Int>, appCount: Int) {
        defer { filled.signal() }
        do {
            var reader = InteractionRecordReader(payload: payload, range: range, appCount: appCount)
            while !reader.isAtEnd {
                append(try reader.next())
            }
        } catch {
            failure = error
        }
    }

    /// Returns once `fill` is done; at once if it was waited for already.
    func waitUntilFilled() {
        guard !waited else { return }
        filled.wait()
        waited = true
    }

    private func append(_ record: consuming InteractionRecord) {
        if count == capacity {
            // Only a damaged chunk holds more records than its bytes were expected to.
            let grown = UnsafeMutablePointer<InteractionRecord>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: records, count: count)
            records.deallocate()
            records = grown
            capacity *= 2
        }
        (records + count).initialize(to: record)
        count += 1
    }

    /// Hands each record to `body`, first to last, and leaves the chunk empty.
    func removeAll(_ body: (consuming InteractionRecord) -> Void) {
        let taken = count
        count = 0
        for index in 0..<taken {
            body((records + index).move())
        }
    }
}
