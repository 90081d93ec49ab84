import FoundationEssentials
import HeraldCore
import HeraldProtocol
import Synchronization

/// What heraldd does with a change while it cannot write its state (`--on-write-failure`).
package enum WriteFailurePolicy: String, Sendable, Hashable, CaseIterable {
    /// Refuse changes (error 1011) and answer reads until a snapshot succeeds, as redis's
    /// `stop-writes-on-bgsave-error` does: nothing is acknowledged that a stop would lose.
    case refuse
    /// Take changes anyway: a crash or a stop before a snapshot succeeds loses them.
    case accept
}

/// The state not written: since when, and why — "state not written since T: cause".
package struct StateWriteFailure: Sendable, Hashable {
    package var folder: String
    /// When the state on disk last matched the daemon's: its last snapshot, or its start.
    package var writtenAt: Date
    /// The latest failure's cause: the error, with the file and errno.
    package var cause: String
    /// When the latest write failed.
    package var failedAt: Date
    /// Writes failed in a row.
    package var attempts: Int
    /// Calls that changed the state after `writtenAt`, at the latest failure.
    package var unwrittenChanges: UInt64

    /// The line `STATUS=`, `heraldctl status` and the journal show.
    package var summary: String {
        "state not written since \(RFC3339.format(writtenAt)): \(cause)"
    }

    /// `STATUS=` while writes fail: the summary, and what happens to changes meanwhile.
    package func statusLine(_ policy: WriteFailurePolicy) -> String {
        "State not written since \(RFC3339.format(writtenAt)): \(cause); "
            + (policy == .refuse ? "refusing changes" : "accepting changes a stop would lose")
    }
}

/// What ``PersistenceHealth`` reports, for the journal and `STATUS=`.
package enum PersistenceEvent: Sendable {
    /// A write failed (`first`: the first of a run); changes are now refused or not per `policy`.
    case failed(StateWriteFailure, first: Bool, policy: WriteFailurePolicy)
    /// A snapshot succeeded after failures: the state is on disk again.
    case recovered(StateWriteFailure)
    /// The final snapshot failed: heraldd stops with what it acknowledged since
    /// `writtenAt` lost. `recordError` says why `state.unwritten` could not be written too.
    case finalFailed(StateWriteFailure, recordError: String?)
}

/// Whether heraldd's state is on disk: the one place that records "state not written since
/// T: cause", decides the refusal of changes, and leaves `state.unwritten` when the final
/// snapshot fails. Every write of the state (snapshots now; a change log later) reports
/// here, and everything that tells an administrator (the journal, `STATUS=`, `stats`)
/// reads from here.
package final class PersistenceHealth: Sendable {
    package let folder: String
    package let policy: WriteFailurePolicy
    /// What the previous heraldd left in `state.unwritten`, read at start.
    package let previousStop: UnwrittenStateRecord?
    private let unwrittenFile: UnwrittenStateFile
    private let report: @Sendable (PersistenceEvent) -> Void

    private struct Figures: Sendable {
        var writtenAt: Date
        var failure: StateWriteFailure?
        var finalFailure: StateWriteFailure?
        /// Whether `state.unwritten` may hold a record to clear at the next success.
        var recordToClear: Bool
    }

    private let figures: Mutex<Figures>
    /// Read on every request that changes the state; set while changes are refused.
    private let refusing = Atomic<Bool>(false)

    /// - Parameters:
    ///   - startedAt: the start, when the state in memory is the one on disk.
    ///   - report: told of each failure and recovery; runs on the writing thread.
    package init(
        folder: String,
        policy: WriteFailurePolicy,
        startedAt: Date,
        report: @escaping @Sendable (PersistenceEvent) -> Void = { _ in }
    ) {
        self.folder = folder
        self.policy = policy
        self.unwrittenFile = UnwrittenStateFile(folder: folder)
        self.previousStop = unwrittenFile.read()
        self.report = report
        self.figures = Mutex(Figures(writtenAt: startedAt, recordToClear: previousStop != nil))
    }

    /// The failure in progress, if writes fail now.
    package var failure: StateWriteFailure? { figures.withLock { $0.failure } }

    /// The final snapshot's failure, once it happened: heraldd exits non-zero.
    package var finalFailure: StateWriteFailure? { figures.withLock { $0.finalFailure } }

    /// Whether `state.unwritten` still holds the previous heraldd's record.
    package var holdsPreviousRecord: Bool { figures.withLock { $0.recordToClear } }

    /// Why a change is refused now, naming the folder and the cause; nil while changes are
    /// taken. An atomic load unless writes fail.
    package func changesRefused() -> String? {
        guard refusing.load(ordering: .relaxed), let failure else { return nil }
        return Self.refusal(failure)
    }

    /// The reason of error 1011.
    static func refusal(_ failure: StateWriteFailure) -> String {
        "Herald cannot write its state to \(failure.folder) (\(failure.cause)), so it takes no changes: "
            + "the state is not written since \(RFC3339.format(failure.writtenAt)). Reads are answered. "
            + "Changes are taken again once a snapshot succeeds: free space or make the folder writable."
    }

    /// Allocates `state.unwritten` ahead, so that a record fits on a full disk later.
    package func prepare() throws(SnapshotFileError) {
        try unwrittenFile.allocate()
    }

    /// A write of the state succeeded at `at`: the state on disk is the daemon's again.
    package func recordWritten(at: Date) {
        let (recovered, clear) = figures.withLock { figures -> (StateWriteFailure?, Bool) in
            let recovered = figures.failure
            figures.writtenAt = at
            figures.failure = nil
            refusing.store(false, ordering: .relaxed)
            defer { figures.recordToClear = false }
            return (recovered, figures.recordToClear)
        }
        if clear { try? unwrittenFile.clear() }
        if let recovered { report(.recovered(recovered)) }
    }

    /// A write of the state failed at `at` with `cause`; `unwrittenChanges` calls changed
    /// the state since it was last written.
    @discardableResult
    package func recordFailure(cause: String, at: Date, unwrittenChanges: UInt64) -> StateWriteFailure {
        let (failure, first) = note(cause: cause, at: at, unwrittenChanges: unwrittenChanges)
        report(.failed(failure, first: first, policy: policy))
        return failure
    }

    /// The final snapshot failed: records it (for the exit status) and leaves
    /// `state.unwritten` for the next start, or says why it could not.
    package func recordFinalFailure(cause: String, at: Date, unwrittenChanges: UInt64, generation: UInt64, pid: Int32) {
        let (failure, _) = note(cause: cause, at: at, unwrittenChanges: unwrittenChanges)
        figures.withLock { $0.finalFailure = failure }
        let record = UnwrittenStateRecord(
            failedAt: at, writtenAt: failure.writtenAt, generation: generation, unwrittenChanges: unwrittenChanges, pid: pid,
            cause: failure.cause)
        var recordError: String?
        do throws(SnapshotFileError) {
            try unwrittenFile.write(record)
        } catch {
            recordError = error.reason
        }
        report(.finalFailed(failure, recordError: recordError))
    }

    /// Counts a failure; whether it is the first of a run.
    private func note(cause: String, at: Date, unwrittenChanges: UInt64) -> (StateWriteFailure, first: Bool) {
        figures.withLock { figures in
            let first = figures.failure == nil
            var failure =
                figures.failure
                ?? StateWriteFailure(
                    folder: folder, writtenAt: figures.writtenAt, cause: "", failedAt: at, attempts: 0, unwrittenChanges: 0)
            // A cause is a sentence ("… (errno 28)."); the lines built on it go on after it.
            failure.cause = cause.hasSuffix(".") ? String(cause.dropLast()) : cause
            failure.failedAt = at
            failure.attempts += 1
            failure.unwrittenChanges = unwrittenChanges
            figures.failure = failure
            // Under the lock, so that the flag and the failure never disagree.
            if policy == .refuse { refusing.store(true, ordering: .relaxed) }
            return (failure, first)
        }
    }

    /// `stats.snapshot`'s members of it: `notWrittenSince`, `cause`, `refusingChanges`,
    /// and `previousStop`, the record the previous heraldd left (null for none).
    package var statsMembers: JSONObject {
        let failure = self.failure
        var members: JSONObject = [
            "notWrittenSince": failure.map { .string(RFC3339.format($0.writtenAt)) } ?? .null,
            "cause": failure.map { .string($0.cause) } ?? .null,
            "refusingChanges": .bool(failure != nil && policy == .refuse),
        ]
        members["previousStop"] =
            previousStop.map { record in
                .object([
                    "failedAt": .string(RFC3339.format(record.failedAt)),
                    "writtenAt": .string(RFC3339.format(record.writtenAt)),
                    "generation": .number(JSONNumber(Int(clamping: record.generation))),
                    "unwrittenChanges": .number(JSONNumber(Int(clamping: record.unwrittenChanges))),
                    "pid": .number(JSONNumber(Int(record.pid))),
                    "cause": .string(record.cause),
                ])
            } ?? .null
        return members
    }
}
