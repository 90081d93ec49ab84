import Dispatch
import Foundation
import HeraldCore
import Testing

@testable import HeraldStorage

/// When the change log writes and syncs under `--durability log`: a connection's changes
/// at the end of its event loop's turn (``ChangeLog/commit()``), all of them in one group;
/// a change no connection answers at once.
@Suite("Change log commits")
struct ChangeLogCommitTests {
    private static let caller = Caller(uid: 1000, gid: 1000, pid: 10, isAdministrator: false)

    private static func record(_ index: Int) -> ChangeRecord {
        ChangeRecord(method: "update-content", caller: caller, appliedAt: Date(), params: Array(#"{"n":\#(index)}"#.utf8))
    }

    /// Runs `body` with a `log`-mode change log in a new folder, then stops it.
    private static func withLog(_ body: (ChangeLog) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-commit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = ChangeLog(
            folder: folder, durability: .log, baseGeneration: 0, continuing: false,
            health: PersistenceHealth(folder: folder, policy: .refuse, startedAt: Date()))
        defer { log.stop() }
        try body(log)
    }

    /// Waits (at most a minute, so that a log that never writes fails rather than hangs)
    /// until `sequence` is written, without committing.
    private static func written(_ log: ChangeLog, _ sequence: UInt64) -> Bool {
        let done = DispatchSemaphore(value: 0)
        log.whenWritten(sequence) { done.signal() }
        return done.wait(timeout: .now() + 60) == .success
    }

    @Test("A connection's changes wait for the commit, then share one write and one fdatasync")
    func answeredChangesShareOneSync() throws {
        try Self.withLog { log in
            for index in 0..<5 { log.append(Self.record(index), answered: true) }
            // Nothing is written before the commit: the turn may hold more.
            #expect(log.writtenSequence == 0)
            #expect(log.figures.writes == 0)
            log.commit()
            #expect(Self.written(log, log.appendedSequence))
            let figures = log.figures
            #expect(figures.records == 5)
            #expect(figures.writes == 1)
            #expect(figures.syncs == 1)
        }
    }

    @Test("A change no connection answers is written and synced without a commit")
    func unansweredChangeSyncsAtOnce() throws {
        try Self.withLog { log in
            let sequence = log.append(Self.record(0))
            #expect(Self.written(log, sequence))
            #expect(log.figures.syncs == 1)
        }
    }
}
