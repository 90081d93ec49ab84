import Foundation
import HeraldCore
import HeraldTesting
import Synchronization
import Testing

@testable import HeraldStorage

/// "State not written since T: cause", the refusal of changes, and `state.unwritten`: the
/// rules are pure but for the record's file, which lives in a temporary folder.
@Suite("Persistence health and state.unwritten")
struct PersistenceHealthTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func record(cause: String = "Cannot write /s/state.snapshot.tmp: No space left on device (errno 28).") -> UnwrittenStateRecord {
        UnwrittenStateRecord(
            failedAt: start.addingTimeInterval(90), writtenAt: start.addingTimeInterval(30), generation: 7, unwrittenChanges: 12,
            pid: 4242, cause: cause)
    }

    @Test func theRecordReadsBackAsWritten() {
        let bytes = record().encoded()
        #expect(bytes.count <= UnwrittenStateFile.size)
        #expect(bytes.last == 0)
        #expect(UnwrittenStateRecord.decode(bytes) == record())
        // What follows the NUL (an older, longer record) is not read.
        #expect(UnwrittenStateRecord.decode(bytes + Array("garbage=1\n".utf8)) == record())
    }

    @Test func noRecordReadsAsNone() {
        #expect(UnwrittenStateRecord.decode([UInt8]()) == nil)
        #expect(UnwrittenStateRecord.decode([0] + record().encoded().dropFirst()) == nil, "cleared: a NUL first")
        #expect(UnwrittenStateRecord.decode(Array("herald-unwritten 2\nfailedAt=x\n".utf8)) == nil, "a newer format")
        #expect(UnwrittenStateRecord.decode(Array(record().encoded().prefix(40))) == nil, "cut short")
    }

    @Test func aLongCauseIsCutToFitAndALineBreakFlattened() throws {
        let long = record(cause: String(repeating: "é", count: 5000) + "\nend")
        let bytes = long.encoded()
        #expect(bytes.count <= UnwrittenStateFile.size)
        let read = try #require(UnwrittenStateRecord.decode(bytes))
        #expect(read.cause.allSatisfy { $0 == "é" } && !read.cause.isEmpty)
        let flat = try #require(UnwrittenStateRecord.decode(record(cause: "one\ntwo").encoded()))
        #expect(flat.cause == "one two")
    }

    @Test("Changes are refused after a failure under refuse, never under accept; a success ends it")
    func refusal() {
        let events = Mutex<[String]>([])
        let health = PersistenceHealth(folder: "/nonexistent/herald", policy: .refuse, startedAt: start) { event in
            events.withLock { $0.append(Self.name(event)) }
        }
        #expect(health.changesRefused() == nil)
        health.recordFailure(cause: "No space left on device", at: start.addingTimeInterval(30), unwrittenChanges: 3)
        let reason = health.changesRefused()
        #expect(reason?.contains("/nonexistent/herald") == true && reason?.contains("No space left on device") == true, "\(reason ?? "")")
        let failure = health.recordFailure(cause: "Read-only file system", at: start.addingTimeInterval(60), unwrittenChanges: 5)
        // Since the state was last on disk — the start — however many writes failed since.
        #expect(failure.writtenAt == start)
        #expect(failure.attempts == 2)
        #expect(failure.summary == "state not written since 2027-01-15T08:00:00.000Z: Read-only file system")
        health.recordWritten(at: start.addingTimeInterval(90))
        #expect(health.changesRefused() == nil)
        #expect(health.failure == nil)
        health.recordFailure(cause: "EIO", at: start.addingTimeInterval(120), unwrittenChanges: 1)
        #expect(health.failure?.writtenAt == start.addingTimeInterval(90))
        #expect(events.withLock { $0 } == ["failed first", "failed", "recovered", "failed first"])

        let accepting = PersistenceHealth(folder: "/nonexistent/herald", policy: .accept, startedAt: start)
        accepting.recordFailure(cause: "No space left on device", at: start, unwrittenChanges: 1)
        #expect(accepting.changesRefused() == nil)
        #expect(accepting.failure != nil)
    }

    @Test("A failed final snapshot leaves state.unwritten for the next start, which a success clears")
    func finalFailureRecord() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        try SnapshotStore(folder: folder.path).prepareFolder()
        let first = PersistenceHealth(folder: folder.path, policy: .refuse, startedAt: start)
        #expect(first.previousStop == nil)
        try first.prepare()
        #expect(folder.mode("state.unwritten") == 0o600)
        first.recordFinalFailure(cause: "disk full", at: start.addingTimeInterval(5), unwrittenChanges: 9, generation: 3, pid: 77)
        #expect(first.finalFailure?.cause == "disk full")

        let second = PersistenceHealth(folder: folder.path, policy: .refuse, startedAt: start.addingTimeInterval(10))
        let previous = try #require(second.previousStop)
        #expect(previous.cause == "disk full" && previous.unwrittenChanges == 9 && previous.generation == 3 && previous.pid == 77)
        #expect(previous.writtenAt == start)
        #expect(second.holdsPreviousRecord)
        #expect(second.statsMembers["previousStop"]?[pointer: "/unwrittenChanges"] == 9)
        second.recordWritten(at: start.addingTimeInterval(11))
        #expect(!second.holdsPreviousRecord)
        // The record is cleared, the file and its blocks kept for the next one.
        #expect(PersistenceHealth(folder: folder.path, policy: .refuse, startedAt: start).previousStop == nil)
        #expect(folder.files().contains("state.unwritten"))
    }

    @Test("When even the record cannot be written, the final failure says why")
    func recordNotWritten() {
        let reported = Mutex<String?>(nil)
        let health = PersistenceHealth(folder: "/nonexistent/herald", policy: .accept, startedAt: start) { event in
            if case .finalFailed(_, let recordError) = event { reported.withLock { $0 = recordError ?? "written" } }
        }
        health.recordFinalFailure(cause: "disk full", at: start, unwrittenChanges: 1, generation: 0, pid: 1)
        #expect(reported.withLock { $0 }?.contains("/nonexistent/herald/state.unwritten") == true, "\(reported.withLock { $0 } ?? "")")
    }

    static func name(_ event: PersistenceEvent) -> String {
        switch event {
        case .failed(_, let first, _): first ? "failed first" : "failed"
        case .recovered: "recovered"
        case .finalFailed: "final failed"
        }
    }
}
