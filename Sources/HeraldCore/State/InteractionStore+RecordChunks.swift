import Dispatch
import Foundation

/// The interactions of a binary snapshot: chunks of up to
/// ``InteractionRecordLayout/chunkSize`` records, oldest donation first, each chunk one
/// byte string laid out as ``InteractionRecordLayout`` says.
///
/// Chunks are independent, so a start decodes them on every core at once and only the
/// insertion into the store is serial.
extension InteractionStore {
    func encodeRecordChunks(into chunks: inout BinaryUnkeyedEncoding) throws {
        var donations = makeIterator()
        var pending = donations.next()
        var encoded = 0
        while pending != nil {
            try chunks.encodeBytes { buffer in
                let chunkStart = buffer.count
                try InteractionRecordWriter.appending(to: &buffer) { writer in
                    var written = 0
                    while written < InteractionRecordLayout.chunkSize, let (key, stored) = pending {
                        try writer.append(stored, at: key)
                        written += 1
                        pending = donations.next()
                    }
                    encoded += written
                }
                // The first chunk tells how long a record is: make room for the rest at once
                // rather than grow the buffer a doubling (and a copy) at a time.
                if chunkStart < buffer.count, encoded == Swift.min(count, InteractionRecordLayout.chunkSize) {
                    let perRecord = (buffer.count - chunkStart + encoded - 1) / encoded
                    buffer.reserveCapacity(buffer.count + (count - encoded) * perRecord * 9 / 8 + 4096)
                }
            }
        }
    }

    /// Reads every chunk of `chunks`, whose bytes are in `payload`, and inserts the records.
    mutating func decodeRecordChunks(
        from chunks: inout BinaryUnkeyedDecoding,
        payload: [UInt8],
        appCount: Int
    ) throws {
        var ranges: [Range<Int>] = []
        while !chunks.isAtEnd {
            ranges.append(try chunks.decodeBytes())
        }
        var decoded = try Self.decode(ranges, of: payload, appCount: appCount)
        let expected = count + decoded.reduce(0) { $0 + $1.count }
        reserveCapacity(expected)
        for index in decoded.indices {
            // Moved out of the chunk, last first, rather than copied and then released.
            var chunk = decoded[index]
            decoded[index] = []
            chunk.reverse()
            while let record = chunk.popLast() {
                insert(record.interaction, uid: record.uid, app: record.app, donatedAt: record.donatedAt)
            }
        }
        // A key stored twice would have replaced the first: damage, not a state to serve.
        guard count == expected else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Two records have the same key."))
        }
    }

    /// Decodes each chunk on its own thread, as many at once as there are cores.
    private static func decode(_ ranges: [Range<Int>], of payload: [UInt8], appCount: Int) throws -> [[InteractionRecord]] {
        var results = [Result<[InteractionRecord], any Error>](repeating: .success([]), count: ranges.count)
        results.withUnsafeMutableBufferPointer { buffer in
            payload.withUnsafeBytes { bytes in
                // Each iteration writes its own element and only reads the payload.
                nonisolated(unsafe) let results = buffer
                nonisolated(unsafe) let payload = bytes
                DispatchQueue.concurrentPerform(iterations: ranges.count) { index in
                    results[index] = Result {
                        var reader = InteractionRecordReader(payload: payload, range: ranges[index], appCount: appCount)
                        var records: [InteractionRecord] = []
                        records.reserveCapacity(InteractionRecordLayout.chunkSize)
                        while !reader.isAtEnd {
                            records.append(try reader.next())
                        }
                        return records
                    }
                }
            }
        }
        return try results.map { try $0.get() }
    }
}
