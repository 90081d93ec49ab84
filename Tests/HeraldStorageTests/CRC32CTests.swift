import HeraldTesting
import Testing

@testable import HeraldStorage

@Suite("CRC-32C")
struct CRC32CTests {
    /// The instruction and the tables give the same checksum for every length and
    /// alignment, in one call or in pieces: a segment written by one processor is read by
    /// another.
    @Test("The crc32 instruction and the tables agree")
    func instructionAndTablesAgree() {
        var generator = SeededRandom(for: "CRC32CTests.instructionAndTablesAgree")
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes.withUnsafeBytes { all in
            for _ in 0..<500 {
                let start = Int.random(in: 0..<64, using: &generator)
                let end = Int.random(in: start...all.count, using: &generator)
                let piece = UnsafeRawBufferPointer(rebasing: all[start..<end])
                var tables = CRC32C()
                tables.updateBySlicing(piece)
                let split = Int.random(in: 0...piece.count, using: &generator)
                var pieces = CRC32C()
                pieces.update(UnsafeRawBufferPointer(rebasing: piece[..<split]))
                pieces.update(UnsafeRawBufferPointer(rebasing: piece[split...]))
                #expect(CRC32C.checksum(piece) == tables.value, "bytes \(start)..<\(end)")
                #expect(pieces.value == tables.value, "bytes \(start)..<\(end) split at \(split)")
            }
        }
        var empty = CRC32C()
        empty.update(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(empty.value == 0)
    }
}
