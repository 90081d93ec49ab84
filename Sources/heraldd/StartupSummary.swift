import FoundationEssentials
import HeraldProtocol
import HeraldStorage

/// What the start-up line tells an operator about the state: where it lives, which
/// generation was restored and how old it is, and whether the daemon before this one
/// stopped without its final snapshot (then what it acknowledged after that generation,
/// within the crash window, is lost).
struct StartupSummary: CustomStringConvertible {
    var folder: String
    var restored: SnapshotHeader?
    var uncleanPredecessor: Int32?
    /// What the previous heraldd left in `state.unwritten`: its final snapshot failed.
    var previousStop: UnwrittenStateRecord?
    /// Why the state cannot be written now, found at start (the pid not recorded, a write failed).
    var writeFailure: StateWriteFailure?
    var policy: WriteFailurePolicy = .refuse
    var now: Date
    /// What the change log's replay did ("replayed 12 changes from the change log"); nil
    /// when nothing was there to replay, or under `--durability snapshot` with no log left.
    var replay: String?
    /// Whether the snapshot's interactions and notifications restore after serving begins.
    var storeRestoresApart = false

    var description: String {
        var parts = ["state in \(folder)"]
        if let restored {
            parts.append(
                "generation \(restored.generation) restored (\(restored.interactions) interaction\(restored.interactions == 1 ? "" : "s"), written \(Self.age(now.timeIntervalSince(restored.createdAt))) ago)"
            )
        } else {
            parts.append("no snapshot yet: starting empty")
        }
        if storeRestoresApart {
            parts.append("its interactions and notifications restoring while serving what needs neither")
        }
        if let previousStop, let replay {
            parts.append(Self.previousStop(previousStop, replayed: replay))
        } else if let previousStop {
            // Says more than the pid left in the lock would: when, why, and what.
            parts.append(Self.previousStop(previousStop))
        } else if let pid = uncleanPredecessor, let replay {
            parts.append("the previous heraldd (pid \(pid)) did not stop cleanly: \(replay)")
        } else if let pid = uncleanPredecessor {
            parts.append(
                "the previous heraldd (pid \(pid)) did not stop cleanly: what it acknowledged after its last snapshot is lost"
            )
        }
        if let replay, uncleanPredecessor == nil, previousStop == nil {
            parts.append(replay)
        }
        if let writeFailure {
            parts.append(
                "\(writeFailure.summary): "
                    + (policy == .refuse ? "refusing changes until a snapshot succeeds" : "accepting changes that a stop would lose"))
        }
        return parts.joined(separator: "; ")
    }

    /// The previous heraldd's failed final snapshot, in words: when, why, and what is lost.
    static func previousStop(_ record: UnwrittenStateRecord) -> String {
        "the previous heraldd (pid \(record.pid)) stopped at \(RFC3339.format(record.failedAt)) without its final snapshot "
            + "(\(record.cause)): the \(record.unwrittenChanges) changes it acknowledged after \(RFC3339.format(record.writtenAt)) "
            + "are lost; generation \(record.generation) is what it left"
    }

    /// The same when the change log held what the snapshot missed.
    static func previousStop(_ record: UnwrittenStateRecord, replayed: String) -> String {
        "the previous heraldd (pid \(record.pid)) stopped at \(RFC3339.format(record.failedAt)) without its final snapshot "
            + "(\(record.cause)); its change log held what it acknowledged after \(RFC3339.format(record.writtenAt)): \(replayed)"
    }

    /// `42 s`, `7 min`, `3 h 5 min`, `2 d 4 h`: an age a person reads at a glance.
    static func age(_ seconds: TimeInterval) -> String {
        let whole = max(0, Int(seconds.rounded()))
        switch whole {
        case ..<120: return "\(whole) s"
        case ..<7200: return "\(whole / 60) min"
        case ..<172_800: return "\(whole / 3600) h \(whole % 3600 / 60) min"
        default: return "\(whole / 86400) d \(whole % 86400 / 3600) h"
        }
    }
}
