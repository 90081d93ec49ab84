import Foundation
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// A snapshot is written from the pieces its payload was made in (``PayloadPieces``), never
/// copied into one array: the file must be the same bytes all the same.
@Suite("Payload pieces: a snapshot written from the chunks it was encoded in")
struct PayloadPiecesTests {
    typealias F = SnapshotFixtures

    @Test("A fixed field is set in the piece that holds it, and the checksum runs across the pieces in order")
    func fixedFieldsAndChecksum() {
        var pieces = PayloadPieces(startingWith: [1, 2])
        pieces.tail.appendFixed(0, size: 8)
        pieces.append(chunk: [9, 9, 9])
        pieces.append(chunk: [])
        pieces.tail.appendFixed(0, size: 4)
        pieces.setFixed(0x0102_0304_0506_0708, size: 8, at: 2)
        pieces.setFixed(0xAABB_CCDD, size: 4, at: 13)

        let expected: [UInt8] = [1, 2, 8, 7, 6, 5, 4, 3, 2, 1, 9, 9, 9, 0xDD, 0xCC, 0xBB, 0xAA]
        #expect(pieces.joined() == expected)
        #expect(pieces.count == expected.count)
        #expect(pieces.checksum == CRC32C.checksum(expected))
        var sizes: [Int] = []
        pieces.forEach { sizes.append($0.count) }
        #expect(sizes == [10, 3, 4], "an empty chunk is no piece, and the chunk is one of its own")
    }

    @Test("A snapshot's file is its header, then its pieces in order, each record chunk a piece of its own")
    func theFileIsTheHeaderAndThePieces() throws {
        let state = try F.fullState()
        #expect(state.interactionCount > 0 && state.notificationCount > 0)
        let file = try SnapshotFile(encoding: state, generation: 3, now: F.now)
        var sizes: [Int] = []
        file.payloadPieces.forEach { sizes.append($0.count) }
        // The small sections, the interactions' chunk, the notifications' tables, their chunk.
        #expect(sizes.count == 4, "\(sizes)")

        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let store = SnapshotStore(folder: folder.path)
        try store.prepareFolder()
        try store.write(file)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: store.currentPath)))
        #expect(written == file.header.bytes + file.payload)
        #expect(written.count == file.byteCount)
        let decoded = try SnapshotFile.decode(written).state
        #expect(decoded.interactionCount == state.interactionCount)
        #expect(try F.json(decoded) == F.json(state))
    }
}
