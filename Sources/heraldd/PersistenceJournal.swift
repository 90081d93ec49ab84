import FoundationEssentials
import HeraldCore
import HeraldProtocol
import HeraldStorage
import HeraldSystemd

/// The journal entries of the state's writes failing and recovering, each under its own
/// `MESSAGE_ID` (explained in `Units/herald.catalog`), so that an alert can match them.
enum PersistenceJournal {
    static func entry(_ event: PersistenceEvent) -> JournalEntry {
        switch event {
        case .failed(let failure, let first, let policy):
            let consequence =
                switch policy {
                case .refuse:
                    "refusing changes (error 1011) and answering reads until a snapshot succeeds; free space or make the folder writable"
                case .accept:
                    "accepting changes anyway (--on-write-failure accept): a crash or a stop before a snapshot succeeds loses the \(failure.unwrittenChanges) changes acknowledged since then and every one after"
                }
            let retry = first ? "" : " (\(failure.attempts) failed writes in a row)"
            var entry = base(
                .error, JournalMessageID.stateNotWritten, "\(failure.summary)\(retry); \(consequence)", failure)
            try? entry.append(name: "HERALD_ON_WRITE_FAILURE", value: policy.rawValue)
            try? entry.append(name: "HERALD_ATTEMPTS", value: String(failure.attempts))
            return entry
        case .recovered(let failure):
            return base(
                .notice, JournalMessageID.stateWrittenAgain,
                "state written again to \(failure.folder) after \(failure.attempts) failed writes: changes are taken again",
                failure)
        case .finalFailed(let failure, let recordError):
            let record =
                recordError.map { "and the record for the next start could not be written either (\($0))" }
                ?? "the next start reports it from \(failure.folder)/state.unwritten"
            var entry = base(
                .critical, JournalMessageID.finalSnapshotFailed,
                "final snapshot failed: \(failure.summary); the \(failure.unwrittenChanges) changes acknowledged since then are lost; exiting with status \(ExitStatus.finalSnapshotFailed); \(record)",
                failure)
            try? entry.append(name: "HERALD_RECORD", value: recordError.map { "not written: \($0)" } ?? "written")
            return entry
        }
    }

    /// At start: what the previous heraldd's `state.unwritten` says.
    static func previousStopEntry(_ record: UnwrittenStateRecord, folder: String) -> JournalEntry {
        var entry = JournalEntry()
        try? entry.append(name: "PRIORITY", value: String(JournalPriority.error.rawValue))
        try? entry.append(name: "MESSAGE", value: StartupSummary.previousStop(record))
        try? entry.append(name: "MESSAGE_ID", value: JournalMessageID.previousStopLostState)
        try? entry.append(name: "HERALD_FOLDER", value: folder)
        try? entry.append(name: "HERALD_CAUSE", value: record.cause)
        try? entry.append(name: "HERALD_FAILED_AT", value: RFC3339.format(record.failedAt))
        try? entry.append(name: "HERALD_NOT_WRITTEN_SINCE", value: RFC3339.format(record.writtenAt))
        try? entry.append(name: "HERALD_UNWRITTEN_CHANGES", value: String(record.unwrittenChanges))
        try? entry.append(name: "HERALD_GENERATION", value: String(record.generation))
        try? entry.append(name: "HERALD_PREVIOUS_PID", value: String(record.pid))
        return entry
    }

    /// At start: a snapshot renamed aside as `path` (its new name) because of `error`.
    static func setAsideEntry(_ path: String, _ error: SnapshotFileError) -> JournalEntry {
        var entry = JournalEntry()
        try? entry.append(name: "PRIORITY", value: String(JournalPriority.error.rawValue))
        try? entry.append(name: "MESSAGE", value: "snapshot set aside as \(path): \(error.reason)")
        try? entry.append(name: "MESSAGE_ID", value: JournalMessageID.snapshotSetAside)
        try? entry.append(name: "HERALD_SET_ASIDE_AS", value: path)
        try? entry.append(name: "HERALD_PROBLEM", value: error.code.description)
        try? entry.append(name: "HERALD_CAUSE", value: error.reason)
        return entry
    }

    /// At start: the change log replayed after the snapshot of `generation`.
    static func replayedEntry(_ replay: ChangeLogFolder.Replay, applied: Int, generation: UInt64, folder: String) -> JournalEntry {
        var entry = JournalEntry()
        let dropped = replay.droppedBytes > 0 || !replay.droppedSegments.isEmpty
        try? entry.append(name: "PRIORITY", value: String((dropped ? JournalPriority.warning : .notice).rawValue))
        try? entry.append(name: "MESSAGE", value: replaySummary(replay, applied: applied, generation: generation))
        try? entry.append(name: "MESSAGE_ID", value: JournalMessageID.changeLogReplayed)
        try? entry.append(name: "HERALD_FOLDER", value: folder)
        try? entry.append(name: "HERALD_GENERATION", value: String(generation))
        try? entry.append(name: "HERALD_REPLAYED", value: String(replay.recordCount))
        try? entry.append(name: "HERALD_DROPPED_BYTES", value: String(replay.droppedBytes))
        try? entry.append(name: "HERALD_DROPPED_SEGMENTS", value: String(replay.droppedSegments.filter { $0 != replay.stoppedIn?.segment }.count))
        if let problem = replay.problem { try? entry.append(name: "HERALD_PROBLEM", value: problem) }
        return entry
    }

    /// The replay in words, for the journal and the start-up line.
    static func replaySummary(_ replay: ChangeLogFolder.Replay, applied: Int, generation: UInt64) -> String {
        var line = "replayed \(replay.recordCount) change\(replay.recordCount == 1 ? "" : "s") from the change log after generation \(generation)"
        if applied != replay.recordCount { line += " (\(replay.recordCount - applied) not applicable)" }
        if let problem = replay.problem {
            line += "; dropped \(replay.droppedBytes) bytes from \(problem), never applied"
            let later = replay.droppedSegments.filter { $0 != replay.stoppedIn?.segment }.count
            if later > 0 { line += ", and \(later) segment\(later == 1 ? "" : "s") after it" }
        }
        return line
    }

    /// At start: no snapshot was left to load, and `--discard-damaged-state` starts empty.
    static func startingEmptyEntry(folder: String) -> JournalEntry {
        var entry = JournalEntry()
        try? entry.append(name: "PRIORITY", value: String(JournalPriority.error.rawValue))
        try? entry.append(
            name: "MESSAGE", value: "no good snapshot is left in \(folder): starting empty, as --discard-damaged-state asks")
        try? entry.append(name: "MESSAGE_ID", value: JournalMessageID.snapshotSetAside)
        try? entry.append(name: "HERALD_FOLDER", value: folder)
        return entry
    }

    private static func base(_ priority: JournalPriority, _ id: String, _ message: String, _ failure: StateWriteFailure) -> JournalEntry {
        var entry = JournalEntry()
        try? entry.append(name: "PRIORITY", value: String(priority.rawValue))
        try? entry.append(name: "MESSAGE", value: message)
        try? entry.append(name: "MESSAGE_ID", value: id)
        try? entry.append(name: "HERALD_FOLDER", value: failure.folder)
        try? entry.append(name: "HERALD_CAUSE", value: failure.cause)
        try? entry.append(name: "HERALD_NOT_WRITTEN_SINCE", value: RFC3339.format(failure.writtenAt))
        try? entry.append(name: "HERALD_UNWRITTEN_CHANGES", value: String(failure.unwrittenChanges))
        return entry
    }
}

/// heraldd's exit statuses besides 0 (stopped, its final snapshot written), as heraldd(8)
/// lists them.
enum ExitStatus {
    /// Refused to start (another heraldd holds the folder, snapshots it cannot load), or
    /// stopping took past its bound.
    static let failure: Int32 = 1
    /// Arguments that do not parse or validate (ArgumentParser's EX_USAGE).
    static let usage: Int32 = 64
    /// The final snapshot failed: what was acknowledged after the last snapshot is lost
    /// (EX_IOERR).
    static let finalSnapshotFailed: Int32 = 74
}
