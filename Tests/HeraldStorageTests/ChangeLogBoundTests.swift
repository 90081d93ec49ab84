import Testing

@testable import HeraldStorage

/// When the change log asks for the snapshot that compacts it.
struct ChangeLogBoundTests {
    @Test("Past twice the last snapshot's size, once per segment; a new segment asks again")
    func twiceTheSnapshot() {
        var bound = ChangeLogBound(snapshotBytes: 1 << 20, logBytes: 32)
        #expect(bound.limit == 2 << 20)
        let asked1 = bound.appended((2 << 20) - 32)
        #expect(!asked1)
        let asked2 = bound.appended(1)
        #expect(asked2)
        let asked3 = bound.appended(1 << 20)
        #expect(!asked3, "it asked already for this segment")
        bound.segmentBegun(headerBytes: 32)
        #expect(bound.logBytes == 32)
        let asked4 = bound.appended(1 << 20)
        #expect(!asked4)
        let asked5 = bound.appended(1 << 20)
        #expect(asked5)
    }

    @Test("A tiny or empty snapshot leaves the floor, 1 MiB")
    func floor() {
        var bound = ChangeLogBound(snapshotBytes: 0, logBytes: 0)
        #expect(bound.limit == ChangeLogBound.floor)
        let asked6 = bound.appended(ChangeLogBound.floor)
        #expect(!asked6)
        let asked7 = bound.appended(1)
        #expect(asked7)
    }

    @Test("A snapshot written smaller than the log since its copy asks at once; larger, it raises the limit")
    func snapshotWritten() {
        var bound = ChangeLogBound(snapshotBytes: 4 << 20, logBytes: 0)
        bound.segmentBegun(headerBytes: 32)
        let asked8 = bound.appended(3 << 20)
        #expect(!asked8)
        let asked9 = bound.snapshotWritten(bytes: 1 << 20)
        #expect(asked9, "3 MiB logged past twice a 1 MiB snapshot")
        var larger = ChangeLogBound(snapshotBytes: 1 << 20, logBytes: 0)
        larger.segmentBegun(headerBytes: 32)
        let asked10 = larger.snapshotWritten(bytes: 8 << 20)
        #expect(!asked10)
        #expect(larger.limit == 16 << 20)
        let asked11 = larger.appended(15 << 20)
        #expect(!asked11)
    }

    @Test("At start, the segments continued count: past the bound already, it asks at the first check")
    func continuedSegments() {
        var bound = ChangeLogBound(snapshotBytes: 100, logBytes: 3 << 20)
        let asked12 = bound.ask()
        #expect(asked12)
        let asked13 = bound.ask()
        #expect(!asked13)
    }
}
