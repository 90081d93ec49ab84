import Dispatch
import HeraldCore

/// The records of one chunk of a store section — interactions
/// (``HeraldState/StoredRecord``) or notifications (``HeraldState/StoredNotification``) —
/// decoded by one worker and then moved into the state one by one by another thread: in
/// memory of its own, because an array would copy each record (a retain of every string)
/// and then release it.
///
/// The worker writes `records`, `count` and `failure`, then signals `filled`; the inserting
/// thread reads them only after waiting for it, which orders the two.
final class DecodedChunk<Record>: @unchecked Sendable {
    private var records: UnsafeMutablePointer<Record>
    private var capacity: Int
    private(set) var count = 0
    private(set) var failure: SnapshotFileError?
    private let filled = DispatchSemaphore(value: 0)
    private var waited = false

    /// Room for the records a chunk of `byteCount` bytes can hold: a full chunk's
    /// (`chunkSize`), unless the bytes are too few for that many (a record takes at least
    /// `minimumRecordSize` bytes). So a damaged payload of many small chunks cannot make the
    /// decoder reserve more than its own size.
    init(expecting byteCount: Int, chunkSize: Int, minimumRecordSize: Int) {
        capacity = Swift.max(1, Swift.min(chunkSize, byteCount / minimumRecordSize))
        records = .allocate(capacity: capacity)
    }

    deinit {
        records.deinitialize(count: count)
        records.deallocate()
    }

    /// Decodes records with `next` until `reader` is at its end; on a worker thread.
    func fill(_ reader: consuming InteractionRecordReader, next: (inout InteractionRecordReader) throws(SnapshotFileError) -> Record) {
        defer { filled.signal() }
        var reader = reader
        do throws(SnapshotFileError) {
            while !reader.isAtEnd {
                append(try next(&reader))
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

    private func append(_ record: consuming Record) {
        if count == capacity {
            // Only a damaged chunk holds more records than its bytes were expected to.
            let grown = UnsafeMutablePointer<Record>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: records, count: count)
            records.deallocate()
            records = grown
            capacity *= 2
        }
        (records + count).initialize(to: record)
        count += 1
    }

    /// Hands each record to `body`, first to last, and leaves the chunk empty.
    func removeAll(_ body: (consuming Record) -> Void) {
        let taken = count
        count = 0
        for index in 0..<taken {
            body((records + index).move())
        }
    }
}
