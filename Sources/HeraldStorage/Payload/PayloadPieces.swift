import HeraldCore

/// A snapshot's payload as the pieces it was made in, in order: the small sections in one
/// piece, and each record chunk the store's sections encoded (on every core) a piece of its
/// own. A snapshot is written piece by piece and checksummed across them, so the chunks
/// are never copied into one array as large as the file: that copy held the payload twice
/// while a snapshot was written, and faulted in as many fresh pages again.
package struct PayloadPieces: Sendable {
    /// The pieces before ``tail``, in order.
    private var finished: [[UInt8]] = []
    private var finishedCount = 0
    /// The piece being appended to: what a section writes, unless it hands over a chunk.
    var tail: [UInt8]

    init(startingWith tail: [UInt8] = []) {
        self.tail = tail
    }

    /// The payload's length in bytes.
    package var count: Int { finishedCount + tail.count }

    /// Ends the piece being written and appends `chunk` as a piece of its own, uncopied.
    mutating func append(chunk: [UInt8]) {
        for piece in [tail, chunk] where !piece.isEmpty {
            finished.append(piece)
            finishedCount += piece.count
        }
        tail = []
    }

    /// Sets the `size` bytes at `offset`, which one piece holds whole, to `value`,
    /// little-endian: a section's length, known once its bytes are written.
    mutating func setFixed(_ value: UInt64, size: Int, at offset: Int) {
        var start = 0
        for index in finished.indices {
            if offset < start + finished[index].count {
                Self.setFixed(value, size: size, at: offset - start, in: &finished[index])
                return
            }
            start += finished[index].count
        }
        Self.setFixed(value, size: size, at: offset - start, in: &tail)
    }

    private static func setFixed(_ value: UInt64, size: Int, at offset: Int, in bytes: inout [UInt8]) {
        precondition(offset >= 0 && offset + size <= bytes.count, "A fixed field spans two pieces of a payload.")
        var field: [UInt8] = []
        field.appendFixed(value, size: size)
        bytes.replaceSubrange(offset..<(offset + size), with: field)
    }

    /// Each piece, in order; none is empty.
    package func forEach<Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        func visit(_ piece: [UInt8]) throws(Failure) {
            try piece.withUnsafeBytes { raw in Result { () throws(Failure) in try body(raw) } }.get()
        }
        for piece in finished { try visit(piece) }
        if !tail.isEmpty { try visit(tail) }
    }

    /// The payload's CRC-32C, across its pieces.
    package var checksum: UInt32 {
        var crc = CRC32C()
        forEach { crc.update($0) }
        return crc.value
    }

    /// The payload in one array: for tests and tools that read it back, not for writing.
    package func joined() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        forEach { bytes.append(contentsOf: $0) }
        return bytes
    }
}

/// A section of record chunks, which it hands over as pieces of the payload.
protocol RecordChunkSection: SnapshotSection {}

extension RecordChunkSection {
    /// The section in one array, its chunks copied in: for tests.
    static func write(_ state: HeraldState, to bytes: inout [UInt8], parallel: ParallelWork?) throws {
        var pieces = PayloadPieces(startingWith: bytes)
        try write(state, to: &pieces, parallel: parallel)
        bytes = pieces.joined()
    }
}
